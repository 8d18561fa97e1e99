"""The builder of observation tensors, in the standard library only: games' encoders build on it
as on the rest of the engine, and `parlour.interop` (numpy) reads what they build.

Each game's encoder (`parlour.games.<game>.encoder`) turns `state.view(seat)` — and only that —
into a `Features`: a fixed-length vector kept sparse, as its non-zero values by position. The
builder keeps encoders short and their layout fixed: every call appends the same number of values
whatever the view holds, and `section` names the block that starts there. `parlour.interop`
turns a `Features` into a numpy array.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any


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

    def reserve(self, size: int) -> int:
        """Append `size` zeros and return where they start, for an encoder that fills a large
        sparse block by position (writing `nonzero[start + i]`) instead of slot by slot."""
        start = self.size
        self.size += size
        return start

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
        if value is not None:
            slots = vocabulary.slots if type(vocabulary) is Vocabulary else _slots(vocabulary)  # type: ignore[attr-defined]
            slot = slots.get(value)
            if slot is not None:
                self.nonzero[self.size + slot] = 1.0
        self.size += len(vocabulary)

    def counts(self, items: Iterable[Any] | Mapping[Any, float], vocabulary: Sequence[Any], scale: float = 1.0) -> None:
        """How many of each vocabulary entry (a list of names, or a name -> count mapping)."""
        mapping = isinstance(items, Mapping)
        if items:
            slots = vocabulary.slots if type(vocabulary) is Vocabulary else _slots(vocabulary)  # type: ignore[attr-defined]
            nonzero, size = self.nonzero, self.size
            pairs = items.items() if isinstance(items, Mapping) else ((item, 1) for item in items)
            for name, count in pairs:
                slot = slots.get(name)
                if slot is not None and count:
                    index = size + slot
                    nonzero[index] = nonzero.get(index, 0.0) + float(count) / scale
        self.quantities.append((self.size, len(vocabulary), not mapping and scale > 0))
        self.size += len(vocabulary)
