"""Observation and action spaces shared by the PettingZoo and Gymnasium adapters."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from gymnasium import spaces

from parlour.engine.errors import InvalidOption
from parlour.engine.game import Game
from parlour.engine.game import State as EngineState
from parlour.interop.encoding import bounds, state_tensor

KEYS = ("observation", "action_mask")
"""The keys of every observation, in the order of the observation space."""


def observation_space(game: Game) -> spaces.Dict:
    """`observation`: the view's tensor; `action_mask`: 1 for each legal action id of this seat."""
    return spaces.Dict(
        {
            "observation": spaces.Box(*bounds(game), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
        }
    )


_PENDING: Any = object()
"""The stored value of a key not read yet."""


class Observation(dict[str, np.ndarray]):
    """What a seat observes at one position: a dict of `observation` (the tensor of its view) and
    `action_mask`, each worked out when first read, then kept.

    An adapter hands out an observation at every step (PettingZoo's `last`, Gymnasium's `step`),
    and a loop that only reads the mask (random play, a rule-based opponent) would otherwise pay
    for a tensor at every step, several native steps in some games. The values are those of the
    position at the moment the observation was made: read after the game has gone on, the
    position is replayed from the game's seed and moves (the engine is deterministic), so a kept
    observation (a replay buffer) never changes. Every way of reading a dict (`[]`, `get`,
    `items`, `values`, iteration with `dict(...)` or `**`, `==`, copy, pickle) sees the values;
    a copy or an unpickled observation has them all worked out and holds no position."""

    __slots__ = ("_moves", "_seat", "_state")

    def __init__(self, state: EngineState, seat: int) -> None:
        dict.__init__(self, observation=_PENDING, action_mask=_PENDING)
        self._state, self._seat, self._moves = state, seat, len(state.history)

    def __getitem__(self, key: str) -> np.ndarray:
        value = dict.__getitem__(self, key)
        if value is _PENDING:
            state = self._position()
            value = state_tensor(state, self._seat) if key == "observation" else legal_mask(state, self._seat)
            dict.__setitem__(self, key, value)
        return value

    def _position(self) -> EngineState:
        """The position this observation was made at: the live state while it has not moved on."""
        state = self._state
        if len(state.history) == self._moves:
            return state
        replay = state.game.new_state(seed=state.seed)
        actions = state.game.actions
        for action_id in state.history[: self._moves]:
            replay.apply_legal(actions[action_id])
        self._state = replay  # later reads of the other key need no second replay
        self._moves = len(replay.history)
        return replay

    def plain(self) -> dict[str, np.ndarray]:
        """Every value worked out, as a plain dict."""
        return {key: self[key] for key in dict.keys(self)}

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if dict.__contains__(self, key) else default

    def items(self) -> Any:
        return self.plain().items()

    def values(self) -> Any:
        return self.plain().values()

    def __iter__(self) -> Iterator[str]:
        # Overridden, so that dict(observation) and f(**observation) go through keys() and [].
        return iter(dict.keys(self))

    def copy(self) -> Observation:
        return worked_out(self.plain())

    def __copy__(self) -> Observation:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Observation:
        return worked_out({key: value.copy() for key, value in self.plain().items()})

    def pop(self, key: str, *default: Any) -> Any:
        if dict.__contains__(self, key):
            value = self[key]
            dict.__delitem__(self, key)
            return value
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[str, np.ndarray]:
        key = next(reversed(dict.keys(self)))
        return key, self.pop(key)

    def setdefault(self, key: str, default: Any = None) -> Any:
        if dict.__contains__(self, key):
            return self[key]
        return dict.setdefault(self, key, default)

    def __eq__(self, other: object) -> bool:
        return self.plain() == (other.plain() if isinstance(other, Observation) else other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]

    def __or__(self, other: Any) -> Any:
        return self.plain() | other

    def __ror__(self, other: Any) -> Any:
        return other | self.plain()

    def __repr__(self) -> str:
        return repr(self.plain())

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        return worked_out, (self.plain(),)


def worked_out(values: dict[str, np.ndarray]) -> Observation:
    """An observation with these values, nothing left to work out (copies and unpickling)."""
    observation = Observation.__new__(Observation)
    dict.__init__(observation, values)
    observation._state, observation._seat, observation._moves = None, 0, 0  # type: ignore[assignment]
    return observation


def observe(state: EngineState, seat: int) -> Observation:
    """What `seat` observes now: the tensor of its view (read from the position by the game's
    writer, the same values) and the mask, empty when it is not to move, each worked out when
    first read (see `Observation`). Fresh arrays for every observation, so one kept never
    changes when the game goes on."""
    return Observation(state, seat)


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


REWARDS = ("outcome", "score")
"""What an episode's final reward is: `outcome`, the game's return (+1 sole winner, 0 each for a
shared win, -1 the others); `score`, the seat's final score in points."""


def reward_mode(game: Game, reward: str | None) -> str:
    """The reward mode asked for, checked; by default `score` for a solo game, whose return is
    clipped to the rank table's range (solo Hatairo: +1 from 120 points, though greedy play scores
    about 150), and `outcome` with opponents."""
    if reward is None:
        return "score" if game.num_players == 1 else "outcome"
    if reward not in REWARDS:
        raise InvalidOption(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
    return reward


def final_rewards(state: EngineState, mode: str) -> list[float]:
    """Each seat's reward for a finished game under the reward mode."""
    if mode == "score":
        return [float(score.total) for score in state.scores()]
    return [float(value) for value in state.returns()]


def final_info(state: EngineState) -> dict[str, Any]:
    """What a finished game tells every seat: each seat's score with its breakdown, the winners.
    Only at the end: mid-game, a score can rest on cards some seats may not see."""
    return {"scores": [score.to_json() for score in state.scores()], "winners": list(state.winners())}
