"""Hatairo's own evaluator for search bots: victory points so far plus the value of the palette.

value(seat) =
  the score she would have if the game ended now (flags, motifs, topography, 1 VP per pigment)
  + 0.5 VP per pigment in her Palette: a pigment is also part of the price of a future flag, and a
    flag of n pigments is worth about n(n+1)/2 VP, i.e. well over 1 VP per pigment spent;
  + for a flag she is paying for right now: its VP less 1.5 for each requirement still unpaid (those
    pigments are about to leave the palette), so that one-ply search sees a completion as the trade
    it is, sub-decision by sub-decision;
  + half the surplus of each Atelier sketch, max(0, VP - 1.5 n) / 2: a reserved big flag is a
    promise of points.

With opponents the heuristic is tanh((value - best other value) / 25): a 25 VP lead reads as 0.76.
Solo, it is tanh((value - 90) / 40), centred between the Fellow and Master ranks.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from parlour.games.hatairo.components import FLAGS

if TYPE_CHECKING:
    from parlour.games.hatairo.rules import HatairoState

PIGMENT_POTENTIAL = 0.5
PIGMENT_PRICE = 1.5
ATELIER_SHARE = 0.5
LEAD_SCALE = 25.0
SOLO_CENTRE = 90.0
SOLO_SCALE = 40.0


def sketch_surplus(flag_id: int) -> float:
    flag = FLAGS[flag_id]
    return flag.vp - PIGMENT_PRICE * len(flag.required)


def values(state: HatairoState) -> list[float]:
    result = []
    for seat, (score, board) in enumerate(zip(state.scores(), state.boards, strict=True)):
        value = score.total + PIGMENT_POTENTIAL * board.pigments()
        value += ATELIER_SHARE * sum(max(0.0, sketch_surplus(f)) for f in board.atelier)
        if state.sketch >= 0 and seat == state.to_move:
            value += FLAGS[state.sketch].vp - PIGMENT_PRICE * sum(state.remaining)
        result.append(value)
    return result


def evaluate(state: HatairoState, seat: int) -> float:
    if state.is_terminal():
        return state.returns()[seat]
    value = values(state)
    if len(value) == 1:
        return math.tanh((value[0] - SOLO_CENTRE) / SOLO_SCALE)
    best_other = max(v for other, v in enumerate(value) if other != seat)
    return math.tanh((value[seat] - best_other) / LEAD_SCALE)
