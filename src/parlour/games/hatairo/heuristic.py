"""Hatairo's own evaluator for search bots: victory points so far plus the value of the palette.

value(seat) = the score the seat would have if the game ended now (flags, motifs, topography and
1 VP per pigment) + 0.5 VP per pigment in her Palette, because a pigment is also part of the price
of a future flag, worth more than the single VP it scores at the end (a flag of n pigments is worth
about n(n+1)/2 VP, i.e. ~1.5-2 VP per pigment, less the pigments lost to pairs).

With opponents the heuristic is tanh((value - best other value) / 25): a 25 VP lead reads as 0.76.
Solo, it is tanh((value - 90) / 40), centred between the Fellow and Master ranks.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from parlour.games.hatairo.rules import HatairoState

PIGMENT_POTENTIAL = 0.5
LEAD_SCALE = 25.0
SOLO_CENTRE = 90.0
SOLO_SCALE = 40.0


def values(state: HatairoState) -> list[float]:
    return [
        score.total + PIGMENT_POTENTIAL * board.pigments()
        for score, board in zip(state.scores(), state.boards, strict=True)
    ]


def evaluate(state: HatairoState, seat: int) -> float:
    if state.is_terminal():
        return state.returns()[seat]
    value = values(state)
    if len(value) == 1:
        return math.tanh((value[0] - SOLO_CENTRE) / SOLO_SCALE)
    best_other = max(v for other, v in enumerate(value) if other != seat)
    return math.tanh((value[seat] - best_other) / LEAD_SCALE)
