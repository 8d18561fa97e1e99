"""Shuffling with few draws from the game's generator.

`Rng.shuffle` spends one 64-bit draw per card. A set-up shuffles 96 things (two decks of 30 and
six queues of 6) and information-set search re-shuffles the decks at every determinization, so
here one draw serves several cards: each 64-bit value is read as digits in the mixed radix
n, n-1, ... of a Fisher-Yates shuffle, and a new value is drawn as soon as fewer than 32 bits of it
are left unread. Every digit is then uniform to within 2**-32, far below anything a game can show.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

from parlour.engine.rng import Rng

T = TypeVar("T")

_SLACK = 1 << 32


def shuffle(rng: Rng, items: MutableSequence[T]) -> None:
    """Fisher-Yates in place, drawing from `rng` about once per 32 bits of randomness used."""
    value = room = 0
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        if room < n * _SLACK:
            value = rng.next64()
            room = 1 << 64
        j = value % n
        value //= n
        room = (room + n - 1) // n
        items[i], items[j] = items[j], items[i]
