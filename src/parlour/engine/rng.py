"""A small seeded generator (SplitMix64) whose whole state is one integer.

Search clones states thousands of times a second; `random.Random` carries 625 words of state,
this carries one, so copying it is free. The sequence is fixed by the algorithm, so a seed gives
the same game on every platform and Python version.

The shuffles every game needs live here, as one facility:

- `shuffle`: Fisher-Yates, one draw per item but the last (`shuffle_draws`);
- `shuffle_sparingly`: the same idea with one draw serving several items, for games that shuffle
  many short lists on every determinization;
- `redeal`: hidden items put in a fixed (sorted) order and then shuffled, so the result depends
  only on which items are hidden and on the generator, never on the order they really lay in;
- `defer`: note a shuffle (or any draws) now and do it later, the generator moving on at once as
  if it had been done, so a determinization pays only for the decks a search actually reads.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence, Sequence
from typing import TYPE_CHECKING, Final, TypeVar

from parlour.engine.compile_hints import mypyc_attr

if TYPE_CHECKING:
    from mypy_extensions import i64

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_SLACK = 1 << 32
"""`shuffle_sparingly` draws afresh once fewer than 32 bits of the current draw are left unread."""


def _wraps(x: i64) -> bool:
    """Whether `x * 4` wraps round to 0 for `x = 2**62`: only where `i64` is a machine integer."""
    return x * 4 == 0


_NATIVE: Final = _wraps(1 << 62)
"""Whether `i64` is a machine integer that wraps round at 64 bits (the compiled build) rather than
a plain int (interpreted). Compiled, values from 2**62 up do not fit mypyc's tagged ints and every
draw would allocate several big ints; there the generator computes on the state as a signed 64-bit
integer (two's complement, the same bits) and converts only at the edges, giving exactly the same
numbers. Interpreted, masked ints are the faster way to the same numbers."""


def _signed(state: int) -> i64:
    """The unsigned 64-bit `state` as the signed i64 of the same bits (compiled build only)."""
    if state > 0x7FFFFFFFFFFFFFFF:
        return state - (1 << 64)
    return state


def _unsigned(z: i64) -> int:
    """The signed i64 `z` as the unsigned 64-bit int of the same bits (compiled build only)."""
    if z < 0:
        return int(z) + (1 << 64)
    return int(z)


def _mixed(z: i64) -> i64:
    """SplitMix64's output function on wrapping i64: `>>` sign-extends, so each logical shift
    masks off the copied sign bits."""
    z = (z ^ ((z >> 30) & 0x3FFFFFFFF)) * -4658895280553007687  # 0xBF58476D1CE4E5B9
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * -7723592293110705685  # 0x94D049BB133111EB
    return z ^ ((z >> 31) & 0x1FFFFFFFF)


def _unsigned_mod(z: i64, n: i64) -> i64:
    """The unsigned value of `z`'s bits modulo `0 < n < 2**62`, on i64: halved (logically) first
    when the sign bit is set, so nothing overflows."""
    if z >= 0:
        return z % n
    return (((z >> 1) & 0x7FFFFFFFFFFFFFFF) % n * 2 + (z & 1)) % n


def shuffle_draws(count: int) -> int:
    """How many draws `Rng.shuffle` of `count` items takes: one per item but the last."""
    return max(count - 1, 0)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Rng:
    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        # Mix the seed once so that nearby seeds start far apart.
        self.state = (seed * 0xD1B54A32D192ED03 + _GOLDEN) & _MASK

    def next64(self) -> int:
        if _NATIVE:
            s = _signed(self.state) - 7046029254386353131  # + _GOLDEN, wrapping
            self.state = _unsigned(s)
            return _unsigned(_mixed(s))
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
        if _NATIVE and n < 1 << 62 and type(self) is Rng:  # a subclass may count its next64 calls
            s = _signed(self.state) - 7046029254386353131
            self.state = _unsigned(s)
            return _unsigned_mod(_mixed(s), n)
        return self.next64() % n

    def choice(self, items: Sequence[T]) -> T:
        if _NATIVE and type(self) is Rng:
            s = _signed(self.state) - 7046029254386353131
            self.state = _unsigned(s)
            return items[_unsigned_mod(_mixed(s), len(items))]
        return items[self.next64() % len(items)]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        # `next64` written out in the loop: search shuffles whole decks on every determinization,
        # and the method calls cost more than the arithmetic. Same sequence as calling next64().
        if _NATIVE:
            s = _signed(self.state)
            for k in range(len(items) - 1, 0, -1):
                s -= 7046029254386353131
                m = _unsigned_mod(_mixed(s), k + 1)
                items[k], items[m] = items[m], items[k]
            self.state = _unsigned(s)
            return
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            state = z = (state + _GOLDEN) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = (z ^ (z >> 31)) % (i + 1)
            items[i], items[j] = items[j], items[i]
        self.state = state

    def shuffle_sparingly(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place, drawing about once per 32 bits of randomness used.

        Each 64-bit draw is read as digits in the mixed radix n, n-1, ... of the shuffle, and a new
        value is drawn as soon as fewer than 32 bits of it are left unread, so every digit is
        uniform to within 2**-32, far below anything a game can show. A different sequence from
        `shuffle`: a game uses one or the other throughout.
        """
        value = room = 0
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            if room < n * _SLACK:
                value = self.next64()
                room = 1 << 64
            j = value % n
            value //= n
            room = (room + n - 1) // n
            items[i], items[j] = items[j], items[i]

    def redeal(self, hidden: Iterable[T]) -> list[T]:
        """The hidden items in a fixed order, shuffled: what a re-deal of them may give.

        Sorting first makes the result depend only on which items are hidden and on this
        generator, never on the order the real position holds them in (which a seat cannot see).
        """
        items = sorted(hidden)  # type: ignore[type-var]
        self.shuffle(items)
        return items

    def defer(self, draws: int) -> Rng:
        """A generator for draws to be made later, as if made now: this one moves on past them.

        Returns a copy of this generator as it stands; this one skips `draws` draws. Doing the
        draws later from the copy gives exactly what doing them now would have given.
        """
        later = self.clone()
        self.skip(draws)
        return later

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
