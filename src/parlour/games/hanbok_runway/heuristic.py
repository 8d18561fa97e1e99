"""The game's own evaluator: expected influence per colour, turned into expected trophies.

It reads only what `seat` knows, so a bot using it never peeks:

1. For every set on the table, the token's *modified* influence (R13) is exact when `seat` knows
   the token, and otherwise its expectation over the values `seat` has not seen in that colour
   (a colour's values are public component data; the ones `seat` knows are taken out).
2. Summed per player and colour this is the expected influence.
3. A colour goes to a player with probability `sigmoid(lead / 1.5) * sigmoid((influence - m + 0.5) / 1.5)`,
   a smooth "strictly more than the opponent, and at least m" (R18, m = 1 here).
4. The result is the expected trophy difference over all colour stakes (VP token plus the
   additional VP tokens next to it), divided by the total stake, so it lies in [-1, 1].

A finished game is worth its returns.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from parlour.games.hanbok_runway.scoring import colour_stakes, modified_value

if TYPE_CHECKING:
    from parlour.games.hanbok_runway.rules import HanbokRunwayState

SPREAD = 1.5  # influence points over which a colour's outcome goes from likely lost to likely won


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def expected_influences(state: HanbokRunwayState, seat: int) -> list[list[float]]:
    """Per player, per colour: the influence `seat` expects, from what `seat` knows."""
    comps = state.game.components
    per_colour = comps.tokens_per_colour
    unseen: list[list[int]] = []
    for colour in range(len(comps.colours)):
        first = colour * per_colour
        unseen.append([state.value[t] for t in range(first, first + per_colour) if not state.knows(seat, t)])
    result = [[0.0] * len(comps.colours) for _ in range(2)]
    for player in (0, 1):
        for symbol, token in zip(state.set_symbols[player], state.set_tokens[player], strict=True):
            colour = token // per_colour
            if state.knows(seat, token):
                result[player][colour] += modified_value(symbol, state.value[token], comps)
            else:
                pool = unseen[colour]
                result[player][colour] += sum(modified_value(symbol, v, comps) for v in pool) / len(pool)
    return result


def colour_chances(mine: float, theirs: float, minimum: int) -> float:
    """A smooth chance that `mine` takes the colour: strictly ahead and at least `minimum`."""
    return _sigmoid((mine - theirs) / SPREAD) * _sigmoid((mine - minimum + 0.5) / SPREAD)


def evaluate(state: HanbokRunwayState, seat: int) -> float:
    if state.is_terminal():
        return state.returns()[seat]
    comps = state.game.components
    influence = expected_influences(state, seat)
    stakes = colour_stakes(state.additional, comps)
    mine, theirs = influence[seat], influence[1 - seat]
    edge = 0.0
    for colour, stake in enumerate(stakes):
        win = colour_chances(mine[colour], theirs[colour], comps.min_influence_for_vp)
        lose = colour_chances(theirs[colour], mine[colour], comps.min_influence_for_vp)
        edge += stake * (win - lose)
    return max(-1.0, min(1.0, edge / sum(stakes)))
