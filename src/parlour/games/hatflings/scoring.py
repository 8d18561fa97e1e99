"""Hatflings! scoring (R23): each captain scores the halflings wearing their hat; a tie goes to the
captain with more of them in the rival's start zone, then it is a draw."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine.game import Score


def hat_counts(hat: Sequence[int]) -> list[int]:
    """Halflings wearing each colour's hat."""
    counts = [0, 0]
    for h in hat:
        if h:
            counts[h & 1] += 1
    return counts


def rival_zone_counts(hat: Sequence[int], zones: Sequence[Sequence[int]]) -> list[int]:
    """R23: halflings of each colour standing in the other seat's start zone."""
    return [sum(1 for s in zones[1 - seat] if hat[s] and hat[s] & 1 == seat) for seat in (0, 1)]


def scores(counts: list[int], zone: list[int]) -> list[Score]:
    return [
        Score(
            float(counts[seat]),
            {"halflings": counts[seat], "in rival start zone": zone[seat]},
            (float(zone[seat]),),
        )
        for seat in (0, 1)
    ]


def winners(counts: list[int], zone: list[int]) -> list[int]:
    for values in (counts, zone):
        if values[0] != values[1]:
            return [0 if values[0] > values[1] else 1]
    return [0, 1]
