"""Observation and action spaces shared by the PettingZoo and Gymnasium adapters."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from parlour.engine.game import Game
from parlour.engine.game import State as EngineState
from parlour.interop.encoding import bounds, state_tensor


def observation_space(game: Game) -> spaces.Dict:
    """`observation`: the view's tensor; `action_mask`: 1 for each legal action id of this seat."""
    return spaces.Dict(
        {
            "observation": spaces.Box(*bounds(game), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
        }
    )


def observe(state: EngineState, seat: int) -> dict[str, Any]:
    """What `seat` observes: the tensor of its view (read from the position by the game's writer,
    the same values) and the mask, empty when it is not to move. Fresh arrays every time, so an
    observation kept (a replay buffer) never changes when the game goes on."""
    return {"observation": state_tensor(state, seat), "action_mask": legal_mask(state, seat)}


def legal_mask(state: EngineState, seat: int) -> np.ndarray:
    """1 for each legal action id when `seat` is to move, else all 0: an int8 array over a fresh
    bytearray (setting a few bytes of one is cheaper than a numpy index array)."""
    mask = bytearray(state.game.num_actions)
    if state.current_player() == seat:
        for action in state.legal_actions():
            mask[action.id] = 1
    return np.frombuffer(mask, np.int8)


def seed_from(np_random: np.random.Generator) -> int:
    return int(np_random.integers(0, 2**31 - 1))
