"""Hatairo view -> tensor. Flags are one-hot (or many-hot) over the 208 cards, so a tensor tells
exactly which cards are where; motifs over their designs. Boards are listed from the observing seat
round the table and padded to four, each with its gallery, motif and topography spaces, palette,
atelier and (during set-up, for the seat itself) the dealt hand; hidden boards stay zero."""

from __future__ import annotations

from collections.abc import Mapping, MutableSequence
from typing import TYPE_CHECKING, Any

from parlour.engine.game import Game
from parlour.engine.tensor import Features, Vocabulary
from parlour.games.hatairo.components import COLOURS, FLAGS, MOTIFS, TILES, TOPOGRAPHIES
from parlour.games.hatairo.constants import DISCARDING, PHASE_NAMES
from parlour.games.hatairo.view import sees_board

if TYPE_CHECKING:
    from parlour.games.hatairo.state import HatairoState

FLAG_NAMES = Vocabulary(flag.name for flag in FLAGS)
MOTIF_DESIGNS = Vocabulary(sorted({motif.design for motif in MOTIFS}))
MAX_PLAYERS = 4
ROWS, COLUMNS, MARKET_ROWS = 3, 4, 4
MOTIF_SPACES = COLUMNS + ROWS
VARIANTS = ["standard", "motif", "drafting", "motif+drafting"]


def _board(features: Features, board: Mapping[str, Any] | None) -> None:
    board = board or {}
    features.flag(bool(board))
    features.flag(board.get("setup") is not None)
    features.number(board.get("turns"), 20)
    features.number(board.get("flags_completed"), ROWS * COLUMNS)
    gallery = board.get("gallery") or []
    for row in range(ROWS):
        cells = gallery[row] if row < len(gallery) else []
        for column in range(COLUMNS):
            features.one_hot(cells[column] if column < len(cells) else None, FLAG_NAMES)
    spaces = list((board.get("motifs") or {}).values())
    for space in range(MOTIF_SPACES):
        features.one_hot(spaces[space] if space < len(spaces) else None, MOTIF_DESIGNS)
    tiles = board.get("topography") or []
    for column in range(COLUMNS):
        features.one_hot(tiles[column] if column < len(tiles) else None, TOPOGRAPHIES)
    features.counts(board.get("palette") or {}, COLOURS, 5)
    features.counts(board.get("palette_flags") or [], FLAG_NAMES)
    features.counts(board.get("atelier") or [], FLAG_NAMES)
    features.counts(board.get("hand") or [], FLAG_NAMES)
    features.counts(board.get("drafted") or [], FLAG_NAMES)


def encode(view: Mapping[str, Any], seat: int | None, game: Game) -> Features:
    me = 0 if seat is None else seat
    players = view["players"]
    count = len(players)
    features = Features()
    features.section("phase, turn, end trigger, beginner, variant")
    features.one_hot(view["phase"], PHASE_NAMES)
    features.flag(view["to_move"] == me)
    features.number((view["active"] - me) % count, MAX_PLAYERS)
    features.flag(view["end_triggered_by"] >= 0)
    features.flag(view["beginner"])
    features.one_hot(view["variant"], VARIANTS)
    features.section("market rows, flag supply, motif piles and supply, pigments, the box")
    for row in range(MARKET_ROWS):
        market = view["market"]
        features.counts(market[row] if row < len(market) else [], FLAG_NAMES)
    features.number(view["flag_supply"], len(FLAGS))
    for pile in range(2):
        piles = view["motif_piles"]
        features.number(piles[pile] if pile < len(piles) else 0, len(MOTIFS))
    features.counts(view["motif_supply"], MOTIF_DESIGNS)
    features.number(view["pigment_supply"], 40)
    features.counts(view["box"]["flags"], FLAG_NAMES)
    features.counts(view["box"]["motifs"], MOTIF_DESIGNS)
    features.section(
        f"boards, me first, padded to {MAX_PLAYERS}: gallery, motifs, topography, palette, atelier, hand, drafted"
    )
    for offset in range(MAX_PLAYERS):
        _board(features, players[(me + offset) % count] if offset < count else None)
    features.section("flag being completed, pigment being spent, bonus choice")
    completing = view.get("completing") or {}
    features.one_hot(completing.get("flag"), FLAG_NAMES)
    features.counts(completing.get("unpaid") or {}, COLOURS, 5)
    spending = view.get("spending") or {}
    features.one_hot(spending.get("pigment"), COLOURS)
    features.number(spending.get("n"), 3)
    bonus = view.get("bonus_choice") or {}
    features.counts(bonus.get("bonuses") or [], COLOURS)
    features.number(bonus.get("can_take"), 4)
    return features


# --- the same tensor read from the position itself ------------------------------------------------
# `encode` above is the reference: it reads the view, so it shows exactly what the view shows
# (boards hidden during the set-up stay hidden: only their turns, gallery and motifs are public).
# `write` gives the same values without building the view (tests/interop/test_fast_encoders.py
# compares the two over many random positions), for adapters that want a tensor at every step.

FLAG_SLOT = tuple(FLAG_NAMES.slots[flag.name] for flag in FLAGS)
MOTIF_SLOT = tuple(MOTIF_DESIGNS.slots[motif.design] for motif in MOTIFS)
TOPOGRAPHY_SLOT = tuple(TOPOGRAPHIES.index(tile.topography) for tile in TILES)
HEAD_SIZE = len(PHASE_NAMES) + 3 + 1 + len(VARIANTS)
SUPPLY_AT = HEAD_SIZE + MARKET_ROWS * len(FLAG_NAMES)
BOARDS_AT = SUPPLY_AT + 4 + len(MOTIF_DESIGNS) + len(FLAG_NAMES) + len(MOTIF_DESIGNS)
GALLERY_AT = 4
MOTIFS_AT = GALLERY_AT + ROWS * COLUMNS * len(FLAG_NAMES)
TILES_AT = MOTIFS_AT + MOTIF_SPACES * len(MOTIF_DESIGNS)
PALETTE_AT = TILES_AT + COLUMNS * len(TOPOGRAPHIES)
CARDS_AT = PALETTE_AT + len(COLOURS)  # palette flags, atelier, hand, drafted: one flag block each
BOARD_SIZE = CARDS_AT + 4 * len(FLAG_NAMES)
TAIL_AT = BOARDS_AT + MAX_PLAYERS * BOARD_SIZE


def _cards(cards: list[int], at: int, out: MutableSequence[float]) -> None:
    for card in cards:
        out[at + FLAG_SLOT[card]] += 1.0


def _write_board(state: HatairoState, owner: int, seat: int | None, at: int, out: MutableSequence[float]) -> None:
    """`_board`'s block for the owner's board as `seat` sees it."""
    board = state.boards[owner]
    columns = state.game.columns
    out[at] = 1.0
    shown = sees_board(state, owner, seat)
    if not shown:
        out[at + 1] = 1.0
    if state.turns[owner]:
        out[at + 2] = state.turns[owner] / 20
    if board.placed:
        out[at + 3] = board.placed / (ROWS * COLUMNS)
    width = min(columns, COLUMNS)
    for row in range(ROWS):
        for column in range(width):
            flag = board.gallery[row * columns + column]
            if flag >= 0:
                out[at + GALLERY_AT + (row * COLUMNS + column) * len(FLAG_NAMES) + FLAG_SLOT[flag]] = 1.0
    for space, motif in enumerate(board.motifs[:MOTIF_SPACES]):
        if motif >= 0:
            out[at + MOTIFS_AT + space * len(MOTIF_DESIGNS) + MOTIF_SLOT[motif]] = 1.0
    if not shown:
        return
    for column, tile in enumerate(board.tiles[:COLUMNS]):
        if tile >= 0:
            out[at + TILES_AT + column * len(TOPOGRAPHIES) + TOPOGRAPHY_SLOT[tile]] = 1.0
    for colour, pigments in enumerate(board.palette):
        if pigments:
            out[at + PALETTE_AT + colour] = pigments / 5
    flags = len(FLAG_NAMES)
    _cards(board.palette_flags, at + CARDS_AT, out)
    _cards(board.atelier, at + CARDS_AT + flags, out)
    if owner == seat and not state.revealed:
        _cards(board.hand, at + CARDS_AT + 2 * flags, out)
        if state.game.drafting:
            _cards(board.picks, at + CARDS_AT + 3 * flags, out)


def write(state: HatairoState, seat: int | None, out: MutableSequence[float]) -> None:
    """`encode(state.view(seat), seat, game)` written into `out` (all zeros, of the tensor's
    length), read from the position directly."""
    game = state.game
    me = 0 if seat is None else seat
    count = game.num_players
    out[state.phase] = 1.0
    at = len(PHASE_NAMES)
    if state.current_player() == me:
        out[at] = 1.0
    if (state.active - me) % count:
        out[at + 1] = (state.active - me) % count / MAX_PLAYERS
    if state.trigger >= 0:
        out[at + 2] = 1.0
    if game.options["beginner"]:
        out[at + 3] = 1.0
    if game.options["variant"] in VARIANTS:
        out[at + 4 + VARIANTS.index(game.options["variant"])] = 1.0
    for row, cards in enumerate(state.market[:MARKET_ROWS]):
        _cards(cards, HEAD_SIZE + row * len(FLAG_NAMES), out)
    at = SUPPLY_AT
    if state.flag_supply:
        out[at] = len(state.flag_supply) / len(FLAGS)
    for index, pile in enumerate(state.piles[:2]):
        if pile:
            out[at + 1 + index] = len(pile) / len(MOTIFS)
    at += 3
    for motif in state.motif_supply:
        out[at + MOTIF_SLOT[motif]] += 1.0
    at += len(MOTIF_DESIGNS)
    if state.pigment_supply:
        out[at] = state.pigment_supply / 40
    _cards(state.box_flags, at + 1, out)
    at += 1 + len(FLAG_NAMES)
    for motif in state.box_motifs:
        out[at + MOTIF_SLOT[motif]] += 1.0
    for offset in range(min(count, MAX_PLAYERS)):
        _write_board(state, (me + offset) % count, seat, BOARDS_AT + offset * BOARD_SIZE, out)
    at = TAIL_AT
    if state.sketch >= 0:
        out[at + FLAG_SLOT[state.sketch]] = 1.0
        for colour, unpaid in enumerate(state.remaining):
            if unpaid:
                out[at + len(FLAG_NAMES) + colour] = unpaid / 5
    at += len(FLAG_NAMES) + len(COLOURS)
    if state.spending:
        unit, _, colour = state.spending
        out[at + colour] = 1.0
        out[at + len(COLOURS)] = (1 if unit == DISCARDING else unit + 1) / 3
    at += len(COLOURS) + 1
    if state.bonuses:
        for colour in state.bonuses:
            out[at + colour] += 1.0
        if state.bonus_count:
            out[at + len(COLOURS)] = state.bonus_count / 4
