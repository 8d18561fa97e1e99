"""Yamataï constants: the steps of a turn and the sub-steps of the fleet powers, with their names and
end reasons. A neutral home: it imports nothing of the game, so every module may import it without
an import cycle."""

from __future__ import annotations

# Phases of a turn, then the sub-phases of the fleet powers.
(
    FLEET,
    TRADE,
    PLACE,
    CHOOSE,
    COLLECT,
    HARBOUR,
    RECRUIT,
    PAY,
    END,
    SWAP_TOKEN_FROM,
    SWAP_TOKEN_TO,
    SACRED,
    MOVE_FROM,
    MOVE_TO,
    RESERVE,
    SWAP_BOAT_FROM,
    SWAP_BOAT_TO,
    REMOVE,
    PREVIEW,
    PREVIEW_ORDER,
    OVER,
) = range(21)
PHASE_NAMES = (
    "choose a fleet tile",
    "trade",
    "place boats",
    "collect or build",
    "collect",
    "harbour",
    "recruit",
    "pay for the specialist",
    "end of turn",
    "swap culture tokens: first token",
    "swap culture tokens: second token",
    "place sacred ground",
    "move a boat: which boat",
    "move a boat: where to",
    "reserve a building",
    "swap boats: first boat",
    "swap boats: second boat",
    "remove a boat",
    "preview buildings: exchange",
    "preview buildings: put back",
    "game over",
)
POWER_PHASES = frozenset(range(SWAP_TOKEN_FROM, OVER))
END_REASONS = {
    "A": "a player placed their last Standard Building",
    "B": "a boat colour ran out in the reserve",
    "C": "the specialist track could not be refilled",
    "D": "the building row could not be refilled",
    "rounds": "the round limit was reached",
}
NO_TOKEN = -1
