"""The OpenSpiel adapter, checked with OpenSpiel's own tools and algorithms."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation
from open_spiel.python.tests import games_sim_test

import parlour
from parlour.interop import openspiel
from parlour.interop.encoding import observation_tensor

CONFIGS = [
    (name, players)
    for name, cls in parlour.game_classes().items()
    if cls.__module__.startswith("parlour.games.")
    for players in cls.player_counts()
]
IDS = [f"{name}-{players}p" for name, players in CONFIGS]
HIDDEN = ["hanbok_runway", "hatairo", "yamatai"]


@pytest.fixture(autouse=True)
def quiet_library_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def play(state: pyspiel.State, steps: int, rng: np.random.RandomState) -> pyspiel.State:
    """Random moves (and chance outcomes) until `steps` actions are taken or the game ends."""
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def dealt(game: pyspiel.Game, outcome: int = 0) -> pyspiel.State:
    """The first decision node, every chance node of the deal given `outcome`."""
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(outcome)
    return state


def held_for_chance(game: pyspiel.Game, seed: int, limit: int = 3000) -> tuple[pyspiel.State, int]:
    """A decision node and an action of it that draws from the game's generator (so a chance
    node follows it), found along a random game."""
    rng = np.random.RandomState(seed)
    state = play(game.new_initial_state(), 1, rng)
    for _ in range(limit):
        assert not state.is_terminal(), "no action drew from the generator in this game"
        if state.is_chance_node():
            play(state, 1, rng)
            continue
        for action in state.legal_actions():
            trial = state.clone()
            trial.apply_action(action)
            if trial.is_chance_node():
                return state, action
        play(state, 1, rng)
    raise AssertionError("no action drew from the generator")


# --- OpenSpiel's own checks, for every game and player count -----------------------------------


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_openspiel_random_simulation_with_serialization(name: str, players: int) -> None:
    game = openspiel.load(name, players=players)
    assert game.num_players() == players
    assert game.num_distinct_actions() == parlour.load_game(name, players=players).num_actions
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_openspiel_games_sim_test(name: str, players: int, capsys: pytest.CaptureFixture[str]) -> None:
    """OpenSpiel's `games_sim_test.sim_game`: game pickling, clone with history at every step,
    `serialize_game_and_state` and state pickling along the game, returns in range."""
    np.random.seed(players)
    games_sim_test.GamesSimTest(methodName="sim_game").sim_game(openspiel.load(name, players=players, seed=players))
    assert "terminated with" in capsys.readouterr().out


def test_load_game_by_name_and_by_its_string_in_a_fresh_process() -> None:
    program = (
        "import pyspiel, parlour.interop.openspiel\n"
        "game = pyspiel.load_game('parlour_hatflings')\n"
        "again = pyspiel.load_game(str(game))\n"
        "assert str(again) == str(game), (str(again), str(game))\n"
        "print(again.engine.options['start_zone_0'])\n"
    )
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "a1,b1,c1,d1,e1,f1"


def test_game_string_keeps_text_options_with_commas() -> None:
    game = openspiel.load("hatflings", start_zone_0="a1,b1,c1,d1,e1,f2", seed=4)
    again = pyspiel.load_game(str(game))
    assert again.engine.options == game.engine.options
    assert again.engine.options["start_zone_0"] == "a1,b1,c1,d1,e1,f2"
    assert "start_zone_0=a1;b1;c1;d1;e1;f2" in str(game)


def test_a_bad_parameter_is_refused_clearly() -> None:
    with pytest.raises(pyspiel.SpielError, match="players"):
        pyspiel.load_game("parlour_hatairo(players=7)")
    with pytest.raises(pyspiel.SpielError, match="chance_outcomes must be"):
        pyspiel.load_game("parlour_hatairo(chance_outcomes=1)")


# --- clone, serialisation, undo ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["hatflings", "yamatai"])
def test_clone_keeps_history_and_move_number(name: str) -> None:
    state = play(openspiel.load(name).new_initial_state(), 40, np.random.RandomState(2))
    twin = state.clone()
    assert twin.history() == state.history() and len(state.history()) == 40
    assert twin.move_number() == state.move_number() == 40
    assert str(twin) == str(state)
    play(twin, 5, np.random.RandomState(3))
    assert len(state.history()) == 40, "moving a clone moved its original"


@pytest.mark.parametrize("name", ["hatflings", "hatairo"])
def test_serialised_and_pickled_states_go_on_identically(name: str) -> None:
    game = openspiel.load(name, seed=7)
    state = play(dealt(game), 30, np.random.RandomState(4))
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    unpickled = pickle.loads(pickle.dumps(state))
    for copy in (restored, unpickled):
        assert copy.history() == state.history() and str(copy) == str(state)
    for copy in (state, restored, unpickled):
        play(copy, 30, np.random.RandomState(5))
    assert str(restored) == str(state) == str(unpickled)


def test_undone_replays_the_record_to_the_position_before() -> None:
    game = openspiel.load("hatflings", seed=1)
    state = play(dealt(game), 20, np.random.RandomState(6))
    before = state.clone()
    play(state, 1, np.random.RandomState(7))
    undone = state.undone()
    assert str(undone) == str(before) and undone.history() == before.history()
    assert undone.legal_actions() == before.legal_actions()
    with pytest.raises(pyspiel.SpielError, match="initial state"):
        game.new_initial_state().undone()


# --- chance is chance -----------------------------------------------------------------------------


def test_the_deal_is_a_chance_node_and_its_outcomes_differ() -> None:
    game = openspiel.load("hanbok_runway")
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == 64 and sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    deals = set()
    for outcome in range(4):
        deals.add(dealt(game, outcome).observation_string(0))
    assert len(deals) == 4


@pytest.mark.parametrize("name", ["hatflings", "yamatai"])
def test_clones_do_not_inherit_the_future_of_chance(name: str) -> None:
    """An action that draws (a barrel toss, a draw from the bag) is followed by a chance node, so
    two clones of one position can meet different outcomes: a search cannot know them in advance.
    (A draw may show only later, as a bag drawn from on a later turn: each clone plays on alike.)"""
    game = openspiel.load(name)
    state, action = held_for_chance(game, seed=8)
    results = set()
    for outcome in range(game.max_chance_outcomes()):
        clone = state.clone()
        clone.apply_action(action)
        assert clone.is_chance_node() and clone.current_player() == pyspiel.PlayerId.CHANCE
        clone.apply_action(outcome)
        results.add(str(play(clone, 80, np.random.RandomState(0))))
    assert len(results) >= 2


def test_mcts_plays_hatflings_through_chance_nodes() -> None:
    game = openspiel.load("hatflings", seed=3)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node() or state.current_player() == 1:
            play(state, 1, rng)
        else:
            state.apply_action(bot.step(state))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


# --- imperfect information --------------------------------------------------------------------------


@pytest.mark.parametrize("name", HIDDEN)
def test_ismcts_plays_with_resample_from_infostate(name: str) -> None:
    game = openspiel.load(name, players=2)
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 6, random_state=rng)
    state = play(game.new_initial_state(), 1, rng)
    moves = 0
    while not state.is_terminal() and moves < 6:
        if state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
        else:
            play(state, 1, rng)


@pytest.mark.parametrize("name", HIDDEN)
def test_a_resampled_state_looks_the_same_to_its_seat(name: str) -> None:
    game = openspiel.load(name, players=2)
    state = play(dealt(game), 25, np.random.RandomState(9))
    while state.is_chance_node():
        play(state, 1, np.random.RandomState(1))
    seat = state.current_player()
    resampled = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert resampled.information_state_string(seat) == state.information_state_string(seat)
    assert resampled.observation_string(seat) == state.observation_string(seat)
    assert resampled.legal_actions() == state.legal_actions()
    with pytest.raises(pyspiel.SpielError, match="resampled"):
        resampled.undone()


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_observers_show_what_their_type_allows(name: str, players: int) -> None:
    """Default observation: the seat's view. Public: the spectator's. All players: every seat's.
    Information state: the view and a digest, bounded in size."""
    game = openspiel.load(name, players=players, seed=5)
    state = play(dealt(game), 30, np.random.RandomState(players))
    engine_state = state.engine_state
    engine = engine_state.game
    public = make_observation(
        game,
        pyspiel.IIGObservationType(perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE),
    )
    everyone = make_observation(
        game,
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
        ),
    )
    for seat in range(players):
        view = engine_state.view(seat)
        assert json.loads(state.observation_string(seat)) == view
        assert np.allclose(state.observation_tensor(seat), observation_tensor(engine, view, seat))
        assert public.string_from(state, seat) == json.dumps(engine_state.view(None), sort_keys=True)
        public.set_from(state, seat)
        assert np.allclose(public.tensor, observation_tensor(engine, engine_state.view(None), seat))
        shown = [json.loads(line) for line in everyone.string_from(state, seat).split("\n")]
        assert shown == [engine_state.view((seat + k) % players) for k in range(players)]
        information = state.information_state_string(seat)
        assert information.startswith(json.dumps(view, sort_keys=True) + "\nseen ")
        assert len(information) <= len(json.dumps(view, sort_keys=True)) + 100


def test_the_public_observer_hides_a_hand() -> None:
    game = openspiel.load("hanbok_runway", seed=2)
    state = play(dealt(game), 6, np.random.RandomState(3))
    public = make_observation(
        game,
        pyspiel.IIGObservationType(perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE),
    )
    for seat in (0, 1):
        assert public.string_from(state, seat) != state.observation_string(seat)
        assert public.string_from(state, 0) == public.string_from(state, 1)


def test_information_state_tells_apart_what_the_seat_saw() -> None:
    """Same view now, different past: two positions reached by other public moves differ in the
    information state (perfect recall) though their observation strings may match."""
    game = openspiel.load("hatflings", seed=2)
    root = dealt(game)
    strings = set()
    for action in root.legal_actions()[:5]:
        child = root.child(action)
        strings.add(child.information_state_string(1))
    assert len(strings) == min(5, len(root.legal_actions()))


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_legal_actions_asked_from_python_answer_as_openspiel_does(name: str, players: int) -> None:
    """The state answers `legal_actions` and `is_chance_node` itself, for Python callers: at every
    node of a random game (chance, decision, terminal), for every player and none, as OpenSpiel's
    own methods do (pyspiel.State's, reached through C++)."""
    rng = np.random.default_rng(3)
    state = openspiel.load(name, players=players).new_initial_state()
    kinds = set()
    while True:
        kinds.add("chance" if state.is_chance_node() else "terminal" if state.is_terminal() else "decision")
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for player in range(-1, players + 1):
            try:
                expected: object = pyspiel.State.legal_actions(state, player)
            except pyspiel.SpielError as error:
                expected = str(error)
            try:
                answer: object = state.legal_actions(player)
            except pyspiel.SpielError as error:
                answer = str(error)
            assert answer == expected, (player, state.history())
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert kinds == {"chance", "decision", "terminal"}


def test_openspiel_refuses_an_illegal_action_and_keeps_the_state() -> None:
    game = openspiel.load("hatflings")
    state = dealt(game)
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    before = str(state)
    with pytest.raises(pyspiel.SpielError, match="illegal action"):
        state.apply_action(illegal)
    assert str(state) == before and state.history() == [0] * game.deal_nodes
    with pytest.raises(pyspiel.SpielError, match="chance outcome"):
        game.new_initial_state().apply_action(64)


def test_a_game_without_an_encoder_offers_strings_only() -> None:
    """A game published on its own may ship no encoder: it still plays through OpenSpiel."""
    from parlour.engine.registry import register
    from tests.engine.nim import Nim

    register(Nim)
    assert "parlour_nim" in openspiel.register_all()
    game = pyspiel.load_game("parlour_nim")
    assert not game.get_type().provides_observation_tensor
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = play(dealt(game), 2, np.random.RandomState(0))
    assert json.loads(state.observation_string(0)) == state.engine_state.view(0)
    with pytest.raises(pyspiel.SpielError, match="no tensor"):
        state.observation_tensor(0)


@pytest.mark.parametrize("name", HIDDEN)
def test_the_public_observer_cannot_tell_redrawn_hands_apart(name: str) -> None:
    """Redraw everything seat 0 cannot see (the others' hands, the deck's order): the public
    observation stays the same for every seat, as it shows no one's private information."""
    game = openspiel.load(name, players=2, seed=3)
    state = play(dealt(game), 11, np.random.RandomState(4))
    while state.is_chance_node():
        play(state, 1, np.random.RandomState(5))
    public = make_observation(
        game,
        pyspiel.IIGObservationType(perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE),
    )
    changed = False
    for draw in range(6):
        redrawn = state.resample_from_infostate(0, lambda draw=draw: (draw + 0.5) / 6)
        for seat in (0, 1):
            assert public.string_from(redrawn, seat) == public.string_from(state, seat)
            public.set_from(state, seat)
            before = public.tensor.copy()
            public.set_from(redrawn, seat)
            assert np.array_equal(public.tensor, before)
        changed |= pickle.dumps(redrawn.engine_state) != pickle.dumps(state.engine_state)
    assert changed, "no redraw changed anything hidden: the check would prove nothing"
    if name != "yamatai":  # in Yamataï what is hidden is the deck, seen by no seat
        assert any(
            state.resample_from_infostate(0, lambda d=d: (d + 0.5) / 6).observation_string(1)
            != state.observation_string(1)
            for d in range(6)
        ), "the redraws should change what seat 1 holds"


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_observation_tensor_is_pyspiels_own_values_as_an_array(name: str, players: int) -> None:
    """`state.observation_tensor` gives a float32 array without pyspiel's list of floats; its values
    are those pyspiel's C++ path reads from the default observer, at every seat along a game."""
    game = openspiel.load(name, players=players, seed=1)
    state, rng = game.new_initial_state(), np.random.RandomState(players)
    assert np.array_equal(state.observation_tensor(0), pyspiel.State.observation_tensor(state, 0))
    for _ in range(8):
        play(state, 7, rng)
        for seat in range(players):
            fast = state.observation_tensor(seat)
            assert fast.dtype == np.float32 and fast.shape == (game.observation_tensor_size(),)
            assert np.array_equal(fast, np.array(pyspiel.State.observation_tensor(state, seat), np.float32))
    if not state.is_chance_node() and not state.is_terminal():
        assert np.array_equal(state.observation_tensor(), state.observation_tensor(state.current_player()))
    with pytest.raises(pyspiel.SpielError, match="player must be"):
        state.observation_tensor(players)


@pytest.mark.parametrize(("name", "players"), [("hatairo", 3), ("yamatai", 4), ("hanbok_runway", 2)])
def test_the_all_players_tensor_is_every_seats_tensor_round_the_table(name: str, players: int) -> None:
    game = openspiel.load(name, players=players, seed=2)
    state = play(dealt(game), 40, np.random.RandomState(1))
    everyone = make_observation(
        game,
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
        ),
    )
    engine_state = state.engine_state
    for seat in range(players):
        everyone.set_from(state, seat)
        expected = [
            observation_tensor(engine_state.game, engine_state.view((seat + k) % players), (seat + k) % players)
            for k in range(players)
        ]
        assert np.array_equal(everyone.tensor, np.concatenate(expected))
