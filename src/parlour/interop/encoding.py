"""Observation tensors computed from a seat's view.

Each game has an encoder (in `parlour.interop.encoders`) that turns `state.view(seat)` — and only
that — into a flat float32 vector of fixed length. Because the input is the view, a tensor can never
carry what the seat may not see. The `Features` builder keeps encoders short and their layout
fixed: every call appends the same number of values whatever the view holds.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from parlour.engine.errors import InvalidOption
from parlour.engine.game import Game


class Vocabulary(tuple[Any, ...]):
    """An ordered list of names with constant-time lookup of each name's slot."""

    slots: dict[Any, int]

    def __new__(cls, names: Iterable[Any]) -> Vocabulary:
        vocabulary = super().__new__(cls, names)
        vocabulary.slots = {name: index for index, name in enumerate(vocabulary)}
        return vocabulary


def _slots(vocabulary: Sequence[Any]) -> dict[Any, int]:
    if isinstance(vocabulary, Vocabulary):
        return vocabulary.slots
    return {name: index for index, name in enumerate(vocabulary)}


class Features:
    """Appends fixed-size groups of numbers, keeping only the non-zero ones: views are sparse, so
    this is much cheaper than building long lists of zeros. `array()` is the finished tensor."""

    def __init__(self) -> None:
        self.size = 0
        self.nonzero: dict[int, float] = {}

    def flag(self, on: bool) -> None:
        if on:
            self.nonzero[self.size] = 1.0
        self.size += 1

    def number(self, value: float | None, scale: float = 1.0) -> None:
        """A quantity, divided by `scale` so typical values fall in [0, 1]; None counts as 0."""
        if value:
            self.nonzero[self.size] = float(value) / scale
        self.size += 1

    def one_hot(self, value: Any, vocabulary: Sequence[Any]) -> None:
        """One slot per vocabulary entry; all zero when `value` is None or not in it."""
        slot = _slots(vocabulary).get(value) if value is not None else None
        if slot is not None:
            self.nonzero[self.size + slot] = 1.0
        self.size += len(vocabulary)

    def counts(self, items: Iterable[Any] | Mapping[Any, float], vocabulary: Sequence[Any], scale: float = 1.0) -> None:
        """How many of each vocabulary entry (a list of names, or a name -> count mapping)."""
        slots = _slots(vocabulary)
        pairs = items.items() if isinstance(items, Mapping) else ((item, 1) for item in items)
        for name, count in pairs:
            slot = slots.get(name)
            if slot is not None and count:
                index = self.size + slot
                self.nonzero[index] = self.nonzero.get(index, 0.0) + float(count) / scale
        self.size += len(vocabulary)

    def array(self) -> np.ndarray:
        tensor = np.zeros(self.size, np.float32)
        if self.nonzero:
            tensor[list(self.nonzero)] = list(self.nonzero.values())
        return tensor


class Encoder(Protocol):
    def __call__(self, view: Mapping[str, Any], seat: int | None, game: Game) -> Features: ...


def encoder_for(game: Game) -> Encoder:
    """The tensor encoder of a game; raises InvalidOption when interop has none for it."""
    try:
        module = importlib.import_module(f"parlour.interop.encoders.{game.name}")
    except ModuleNotFoundError:
        raise InvalidOption(f"interop has no observation encoder for {game.name}") from None
    encode: Encoder = module.encode
    return encode


def observation_tensor(game: Game, view: Mapping[str, Any], seat: int | None) -> np.ndarray:
    """The seat's observation as a float32 vector, computed from its view alone."""
    return encoder_for(game)(view, seat, game).array()


def observation_size(game: Game) -> int:
    """The tensor length, read off the starting position (every position gives the same length)."""
    state = game.new_state(seed=0)
    return len(observation_tensor(game, state.view(0), 0))
