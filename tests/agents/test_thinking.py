"""Thinking in slices: a bot's move worked out a slice at a time is the move it makes in one go,
and what a spec asks a move to cost is stated so that a server can refuse too costly a bot."""

from __future__ import annotations

import pytest

import parlour
from parlour.agents import Agent, Budget, hint, make_agent
from parlour.agents.mcts import MctsAgent
from parlour.engine import State
from parlour.engine.actions import Action

from .skim import Skim


def positions() -> list[State]:
    """A perfect-information position (Nim) and one with hidden hands and a deck (Skim)."""
    skim = Skim(players=2).new_state(3)
    return [parlour.load_game("nim", stones=17).new_state(0), skim]


def in_slices(agent: Agent, state: State) -> tuple[Action, int]:
    """The agent's move worked out in the thinnest slices, and how many slices it took."""
    thought = agent.think(state)
    for slices in range(1, 100_000):
        action = thought.advance(0.0)
        if action is not None:
            return action, slices
    raise AssertionError("the thought never decided")


@pytest.mark.parametrize("spec", ["mcts:iterations=300", "mcts:iterations=200,prior=3,finish=2", "greedy:samples=5"])
def test_a_move_in_slices_is_the_move_in_one_go(spec: str) -> None:
    for state in positions():
        whole, sliced = make_agent(spec, 7), make_agent(spec, 7)
        # Two moves in a row, so that what an agent keeps between moves (MCTS's tree) is used too.
        for _ in range(2):
            expected = whole.act(state)
            action, slices = in_slices(sliced, state)
            assert action == expected and slices > 1
            if isinstance(whole, MctsAgent) and isinstance(sliced, MctsAgent):
                one_go, slice_by_slice = whole.last_search, sliced.last_search
                assert one_go is not None and slice_by_slice is not None
                assert (one_go.iterations, one_go.reused, one_go.choices) == (
                    slice_by_slice.iterations,
                    slice_by_slice.reused,
                    slice_by_slice.choices,
                )
            state = state.clone()
            state.apply(expected)
            if state.is_terminal():
                break


def test_a_search_made_to_decide_early_ranks_what_it_has_seen() -> None:
    agent = MctsAgent(seed=1, iterations=10_000)
    thought = agent.think(parlour.load_game("nim", stones=17).new_state(0))
    assert thought.advance(0.0) is None
    action = thought.conclude()
    assert agent.last_search is not None and 1 <= agent.last_search.iterations < 10_000
    assert action == agent.last_search.best.action


def test_a_time_budget_is_shared_out_between_slices() -> None:
    agent = MctsAgent(seed=1, iterations=None, seconds=0.05)
    thought = agent.think(parlour.load_game("nim", stones=17).new_state(0))
    slices = 0
    while thought.advance(0.01) is None:
        slices += 1
        assert slices < 1000
    assert agent.last_search is not None and agent.last_search.seconds >= 0.05


@pytest.mark.parametrize(
    ("spec", "budget"),
    [
        ("mcts:seconds=3600", Budget(3600.0, None)),
        ("mcts:iterations=500", Budget(None, 500)),
        ("mcts", Budget(None, 1000)),
        ("greedy:samples=9", Budget(None, 9)),
        ("random", Budget()),
    ],
)
def test_a_spec_states_what_a_move_may_cost(spec: str, budget: Budget) -> None:
    assert make_agent(spec).budget() == budget


def test_a_budget_beyond_a_cap_says_which_limit_and_by_how_much() -> None:
    cap = Budget(5.0, 20_000)
    assert Budget(3600.0, None).beyond(cap) == "may think 3600 s a move; this server allows at most 5 s"
    assert Budget(None, 50_000).beyond(cap) == "asks for 50,000 iterations a move; this server allows at most 20,000"
    assert Budget(5.0, 20_000).beyond(cap) is None and Budget().beyond(cap) is None


def test_a_hint_stops_at_its_time_cap_before_its_iterations() -> None:
    state = parlour.load_game("nim", stones=17).new_state(0)
    action, explanation = hint(state, iterations=10**9, max_seconds=0.05)
    assert state.is_legal(action) and "simulations" in explanation
    assert hint(state, iterations=40, max_seconds=60)[1].count("of 40 simulations") == 1
