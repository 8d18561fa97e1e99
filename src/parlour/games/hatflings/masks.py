"""Bitmasks of the floor (bit s = square s), read off the square lists in a few C-level steps.

The legal-move generator needs, for the captain to move: their halflings, those that may jump,
the rivals that may be jumped over, and the squares nobody can enter. Rather than looping over
36 squares in Python, the square lists are turned into bytes, each byte translated to "0" or "1"
by a table, and the result parsed as a binary number: `int(hats[::-1].translate(OWN[c]), 2)`.
Neighbourhoods of a whole rank are looked up per 6-bit pattern in REACH_BY_RANK.
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.games.hatflings.board import HEIGHT, NEIGHBOUR_MASK, WIDTH
from parlour.games.hatflings.pieces import BARREL, CHEATING, EMPTY


def _table(test: Callable[[int], object]) -> bytes:
    return bytes(ord("1") if test(code) else ord("0") for code in range(256))


OWN = (_table(lambda h: h and h & 1 == 0), _table(lambda h: h and h & 1 == 1))
"""Per colour: halflings wearing it."""
MOVERS = (
    _table(lambda h: h and h & 1 == 0 and h >> 1 != CHEATING),
    _table(lambda h: h and h & 1 == 1 and h >> 1 != CHEATING),
)
"""Per colour: halflings wearing it that their captain may jump with."""
WALLS = _table(lambda code: code > BARREL)
"""Scenery that keeps every halfling out: tree, column, puddle."""
FLOOR = _table(lambda code: code == EMPTY)
"""No scenery under the square's halfling (so it can be jumped over or push in as greedy)."""


def _reach_of(rank: int, pattern: int) -> int:
    reach = 0
    for x in range(WIDTH):
        if pattern >> x & 1:
            reach |= NEIGHBOUR_MASK[rank * WIDTH + x]
    return reach


REACH_BY_RANK = tuple(tuple(_reach_of(y, pattern) for pattern in range(1 << WIDTH)) for y in range(HEIGHT))
"""Per rank and 6-bit pattern of squares on it: every square surrounding one of them."""
