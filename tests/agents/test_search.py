"""MCTS and greedy: forced wins found, forced losses avoided, same seed same play, sound tree reuse."""

from __future__ import annotations

import pytest

import parlour
from parlour.agents import make_agent
from parlour.agents.greedy import GreedyAgent
from parlour.agents.mcts import MctsAgent
from parlour.engine import State

from .positions import skim_position


def nim(stones: int) -> State:
    return parlour.load_game("nim", stones=stones).new_state(0)


# In Nim (take 1-3, last stone wins) the only winning move leaves a multiple of four; every
# other move hands the rival a forced win.
@pytest.mark.parametrize(("stones", "winning"), [(5, "take 1"), (6, "take 2"), (7, "take 3"), (9, "take 1")])
@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_mcts_finds_the_forced_win(stones: int, winning: str, rollout: str) -> None:
    for seed in range(3):
        agent = make_agent(f"mcts:iterations=600,rollout={rollout}", seed)
        assert agent.act(nim(stones)).label == winning


def test_mcts_rates_a_lost_position_as_lost() -> None:
    agent = MctsAgent(seed=1, iterations=800, rollout="random")
    search = agent.search(nim(8))
    assert all(choice.value < 0 for choice in search.choices)
    assert agent.search(nim(7)).best.value > 0.5


# Open Skim endgames with nothing left to draw (no chance, no secret), solved exactly below: one
# move wins, the others draw or lose.
ENDGAMES = [
    # middle, seat 0's hand, seat 1's hand, points taken, the only winning move
    (1, [10, 11, 12], [7, 6, 5], [5, 8], {"play 10", "play 11"}),
    (2, [7, 4, 11], [3, 1, 8], [5, 8], {"play 4"}),
    (9, [7, 10, 6], [11, 5, 2], [5, 0], {"play 10"}),
]


@pytest.mark.parametrize(("middle", "mine", "theirs", "taken", "winning"), ENDGAMES)
def test_mcts_plays_exactly_solved_endgames_right(
    middle: int, mine: list[int], theirs: list[int], taken: list[int], winning: set[str]
) -> None:
    state = skim_position([mine, theirs], middle, [], game="open_skim")
    state.taken = list(taken)
    assert exhaustive_best(state) == winning
    for seed in range(3):
        assert make_agent("mcts:iterations=1000,rollout=random", seed).act(state).label in winning


def exhaustive_best(state: State) -> set[str]:
    """The labels of the moves that maximise the mover's exact return (no chance left)."""
    seat = state.current_player()
    values = {}
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        values[action.label] = solve(after)[seat]
    top = max(values.values())
    return {label for label, value in values.items() if value == top}


def solve(state: State) -> list[float]:
    if state.is_terminal():
        return state.returns()
    seat = state.current_player()
    outcomes = []
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        outcomes.append(solve(after))
    return max(outcomes, key=lambda values: values[seat])


@pytest.mark.parametrize("spec", ["mcts:iterations=300", "mcts:iterations=300,rollout=random", "greedy", "random"])
def test_the_same_seed_plays_the_same_game(spec: str) -> None:
    def play(seed: int) -> list[int]:
        state = parlour.load_game("skim", players=3).new_state(11)
        agents = [make_agent(spec, seed + seat) for seat in range(3)]
        while not state.is_terminal():
            state.apply(agents[state.current_player()].act(state))
        return state.history

    assert play(4) == play(4)


def test_different_seeds_search_differently() -> None:
    state = skim_position([[1, 12], [9, 10]], 4, [8, 5])
    visits = {MctsAgent(seed=seed, iterations=100).search(state).choices[0].visits for seed in range(4)}
    assert len(visits) > 1


def test_values_are_each_movers_own_in_three_player_games() -> None:
    # Seat 0 has already taken 30 points and wins whatever happens: its own value is a sure win,
    # while for the rivals (searching at their turn) every move is a loss.
    state = skim_position([[3, 11], [12, 2], [6, 7]], 5, [])
    state.taken = [30, 0, 0]
    assert MctsAgent(seed=1, iterations=200).search(state).best.value > 0.9
    state.apply("play 3")
    assert MctsAgent(seed=1, iterations=200).search(state).best.value < -0.9


def test_the_tree_is_kept_when_no_chance_came_between() -> None:
    agent = MctsAgent(seed=2, iterations=400)
    state = nim(15)
    state.apply(agent.act(state))
    state.apply("take 1")
    assert agent.search(state).reused > 0


def test_the_tree_is_dropped_after_a_draw_from_the_deck() -> None:
    # In Open Skim every move draws a card at random, so the old statistics belong to other draws.
    agent = MctsAgent(seed=2, iterations=200)
    state = skim_position([[1, 12], [9, 10]], 4, [2, 3, 5], game="open_skim")
    state.apply(agent.act(state))
    state.apply(state.legal_actions()[0])
    assert agent.search(state).reused == 0


def test_the_tree_is_not_kept_in_hidden_information_games() -> None:
    agent = MctsAgent(seed=2, iterations=200)
    state = skim_position([[1, 12], [9, 10]], 4, [])
    state.apply(agent.act(state))
    state.apply(state.legal_actions()[0])
    assert agent.search(state).reused == 0


def test_a_kept_tree_is_not_used_for_another_game() -> None:
    agent = MctsAgent(seed=2, iterations=200)
    first = nim(15)
    first.apply(agent.act(first))
    other = parlour.load_game("nim", stones=15).new_state(0)
    other.apply("take 3")
    assert agent.search(other).reused == 0


def test_a_time_budget_gives_a_legal_move() -> None:
    state = skim_position([[1, 12], [9, 10]], 4, [8, 5])
    agent = make_agent("mcts:seconds=0.05", 1)
    assert agent.act(state) in state.legal_actions()


def test_greedy_takes_the_immediate_win() -> None:
    state = skim_position([[3, 11], [12, 2]], 5, [])
    state.taken = [0, 3]
    # Playing 11 takes the middle 5 and leads on points; playing 3 takes nothing and trails.
    assert GreedyAgent(seed=1).act(state).label == "play 11"


def test_greedy_breaks_ties_with_its_seed() -> None:
    # Nim with 12 stones: every move loses, the heuristic rates all three alike.
    picks = {GreedyAgent(seed=seed).act(nim(12)).label for seed in range(12)}
    assert picks == {"take 1", "take 2", "take 3"}
