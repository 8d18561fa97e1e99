"""Observation tensors computed from a seat's view.

Each game has an encoder (in `parlour.interop.encoders`) that turns `state.view(seat)` — and only
that — into a flat list of floats of fixed length. Because the input is the view, a tensor can never
carry what the seat may not see. The `Features` builder keeps encoders short and their layout
fixed: every call appends the same number of values whatever the view holds.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from parlour.engine.errors import InvalidOption
from parlour.engine.game import Game


class Features:
    """Appends fixed-size groups of numbers; `values` is the finished tensor."""

    def __init__(self) -> None:
        self.values: list[float] = []

    def flag(self, on: bool) -> None:
        self.values.append(1.0 if on else 0.0)

    def number(self, value: float | None, scale: float = 1.0) -> None:
        """A quantity, divided by `scale` so typical values fall in [0, 1]; None counts as 0."""
        self.values.append(0.0 if value is None else float(value) / scale)

    def one_hot(self, value: Any, vocabulary: Sequence[Any]) -> None:
        """One slot per vocabulary entry; all zero when `value` is None or not in it."""
        block = [0.0] * len(vocabulary)
        if value is not None and value in vocabulary:
            block[vocabulary.index(value)] = 1.0
        self.values.extend(block)

    def counts(self, items: Iterable[Any] | Mapping[Any, float], vocabulary: Sequence[Any], scale: float = 1.0) -> None:
        """How many of each vocabulary entry (a list of names, or a name -> count mapping)."""
        block = [0.0] * len(vocabulary)
        pairs = items.items() if isinstance(items, Mapping) else ((item, 1) for item in items)
        for name, count in pairs:
            if name in vocabulary:
                block[vocabulary.index(name)] += float(count) / scale
        self.values.extend(block)


class Encoder(Protocol):
    def __call__(self, view: Mapping[str, Any], seat: int | None, game: Game) -> list[float]: ...


def encoder_for(game: Game) -> Encoder:
    """The tensor encoder of a game; raises InvalidOption when interop has none for it."""
    try:
        module = importlib.import_module(f"parlour.interop.encoders.{game.name}")
    except ModuleNotFoundError:
        raise InvalidOption(f"interop has no observation encoder for {game.name}") from None
    encode: Encoder = module.encode
    return encode


def observation_tensor(game: Game, view: Mapping[str, Any], seat: int | None) -> list[float]:
    return encoder_for(game)(view, seat, game)


def observation_size(game: Game) -> int:
    """The tensor length, read off the starting position (every position gives the same length)."""
    state = game.new_state(seed=0)
    return len(observation_tensor(game, state.view(0), 0))
