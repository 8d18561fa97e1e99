"""A small seeded generator (SplitMix64) whose whole state is one integer.

Search clones states thousands of times a second; `random.Random` carries 625 words of state,
this carries one, so copying it is free. The sequence is fixed by the algorithm, so a seed gives
the same game on every platform and Python version.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Rng:
    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        # Mix the seed once so that nearby seeds start far apart.
        self.state = (seed * 0xD1B54A32D192ED03 + _GOLDEN) & _MASK

    def next64(self) -> int:
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        """A float in [0, 1)."""
        return (self.next64() >> 11) * (1.0 / 9007199254740992.0)

    def randrange(self, n: int) -> int:
        """An integer in [0, n). The modulo bias is below 2**-40 for any n a game uses."""
        if n <= 0:
            raise ValueError(f"randrange needs a positive bound, got {n}")
        return self.next64() % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.next64() % len(items)]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        # `next64` written out in the loop: search shuffles whole decks on every determinization,
        # and the method calls cost more than the arithmetic. Same sequence as calling next64().
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            state = z = (state + _GOLDEN) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = (z ^ (z >> 31)) % (i + 1)
            items[i], items[j] = items[j], items[i]
        self.state = state

    def skip(self, draws: int) -> None:
        """Move on as if `next64` had been called `draws` times, at no cost: the state is a counter
        that each draw advances by the same constant. A game can note a shuffle it may never need
        (a clone of the generator) and carry on drawing as though it had been done."""
        self.state = (self.state + draws * _GOLDEN) & _MASK

    def spawn(self) -> Rng:
        """An independent generator derived from this one's next output."""
        return Rng(self.next64())

    def clone(self) -> Rng:
        twin = Rng.__new__(Rng)
        twin.state = self.state
        return twin
