"""Yamataï's own evaluator for greedy and search bots.

Each player's outlook is an estimate of their final prestige points:

* the score as it stands (PP tokens, built tiles, specialists, end-game specialist powers, the
  penalties for reserved tiles and unused boats), except that coins count at their exact rate
  (coins / 5, or / 4 with the Tax Collector) instead of in whole steps;
* plus what can still be turned into points: 0.8 PP per culture token held (two or three of them
  recruit a specialist worth 1-3 PP plus its coins) and 0.5 PP per boat waiting in the harbour
  (it is counted in the unused-boats penalty although it may still be built with).

The evaluation is tanh((own estimate - best opponent's estimate) / 8), in [-1, 1]; a finished game
returns its real result.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from parlour.games.yamatai.rules import YamataiState

CULTURE_VALUE = 0.8
HARBOUR_VALUE = 0.5
SCALE = 8.0


def estimates(state: YamataiState) -> list[float]:
    """Estimated final PP of every seat."""
    result = []
    for seat, score in enumerate(state.scores()):
        coin_points = score.breakdown["coins"]
        rate = state.coin_rate(seat)
        exact = state.coins[seat] / rate
        culture = sum(state.culture[6 * seat : 6 * seat + 6])
        harbour = sum(state.harbour[5 * seat : 5 * seat + 5])
        result.append(score.total - coin_points + exact + CULTURE_VALUE * culture + HARBOUR_VALUE * harbour)
    return result


def evaluate(state: YamataiState, seat: int) -> float:
    if state.is_terminal():
        return state.returns()[seat]
    values = estimates(state)
    best_other = max(v for s, v in enumerate(values) if s != seat)
    return math.tanh((values[seat] - best_other) / SCALE)
