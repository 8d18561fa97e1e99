"""Gymnasium and PettingZoo as learning loops use them: vector environments from the registered
ids, opponents that are policies (self-play), a seat drawn at each reset, what `info` carries, and
a solo game's reward over its whole range."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import gymnasium
import numpy as np
import pytest

import parlour.interop.gymnasium as adapter
from parlour.agents import make_agent
from parlour.engine.errors import InvalidOption
from parlour.interop.gymnasium import OpponentError, ParlourEnv, frozen_copy, model_policy
from parlour.interop.pettingzoo import env as aec_env

GAMES = ["hanbok_runway", "hatairo", "hatflings", "yamatai"]


@pytest.fixture(autouse=True)
def quiet_library_warnings() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def first_legal(observation: Any) -> int:
    """A policy: the lowest legal action id."""
    return int(np.flatnonzero(observation["action_mask"])[0])


def play_out(env: gymnasium.Env, seed: int, policy: Any = first_legal) -> tuple[float, dict[str, Any], int]:
    observation, info = env.reset(seed=seed)
    reward, done, steps = 0.0, False, 0
    while not done:
        observation, reward, terminated, truncated, info = env.step(policy(observation))
        done, steps = terminated or truncated, steps + 1
    return float(reward), info, steps


# --- vector environments from the registered ids ---------------------------------------------------


def test_an_unsupported_render_mode_is_a_type_error_so_make_vec_env_falls_back() -> None:
    """stable-baselines3's `make_vec_env` makes each environment with `render_mode="rgb_array"`
    and, on a TypeError, again without it; any other error used to end there."""
    with pytest.raises(TypeError, match="render_mode must be one of"):
        gymnasium.make(adapter.env_id("hatflings"), render_mode="rgb_array")
    with pytest.raises(InvalidOption, match="rgb_array"):
        ParlourEnv("hatflings", render_mode="rgb_array")
    environment = gymnasium.make(adapter.env_id("hatflings"))
    assert environment.unwrapped.render_mode is None


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasium_vector_envs_from_the_registered_id(mode: str) -> None:
    envs = gymnasium.make_vec(
        adapter.env_id("hatflings"), num_envs=2, vectorization_mode=mode, vector_kwargs={}, opponents="random"
    )
    try:
        observations, infos = envs.reset(seed=3)
        assert observations["observation"].shape == (2, *envs.single_observation_space["observation"].shape)
        finished = 0
        for _ in range(120):
            # a finished episode's mask is empty; the next step resets it and ignores the action
            actions = [int(np.flatnonzero(mask)[0]) if mask.any() else 0 for mask in observations["action_mask"]]
            observations, _, terminated, _, infos = envs.step(np.array(actions))
            assert infos["action_mask"].shape == (2, envs.single_action_space.n)
            finished += int(terminated.sum())
        assert finished > 0
    finally:
        envs.close()


# --- opponents that are policies, a drawn seat ------------------------------------------------------


def test_self_play_against_a_policy_that_sees_its_own_seat() -> None:
    seen: list[tuple[int, int]] = []

    def opponent(observation: Any) -> int:
        environment_state = env.unwrapped.state
        mover = environment_state.current_player()
        legal = {action.id for action in environment_state.legal_actions()}
        assert set(np.flatnonzero(observation["action_mask"])) == legal, "the mask is the opponent's own"
        seen.append((mover, first_legal(observation)))
        return first_legal(observation)

    env = gymnasium.make(adapter.env_id("hatflings"), seat=0, opponents=opponent)
    reward, info, _ = play_out(env, seed=1)
    assert seen and {mover for mover, _ in seen} == {1}
    assert reward in (-1.0, 0.0, 1.0) and sorted(info["winners"]) == info["winners"]


def test_a_policy_as_a_trained_model_for_self_play() -> None:
    """`model_policy` wraps anything with stable-baselines3's `predict(observation, action_masks=...)`."""

    class Model:
        def __init__(self) -> None:
            self.calls = 0

        def predict(self, observation: dict[str, np.ndarray], action_masks: np.ndarray, deterministic: bool) -> Any:
            assert set(observation) == {"observation", "action_mask"} and action_masks.dtype == bool
            self.calls += 1
            return np.int64(np.flatnonzero(action_masks)[-1]), None

    frozen = Model()
    env = ParlourEnv("hanbok_runway", opponents=[model_policy(frozen)])
    play_out(env, seed=2)
    assert frozen.calls > 0


def test_a_frozen_copy_keeps_the_model_as_it_was() -> None:
    """`frozen_copy` saves the model and loads it again (stable-baselines3's `save` and `load`):
    training the learner afterwards leaves the copy's choices as they were."""

    class Model:
        def __init__(self, preference: int) -> None:
            self.preference = preference

        def save(self, file: Any) -> None:
            file.write(str(self.preference).encode())

        @classmethod
        def load(cls, file: Any, device: str) -> Model:
            assert device == "cpu"
            return cls(int(file.read().decode()))

        def predict(self, observation: dict[str, np.ndarray], action_masks: np.ndarray, deterministic: bool) -> Any:
            legal = np.flatnonzero(action_masks)
            return legal[min(self.preference, len(legal) - 1)], None

    learner = Model(0)
    copy = frozen_copy(learner)
    env = ParlourEnv("hatflings", opponents=copy)
    observation, _ = env.reset(seed=1)
    mask = observation["action_mask"]
    assert copy({"observation": observation["observation"], "action_mask": mask}) == np.flatnonzero(mask)[0]
    learner.preference = 3  # the learner trains on
    assert copy({"observation": observation["observation"], "action_mask": mask}) == np.flatnonzero(mask)[0]
    play_out(env, seed=2)


def test_an_opponent_policy_choosing_an_illegal_action_says_so() -> None:
    env = ParlourEnv("hatflings", seat=1, opponents=lambda observation: 10_000)
    with pytest.raises(OpponentError, match="seat 0 chose 10000"):
        env.reset(seed=0)


def test_opponents_mix_specs_agents_and_policies_one_per_seat() -> None:
    env = ParlourEnv("yamatai", players=3, opponents=[make_agent("random", 1), first_legal])
    _, info, _ = play_out(env, seed=4)
    assert len(info["scores"]) == 3
    with pytest.raises(InvalidOption, match="2 opponents are needed, got 3"):
        ParlourEnv("yamatai", players=3, opponents=["random", "random", "greedy"])
    with pytest.raises(InvalidOption, match="callable policy"):
        ParlourEnv("yamatai", players=3, opponents=[3, "random"])


def test_the_learners_seat_may_be_drawn_at_each_reset() -> None:
    env = ParlourEnv("hatflings", seat="random")
    seats = set()
    for seed in range(12):
        observation, info = env.reset(seed=seed)
        seats.add(info["seat"])
        assert env.seat == info["seat"] == env.state.current_player()
        assert observation["action_mask"].any()
    assert seats == {0, 1}
    again = ParlourEnv("hatflings", seat="random")
    assert [again.reset(seed=seed)[1]["seat"] for seed in range(12)] == [
        env.reset(seed=seed)[1]["seat"] for seed in range(12)
    ], "the draw follows the reset seed"
    with pytest.raises(InvalidOption, match=r"seat must be 0\.\.1 or 'random'"):
        ParlourEnv("hatflings", seat="left")


# --- what info carries ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_info_carries_the_action_mask_and_at_the_end_the_score_breakdown(name: str) -> None:
    env = ParlourEnv(name, opponents="random")
    observation, info = env.reset(seed=5)
    steps = 0
    while True:
        assert np.array_equal(info["action_mask"], env.action_masks())
        assert np.array_equal(info["action_mask"], observation["action_mask"].astype(bool))
        assert "scores" not in info, "no score mid-game: it may rest on what some seats cannot see"
        observation, reward, terminated, truncated, info = env.step(first_legal(observation))
        steps += 1
        if terminated or truncated:
            break
    scores = env.state.scores()
    assert info["scores"] == [score.to_json() for score in scores]
    assert all(set(entry) == {"total", "breakdown", "tiebreak"} for entry in info["scores"])
    assert info["winners"] == env.state.winners() and not info["action_mask"].any()
    assert reward == env.state.returns()[env.seat]


# --- the reward ------------------------------------------------------------------------------------------


def test_solo_hatairo_rewards_the_score_over_its_whole_range() -> None:
    """Greedy play scores well above 120 solo, where the game's return is clipped to +1."""
    env = ParlourEnv("hatairo", players=1)
    greedy = make_agent("greedy", 0)
    env.reset(seed=0)
    done, reward = False, 0.0
    while not done:
        _, reward, done, _, info = env.step(greedy.act(env.state).id)
    total = env.state.scores()[0].total
    assert total > 120 and reward == total == info["scores"][0]["total"]
    assert env.state.returns() == [1.0]
    outcome = ParlourEnv("hatairo", players=1, reward="outcome")
    assert play_out(outcome, seed=0)[0] == outcome.state.returns()[0]


def test_the_reward_can_be_the_score_with_opponents_too() -> None:
    env = ParlourEnv("hatflings", reward="score")
    reward, info, _ = play_out(env, seed=6)
    assert reward == info["scores"][0]["total"]
    with pytest.raises(InvalidOption, match="reward must be one of outcome, score, got 'points'"):
        ParlourEnv("hatflings", reward="points")


def test_pettingzoo_final_rewards_and_infos() -> None:
    aec = aec_env("hatairo", players=1)
    aec.reset(seed=1)
    for _ in aec.agent_iter():
        observation, reward, termination, truncation, info = aec.last()
        aec.step(None if termination or truncation else first_legal(observation))
    state = aec.engine_state
    assert reward == state.scores()[0].total
    assert info["scores"] == [score.to_json() for score in state.scores()]
    two = aec_env("hanbok_runway")
    two.reset(seed=2)
    rewards = {}
    for agent in two.agent_iter():
        observation, reward, termination, truncation, info = two.last()
        if termination or truncation:
            rewards[agent] = reward
            assert info["winners"] == two.engine_state.winners()
        two.step(None if termination or truncation else first_legal(observation))
    assert [rewards[f"player_{seat}"] for seat in range(2)] == [float(v) for v in two.engine_state.returns()]
