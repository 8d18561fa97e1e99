"""Bitmasks of the floor (bit s = square s), read off the square lists in a few C-level steps.

The legal-move generator needs, for the captain to move: their halflings, those that may jump,
the rivals that may be jumped over, and the squares nobody can enter. Rather than looping over
36 squares in Python, the square lists are turned into bytes, each byte translated to "0" or "1"
by a table, and the result parsed as a binary number: `int(hats[::-1].translate(OWN[c]), 2)`.
Scenery changes seldom, so its masks are kept per scenery list (`scenery_masks`). The squares
around a set of squares are found with shifts (`around`); all jumps of a direction at once with
JUMP_RAYS.
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.games.hatflings.board import DIRECTIONS, SQUARES, WIDTH, jump_lines
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


_SCENERY_MASKS: dict[bytes, tuple[int, int]] = {}
_SCENERY_MASKS_KEPT = 1 << 14


def scenery_masks(scenery: bytes) -> tuple[int, int]:
    """(floor, walls) of a scenery list: the squares with no scenery, and those no halfling may enter."""
    masks = _SCENERY_MASKS.get(scenery)
    if masks is None:
        if len(_SCENERY_MASKS) >= _SCENERY_MASKS_KEPT:
            _SCENERY_MASKS.clear()  # a bound on memory; long playout runs see many puddle layouts
        under = scenery[::-1]
        masks = _SCENERY_MASKS[scenery] = (int(under.translate(FLOOR), 2), int(under.translate(WALLS), 2))
    return masks


JUMP_MARGIN = 1 + WIDTH
"""The largest distance between neighbours' bits (northeast and southwest are 1 + WIDTH apart)."""


def _jump_ray(direction: int) -> tuple[int, int, int]:
    _, dx, dy = DIRECTIONS[direction]
    offset = dx + dy * WIDTH  # from a square's bit to its neighbour's in this direction
    origins = sum(1 << s for s in SQUARES if any(d == direction for d, _, _ in jump_lines(s)))
    return origins, JUMP_MARGIN + offset, 2 * JUMP_MARGIN + 2 * offset


JUMP_RAYS = tuple(_jump_ray(d) for d in range(len(DIRECTIONS)))
"""Per direction: (origin squares whose jump stays on the floor, over shift, landing shift).

All jumps of one direction are found at once: bit s of `jumpable << JUMP_MARGIN >> over_shift` is
the jumped square's bit of s, and likewise `free << 2 * JUMP_MARGIN >> landing_shift` the landing
square's. Python refuses negative shift counts, so the masks are first raised by a margin and
every direction shifts right. `origins` keeps out jumps that would wrap round the floor's edge.
"""
