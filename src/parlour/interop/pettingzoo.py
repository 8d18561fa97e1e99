"""PettingZoo adapter: every parlour game as an AEC environment (and, turn-based, a parallel one).

    from parlour.interop.pettingzoo import env
    e = env("hanbok_runway", render_mode="ansi")
    e.reset(seed=7)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(observation["action_mask"])
        e.step(action)

Agents are `player_0` … `player_{n-1}`. Observations are dicts with the view's tensor and an
action mask. `max_steps` truncates a game after that many actions (every agent's `truncation`
becomes true, rewards stay 0); `state()` is every seat's observation tensor side by side, for
centralised critics (it shows what the seats see together, never the hidden deck order).
The final rewards are each seat's return (+1 win, -1 loss, 0 shared) or, with `reward="score"`
(the default in solo games), its score in points; at the end every agent's `info` holds every
seat's score with its breakdown and the winners.
An illegal action is handled as PettingZoo's classic environments do: the game ends, the player
who made it gets -1 and the others 0, and `info["illegal_action"]` says why.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from parlour.engine.errors import IllegalAction, InvalidOption
from parlour.engine.game import Game
from parlour.engine.registry import load_game
from parlour.interop.encoding import bounds, state_tensor
from parlour.interop.spaces import final_info, final_rewards, observation_space, observe, reward_mode, seed_from

RENDER_MODES = ("ansi", "human")


class ParlourAECEnv(AECEnv):  # type: ignore[misc]
    metadata: dict[str, Any]

    def __init__(
        self, game: Game, render_mode: str | None = None, max_steps: int | None = None, reward: str | None = None
    ) -> None:
        super().__init__()
        if render_mode not in (None, *RENDER_MODES):
            raise InvalidOption(f"render_mode must be one of {RENDER_MODES}, got {render_mode!r}")
        if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1):
            raise InvalidOption(f"max_steps must be a positive whole number or None, got {max_steps!r}")
        self.game = game
        self.reward_mode = reward_mode(game, reward)
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": list(RENDER_MODES),
            "is_parallelizable": False,
            "name": f"parlour_{game.name}_v0",
        }
        self.possible_agents = [f"player_{seat}" for seat in range(game.num_players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {agent: observation_space(game) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(game.num_actions) for agent in self.possible_agents}
        # every seat's tensor side by side, so each stretch has the observation's own bounds
        low, high = bounds(game)
        self.state_space = spaces.Box(np.tile(low, game.num_players), np.tile(high, game.num_players), dtype=np.float32)
        self._np_random = np.random.default_rng()
        self.engine_state = game.new_state(seed=0)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        self.engine_state = self.game.new_state(seed=seed_from(self._np_random))
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.engine_state.current_player()]

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation; its tensor and mask are worked out when read (`Observation`)."""
        return observe(self.engine_state, self._seats[agent])

    def state(self) -> np.ndarray:
        """Every seat's observation tensor, seat 0 first: what the seats see together."""
        seats = range(self.game.num_players)
        return np.concatenate([state_tensor(self.engine_state, seat) for seat in seats])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        # Rewards are 0 until the game ends, so no step before the last has any to clear or add.
        self._cumulative_rewards[agent] = 0.0
        engine_state = self.engine_state
        try:
            if action is None:
                raise IllegalAction("no action given")
            engine_state.apply(int(action))
        except IllegalAction as error:
            self._end({name: (-1.0 if name == agent else 0.0) for name in self.agents})
            self.infos[agent] = {"illegal_action": str(error)}
        else:
            if engine_state.is_terminal():
                rewards = final_rewards(engine_state, self.reward_mode)
                self._end({name: rewards[seat] for seat, name in enumerate(self.possible_agents)})
                self.infos = {name: final_info(engine_state) for name in self.agents}
            else:
                self.agent_selection = self.possible_agents[engine_state.current_player()]
                if self.max_steps is not None and len(engine_state.history) >= self.max_steps:
                    self.truncations = {name: True for name in self.agents}
        if self.render_mode == "human":
            self.render()

    def _end(self, rewards: dict[str, float]) -> None:
        self.rewards = rewards
        self.terminations = {name: True for name in self.agents}
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text: str = self.engine_state.render(None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def parallel_env(
    game: str, render_mode: str | None = None, max_steps: int | None = None, reward: str | None = None, **options: Any
) -> Any:
    """The same game through PettingZoo's parallel API (`turn_based_aec_to_parallel`): every
    agent sends an action each step, and only that of the agent to move counts (the others' masks
    are empty). parlour games resolve one seat's decision at a time, hidden simultaneous choices
    (Hatairo's set-up) included, so this is the turn-based form, not joint moves."""
    return turn_based_aec_to_parallel(env(game, render_mode=render_mode, max_steps=max_steps, reward=reward, **options))


def env(
    game: str, render_mode: str | None = None, max_steps: int | None = None, reward: str | None = None, **options: Any
) -> ParlourAECEnv:
    """The AEC environment of a parlour game; options as for `parlour.load_game`."""
    return ParlourAECEnv(load_game(game, **options), render_mode=render_mode, max_steps=max_steps, reward=reward)
