"""The search settings for compound moves (`finish`, `fpu`, `prior`), on the Vault game.

In Vault (tests/agents/vault.py) seat 0 walks away for a shared win, or opens the vault and then
turns one of six dials: only dial 3 wins. Opening is a sure win for a seat that finishes its own
move well, and a likely loss when judged by the average dial.
"""

from __future__ import annotations

import pytest

import parlour
from parlour.agents import make_agent
from parlour.agents.mcts import MctsAgent, Search
from parlour.engine import State

OPEN, WALK = "open the vault", "walk away"


def door() -> State:
    return parlour.load_game("vault").new_state(0)


def search(spec: str, seed: int) -> Search:
    agent = make_agent(spec, seed)
    assert isinstance(agent, MctsAgent)
    return agent.search(door())


def value_of(result: Search, label: str) -> tuple[int, float]:
    choice = next(choice for choice in result.choices if choice.action.label == label)
    return choice.visits, choice.value


@pytest.mark.parametrize("seed", range(4))
def test_finish_judges_an_unfinished_move_by_finishing_it_greedily(seed: int) -> None:
    # Two iterations: each root action is tried once. Opening leaves the dial to choose; `finish`
    # turns the dial greedy would turn (the right one) before judging, so opening is worth a win.
    assert value_of(search("mcts:iterations=2,finish=1", seed), OPEN) == (1, 1.0)
    # Without it the open door is judged as it stands, by the game's heuristic (0 here).
    assert value_of(search("mcts:iterations=2", seed), OPEN) == (1, 0.0)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("c", [0.05, 0.4])
def test_finish_with_first_play_urgency_keeps_to_the_winning_continuation(seed: int, c: float) -> None:
    result = search(f"mcts:iterations=60,c={c},finish=1,fpu=yes", seed)
    assert result.best.action.label == OPEN
    visits, value = value_of(result, OPEN)
    # The right dial is expanded first (it is the greedy finish's first step) and, doing better
    # than the node's mean, is followed rather than trying the five wrong dials.
    assert visits >= 55 and value > 0.8


def test_first_play_urgency_still_tries_every_root_action() -> None:
    for seed in range(4):
        result = search("mcts:iterations=30,finish=1,fpu=yes", seed)
        assert all(choice.visits >= 1 for choice in result.choices)


@pytest.mark.parametrize("seed", range(4))
def test_a_prior_starts_each_root_action_at_greedys_value(seed: int) -> None:
    # One iteration on top of 20 prior visits: greedy follows opening through to the right dial, so
    # opening starts at 20 wins; the one iteration goes to it and may turn any dial.
    result = search("mcts:iterations=1,prior=20", seed)
    assert result.best.action.label == OPEN
    assert value_of(result, WALK) == (20, 0.0)
    visits, value = value_of(result, OPEN)
    assert visits == 21 and value >= (20 - 1) / 21 - 1e-9


def test_the_settings_leave_the_decision_deterministic() -> None:
    spec = "mcts:iterations=200,finish=2,fpu=yes,prior=5"
    state = parlour.load_game("hatairo", players=2).new_state(3)
    first, second = make_agent(spec, 7), make_agent(spec, 7)
    assert first.act(state) == second.act(state)
