"""Observation tensors computed from a seat's view.

Each game has an encoder (in `parlour.interop.encoders`) that turns `state.view(seat)` — and only
that — into a flat float32 vector of fixed length. Because the input is the view, a tensor can never
carry what the seat may not see. The `Features` builder keeps encoders short and their layout
fixed: every call appends the same number of values whatever the view holds.
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
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


_SLOTS: dict[tuple[Any, ...], dict[Any, int]] = {}
"""Slot maps of vocabularies given as plain lists, kept so each is built once."""


def _slots(vocabulary: Sequence[Any]) -> dict[Any, int]:
    if isinstance(vocabulary, Vocabulary):
        return vocabulary.slots
    key = tuple(vocabulary)
    slots = _SLOTS.get(key)
    if slots is None:
        slots = _SLOTS[key] = {name: index for index, name in enumerate(key)}
    return slots


@dataclass(frozen=True)
class Block:
    """A named stretch of a tensor: `size` values from `offset`."""

    name: str
    offset: int
    size: int


class Features:
    """Appends fixed-size groups of numbers, keeping only the non-zero ones: views are sparse, so
    this is much cheaper than building long lists of zeros. `array()` is the finished tensor."""

    def __init__(self) -> None:
        self.size = 0
        self.nonzero: dict[int, float] = {}
        # Where each named block starts, and the slots holding quantities rather than 0/1 values.
        self.sections: list[tuple[str, int]] = []
        self.quantities: list[tuple[int, int, bool]] = []  # start, size, whether never negative

    def section(self, name: str) -> None:
        """Name the block that starts here (for `layout`)."""
        self.sections.append((name, self.size))

    def flag(self, on: bool) -> None:
        if on:
            self.nonzero[self.size] = 1.0
        self.size += 1

    def number(self, value: float | None, scale: float = 1.0) -> None:
        """A quantity, divided by `scale` so typical values fall in [0, 1]; None counts as 0."""
        if value:
            self.nonzero[self.size] = float(value) / scale
        self.quantities.append((self.size, 1, False))
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
        self.quantities.append((self.size, len(vocabulary), not isinstance(items, Mapping) and scale > 0))
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


def _starting_features(game: Game) -> Features:
    state = game.new_state(seed=0)
    return encoder_for(game)(state.view(0), 0, game)


def observation_size(game: Game) -> int:
    """The tensor length, read off the starting position (every position gives the same length)."""
    return _starting_features(game).size


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
    """The games that have an observation encoder."""
    found = {}
    for name, cls in classes.items():
        try:
            encoder_for(cls())
        except InvalidOption:
            continue
        found[name] = cls
    return found


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
    """The sizes table and each game's layout (at its default options): the text docs/interop.md
    carries; `python -m parlour.interop.encoding` prints it."""
    from parlour.engine.registry import game_classes

    parts = [sizes_table()]
    for name, cls in _encoded(game_classes()).items():
        parts.append(f"**{name}**\n\n{layout_table(cls())}")
    return "\n\n".join(parts)


if __name__ == "__main__":
    print(layout_document())
