"""Gymnasium adapter: one seat of a parlour game against bots, as a single-agent environment.

    import gymnasium, parlour.interop.gymnasium     # registers parlour/<game>-v0 for every game
    env = gymnasium.make("parlour/hatflings-v0", seat=0, opponents="greedy")
    observation, info = env.reset(seed=1)
    observation, reward, terminated, truncated, info = env.step(action)

The opponents are agent specs (`random`, `greedy`, `mcts:iterations=200`), one for all other seats
or a comma-separated list, seeded from `reset(seed=...)`. The reward is the seat's return at the end
(+1 win, -1 loss, 0 shared). An illegal action ends the episode with reward -1 and
`info["illegal_action"]` saying why; the mask in each observation lists the legal ids.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from parlour.agents import Agent, make_agent, split_specs
from parlour.engine.errors import IllegalAction, InvalidOption
from parlour.engine.registry import game_classes, load_game
from parlour.interop.spaces import observation_space, observe, seed_from


class ParlourEnv(gymnasium.Env):  # type: ignore[misc]
    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 - the attribute Gymnasium reads

    def __init__(
        self,
        game: str,
        seat: int = 0,
        opponents: str = "random",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.game = load_game(game, **options)
        if not 0 <= seat < self.game.num_players:
            raise InvalidOption(f"seat must be 0..{self.game.num_players - 1}, got {seat}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidOption(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        specs = split_specs(opponents)
        others = [s for s in range(self.game.num_players) if s != seat]
        if len(specs) == 1:
            specs = specs * len(others)
        if len(specs) != len(others):
            raise InvalidOption(f"{len(others)} opponents are needed, got {len(specs)} specs")
        self.opponent_specs = dict(zip(others, specs, strict=True))
        for spec in specs:
            make_agent(spec)  # refuse a bad spec now, not at the first reset
        self.seat = seat
        self.render_mode = render_mode
        self.observation_space = observation_space(self.game)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.state = self.game.new_state(seed=0)
        self.opponents: dict[int, Agent] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = seed_from(self.np_random)
        self.state = self.game.new_state(seed=game_seed)
        self.opponents = {s: make_agent(spec, game_seed + 1 + s) for s, spec in self.opponent_specs.items()}
        self._let_opponents_play()
        return observe(self.state, self.seat), {}

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self.state.is_terminal():
            raise RuntimeError("the episode is over; call reset()")
        try:
            self.state.apply(int(action))
        except IllegalAction as error:
            return observe(self.state, self.seat), -1.0, True, False, {"illegal_action": str(error)}
        self._let_opponents_play()
        done = self.state.is_terminal()
        reward = float(self.state.returns()[self.seat]) if done else 0.0
        if self.render_mode == "human":
            self.render()
        return observe(self.state, self.seat), reward, done, False, {}

    def _let_opponents_play(self) -> None:
        while not self.state.is_terminal() and self.state.current_player() != self.seat:
            mover = self.state.current_player()
            self.state.apply(self.opponents[mover].act(self.state))

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


def env_id(game: str) -> str:
    """The Gymnasium id of a parlour game: `parlour/<game>-v0`."""
    return f"parlour/{game}-v0"


def register_all() -> list[str]:
    """Register `parlour/<game>-v0` for every game (idempotent); keyword arguments of
    `gymnasium.make` go to `ParlourEnv` (seat, opponents, render_mode and the game's options)."""
    ids = []
    for name in game_classes():
        identifier = env_id(name)
        if identifier not in gymnasium.registry:
            gymnasium.register(id=identifier, entry_point=f"{__name__}:ParlourEnv", kwargs={"game": name})
        ids.append(identifier)
    return ids


REGISTERED = register_all()
"""The ids registered when this module was imported."""
