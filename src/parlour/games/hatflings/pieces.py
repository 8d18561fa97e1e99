"""How a square's contents are coded: halflings and scenery as small integers.

A halfling is `kind * 2 + colour` (colour 0 or 1 is the seat whose hat it wears), 0 meaning no
halfling, so `code & 1` is its colour and `code >> 1` its kind. Scenery codes up to BARREL still let
a halfling onto the square; the pig is kept apart because it may share its set-up square with a box
or a barrel (R6).
"""

from __future__ import annotations

SPECIAL_KINDS = ("joker", "cheating", "firebug", "clumsy", "greedy", "stilts")
"""The six special halflings of each team, in the order the rulebook lists them."""
OBJECT_KINDS = ("tree", "column", "box", "barrel")
"""The scene objects captains place before the dance (puddles and the pig are not among them)."""

# Halfling kinds. A spent joker has lost its first hat (R17) and otherwise acts as a normal halfling.
NORMAL, JOKER, CHEATING, FIREBUG, CLUMSY, GREEDY, STILTS, SPENT_JOKER = range(1, 9)
KIND_NAMES = ("", "normal", *SPECIAL_KINDS, "spent joker")
SOURCE_KINDS = (NORMAL, JOKER, CHEATING, FIREBUG, CLUMSY, GREEDY, STILTS)
"""What a halfling can be introduced as: a normal one from the general pool or one of the six specials."""
ALL_SPECIALS = sum(1 << kind for kind in SOURCE_KINDS if kind != NORMAL)
"""A full special pool as a bitmask (bit `kind` set while that special is still in the pool)."""

# Scenery. Everything above BARREL blocks the square for halflings.
EMPTY, BOX, BARREL, TREE, COLUMN, PUDDLE = range(6)
"""A puddle is coded PUDDLE + owner."""
OBJECT_CODES = {"box": BOX, "barrel": BARREL, "tree": TREE, "column": COLUMN}
SCENERY_NAMES = ("", "box", "barrel", "tree", "column", "puddle", "puddle")
assert set(OBJECT_CODES) == set(OBJECT_KINDS)


def halfling(kind: int, colour: int) -> int:
    return kind * 2 + colour
