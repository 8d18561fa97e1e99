"""Hatairo constants shared by the game, its phases, views and explanations: table sizes, phases,
and per-flag tables. A neutral home: it imports only component data, so no module imports back
from the rules.
"""

from __future__ import annotations

from typing import Final

from parlour.games.hatairo.board import NCOL
from parlour.games.hatairo.components import DESIGNS, FLAGS, MOTIFS

# Market Distribution Table (rows 1-4); solo uses the 2-player row counts.
MARKET_TABLE = {1: (4, 3, 2, 2), 2: (4, 3, 2, 2), 3: (5, 4, 4, 3), 4: (6, 6, 5, 4)}
DEALT: Final = 9
KEPT: Final = 3
ATELIER_SIZE: Final = 3
PALETTE_LIMIT: Final = 10
PIGMENT_CARDS: Final = 40
MOTIF_SUPPLY: Final = 4
VARIANTS = ("standard", "motif", "drafting", "motif+drafting")

# Phases: who decides what next.
SETUP_KEEP: Final = 0
SETUP_TOPOGRAPHY: Final = 1
DRAFTING: Final = 2
TURN_START: Final = 3
ACTION: Final = 4
MOTIF_PICK: Final = 5
CELL: Final = 6
PAY: Final = 7
SPARE_SLOT: Final = 8
BONUS_PICK: Final = 9
CLEAN: Final = 10
OVER: Final = 11
CARDS: Final = 12
PHASE_NAMES = (
    "set-up: keep cards",
    "set-up: topography",
    "set-up: drafting",
    "turn start",
    "action",
    "motif phase",
    "choose a gallery space",
    "pay pigments",
    "three-for-two spare",
    "choose bonus pigments",
    "clean phase",
    "game over",
    "choose cards to spend",
)
# A pending spend waiting for the choice of cards (P2): a payment unit (SINGLE, PAIR, TRIPLE) or a discard.
DISCARDING: Final = 3
# What follows a Motif phase: the active player's action, or the end of her turn (solo automaton).
THEN_ACTION: Final = 0
THEN_END_TURN: Final = 1

FLAG_REQ: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(flag.required.count(c) for c in range(NCOL)) for flag in FLAGS
)
# The same counts as lists, for `payment.pays` (read only: every flag shares its list).
FLAG_NEED: Final[tuple[list[int], ...]] = tuple(list(counts) for counts in FLAG_REQ)
FLAG_ITEMS: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple((c, n) for c, n in enumerate(counts) if n) for counts in FLAG_REQ
)
FLAG_SIZE: Final[tuple[int, ...]] = tuple(len(flag.required) for flag in FLAGS)
FLAG_NAME: Final[tuple[str, ...]] = tuple(flag.name for flag in FLAGS)
FLAG_BONUS = tuple(flag.bonus for flag in FLAGS)
DESIGN_OF: Final[tuple[int, ...]] = tuple(DESIGNS.index(motif.design) for motif in MOTIFS)
TYPE_I: Final[tuple[int, ...]] = tuple(motif.id for motif in MOTIFS if motif.type == "I")
TYPE_II: Final[tuple[int, ...]] = tuple(motif.id for motif in MOTIFS if motif.type == "II")
