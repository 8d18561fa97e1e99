"""The game's own evaluator of a position, used by the greedy and search bots.

`evaluate` estimates a seat's outlook in (-1, 1) from three things a captain weighs at the table:

* **hats on the floor** (weight 1 per halfling): the final score is the number of halflings wearing
  one's colour, so the difference of the two counts is the backbone of the estimate;
* **safety** (weight 0.5 per halfling): a halfling on a box or barrel can only be turned by a stilts
  lander and a cheating halfling never turns, so these hats are worth more than exposed ones (they
  can still be blown away, pushed off or broken through, hence only half a point);
* **reserves** (weight 0.25 per special): specials still in a seat's pool are future tempo and
  threats (firebug blasts, greedy pushes, a stilts attack on boxes). The general pool is shared, so
  it is the same for both sides and does not enter the difference.

The weighted difference `x` is squashed as `tanh(x / 4)`, so a lead of about four halflings reads as
0.76. A finished game is scored by its real returns instead (see `HatflingsState.heuristic`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from parlour.games.hatflings.pieces import CHEATING

HAT_WEIGHT = 1.0
SAFETY_WEIGHT = 0.5
RESERVE_WEIGHT = 0.25
SCALE = 4.0


def evaluate(hat: Sequence[int], scenery: Sequence[int], specials: Sequence[int], seat: int) -> float:
    counts = [0, 0]
    safe = [0, 0]
    for s, code in enumerate(hat):
        if code:
            colour = code & 1
            counts[colour] += 1
            if code >> 1 == CHEATING or scenery[s]:
                safe[colour] += 1
    rival = 1 - seat
    reserves = [bin(specials[0]).count("1"), bin(specials[1]).count("1")]
    lead = (
        HAT_WEIGHT * (counts[seat] - counts[rival])
        + SAFETY_WEIGHT * (safe[seat] - safe[rival])
        + RESERVE_WEIGHT * (reserves[seat] - reserves[rival])
    )
    return math.tanh(lead / SCALE)
