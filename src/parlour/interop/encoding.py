"""Observation tensors computed from a seat's view.

Each game carries its encoder (`parlour.games.<game>.encoder`, standard library only) that turns
`state.view(seat)` — and only that — into a `Features` of fixed length (`parlour.engine.tensor`).
Because the input is the view, a tensor can never carry what the seat may not see. This module
finds a game's encoder and makes numpy arrays, layouts and bounds from what it builds.

Building a view and then a `Features` costs several native steps, too much for an adapter that
hands out a tensor at every step. So an encoder module may also offer `write(state, seat, out)`:
the same values written straight into a zeroed buffer, read from the position without building
the view. `state_tensor` uses it where a game offers it. The view-based `encode` stays the
definition: tests/interop/test_fast_encoders.py checks `write` against it, value for value, over
many random positions of every game and player count, and the hidden-information conformance
checks go through the adapters' observations, so a `write` that read something hidden would fail.
"""

from __future__ import annotations

import functools
import importlib
import itertools
from collections.abc import Mapping, MutableSequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

import numpy as np

from parlour.engine.errors import InvalidOption
from parlour.engine.game import Game
from parlour.engine.game import State as EngineState
from parlour.engine.tensor import Features


@dataclass(frozen=True)
class Block:
    """A named stretch of a tensor: `size` values from `offset`."""

    name: str
    offset: int
    size: int


class Encoder(Protocol):
    def __call__(self, view: Mapping[str, Any], seat: int | None, game: Game) -> Features: ...


class Writer(Protocol):
    """`encode(state.view(seat), seat, game)`'s values written into `out` (zeros, of the tensor's
    length), read from the position directly."""

    def __call__(self, state: Any, seat: int | None, out: MutableSequence[float]) -> None: ...


def encoder_for(game: Game | type[Game]) -> Encoder:
    """The tensor encoder of a game (the module `encoder` beside its Game class); raises
    InvalidOption when the game carries none."""
    cls = game if isinstance(game, type) else type(game)
    package = cls.__module__.rsplit(".", 1)[0]
    try:
        module = importlib.import_module(f"{package}.encoder")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.encoder":
            raise
        raise InvalidOption(f"{cls.name} has no observation encoder (a module {package}.encoder)") from None
    encode: Encoder = module.encode
    return encode


def writer_for(game: Game | type[Game]) -> Writer | None:
    """The game's fast tensor writer (`write` in its encoder module), or None when it has none."""
    if not has_encoder(game):
        return None
    cls = game if isinstance(game, type) else type(game)
    module = importlib.import_module(f"{cls.__module__.rsplit('.', 1)[0]}.encoder")
    write: Writer | None = getattr(module, "write", None)
    return write


def has_encoder(game: Game | type[Game]) -> bool:
    try:
        encoder_for(game)
    except InvalidOption:
        return False
    return True


def observation_tensor(game: Game, view: Mapping[str, Any], seat: int | None) -> np.ndarray:
    """The seat's observation as a float32 vector, computed from its view alone."""
    return as_array(encoder_for(game)(view, seat, game))


def _starting_features(game: Game) -> Features:
    state = game.new_state(seed=0)
    return encoder_for(game)(state.view(0), 0, game)


def as_array(features: Features) -> np.ndarray:
    """The finished float32 tensor of a `Features`."""
    tensor = np.zeros(features.size, np.float32)
    if features.nonzero:
        tensor[list(features.nonzero)] = list(features.nonzero.values())
    return tensor


@functools.lru_cache(maxsize=256)
def observation_size(game: Game) -> int:
    """The tensor length, read off the starting position (every position gives the same length)."""
    return _starting_features(game).size


@functools.lru_cache(maxsize=256)
def _writer(game: Game) -> Writer | None:
    return writer_for(game)


def writable(array: np.ndarray) -> MutableSequence[float]:
    """A float32 array's memory as a sequence a writer sets by index, with no copy (a memoryview
    of format 'f' reads and writes Python floats)."""
    return cast("MutableSequence[float]", array.data)


def write_observation(state: EngineState, seat: int, out: np.ndarray) -> None:
    """The seat's observation tensor written into `out` (float32, of the tensor's length): by the
    game's `write` where it has one, else from its view."""
    write = _writer(state.game)
    if write is None:
        out[:] = observation_tensor(state.game, state.view(seat), seat)
        return
    out.fill(0.0)
    write(state, seat, writable(out))


def state_tensor(state: EngineState, seat: int) -> np.ndarray:
    """The seat's observation tensor, a new array: the same values as `observation_tensor` of its
    view, computed without the view where the game's encoder offers `write`."""
    game = state.game
    write = _writer(game)
    if write is None:
        return observation_tensor(game, state.view(seat), seat)
    tensor = np.zeros(observation_size(game), np.float32)
    write(state, seat, writable(tensor))
    return tensor


def layout(game: Game) -> list[Block]:
    """The tensor's named blocks in order, as the game's encoder lays them out."""
    features = _starting_features(game)
    starts = [*features.sections, ("end", features.size)]
    if not features.sections or features.sections[0][1] != 0:
        starts.insert(0, ("(unnamed)", 0))
    return [Block(name, offset, following - offset) for (name, offset), (_, following) in itertools.pairwise(starts)]


def bounds(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """Each value's lowest and highest possible value: flags and one-hot slots lie in [0, 1];
    counts of listed items are at least 0; other quantities (amounts, and counts given as a
    mapping) are unbounded: a scale is a typical value, not a limit, and some (a score, a token's
    value) may be negative."""
    features = _starting_features(game)
    low = np.zeros(features.size, np.float32)
    high = np.ones(features.size, np.float32)
    for start, size, nonnegative in features.quantities:
        low[start : start + size] = 0.0 if nonnegative else -np.inf
        high[start : start + size] = np.inf
    return low, high


def layout_table(game: Game) -> str:
    """The layout as a Markdown table (docs/interop.md holds these, checked against the code)."""
    rows = [f"| {block.name} | {block.offset} | {block.size} |" for block in layout(game)]
    return "\n".join(["| block | offset | size |", "| --- | --- | --- |", *rows])


def _encoded(classes: Mapping[str, type[Game]]) -> dict[str, type[Game]]:
    """The games parlour ships (not ones installed as packages of their own) that have an encoder."""
    return {
        name: cls for name, cls in classes.items() if cls.__module__.startswith("parlour.games.") and has_encoder(cls)
    }


def sizes_table() -> str:
    """Tensor length and action count of every game at each player count, as a Markdown table."""
    from parlour.engine.registry import game_classes

    rows = ["| game | players | tensor length | actions |", "| --- | --- | --- | --- |"]
    for name, cls in _encoded(game_classes()).items():
        for players in cls.player_counts():
            game = cls(players=players)
            rows.append(f"| {name} | {players} | {observation_size(game)} | {game.num_actions} |")
    return "\n".join(rows)


def layout_document() -> str:
    """The sizes table and each game's layout (at its default options), for the games parlour
    ships: the text docs/interop.md carries; `python -m parlour.interop.encoding` prints it
    (`layout_table(game)` gives any game's, a game of its own package too)."""
    from parlour.engine.registry import game_classes

    parts = [sizes_table()]
    for name, cls in _encoded(game_classes()).items():
        parts.append(f"**{name}**\n\n{layout_table(cls())}")
    return "\n\n".join(parts)


if __name__ == "__main__":
    print(layout_document())
