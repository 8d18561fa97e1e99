"""Hanbok Runway constants shared by the game, its state, reasons, views and heuristic: the steps of a
turn (section 4 of the spec), what each action does, and the seats' knowledge bits.

A neutral home: it imports nothing of the game, so every module may import it without a cycle.
"""

from __future__ import annotations

from typing import NamedTuple

INITIAL_DRAW, DRAW, SETS, OVAL_CHOICE, DISCARD, OVER = range(6)
"""The steps of a turn, as the state machine numbers them."""
PHASE_NAMES = ("initial draw", "draw", "sets", "oval", "discard", "over")

# what an action does: the `what` of its effect
DRAW_SPLIT, MAKE_SET, PASS, PEEK, FLIP, DISCARD_STYLE, DISCARD_FABRIC = range(7)


class Effect(NamedTuple):
    """What one action does: `what` (DRAW_SPLIT ...) and up to three numbers: draw (styles,
    fabrics), set (symbol, fabric kind, colour), peek / flip (token), discard (symbol or kind)."""

    what: int
    first: int
    second: int
    third: int


ALL_SEATS = 0b11
"""The knowledge bits of a token every seat knows."""
