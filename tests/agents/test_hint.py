"""The hint a person gets: the move MCTS prefers, in words."""

from __future__ import annotations

import pytest

import parlour
from parlour.agents import hint
from parlour.engine import IllegalAction

from .positions import skim_position


def test_hint_names_the_winning_move_and_explains_it() -> None:
    state = parlour.load_game("nim", stones=7).new_state(0)
    action, explanation = hint(state, iterations=300)
    assert action.label == "take 3"
    assert explanation.startswith("Hint: take 3")
    assert "simulations" in explanation and "next best" in explanation


def test_a_time_budget_gives_a_legal_hint() -> None:
    state = parlour.load_game("nim", stones=9).new_state(0)
    action, explanation = hint(state, seconds=0.05)
    assert action in state.legal_actions() and explanation.startswith(f"Hint: {action.label}")


def test_hint_for_a_single_legal_move_says_so() -> None:
    state = parlour.load_game("nim", stones=1).new_state(0)
    action, explanation = hint(state, seconds=0.05)
    assert action.label == "take 1"
    assert "only legal move" in explanation


def test_hint_sees_only_the_seat_to_move() -> None:
    first = skim_position([[1, 12], [9, 10]], 4, [8, 5], 1)
    second = skim_position([[1, 12], [8, 5]], 4, [9, 10], 2)
    assert first.view(0) == second.view(0)
    (action_a, words_a), (action_b, words_b) = hint(first, iterations=300, seed=5), hint(second, iterations=300, seed=5)
    # Everything but the elapsed time agrees: the move, its share, its value and the runners-up.
    assert action_a == action_b
    assert words_a.split("(")[0] == words_b.split("(")[0]
    assert words_a.splitlines()[1:] == words_b.splitlines()[1:]


def test_hint_refuses_a_finished_game_and_a_bad_budget() -> None:
    state = parlour.load_game("nim", stones=1).new_state(0)
    with pytest.raises(ValueError, match="positive budget"):
        hint(state, seconds=0)
    with pytest.raises(ValueError, match="positive budget"):
        hint(state, iterations=0)
    state.apply("take 1")
    with pytest.raises(IllegalAction, match="the game is over"):
        hint(state)
