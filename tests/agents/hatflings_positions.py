"""Exact values of Hatflings! endgames, for the search tests.

The positions come from the game's one position builder, `tests.games.hatflings.positions`:
`endgame` is a dance position with no specials left in either pool.
"""

from __future__ import annotations

from parlour.engine import State
from parlour.games.hatflings.state import HatflingsState

from ..games.hatflings.positions import position


def endgame(layout: dict[str, str], *, pool: int, pig: str, to_move: int = 0) -> HatflingsState:
    """A dance position with `pool` normal halflings left and no specials in either pool."""
    return position(layout, pool=pool, pig=pig, to_move=to_move, special_pools=(0, 0))


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
