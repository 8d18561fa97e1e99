"""The bots on every registered game: nothing hidden leaks into a decision, same seed same play.

A position's twin is `determinize(seat, rng)` of it: the same for everything the seat to move can
see, re-drawn everywhere else (rivals' hands, deck order, face-down values, the generator). The
bots must search both identically. This also needs the game's `determinize` to depend only on what
the seat sees and on `rng`: hidden cards must be put in a fixed order (sorted) before they are
shuffled, otherwise the re-dealt cards depend on how they were dealt before.
"""

from __future__ import annotations

import pytest

import parlour
from parlour.agents import make_agent
from parlour.agents.greedy import GreedyAgent
from parlour.agents.mcts import MctsAgent
from parlour.engine import Rng, State
from parlour.engine.registry import game_classes

REAL_GAMES = ("hanbok_runway", "hatairo", "hatflings", "yamatai")
SETTINGS = [
    (name, players) for name, cls in game_classes().items() if name in REAL_GAMES for players in cls.player_counts()
]


def midgame(name: str, players: int, seed: int, moves: int) -> State:
    state = parlour.load_game(name, players=players).new_state(seed)
    rng = Rng(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def search_summary(state: State, seed: int) -> list[tuple[int, int, float]]:
    search = MctsAgent(seed=seed, iterations=120, reuse=False).search(state)
    return [(choice.action.id, choice.visits, round(choice.value, 9)) for choice in search.choices]


@pytest.mark.parametrize(("name", "players"), SETTINGS)
def test_what_the_seat_cannot_see_does_not_change_the_search(name: str, players: int) -> None:
    for seed, moves in ((1, 6), (2, 20)):
        state = midgame(name, players, seed, moves)
        if state.is_terminal():
            continue
        seat = state.current_player()
        twin = state.determinize(seat, Rng(1000 + seed))
        assert twin.view(seat) == state.view(seat)
        assert search_summary(twin, seed) == search_summary(state, seed), (
            f"{name}: the search differs between two positions that seat {seat} cannot tell apart; "
            "does determinize shuffle hidden cards in their current (hidden) order instead of sorting them first?"
        )
        assert GreedyAgent(seed=seed).act(twin) == GreedyAgent(seed=seed).act(state)


@pytest.mark.parametrize(("name", "players"), SETTINGS)
def test_the_same_seed_gives_the_same_decisions(name: str, players: int) -> None:
    state = midgame(name, players, 3, 10)
    for spec in ("mcts:iterations=80", "greedy"):
        assert make_agent(spec, 8).act(state.clone()) == make_agent(spec, 8).act(state.clone())


def test_a_search_judging_revealed_worlds_still_cannot_tell_twins_apart() -> None:
    """`reveal` opens only the re-drawn world: the real hidden values still cannot reach the search."""
    state = midgame("hanbok_runway", 2, 2, 20)
    seat = state.current_player()
    twin = state.determinize(seat, Rng(7))
    assert twin.value != state.value  # the twin's face-down tokens really differ
    searches = [MctsAgent(seed=4, iterations=150, reveal=True).search(s) for s in (state, twin)]
    assert [(c.action.id, c.visits, c.value) for c in searches[0].choices] == [
        (c.action.id, c.visits, c.value) for c in searches[1].choices
    ]
    world = MctsAgent(seed=4, reveal=True)._world(state, seat)
    assert set(world.known) == {0b11} and set(state.known) != {0b11}  # type: ignore[attr-defined]
