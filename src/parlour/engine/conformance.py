"""Protocol conformance checks that every game must pass.

Used by each game's test suite (with random games from hypothesis-chosen seeds) and useful to
anyone adding a game: a game that passes these keeps the promises of the engine protocol.
"""

from __future__ import annotations

import json
import pickle
from typing import Any

from parlour.engine.errors import IllegalAction
from parlour.engine.game import TERMINAL, Game, State
from parlour.engine.records import replay
from parlour.engine.rng import Rng


class ConformanceError(AssertionError):
    pass


def _all_views(state: State) -> str:
    seats: list[int | None] = [None, *range(state.game.num_players)]
    return json.dumps([state.view(seat) for seat in seats], sort_keys=True)


def play_random_game(game: Game, seed: int, max_steps: int = 100_000) -> tuple[State, list[str]]:
    """Play one game with random moves, checking the step invariants; returns it and its views."""
    state = game.new_state(seed=seed)
    rng = Rng(seed ^ 0x5EED)
    views = [_all_views(state)]
    for _ in range(max_steps):
        if state.is_terminal():
            if state.current_player() != TERMINAL:
                raise ConformanceError("a terminal state must report current_player() == TERMINAL")
            return state, views
        legal = state.legal_actions()
        if not legal:
            raise ConformanceError(f"non-terminal state with no legal action after {state.history}")
        if len(set(a.id for a in legal)) != len(legal):
            raise ConformanceError("legal_actions() lists an action twice")
        if not 0 <= state.current_player() < game.num_players:
            raise ConformanceError(f"current_player() {state.current_player()} is not a seat")
        state.apply(rng.choice(legal))
        views.append(_all_views(state))
    raise ConformanceError(f"game did not end within {max_steps} steps")


def check_illegal_changes_nothing(state: State, rng: Rng) -> None:
    """Every action outside the legal list raises IllegalAction and leaves the state untouched."""
    legal_ids = {action.id for action in state.legal_actions()}
    illegal = [a for a in state.game.actions if a.id not in legal_ids]
    if not illegal:
        return
    before = pickle.dumps(state)
    for action in [rng.choice(illegal) for _ in range(3)]:
        try:
            state.apply(action)
        except IllegalAction as error:
            if not str(error):
                raise ConformanceError(f"IllegalAction for {action.label!r} gives no reason") from None
        else:
            raise ConformanceError(f"{action.label!r} was accepted though it is not in legal_actions()")
        if pickle.dumps(state) != before:
            raise ConformanceError(f"refusing {action.label!r} changed the state")


def check_game(game: Game, seed: int) -> State:
    """One random game checked against every protocol invariant. Returns the finished state."""
    final, views = play_random_game(game, seed)
    json.dumps([final.scores()[seat].to_json() for seat in range(game.num_players)])
    returns = final.returns()
    if len(returns) != game.num_players or not final.winners():
        raise ConformanceError("a finished game must name its winners and give one return per seat")

    rebuilt = replay(json.loads(json.dumps(final.record())))
    if _all_views(rebuilt) != views[-1] or rebuilt.history != final.history:
        raise ConformanceError("replaying the record does not reproduce the game")

    # Walk the game again, checking the per-state invariants at every step.
    rng = Rng(seed)
    state = game.new_state(seed=seed)
    for step, action_id in enumerate(final.history):
        if _all_views(state) != views[step]:
            raise ConformanceError(f"step {step}: the same seed and actions gave a different view")
        check_illegal_changes_nothing(state, rng)
        twin = state.clone()
        twin_before = _all_views(twin)
        copy_step = state.clone()
        copy_step.apply(rng.choice(copy_step.legal_actions()))
        if _all_views(state) != views[step] or _all_views(twin) != twin_before:
            raise ConformanceError(f"step {step}: a clone is not independent of its original")
        seat = state.current_player()
        det = state.determinize(seat, Rng(seed + step))
        if json.dumps(det.view(seat), sort_keys=True) != json.dumps(state.view(seat), sort_keys=True):
            raise ConformanceError(f"step {step}: determinize({seat}) changed what seat {seat} sees")
        if _all_views(state) != views[step]:
            raise ConformanceError(f"step {step}: determinize changed the original state")
        state.apply(action_id)
    return final


def finish_randomly(state: State, seed: int) -> Any:
    """Play a (determinized) state to its end with random moves; returns its returns."""
    rng = Rng(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state.returns()
