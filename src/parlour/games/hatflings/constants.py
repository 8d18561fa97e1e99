"""Hatflings! constants shared by the game, its phases, reasons and views: action families, the
named fields of an action's move, and square masks and tables fixed by the board.

A neutral home: this module imports only the board and pieces, so every other module of the game
may import it without an import cycle.
"""

from __future__ import annotations

from typing import NamedTuple

from parlour.games.hatflings.board import SQUARES, is_edge, push_line

SCENE, PIG_SETUP, DANCE, PUDDLE_CHOICE, PIG_MOVE, OVER = range(6)
"""The phases of play, as the state machine numbers them."""
PHASE_NAMES = ("scene", "pig set-up", "dance", "clumsy puddle", "pig move", "over")

# Action families, as the `family` of `Hatflings.moves[id]`.
A_SCENE, A_PIG_SETUP, A_PLACE, A_GREEDY, A_JUMP, A_PUDDLE, A_PIG = range(7)


class Move(NamedTuple):
    """What one action does, by family: scene (object code, square), pig setup (square), place
    (halfling kind, square), greedy (entry square, direction), jump (origin, jumped, landing
    square), puddle (square), pig (square); unused fields are 0."""

    family: int
    a: int
    b: int
    c: int


BIT = tuple(1 << s for s in SQUARES)
"""Each square's bit in the board masks."""
EDGE_MASK = sum(1 << s for s in SQUARES if is_edge(s))
PUSH_LINES = {(s, d): push_line(s, d) for s in SQUARES for d in range(8)}
"""(entry square, direction) -> the squares a greedy entry pushes along."""

# Action ids are the same in every Hatflings game, so the tables that map squares to "place"
# actions are shared by all of them, built once per set of halfling sources (`Hatflings.place_table`).
PLACE_TABLES: dict[int, tuple[tuple[int, ...], ...]] = {}
PLACE_ROWS: dict[int, tuple[tuple[tuple[int, ...], ...], ...]] = {}
