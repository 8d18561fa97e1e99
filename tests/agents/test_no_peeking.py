"""Nothing a seat cannot see reaches its bots: the search works on determinizations only.

Two positions that differ only in hidden parts (the rival's hand, which cards are still in the
deck, the generator's future) must get the same decision from the same seed. A search that looked
at the real position instead decides differently in the pair used here, so the test can tell.
"""

from __future__ import annotations

import pytest

from parlour.agents import make_agent
from parlour.agents.mcts import MctsAgent
from parlour.engine import Rng, State

from .positions import skim_position

# Seat 0 holds 4 and 9 against a middle 1; the rival holds 8+11 or 5+2, the rest is in the deck.
MINE, MIDDLE = [4, 9], 1
RIVAL_A, RIVAL_B = [8, 11], [5, 2]


class PeekingMcts(MctsAgent):
    """A deliberately broken search that plays on the real position (the control of this test)."""

    def _world(self, state: State, seat: int) -> State:
        return state.clone()


def twin_positions(generator_a: int = 1, generator_b: int = 2) -> tuple[State, State]:
    first = skim_position([MINE, RIVAL_A], MIDDLE, RIVAL_B, generator_a)
    second = skim_position([MINE, RIVAL_B], MIDDLE, RIVAL_A, generator_b)
    assert first.view(0) == second.view(0) and first.view(1) != second.view(1)
    return first, second


@pytest.mark.parametrize("rollout", ["heuristic", "random"])
def test_the_pair_tells_a_peeking_search_apart(rollout: str) -> None:
    first, second = twin_positions()
    peeking = [PeekingMcts(seed=1, iterations=300, rollout=rollout).act(state) for state in (first, second)]
    assert peeking[0] != peeking[1]


@pytest.mark.parametrize("spec", ["mcts:iterations=300", "mcts:iterations=300,rollout=random", "greedy", "random"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hidden_differences_do_not_change_the_decision(spec: str, seed: int) -> None:
    first, second = twin_positions()
    assert make_agent(spec, seed).act(first) == make_agent(spec, seed).act(second)


@pytest.mark.parametrize("spec", ["mcts:iterations=200", "greedy:samples=3"])
def test_the_generators_future_does_not_change_the_decision(spec: str) -> None:
    # Same cards everywhere; only which card the next draw would bring differs.
    decisions = set()
    for generator in range(6):
        state = skim_position([MINE, RIVAL_A], MIDDLE, RIVAL_B, generator)
        decisions.add(make_agent(spec, 4).act(state).id)
    assert len(decisions) == 1


def test_three_player_search_does_not_peek_either() -> None:
    first = skim_position([[3, 11], [12, 2], [6, 7]], 5, [8, 9], 1)
    second = skim_position([[3, 11], [8, 9], [6, 2]], 5, [12, 7], 2)
    assert first.view(0) == second.view(0)
    assert make_agent("mcts:iterations=300", 7).act(first) == make_agent("mcts:iterations=300", 7).act(second)


def test_searching_leaves_the_real_position_untouched() -> None:
    state, _ = twin_positions()
    before = (state.view(None), state.view(0), state.view(1), state.rng.state, list(state.history))
    for spec in ("mcts:iterations=200", "greedy"):
        make_agent(spec, 1).act(state)
    assert (state.view(None), state.view(0), state.view(1), state.rng.state, list(state.history)) == before


def test_determinize_keeps_what_the_seat_sees() -> None:
    state, _ = twin_positions()
    for draw in range(5):
        assert state.determinize(0, Rng(draw)).view(0) == state.view(0)
