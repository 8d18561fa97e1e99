"""Agent spec strings: every kind is made from its string, and every mistake is named."""

from __future__ import annotations

import pytest

import parlour
from parlour.agents import AgentSpecError, agent_kinds, make_agent, parse_spec, split_specs
from parlour.agents.greedy import GreedyAgent
from parlour.agents.mcts import MctsAgent


def test_builtin_kinds_are_listed_with_their_help() -> None:
    kinds = agent_kinds()
    assert {"random", "greedy", "mcts"} <= set(kinds)
    assert "iterations" in kinds["mcts"]


def test_mcts_parameters_are_read() -> None:
    agent = make_agent("mcts:iterations=250,c=0.7,rollout=random,cutoff=9,reuse=no", 5)
    assert isinstance(agent, MctsAgent)
    assert (agent.iterations, agent.seconds, agent.c, agent.rollout, agent.cutoff, agent.reuse) == (
        250,
        None,
        0.7,
        "random",
        9,
        False,
    )
    assert agent.spec == "mcts:iterations=250,c=0.7,rollout=random,cutoff=9,reuse=no"


def test_a_time_budget_alone_has_no_iteration_limit() -> None:
    agent = make_agent("mcts:seconds=0.5")
    assert isinstance(agent, MctsAgent)
    assert (agent.iterations, agent.seconds) == (None, 0.5)


def test_greedy_parameters_are_read() -> None:
    agent = make_agent("greedy:samples=3,follow=0")
    assert isinstance(agent, GreedyAgent)
    assert (agent.samples, agent.follow) == (3, 0)


def test_seed_in_the_spec_overrides_the_given_seed() -> None:
    first, second = make_agent("mcts:seed=9", 1), make_agent("mcts", 9)
    assert isinstance(first, MctsAgent) and isinstance(second, MctsAgent)
    assert first.rng.state == second.rng.state


def test_parse_spec_splits_kind_and_parameters() -> None:
    assert parse_spec(" MCTS : iterations = 10 ") == ("mcts", {"iterations": "10"})


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphazero", "no agent called 'alphazero' .*greedy, level, mcts, random"),
        ("mcts:depth=3", "agent mcts has no parameter 'depth' .*iterations"),
        ("random:iterations=3", "agent random has no parameter 'iterations'"),
        ("mcts:iterations=lots", "iterations must be a whole number, got 'lots'"),
        ("mcts:iterations=0", "iterations must be at least 1"),
        ("mcts:seconds=0", "seconds must be more than 0"),
        ("mcts:seconds=inf", "seconds must be a number, got 'inf'"),
        ("mcts:c=nan", "c must be a number, got 'nan'"),
        ("mcts:c=-1", "c must be at least 0"),
        ("mcts:rollout=smart", "rollout must be one of random, heuristic, got 'smart'"),
        ("mcts:reuse=maybe", "reuse must be one of yes, no"),
        ("mcts:fpu=sometimes", "fpu must be one of yes, no"),
        ("mcts:finish=-1", "finish must be at least 0"),
        ("mcts:reveal=perhaps", "reveal must be one of yes, no"),
        ("mcts:prior=some", "prior must be a whole number, got 'some'"),
        ("greedy:samples=0", "samples must be at least 1"),
        ("mcts:iterations", "'iterations' is not key=value"),
    ],
)
def test_bad_specs_are_named(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec)


@pytest.mark.parametrize(
    ("text", "specs"),
    [
        ("random,greedy", ["random", "greedy"]),
        ("mcts:iterations=500,c=0.7,random", ["mcts:iterations=500,c=0.7", "random"]),
        (
            "human, mcts:seconds=1,rollout=random, greedy:samples=2",
            ["human", "mcts:seconds=1,rollout=random", "greedy:samples=2"],
        ),
        ("mcts,c=1", ["mcts", "c=1"]),
    ],
)
def test_seat_lists_keep_each_specs_parameters(text: str, specs: list[str]) -> None:
    assert split_specs(text) == specs


def test_a_games_search_defaults_apply_unless_the_spec_names_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    state = parlour.load_game("nim", stones=7).new_state(0)
    monkeypatch.setattr(type(state.game), "search_defaults", {"c": 1.5, "rollout": "random", "cutoff": 3})
    general = make_agent("mcts:iterations=10", 1)
    general.act(state)
    assert (general.c, general.rollout, general.cutoff) == (1.5, "random", 3)
    named = make_agent("mcts:iterations=10,c=0.2,rollout=heuristic,cutoff=0", 1)
    named.act(state)
    assert (named.c, named.rollout, named.cutoff) == (0.2, "heuristic", 0)


def test_without_game_defaults_the_general_search_settings_apply() -> None:
    state = parlour.load_game("nim", stones=7).new_state(0)
    agent = make_agent("mcts:iterations=10", 1)
    agent.act(state)
    assert (agent.c, agent.rollout, agent.cutoff) == (0.4, "heuristic", 0)
    assert (agent.prior, agent.finish, agent.fpu, agent.reveal) == (0, 0, False, False)


def test_the_compound_move_settings_are_read_and_a_game_may_set_them(monkeypatch: pytest.MonkeyPatch) -> None:
    agent = make_agent("mcts:prior=5,finish=2,fpu=yes", 1)
    assert isinstance(agent, MctsAgent)
    assert (agent.prior, agent.finish, agent.fpu) == (5, 2, True)
    state = parlour.load_game("nim", stones=7).new_state(0)
    monkeypatch.setattr(type(state.game), "search_defaults", {"finish": 3, "fpu": True})
    general = make_agent("mcts:iterations=10", 1)
    general.act(state)
    assert (general.finish, general.fpu) == (3, True)
    named = make_agent("mcts:iterations=10,finish=0,fpu=no", 1)
    named.act(state)
    assert (named.finish, named.fpu) == (0, False)


def test_reveal_is_read_and_a_game_may_set_it(monkeypatch: pytest.MonkeyPatch) -> None:
    agent = make_agent("mcts:reveal=yes", 1)
    assert isinstance(agent, MctsAgent) and agent.reveal
    state = parlour.load_game("nim", stones=7).new_state(0)
    monkeypatch.setattr(type(state.game), "search_defaults", {"reveal": True})
    general = make_agent("mcts:iterations=10", 1)
    general.act(state)
    assert general.reveal
    named = make_agent("mcts:iterations=10,reveal=no", 1)
    named.act(state)
    assert not named.reveal


def test_a_game_may_set_the_iteration_count_of_a_learned_search_that_names_no_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = parlour.load_game("hatflings").new_state(3)
    plain = make_agent("mcts:eval=heuristic,reuse=no", 1)
    assert isinstance(plain, MctsAgent) and plain.budget().iterations == 1000  # before it knows the game
    assert plain.search(state).iterations == 1000  # the game's count is for its learned search only
    monkeypatch.setattr(type(state.game), "search_defaults", {"eval": "learned", "learned_iterations": 70})
    default = make_agent("mcts:reuse=no", 1)
    assert isinstance(default, MctsAgent) and default.search(state).iterations == 70
    # A budget in the spec wins: iterations, or seconds alone (no iteration limit then).
    named = make_agent("mcts:iterations=30,reuse=no", 1)
    assert isinstance(named, MctsAgent) and named.search(state).iterations == 30
    timed = make_agent("mcts:seconds=0.05,reuse=no", 1)
    assert isinstance(timed, MctsAgent)
    timed.search(state)
    assert timed.iterations is None and timed.seconds == 0.05


def test_a_learned_default_that_falls_back_to_the_heuristic_searches_the_general_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without its evaluator (no numpy, or a tensor layout the weights do not fit) the search is the
    heuristic one, and it runs the heuristic's count, not the fewer a network's iterations afford."""
    from parlour.agents.learned import evaluator
    from parlour.agents.learned.weights import WeightsError

    def unfit(game: object) -> None:
        raise WeightsError("the shipped weights do not fit this layout")

    monkeypatch.setattr(evaluator, "shipped", unfit)  # what a data set with another layout meets
    state = parlour.load_game("hatflings").new_state(3)
    agent = make_agent("mcts:reuse=no", 1)
    assert isinstance(agent, MctsAgent)
    assert agent.search(state).iterations == 1000


def test_hatflings_names_the_iteration_count_of_its_default_search() -> None:
    from parlour.games.hatflings.game import Hatflings

    state = parlour.load_game("hatflings").new_state(3)
    agent = make_agent("mcts:reuse=no", 1)
    assert isinstance(agent, MctsAgent)
    default = agent.search(state)
    assert default.iterations == Hatflings.search_defaults["learned_iterations"] == 200
    # The spec its strength rows in docs/bots.md were played with is the same bot.
    spelled = make_agent("mcts:eval=learned,puct=1,even=0.25,iterations=200,reuse=no", 1)
    assert isinstance(spelled, MctsAgent) and spelled.search(state).choices == default.choices
