"""The OpenSpiel adapter as learning algorithms use it: games in worker processes, information
states that depend on the history alone, a deal space no learner can memorise, the information-state
tensor, and OpenSpiel's own algorithms that read them, on every game."""

from __future__ import annotations

import copy
import pickle
import sys
import warnings
from collections.abc import Iterator

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import outcome_sampling_mccfr, tabular_qlearner
from open_spiel.python.observation import make_observation

from parlour.interop import openspiel
from tests.interop.test_openspiel import CONFIGS, IDS

GAMES = sorted({name for name, _ in CONFIGS})


@pytest.fixture(autouse=True)
def quiet_library_warnings() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def step(state: pyspiel.State, rng: np.random.RandomState) -> None:
    if state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probabilities)))
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))


def play(state: pyspiel.State, steps: int, rng: np.random.RandomState) -> pyspiel.State:
    for _ in range(steps):
        if state.is_terminal():
            break
        step(state, rng)
    return state


def decision(state: pyspiel.State, rng: np.random.RandomState) -> pyspiel.State:
    """On to the next decision node (or the end)."""
    while state.is_chance_node():
        step(state, rng)
    return state


# --- a game travels to worker processes ---------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("how", ["pickle", "deepcopy", "copy"])
def test_a_pickled_or_copied_game_plays(name: str, how: str) -> None:
    game = openspiel.load(name, seed=3)
    if how == "pickle":
        twin = pickle.loads(pickle.dumps(game))
    else:
        twin = copy.deepcopy(game) if how == "deepcopy" else copy.copy(game)
    assert str(twin) == str(game)
    rng = np.random.RandomState(0)
    ours, theirs = game.new_initial_state(), twin.new_initial_state()
    for _ in range(60):
        if ours.is_terminal():
            break
        assert theirs.legal_actions() == ours.legal_actions()
        action = int(rng.choice(ours.legal_actions()))
        ours.apply_action(action)
        theirs.apply_action(action)
    assert str(theirs) == str(ours)
    assert theirs.information_state_tensor(0).shape == (game.information_state_tensor_size(),)


def test_a_game_plays_in_a_worker_process() -> None:
    """multiprocessing pickles the game into a fresh interpreter (spawn), as Ray and joblib do."""
    import multiprocessing

    game = openspiel.load("hatflings", seed=2)
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        lengths = pool.map(_random_game_length, [game])
    assert lengths[0] > game.deal_nodes


def _random_game_length(game: pyspiel.Game) -> int:
    return len(play(game.new_initial_state(), 10_000, np.random.RandomState(0)).history())


# --- the information state is a function of the history ----------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_the_information_state_string_does_not_depend_on_when_it_was_asked(name: str) -> None:
    """Asked at every step along a game, or only at its end, or of a state replayed from the
    history: the same string for every seat."""
    game = openspiel.load(name, seed=1)
    watched = decision(game.new_initial_state(), np.random.RandomState(0))
    rng = np.random.RandomState(1)
    for _ in range(40):
        if watched.is_terminal():
            break
        for seat in range(game.num_players()):
            watched.information_state_string(seat)
        step(watched, rng)
    replayed = game.new_initial_state()
    for action in watched.history():
        replayed.apply_action(action)
    for seat in range(game.num_players()):
        assert replayed.information_state_string(seat) == watched.information_state_string(seat)


# --- the deal --------------------------------------------------------------------------------------


def test_the_deal_spans_more_than_two_to_the_64_outcome_sequences() -> None:
    for outcomes, nodes in ((64, 11), (2, 64), (65536, 4), (1000, 7)):
        game = openspiel.load("hatflings", chance_outcomes=outcomes)
        assert game.deal_nodes == nodes == openspiel.deal_nodes(outcomes)
        assert outcomes**nodes >= 2**64 > outcomes ** (nodes - 1)
        assert game.max_chance_nodes_in_history() == game.engine.max_game_length + nodes


@pytest.mark.parametrize("name", GAMES)
def test_episodes_do_not_share_a_deal_at_one_seed(name: str) -> None:
    """Far more episodes than one node has outcomes, each with its own game seed."""
    game = openspiel.load(name, seed=0)
    rng = np.random.RandomState(5)
    episodes = 3 * game.max_chance_outcomes()
    seeds = {decision(game.new_initial_state(), rng).engine_state.seed for _ in range(episodes)}
    assert len(seeds) == episodes


def test_before_the_deal_nobody_knows_anything() -> None:
    game = openspiel.load("hanbok_runway")
    state = game.new_initial_state()
    for outcome in range(game.deal_nodes - 1):
        state.apply_action(outcome)
        assert state.is_chance_node() and state.information_state_string(0) == "before the deal"
        assert not state.information_state_tensor(1).any()
    state.apply_action(0)
    assert state.current_player() == 0 and state.information_state_string(0) != "before the deal"


# --- the information-state tensor -----------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_information_state_tensor_is_pyspiels_own_and_extends_the_observation(name: str, players: int) -> None:
    game = openspiel.load(name, players=players, seed=4)
    assert game.get_type().provides_information_state_tensor
    observation, actions = game.observation_tensor_size(), game.num_distinct_actions()
    assert game.information_state_tensor_size() == observation + 2 * actions
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    state, rng = game.new_initial_state(), np.random.RandomState(players)
    for _ in range(6):
        play(state, 9, rng)
        for seat in range(players):
            tensor = state.information_state_tensor(seat)
            assert tensor.dtype == np.float32
            assert np.array_equal(tensor, np.array(pyspiel.State.information_state_tensor(state, seat), np.float32))
            assert np.array_equal(tensor[:observation], state.observation_tensor(seat))
            recall.set_from(state, seat)
            assert np.array_equal(recall.tensor, tensor)
            assert recall.string_from(state, seat) == state.information_state_string(seat)
            chosen = [action for mover, action, _ in state.trail.steps if mover == seat]
            assert np.array_equal(recall.dict["own_actions"], np.bincount(chosen, minlength=actions))
    with pytest.raises(pyspiel.SpielError, match="player must be"):
        state.information_state_tensor(players)


@pytest.mark.parametrize("name", ["hatflings", "yamatai"])  # the others deal every card at the start
def test_the_action_awaiting_chance_is_in_the_tensor_of_its_seat_only(name: str) -> None:
    game = openspiel.load(name, seed=6)
    state, rng = decision(game.new_initial_state(), np.random.RandomState(2)), np.random.RandomState(3)
    while not state.is_terminal():
        mover = state.current_player()
        drawing = [action for action in state.legal_actions() if state.child(action).is_chance_node()]
        if drawing:
            state.apply_action(drawing[0])
            break
        step(state, rng)
        decision(state, rng)
    assert state.is_chance_node(), "no action drew from the game's generator"
    offset = game.observation_tensor_size() + game.num_distinct_actions()
    assert state.information_state_tensor(mover)[offset + drawing[0]] == 1.0
    for seat in range(game.num_players()):
        if seat != mover:
            assert not state.information_state_tensor(seat)[offset:].any()


def _information_sets(name: str, players: int) -> dict[tuple[int, str], list[np.ndarray]]:
    """Tensors grouped by (seat, information-state string): along random games, and at positions
    each seat cannot tell from them (the hidden cards and the generator's future redrawn)."""
    game = openspiel.load(name, players=players, seed=8)
    sets: dict[tuple[int, str], list[np.ndarray]] = {}

    def note(state: pyspiel.State) -> None:
        for seat in range(players):
            key = (seat, state.information_state_string(seat))
            sets.setdefault(key, []).append(state.information_state_tensor(seat))

    for episode in range(2):
        rng = np.random.RandomState(episode)
        state = game.new_initial_state()
        for _ in range(60):
            if state.is_terminal():
                break
            note(state)
            if not state.is_chance_node() and state.engine_state is not None:
                seat = state.current_player()
                for draw in range(3):
                    note(state.resample_from_infostate(seat, lambda draw=draw: (draw + 0.5) / 3))
            step(state, rng)
    return sets


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_equal_information_strings_give_equal_tensors(name: str, players: int) -> None:
    sets = _information_sets(name, players)
    shared = 0
    for (seat, string), tensors in sets.items():
        for tensor in tensors[1:]:
            assert np.array_equal(tensor, tensors[0]), (seat, string[-80:])
        shared += len(tensors) > 1
    assert shared > 0, "no information state was met twice: the check would prove nothing"


# --- OpenSpiel's own algorithms -------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_outcome_sampling_mccfr_runs_on_the_information_state_strings(name: str, players: int) -> None:
    """OpenSpiel's outcome-sampling MCCFR, a few iterations: it keys its regret tables by the
    information-state string and samples the deal's chance nodes like any other."""
    game = openspiel.load(name, players=players, seed=1)
    np.random.seed(players)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))  # the solver recurses once per node of an episode
    try:
        for _ in range(2):
            solver.iteration()
    finally:
        sys.setrecursionlimit(limit)
    tables = solver._infostates  # the regrets and average policy of every information state met
    assert len(tables) > players
    average = solver.average_policy()
    state = decision(game.new_initial_state(), np.random.RandomState(players))
    probabilities = average.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_rl_environment_hands_out_the_information_state_tensor(name: str, players: int) -> None:
    """OpenSpiel's RL environment uses the information-state tensor when a game has one (NFSP,
    DQN and policy gradients read it); tabular Q-learners play a few episodes on it."""
    game = openspiel.load(name, players=players, seed=2)
    env = rl_environment.Environment(game, seed=players)
    assert not env.use_observation
    assert env.observation_spec()["info_state"] == (game.information_state_tensor_size(),)
    learners = [
        tabular_qlearner.QLearner(player_id=seat, num_actions=game.num_distinct_actions()) for seat in range(players)
    ]
    for _ in range(2):
        time_step = env.reset()
        while not time_step.last():
            seat = time_step.observations["current_player"]
            tensor = time_step.observations["info_state"][seat]
            assert np.array_equal(tensor, env.get_state.information_state_tensor(seat))
            time_step = env.step([learners[seat].step(time_step).action])
        for learner in learners:
            learner.step(time_step)
        assert sorted(time_step.rewards) == sorted(env.get_state.returns())
