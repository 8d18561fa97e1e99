"""Gymnasium adapter: one seat of a parlour game against opponents, as a single-agent environment.

    import gymnasium, parlour.interop.gymnasium     # registers parlour/<game>-v0 for every game
    env = gymnasium.make("parlour/hatflings-v0", seat=0, opponents="greedy")
    observation, info = env.reset(seed=1)
    observation, reward, terminated, truncated, info = env.step(action)

Opponents are agent specs (`random`, `greedy`, `mcts:iterations=200`), agents, or policies: any
callable that takes an observation (the same dict of tensor and mask the learner gets, from the
opponent's seat) and returns an action id, such as a frozen copy of the learner for self-play
(`frozen_copy(model)`).
One for every other seat, or one per other seat in seat order. The learner's seat is fixed or,
with `seat="random"`, drawn at every reset. The reward comes when the game ends: the seat's return
(+1 win, -1 loss, 0 shared) or, with `reward="score"` (the default in solo games), its score in
points. `info` carries the action mask and the seat, and at the end every seat's score with its
breakdown. An illegal action ends the episode with reward -1 and `info["illegal_action"]`.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from parlour.agents import Agent, make_agent, split_specs
from parlour.engine.errors import IllegalAction, InvalidOption
from parlour.engine.registry import game_classes, load_game
from parlour.interop.spaces import final_info, final_rewards, observation_space, observe, reward_mode, seed_from

Policy = Callable[[Any], Any]
"""An opponent that maps an observation (`{"observation": tensor, "action_mask": mask}`) to an action id."""
Opponent = str | Agent | Policy
RANDOM_SEAT = "random"


class UnsupportedRenderMode(InvalidOption, TypeError):
    """A render mode the environment does not offer. A TypeError too, as a keyword the environment
    cannot take: stable-baselines3's `make_vec_env` asks for `rgb_array` first and, on a TypeError,
    makes the environment without a render mode."""


class OpponentError(RuntimeError):
    """An opponent policy chose an action that is not legal; the episode cannot go on."""


class ParlourEnv(gymnasium.Env):  # type: ignore[misc]
    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 - the attribute Gymnasium reads

    def __init__(
        self,
        game: str,
        seat: int | str = 0,
        opponents: Opponent | Sequence[Opponent] = "random",
        render_mode: str | None = None,
        reward: str | None = None,
        **options: Any,
    ) -> None:
        self.game = load_game(game, **options)
        players = self.game.num_players
        if seat != RANDOM_SEAT and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
            raise InvalidOption(f"seat must be 0..{players - 1} or {RANDOM_SEAT!r}, got {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UnsupportedRenderMode(
                f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}"
            )
        self.reward_mode = reward_mode(self.game, reward)
        self.opponent_list = _opponent_list(opponents, players - 1)
        self.seat_choice = seat
        self.seat = 0 if seat == RANDOM_SEAT else int(seat)
        self.render_mode = render_mode
        self.observation_space = observation_space(self.game)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.state = self.game.new_state(seed=0)
        self.opponents: dict[int, Agent | Policy] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if self.seat_choice == RANDOM_SEAT:
            self.seat = int(self.np_random.integers(self.game.num_players))
        game_seed = seed_from(self.np_random)
        self.state = self.game.new_state(seed=game_seed)
        others = [s for s in range(self.game.num_players) if s != self.seat]
        self.opponents = {
            s: make_agent(opponent, game_seed + 1 + s) if isinstance(opponent, str) else opponent
            for s, opponent in zip(others, self.opponent_list, strict=True)
        }
        self._let_opponents_play()
        observation = observe(self.state, self.seat)
        return observation, self._info(observation)

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self.state.is_terminal():
            raise RuntimeError("the episode is over; call reset()")
        try:
            self.state.apply(int(action))
        except IllegalAction as error:
            observation = observe(self.state, self.seat)
            return observation, -1.0, True, False, {**self._info(observation), "illegal_action": str(error)}
        self._let_opponents_play()
        done = self.state.is_terminal()
        reward = final_rewards(self.state, self.reward_mode)[self.seat] if done else 0.0
        if self.render_mode == "human":
            self.render()
        observation = observe(self.state, self.seat)
        return observation, reward, done, False, self._info(observation)

    def _info(self, observation: Any) -> dict[str, Any]:
        # the observation's own mask seen as booleans: one legal list per step, which a masked
        # learner reads anyway, rather than a second one
        info: dict[str, Any] = {"seat": self.seat, "action_mask": observation["action_mask"].view(bool)}
        if self.state.is_terminal():
            info.update(final_info(self.state))
        return info

    def _let_opponents_play(self) -> None:
        while not self.state.is_terminal() and self.state.current_player() != self.seat:
            mover = self.state.current_player()
            opponent = self.opponents[mover]
            if isinstance(opponent, Agent):
                self.state.apply(opponent.act(self.state))
                continue
            chosen = opponent(observe(self.state, mover))
            try:
                self.state.apply(int(chosen))
            except (IllegalAction, TypeError, ValueError) as error:
                raise OpponentError(f"the opponent policy at seat {mover} chose {chosen!r}: {error}") from None

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text: str = self.state.render(self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def action_masks(self) -> np.ndarray:
        """The legal-action mask (the name sb3-contrib's MaskablePPO looks for)."""
        mask = np.zeros(self.game.num_actions, bool)
        if not self.state.is_terminal() and self.state.current_player() == self.seat:
            mask[[action.id for action in self.state.legal_actions()]] = True
        return mask


def _opponent_list(opponents: Opponent | Sequence[Opponent], count: int) -> list[Opponent]:
    """One opponent per other seat, checked now rather than at the first reset."""
    if isinstance(opponents, str):
        chosen: list[Opponent] = list(split_specs(opponents))
    elif isinstance(opponents, Agent) or callable(opponents):
        chosen = [opponents]
    else:
        chosen = list(opponents)
    if len(chosen) == 1:
        chosen = chosen * count
    if len(chosen) != count:
        raise InvalidOption(f"{count} opponents are needed, got {len(chosen)}")
    for opponent in chosen:
        if isinstance(opponent, str):
            make_agent(opponent)  # AgentSpecError naming what is wrong
        elif not (isinstance(opponent, Agent) or callable(opponent)):
            raise InvalidOption(f"an opponent is an agent spec, an Agent or a callable policy, got {opponent!r}")
    return chosen


def model_policy(model: Any, deterministic: bool = True) -> Policy:
    """An opponent policy from a trained model with stable-baselines3's `predict` (for self-play,
    a frozen copy of the learner: `MaskablePPO.load(path)`), choosing among the legal actions."""

    def policy(observation: Any) -> int:
        mask = np.asarray(observation["action_mask"], bool)
        action, _ = model.predict(dict(observation), action_masks=mask, deterministic=deterministic)
        return int(action)

    return policy


def frozen_copy(model: Any, deterministic: bool = True) -> Policy:
    """An opponent policy of `model` as it is now, for self-play: the model is saved and loaded
    again through its own `save` and `load` (stable-baselines3's), so later training of the learner
    leaves the copy as it was."""
    buffer = io.BytesIO()
    model.save(buffer)
    buffer.seek(0)
    return model_policy(type(model).load(buffer, device="cpu"), deterministic)


def env_id(game: str) -> str:
    """The Gymnasium id of a parlour game: `parlour/<game>-v0`."""
    return f"parlour/{game}-v0"


def register_all() -> list[str]:
    """Register `parlour/<game>-v0` for every game (idempotent); keyword arguments of
    `gymnasium.make` go to `ParlourEnv` (seat, opponents, render_mode, reward and the game's options)."""
    ids = []
    for name in game_classes():
        identifier = env_id(name)
        if identifier not in gymnasium.registry:
            gymnasium.register(id=identifier, entry_point=f"{__name__}:ParlourEnv", kwargs={"game": name})
        ids.append(identifier)
    return ids


REGISTERED = register_all()
"""The ids registered when this module was imported."""
