"""Bitmasks of the floor (bit s = square s), read off the square lists in a few C-level steps.

The legal-move generator needs, for the captain to move: their halflings, those that may jump,
the rivals that may be jumped over, and the squares nobody can enter. The state keeps these masks
up to date move by move (see `HatflingsState.rebuild_masks`); this module derives them from scratch.
Rather than looping over 36 squares in Python, a square list is turned into bytes, each byte
translated to "0" or "1" by a table, and the result parsed as a binary number:
`int(hats[::-1].translate(OWN[c]), 2)`. The squares around a set of squares are found with shifts
(`around`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from parlour.games.hatflings.board import SQUARES, WIDTH
from parlour.games.hatflings.pieces import BARREL, EMPTY


def _table(test: Callable[[int], object]) -> bytes:
    return bytes(ord("1") if test(code) else ord("0") for code in range(256))


OWN = (_table(lambda h: h and h & 1 == 0), _table(lambda h: h and h & 1 == 1))
"""Per colour: halflings wearing it."""
WALLS = _table(lambda code: code > BARREL)
"""Scenery that keeps every halfling out: tree, column, puddle."""
FLOOR = _table(lambda code: code == EMPTY)
"""No scenery under the square's halfling (so it can be jumped over or push in as greedy)."""

FULL = (1 << len(SQUARES)) - 1
_OFF_FILE_A = FULL & ~sum(1 << s for s in SQUARES if s % WIDTH == 0)
_OFF_FILE_F = FULL & ~sum(1 << s for s in SQUARES if s % WIDTH == WIDTH - 1)


def around(squares: int) -> int:
    """The squares in or next to `squares` (a bitmask), by shifting it one file and one rank each way."""
    # A step east must not wrap from file f to the next rank's file a, nor a step west the other way.
    row = squares | (squares << 1 & _OFF_FILE_A) | (squares >> 1 & _OFF_FILE_F)
    return (row | row << WIDTH | row >> WIDTH) & FULL


def mask(table: bytes, codes: Sequence[int]) -> int:
    """The squares whose code `table` marks "1" (`codes` a bytearray, or a plain list of codes)."""
    return int(bytes(codes)[::-1].translate(table), 2)


def squares_of(squares: int) -> list[int]:
    """The squares of a bitmask, lowest first."""
    found = []
    while squares:
        low = squares & -squares
        squares ^= low
        found.append(low.bit_length() - 1)
    return found
