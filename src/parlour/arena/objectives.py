"""What `parlour tune` aims at: balance objectives a designer names, each a penalty that is 0 when met.

    fair                      the first seat's win rate as close as can be to its fair share (1/P)
    takers<=0.6               no component whose takers win more than 60% of their games
    length=40..60             mean game length (moves) within 40 to 60
    any of them:2             weighted twice in the sum (default weight 1)

A trial's score is the weighted sum of the penalties; lower is better. Penalties are in comparable
units: a win-rate gap in points of win rate (0.1 = ten points), a length outside its range as a
share of the range's middle (0.1 = ten per cent off).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from parlour.arena.stats import Summary
from parlour.engine.errors import ParlourError


class ObjectiveError(ParlourError, ValueError):
    """An objective parlour tune cannot read."""


FORMS = "fair, takers<=X (0 < X < 1), length=LOW..HIGH; each may end in :WEIGHT"


@dataclass(frozen=True)
class Objective:
    text: str
    kind: str  # "fair", "takers" or "length"
    weight: float = 1.0
    limit: float = 0.0  # takers: the largest win rate allowed
    low: float = 0.0  # length: the range
    high: float = 0.0

    def penalty(self, summary: Summary) -> float:
        """How far the summary is from meeting the objective (0 when it is met)."""
        if self.kind == "fair":
            return abs(first_seat_rate(summary) - 1 / len(summary.seats))
        if self.kind == "takers":
            return max(0.0, max((c.takers.rate for c in summary.components), default=0.0) - self.limit)
        middle = (self.low + self.high) / 2
        return max(0.0, self.low - summary.mean_length, summary.mean_length - self.high) / middle

    def measure(self, summary: Summary) -> float:
        """The quantity the objective looks at (first seat's win rate, best takers' rate, mean length)."""
        if self.kind == "fair":
            return first_seat_rate(summary)
        if self.kind == "takers":
            return max((c.takers.rate for c in summary.components), default=0.0)
        return summary.mean_length

    @property
    def measured(self) -> str:
        return {"fair": "first seat's win rate", "takers": "best takers' win rate", "length": "mean length"}[self.kind]


def first_seat_rate(summary: Summary) -> float:
    seat = summary.seats[0].record
    return seat.rate if seat.games else 0.0


NUMBER = r"[0-9]+(?:\.[0-9]+)?"


def parse_objective(text: str) -> Objective:
    body, sep, weight_text = text.strip().rpartition(":")
    if not sep:
        body, weight_text = text.strip(), ""
    weight = 1.0
    if weight_text:
        if not re.fullmatch(NUMBER, weight_text) or float(weight_text) <= 0:
            raise ObjectiveError(f"objective {text!r}: the weight after ':' must be a number above 0")
        weight = float(weight_text)
    if body == "fair":
        return Objective(text, "fair", weight)
    takers = re.fullmatch(rf"takers\s*<=\s*({NUMBER})", body)
    if takers:
        limit = float(takers.group(1))
        if not 0 < limit < 1:
            raise ObjectiveError(f"objective {text!r}: the takers' win rate limit must be between 0 and 1")
        return Objective(text, "takers", weight, limit=limit)
    length = re.fullmatch(rf"length\s*=\s*({NUMBER})\s*\.\.\s*({NUMBER})", body)
    if length:
        low, high = float(length.group(1)), float(length.group(2))
        if not 0 < low <= high:
            raise ObjectiveError(f"objective {text!r}: the length range must be LOW..HIGH with 0 < LOW <= HIGH")
        return Objective(text, "length", weight, low=low, high=high)
    raise ObjectiveError(f"objective {text!r} is not one of: {FORMS}")


def parse_objectives(texts: Sequence[str]) -> list[Objective]:
    if not texts:
        raise ObjectiveError(f"name at least one --objective ({FORMS})")
    objectives = [parse_objective(text) for text in texts]
    kinds = [objective.kind for objective in objectives]
    twice = sorted({kind for kind in kinds if kinds.count(kind) > 1})
    if twice:
        raise ObjectiveError(f"the objective {twice[0]} is given twice")
    return objectives


def score(objectives: Sequence[Objective], summary: Summary) -> float:
    """The trial's value: the weighted sum of the penalties (lower is better, 0 meets them all)."""
    return sum(objective.weight * objective.penalty(summary) for objective in objectives)
