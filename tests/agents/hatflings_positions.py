"""Hatflings! endgames built directly through its State, for the search tests.

`endgame({"a1": "Y", "b2": "P"}, pool=1)` is a dance position with yellow (seat 0) to move, no
specials left in either pool, no scenery unless given ("c4": "tree"), and the pig on its square.
"""

from __future__ import annotations

import parlour
from parlour.engine import State
from parlour.games.hatflings.board import parse_square
from parlour.games.hatflings.pieces import DANCE, EMPTY, NORMAL, OBJECT_CODES, halfling
from parlour.games.hatflings.state import HatflingsState


def endgame(layout: dict[str, str], *, pool: int, pig: str, to_move: int = 0, seed: int = 0) -> HatflingsState:
    state = parlour.load_game("hatflings").new_state(seed=seed)
    assert isinstance(state, HatflingsState)
    state.hat = [0] * 36
    state.scenery = [EMPTY] * 36
    for name, content in layout.items():
        square = parse_square(name)
        assert square is not None, name
        if content in ("Y", "P"):
            state.hat[square] = halfling(NORMAL, 0 if content == "Y" else 1)
        else:
            state.scenery[square] = OBJECT_CODES[content]
    pig_square = parse_square(pig)
    assert pig_square is not None, pig
    state.pig = pig_square
    state.pool = pool
    state.specials = [0, 0]
    state.started = 3
    state.captain = state.mover = to_move
    state.phase = DANCE
    state.turns = 10
    state.lander = -1
    state.seen = {}
    state.end_reason = ""
    state._legal = None
    state.rebuild_masks()  # hat and scenery were written by hand
    state._start_turn([])  # a position is taken at the start of a turn (R22, R25)
    return state


def solve(state: State, depth: int) -> list[float] | None:
    """Exact returns under best play by both seats, or None if the game may last beyond `depth`."""
    if state.is_terminal():
        return state.returns()
    if depth == 0:
        return None
    seat = state.current_player()
    best: list[float] | None = None
    unknown = False
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        values = solve(after, depth - 1)
        if values is None:
            unknown = True
        elif best is None or values[seat] > best[seat]:
            best = values
    if best is not None and (best[seat] == 1.0 or not unknown):
        return best
    return None


def move_values(state: State, depth: int) -> dict[str, float | None]:
    """Each legal move's exact value for the mover (None where the search cannot decide it)."""
    seat = state.current_player()
    values = {}
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        solved = solve(after, depth - 1)
        values[action.label] = None if solved is None else solved[seat]
    return values
