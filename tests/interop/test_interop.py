"""The PettingZoo and Gymnasium adapters, checked with each library's own tools (OpenSpiel: test_openspiel)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, seed_test

import parlour
from parlour.engine import Rng
from parlour.interop import openspiel
from parlour.interop.encoding import observation_tensor
from parlour.interop.gymnasium import ParlourEnv
from parlour.interop.pettingzoo import env, parallel_env

# Every game parlour ships (not the small games other tests register), at every player count.
CONFIGS = [
    (name, players)
    for name, cls in parlour.game_classes().items()
    if cls.__module__.startswith("parlour.games.")
    for players in cls.player_counts()
]
IDS = [f"{name}-{players}p" for name, players in CONFIGS]


@pytest.fixture(autouse=True)
def quiet_library_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_pettingzoo_api_and_seed_tests(name: str, players: int) -> None:
    api_test(env(name, players=players, render_mode="ansi"), num_cycles=60, verbose_progress=False)
    seed_test(lambda: env(name, players=players, render_mode="ansi"), num_cycles=30)


def test_pettingzoo_illegal_action_ends_the_game_against_its_maker() -> None:
    aec = env("hatflings")
    aec.reset(seed=1)
    agent = aec.agent_selection
    mask = aec.observe(agent)["action_mask"]
    aec.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(aec.terminations.values())
    assert aec.rewards[agent] == -1.0
    assert "illegal_action" in aec.infos[agent]


@pytest.mark.parametrize("name", sorted({name for name, _ in CONFIGS}))
def test_gymnasium_env_checker(name: str) -> None:
    check_env(ParlourEnv(name, render_mode="ansi"), skip_render_check=False)


def test_gymnasium_plays_to_the_end_and_refuses_illegal_moves() -> None:
    environment = ParlourEnv("hatflings", seat=1, opponents="random")
    observation, _ = environment.reset(seed=4)
    done = False
    while not done:
        legal = np.flatnonzero(observation["action_mask"])
        observation, reward, done, _, _ = environment.step(int(legal[0]))
    assert reward in (-1.0, 0.0, 1.0)
    observation, _ = environment.reset(seed=4)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, done, _, info = environment.step(illegal)
    assert done and reward == -1.0 and info["illegal_action"]


def test_bad_adapter_arguments_are_refused() -> None:
    with pytest.raises(parlour.InvalidOption, match=r"seat must be 0\.\.1"):
        ParlourEnv("hatflings", seat=3)
    with pytest.raises(parlour.InvalidOption, match="no agent called"):
        ParlourEnv("hatflings", opponents="wizard")
    with pytest.raises(parlour.InvalidOption, match="no game called"):
        openspiel.load("chess")


def test_hatflings_tensor_places_each_halfling_where_the_view_shows_it() -> None:
    from parlour.games.hatflings.encoder import KINDS, OBJECTS, SQUARES

    game = parlour.load_game("hatflings")
    state = game.new_state(seed=9)
    rng = Rng(9)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    block = 2 * len(KINDS) + len(OBJECTS) + 4
    for seat in (0, 1):
        view = state.view(seat)
        tensor = observation_tensor(game, view, seat)
        for index, square in enumerate(SQUARES):
            cell = tensor[index * block : (index + 1) * block]
            mine, theirs = cell[: len(KINDS)], cell[len(KINDS) : 2 * len(KINDS)]
            halfling = view["squares"].get(square, {}).get("halfling")
            if halfling is None:
                assert not mine.any() and not theirs.any()
            else:
                plane = mine if halfling["seat"] == seat else theirs
                assert plane[KINDS.index(halfling["kind"])] == 1.0 and plane.sum() == 1.0


@pytest.mark.parametrize("name", ["hanbok_runway", "hatairo", "yamatai"])
def test_tensor_depends_only_on_the_view(name: str) -> None:
    """Re-drawing what a seat cannot see (determinize) leaves its tensor unchanged."""
    game = parlour.load_game(name)
    state = game.new_state(seed=3)
    rng = Rng(3)
    for _ in range(25):
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player()
    hidden_redrawn = state.determinize(seat, Rng(77))
    assert np.array_equal(
        observation_tensor(game, state.view(seat), seat), observation_tensor(game, hidden_redrawn.view(seat), seat)
    )


def test_pettingzoo_truncates_after_max_steps_and_offers_the_state() -> None:
    aec = env("hatairo", players=3, max_steps=12)
    aec.reset(seed=2)
    steps = 0
    for _agent in aec.agent_iter():
        observation, _, termination, truncation, _ = aec.last()
        if termination or truncation:
            aec.step(None)
            continue
        assert aec.state().shape == aec.state_space.shape
        aec.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert steps == 12 and len(aec.engine_state.history) == 12 and not aec.engine_state.is_terminal()
    full = aec.state()
    size = len(full) // 3
    for seat in range(3):
        expected = observation_tensor(aec.game, aec.engine_state.view(seat), seat)
        assert np.array_equal(full[seat * size : (seat + 1) * size], expected)
    api_test(env("hatflings", max_steps=10), num_cycles=30, verbose_progress=False)
    with pytest.raises(parlour.InvalidOption, match="max_steps"):
        env("hatflings", max_steps=0)


@pytest.mark.parametrize("name", sorted({name for name, _ in CONFIGS}))
def test_gymnasium_make_by_registered_id(name: str) -> None:
    import gymnasium

    import parlour.interop.gymnasium as adapter

    assert f"parlour/{name}-v0" in adapter.REGISTERED
    environment = gymnasium.make(f"parlour/{name}-v0", seat=0, opponents="random")
    observation, _ = environment.reset(seed=3)
    assert environment.observation_space.contains(observation)
    done, steps = False, 0
    while not done and steps < 20:
        mask = environment.unwrapped.action_masks()
        assert np.array_equal(mask, observation["action_mask"].astype(bool))
        observation, _, terminated, truncated, _ = environment.step(int(np.flatnonzero(mask)[0]))
        done, steps = terminated or truncated, steps + 1
    check_env(environment.unwrapped)


def test_gymnasium_make_by_module_path_in_a_fresh_process() -> None:
    import subprocess
    import sys

    program = (
        "import gymnasium\n"
        "e = gymnasium.make('parlour.interop.gymnasium:parlour/yamatai-v0', players=2)\n"
        "print(e.unwrapped.game.num_players)\n"
    )
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "2"


@pytest.mark.parametrize(("name", "players"), [("hatairo", 3), ("hanbok_runway", 2)])
def test_pettingzoo_parallel_api(name: str, players: int) -> None:
    parallel_api_test(parallel_env(name, players=players), num_cycles=40)
    environment = parallel_env(name, players=players)
    observations, _ = environment.reset(seed=5)
    movers = [agent for agent in environment.agents if observations[agent]["action_mask"].any()]
    assert len(movers) == 1
    actions = {
        agent: int(np.flatnonzero(observations[agent]["action_mask"])[0]) if agent in movers else 0
        for agent in environment.agents
    }
    environment.step(actions)
    assert len(environment.unwrapped.engine_state.history) == 1


@pytest.mark.parametrize(("name", "players"), [("hanbok_runway", 2), ("yamatai", 3)])
def test_pettingzoo_state_lies_in_its_declared_space(name: str, players: int) -> None:
    """state() holds values below 0 (a Hanbok Runway token's negative value) and above 1: the
    state space carries each seat's observation bounds, so it contains every state of a game."""
    aec = env(name, players=players)
    aec.reset(seed=3)
    low, high = aec.state_space.low, aec.state_space.high
    assert low.shape == high.shape == (players * len(aec.observation_space("player_0")["observation"].low),)
    seen_negative = False
    for _agent in aec.agent_iter():
        observation, _, termination, truncation, _ = aec.last()
        state = aec.state()
        assert aec.state_space.contains(state)
        seen_negative |= bool((state < 0).any())
        aec.step(None if termination or truncation else int(np.flatnonzero(observation["action_mask"])[-1]))
    if name == "hanbok_runway":
        assert seen_negative, "no negative value met: the check would prove little"


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_observations_read_late_hold_the_position_they_were_made_at(name: str, players: int) -> None:
    """An observation works its tensor and mask out when read; read after the game went on (or
    after a reset), it gives what an eager one would have held, and copies and pickles carry it."""
    import copy
    import pickle

    from parlour.interop.encoding import state_tensor
    from parlour.interop.spaces import legal_mask

    aec = env(name, players=players)
    aec.reset(seed=5)
    rng = Rng(5)
    kept: list[tuple[dict, np.ndarray, np.ndarray]] = []
    for step in range(40):
        agent = aec.agent_selection
        if aec.terminations[agent] or aec.truncations[agent]:
            break
        seat = aec.possible_agents.index(agent)
        other = (seat + 1) % players
        observation = aec.observe(aec.possible_agents[other])
        eager = state_tensor(aec.engine_state, other), legal_mask(aec.engine_state, other)
        if step % 3 == 0:  # read one key now, the other later
            assert np.array_equal(observation["action_mask"], eager[1])
        kept.append((observation, *eager))
        legal = [action.id for action in aec.engine_state.legal_actions()]
        aec.step(rng.choice(legal))
    aec.reset(seed=6)
    for observation, tensor, mask in kept:
        for held in (observation, copy.deepcopy(observation), pickle.loads(pickle.dumps(observation))):
            assert np.array_equal(held["observation"], tensor)
            assert np.array_equal(dict(held)["action_mask"], mask)
            assert held.keys() == {"observation", "action_mask"}
