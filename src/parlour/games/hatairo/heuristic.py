"""Hatairo's own evaluator for search bots: victory points so far plus what the board promises,
the promises weighed by how much of the game is left.

value(seat) = score + h * promise (+ the flag being paid for, below), where
  score is what she would have if the game ended now (flags, motifs, topography, 1 VP per pigment);
  h is the share of the fullest gallery still empty (0 once the end is triggered): the game lasts
    until one painter fills her gallery, so a rival who completes small flags turn after turn cuts
    short every plan that needs time;
  promise =
    0.5 VP per pigment in her Palette: a pigment is also part of the price of a future flag, and a
      flag of n pigments is worth about n(n+1)/2 VP, i.e. well over 1 VP per pigment spent;
    + for each Atelier sketch, its surplus max(0, VP - 1.5 n) times half the share of its n
      requirements her palette already holds in the right colours: a reserved big flag is worth
      something only as far as she can pay for it, and a pigment it needs beats one it does not;
    + for each empty gallery space, half of what it may still earn: for every feature or continent
      motif of its row and column, the motif's VP times the share of all flags that match it, and for
      its column's topography tile, the VP of one more matching flag times the share of flags of that
      topography. So a motif goes where it has room to score, and a flag that matches nothing is not
      put where a motif waits for a match;
    + 1.5 VP per conversion motif (type II): it makes later payments cheaper.
  For a flag she is paying for right now: its VP less the value of each requirement still unpaid
  (1 + 0.5 h: those pigments are about to leave the palette), so that one-ply search sees a
  completion as the trade it is, sub-decision by sub-decision.

With opponents the heuristic is tanh((value - best other value) / 25): a 25 VP lead reads as 0.76.
Solo, it is tanh((value - 90) / 40), centred between the Fellow and Master ranks.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

from parlour.engine.data import PARSED_LIMIT
from parlour.games.hatairo.components import FLAGS, MOTIFS, POINTS, TILES, TOPOGRAPHIES, Points
from parlour.games.hatairo.scoring import ROWS, flag_points, line_cells, motif_matches, motif_points, topography_points

if TYPE_CHECKING:
    from collections.abc import Sequence

    from parlour.games.hatairo.state import HatairoState

Layout = tuple[int, int, float, int]

PIGMENT_POTENTIAL = 0.5
PIGMENT_PRICE = 1.5
SKETCH_FIT = 0.5
SPACE_SHARE = 0.5
CONVERSION_VALUE = 1.5
LEAD_SCALE = 25.0
SOLO_CENTRE = 90.0
SOLO_SCALE = 40.0


def _needs(flag_id: int) -> tuple[tuple[int, int], ...]:
    required = FLAGS[flag_id].required
    return tuple((colour, required.count(colour)) for colour in sorted(set(required)))


NEEDS = tuple(_needs(flag.id) for flag in FLAGS)
SIZE = tuple(len(flag.required) for flag in FLAGS)
TOPOGRAPHY_SHARE = {name: sum(flag.topography == name for flag in FLAGS) / len(FLAGS) for name in TOPOGRAPHIES}
# How often each type-I motif matches a flag: the share of flags it rewards.
MOTIF_SHARE = tuple(
    sum(motif_matches(motif.id, flag.id) for flag in FLAGS) / len(FLAGS) if motif.type == "I" else 0.0
    for motif in MOTIFS
)


@functools.lru_cache(maxsize=PARSED_LIMIT)
def surplus_of(points: Points) -> tuple[float, ...]:
    """What each flag scores beyond the pigments it costs, by the game's data's values."""
    return tuple(max(0.0, vp - PIGMENT_PRICE * SIZE[flag]) for flag, vp in enumerate(points.flag_vp))


@functools.lru_cache(maxsize=PARSED_LIMIT)
def motif_promise(points: Points) -> tuple[float, ...]:
    """What one empty space of a motif's line may still earn from it: its VP times the share of matching flags."""
    return tuple(vp * share for vp, share in zip(points.motif_vp, MOTIF_SHARE, strict=True))


def sketch_value(flag_id: int, palette: list[int], points: Points = POINTS) -> float:
    """The surplus of a sketch, weighted by how much of its price the palette holds in kind."""
    surplus = surplus_of(points)[flag_id]
    if not surplus:
        return 0.0
    held = 0
    for colour, need in NEEDS[flag_id]:
        have = palette[colour]
        held += need if have >= need else have
    return surplus * SKETCH_FIT * held / SIZE[flag_id]


def space_promise(
    gallery: Sequence[int], motifs: Sequence[int], tiles: Sequence[int], columns: int, points: Points = POINTS
) -> float:
    """Half of what the empty gallery spaces may still earn from the motifs and tiles already laid."""
    total = 0.0
    promise = motif_promise(points)
    for space, motif_id in enumerate(motifs):
        if motif_id >= 0 and promise[motif_id]:
            empty = sum(1 for cell in line_cells(space, columns) if gallery[cell] < 0)
            total += promise[motif_id] * empty
    for column, tile_id in enumerate(tiles):
        if tile_id < 0:
            continue
        tile = TILES[tile_id]
        matching = empty = 0
        for cell in range(column, ROWS * columns, columns):
            flag_id = gallery[cell]
            if flag_id < 0:
                empty += 1
            elif FLAGS[flag_id].topography == tile.topography:
                matching += 1
        if empty:
            vp = points.tile_vp[tile_id]
            total += empty * TOPOGRAPHY_SHARE[tile.topography] * (vp[matching + 1] - vp[matching])
    return SPACE_SHARE * total


@functools.lru_cache(maxsize=1 << 14)
def layout(
    gallery: tuple[int, ...], motifs: tuple[int, ...], tiles: tuple[int, ...], columns: int, points: Points = POINTS
) -> Layout:
    """What a board's laid cards are worth, cached: flags and motifs are laid only now and then, while
    a search judges thousands of positions that differ only in the pigments.

    Returns (points of flags, type-I motifs and tiles; VP per pigment from pigment motifs; the empty
    spaces' promise; conversion motifs owned).
    """
    fixed = (
        flag_points(gallery, points)
        + motif_points(gallery, motifs, columns, 0, points)
        + topography_points(gallery, tiles, columns, points)
    )
    per_pigment = sum(points.motif_vp[m] for m in motifs if m >= 0 and MOTIFS[m].kind == "pigment")
    conversions = sum(1 for m in motifs if m >= 0 and MOTIFS[m].type == "II")
    return fixed, per_pigment, space_promise(gallery, motifs, tiles, columns, points), conversions


def horizon(state: HatairoState) -> float:
    """How much of the game is left: the share of the fullest gallery still empty, 0 once the end is
    triggered. The promises are only worth the time that remains to keep them: a rival who fills her
    gallery fast makes hoarding pigments and big sketches a losing plan."""
    if state.trigger >= 0:
        return 0.0
    return min((len(board.gallery) - board.placed) / len(board.gallery) for board in state.boards)


def values(state: HatairoState) -> list[float]:
    result = []
    columns = state.game.columns
    points = state.game.components
    future = horizon(state)
    for seat, board in enumerate(state.boards):
        palette = board.palette
        pigments = sum(palette)
        fixed, per_pigment, spaces, conversions = layout(
            tuple(board.gallery), tuple(board.motifs), tuple(board.tiles), columns, points
        )
        score = fixed + per_pigment * pigments + pigments  # the final score if the game ended now
        promise = PIGMENT_POTENTIAL * pigments + spaces
        for flag_id in board.atelier:
            promise += sketch_value(flag_id, palette, points)
        promise += CONVERSION_VALUE * conversions
        value = score + future * promise
        if state.sketch >= 0 and seat == state.to_move:
            # The unpaid requirements are pigments about to leave: 1 VP each plus their share of the promise.
            price = 1.0 + future * PIGMENT_POTENTIAL
            value += points.flag_vp[state.sketch] - price * sum(state.remaining)
        result.append(value)
    return result


def evaluate(state: HatairoState, seat: int) -> float:
    if state.is_terminal():
        return state.returns()[seat]
    # A search judges a leaf for every seat in turn: work the values out once per position.
    value = state._values
    if value is None:
        value = state._values = values(state)
    if len(value) == 1:
        return math.tanh((value[0] - SOLO_CENTRE) / SOLO_SCALE)
    best_other = max(v for other, v in enumerate(value) if other != seat)
    return math.tanh((value[seat] - best_other) / LEAD_SCALE)
