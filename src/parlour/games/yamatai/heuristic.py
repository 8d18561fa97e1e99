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

Search evaluates every leaf for every seat, so the estimate is worked out here from the mats
directly, with the PP of the built tiles and specialists looked up by halves of their bit masks,
rather than through `scores()` and its breakdown dictionaries. It adds up exactly the same whole
numbers as `scoring.player_score` (a test checks both agree on many positions).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from parlour.engine.data import PARSED_LIMIT
from parlour.games.yamatai.components import Components

if TYPE_CHECKING:
    from parlour.games.yamatai.state import YamataiState

CULTURE_VALUE = 0.8
HARBOUR_VALUE = 0.5
SCALE = 8.0


PointTables = tuple[tuple[int, ...], tuple[int, ...], int]
"""Summed points of the low half of a bit mask, of its high half, and the width of the low half."""


def _point_tables(points: list[int]) -> PointTables:
    """Tables to add up the points of the items in a bit mask with two look-ups (see `estimates`)."""
    low_bits = (len(points) + 1) // 2
    return _subset_sums(points[:low_bits]), _subset_sums(points[low_bits:]), low_bits


def _subset_sums(points: list[int]) -> tuple[int, ...]:
    """The summed points of every subset of `points`, indexed by its bit mask."""
    sums = [0] * (1 << len(points))
    for mask in range(1, len(sums)):
        lowest = mask & -mask  # the mask is the one without its lowest item, plus that item
        sums[mask] = sums[mask ^ lowest] + points[lowest.bit_length() - 1]
    return tuple(sums)


Tables = tuple[PointTables, PointTables, int, int, int, int]
_TABLES: dict[int, tuple[Components, Tables]] = {}
"""The tables of each game's components (by identity: one set per data set, parsed once), kept with them."""


def _tables(parts: Components) -> Tables:
    """PP tables of the built tiles and of the specialists, and the end-game specialists' bits and values."""
    held = _TABLES.get(id(parts))
    if held is None or held[0] is not parts:
        if len(_TABLES) >= PARSED_LIMIT:  # as many as the parsed data sets kept (engine.data)
            _TABLES.pop(next(iter(_TABLES)))
        held = _TABLES[id(parts)] = (parts, _build_tables(parts))
    return held[1]


def _build_tables(parts: Components) -> Tables:
    by_power = {specialist.power: specialist for specialist in parts.specialists}
    taxes, scholar = by_power["coin_rate"], by_power["leftover_culture"]
    return (
        _point_tables([tile.pp for tile in parts.buildings]),
        _point_tables([specialist.pp for specialist in parts.specialists]),
        1 << taxes.index,
        int(taxes.params["coins_per_pp"]),
        1 << scholar.index,
        int(scholar.params["tokens_per_pp"]),
    )


def estimates(state: YamataiState) -> list[float]:
    """Estimated final PP of every seat."""
    tile_points, spec_points, tax_bit, tax_rate, scholar_bit, scholar_rate = _tables(state.game.components)
    tile_low, tile_high, tile_shift = tile_points
    spec_low, spec_high, spec_shift = spec_points
    tile_mask, spec_mask = (1 << tile_shift) - 1, (1 << spec_shift) - 1
    culture, harbour, coins, tokens = state.culture, state.harbour, state.coins, state.pp_tokens
    built, specs_held, reserved, discarded = state.built, state.specs, state.reserved, state.discarded
    result = []
    for seat in range(len(coins)):
        tiles, specs = built[seat], specs_held[seat]
        held = sum(culture[6 * seat : 6 * seat + 6])
        waiting = sum(harbour[5 * seat : 5 * seat + 5])
        # The score without its coins, in whole PP as scoring.player_score counts them.
        points = (
            tokens[seat]
            + tile_low[tiles & tile_mask]
            + tile_high[tiles >> tile_shift]
            + spec_low[specs & spec_mask]
            + spec_high[specs >> spec_shift]
            - reserved[seat].bit_count()
            - (discarded[seat] + waiting) // 2
        )
        if specs & scholar_bit:
            points += held // scholar_rate
        rate = tax_rate if specs & tax_bit else 5
        result.append(float(points) + coins[seat] / rate + CULTURE_VALUE * held + HARBOUR_VALUE * waiting)
    return result


def evaluate(state: YamataiState, seat: int, values: list[float] | None = None) -> float:
    """The heuristic of `seat`; `values` are the position's `estimates` if they are known already."""
    if state.is_terminal():
        return state.returns()[seat]
    if values is None:
        values = estimates(state)
    best_other = max(values[:seat] + values[seat + 1 :])
    return math.tanh((values[seat] - best_other) / SCALE)
