"""Hatairo constants shared by the game, its phases, views and explanations: table sizes, phases,
and per-flag tables. A neutral home: it imports only component data, so no module imports back
from the rules.
"""

from __future__ import annotations

from parlour.games.hatairo.board import NCOL
from parlour.games.hatairo.components import DESIGNS, FLAGS, MOTIFS

# Market Distribution Table (rows 1-4); solo uses the 2-player row counts.
MARKET_TABLE = {1: (4, 3, 2, 2), 2: (4, 3, 2, 2), 3: (5, 4, 4, 3), 4: (6, 6, 5, 4)}
DEALT = 9
KEPT = 3
ATELIER_SIZE = 3
PALETTE_LIMIT = 10
PIGMENT_CARDS = 40
MOTIF_SUPPLY = 4
VARIANTS = ("standard", "motif", "drafting", "motif+drafting")

# Phases: who decides what next.
(
    SETUP_KEEP,
    SETUP_TOPOGRAPHY,
    DRAFTING,
    TURN_START,
    ACTION,
    MOTIF_PICK,
    CELL,
    PAY,
    SPARE_SLOT,
    BONUS_PICK,
    CLEAN,
    OVER,
    CARDS,
) = range(13)
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
DISCARDING = 3
# What follows a Motif phase: the active player's action, or the end of her turn (solo automaton).
THEN_ACTION, THEN_END_TURN = 0, 1

FLAG_REQ = tuple(tuple(flag.required.count(c) for c in range(NCOL)) for flag in FLAGS)
FLAG_ITEMS = tuple(tuple((c, n) for c, n in enumerate(counts) if n) for counts in FLAG_REQ)
FLAG_SIZE = tuple(len(flag.required) for flag in FLAGS)
FLAG_BONUS = tuple(flag.bonus for flag in FLAGS)
DESIGN_OF = tuple(DESIGNS.index(motif.design) for motif in MOTIFS)
TYPE_I = tuple(motif.id for motif in MOTIFS if motif.type == "I")
TYPE_II = tuple(motif.id for motif in MOTIFS if motif.type == "II")
