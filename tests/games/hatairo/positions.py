"""Building Hatairo positions directly for rules tests: boards, palettes, Market and motifs are set
by hand rather than hoped for from random play."""

from __future__ import annotations

from typing import Any

from parlour.engine import load_game
from parlour.games.hatairo.board import Board
from parlour.games.hatairo.components import COLOURS, FLAG_BY_NAME, MOTIFS
from parlour.games.hatairo.constants import ACTION, TURN_START
from parlour.games.hatairo.state import HatairoState


def flag(name: str) -> int:
    return FLAG_BY_NAME[name.lower()].id


def motif(design: str, skip: int = 0) -> int:
    """The id of a motif card of this design (the `skip`-th copy)."""
    return [m.id for m in MOTIFS if m.design == design][skip]


def new(players: int = 2, seed: int = 0, **options: Any) -> HatairoState:
    state = load_game("hatairo", players=players, **options).new_state(seed=seed)
    assert isinstance(state, HatairoState)
    return state


def finish_setup(state: HatairoState) -> HatairoState:
    """Make every set-up choice with the first legal action (keeps go to the palette)."""
    while state.revealed is False:
        state.apply(state.legal_actions()[0])
    return state


def started(players: int = 2, seed: int = 0, **options: Any) -> HatairoState:
    return finish_setup(new(players, seed, **options))


def labels(state: HatairoState) -> list[str]:
    return [action.label for action in state.legal_actions()]


def refresh(state: HatairoState) -> HatairoState:
    """Forget cached legal actions and heuristic values after editing a position by hand."""
    state._legal = None
    state._values = None
    return state


def clear_board(board: Board) -> None:
    board.gallery = [-1] * len(board.gallery)
    board.motifs = [-1] * len(board.motifs)
    board.tiles = [-1] * len(board.tiles)
    board.palette = [0] * len(COLOURS)
    board.pigment_cards = [0] * len(COLOURS)
    board.palette_flags = []
    board.atelier = []
    board.placed = 0
    board.as_any = board.any_as = 0
    board.three = False


def set_palette(state: HatairoState, seat: int, **pigments: int) -> None:
    """Give a seat pigment cards, e.g. set_palette(s, 0, Red=2, Blue=1); the rest of her palette is emptied."""
    board = state.boards[seat]
    for flag_id in board.palette_flags:
        state.box_flags.append(flag_id)
    state.pigment_supply += sum(board.pigment_cards)
    board.palette = [0] * len(COLOURS)
    board.pigment_cards = [0] * len(COLOURS)
    board.palette_flags = []
    for colour, count in pigments.items():
        for _ in range(count):
            board.take_pigment_card(COLOURS.index(colour))
            state.pigment_supply -= 1
    refresh(state)


def put_flags(state: HatairoState, seat: int, cells: dict[int, str]) -> None:
    """Place completed flags in a seat's gallery by cell index."""
    board = state.boards[seat]
    for cell, name in cells.items():
        board.gallery[cell] = flag(name)
    board.placed = sum(1 for f in board.gallery if f >= 0)
    refresh(state)


def give_motif(state: HatairoState, seat: int, design: str, space: int, skip: int = 0) -> None:
    state.boards[seat].place_motif(motif(design, skip), space)
    refresh(state)


def set_market(state: HatairoState, rows: list[list[str]]) -> None:
    """Replace the Market (cards taken out of the Flag Supply wherever they were)."""
    wanted = [[flag(name) for name in row] for row in rows]
    taken = {f for row in wanted for f in row}
    state.flag_supply = [f for f in state.flag_supply if f not in taken]
    state.market = wanted
    refresh(state)


def turn_of(state: HatairoState, seat: int, phase: int = TURN_START) -> HatairoState:
    state.active = state.to_move = seat
    state.phase = phase
    return refresh(state)


def action_phase(state: HatairoState, seat: int = 0) -> HatairoState:
    return turn_of(state, seat, ACTION)


def palette_of(state: HatairoState, seat: int) -> dict[str, int]:
    board = state.boards[seat]
    return {COLOURS[c]: n for c, n in enumerate(board.palette) if n}
