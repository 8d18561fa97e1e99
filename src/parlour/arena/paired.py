"""Paired differences between two sides of a comparison that played the same seeds and seatings.

Game i of one side and game i of the other share their game seed, their agents' seeds and their
seating order, so the two are compared game by game rather than as two independent samples:
luck the sides share cancels out of the difference, and the intervals are narrower for it.

- **Per seat**, a seat's outcome is binary (it won the game alone, or it did not), so the two
  sides form a paired 2x2 table. The difference of the seat's win rates is given with the
  Agresti-Min interval for paired proportions (the Wald interval after adding a half to each
  cell, which keeps its coverage near 95% even with few discordant games), and tested with the
  exact McNemar test (the games one side won and the other lost, against an even split). The
  seats' p-values are adjusted together with Holm's method, so a seat is called changed only
  when the family of seats stays below the 5% error rate.
- **Overall**, a side's balance is its largest seat edge: the largest distance of a seat's win
  rate from the seats' mean win rate (in a two-player game, the first seat's edge in absolute
  value). Its difference between the sides is given with a paired bootstrap (the same games
  resampled on both sides), which is what the one-line verdict reads.
- **Length**: the mean of the games' length differences, with a normal interval.

What these figures cannot tell: they are about these agents. An edge a greedy bot feels may be
gone or reversed between skilled players; compare with more than one agent level before
trusting a verdict. A largest edge near zero is biased upwards (an absolute value of noise is
never negative), so two fair sides show small positive edges on both; the difference between
them stays centred.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.arena.stats import Z95

ALPHA = 0.05
"""The error rate of the seats' family of tests and of the verdict's interval."""
BOOTSTRAP = 2000
"""Resamples of the paired bootstrap; the interval's ends move by about a tenth of a point between seeds."""

Digest = Mapping[str, Any]


def sole_wins(digest: Digest) -> list[int]:
    """1 for the seat that won the game alone, 0 for every other seat (a shared win is no win)."""
    seats = len(digest["arena"]["agents"])
    winners = list(digest["winners"])
    return [1 if winners == [seat] else 0 for seat in range(seats)]


def mcnemar(only_first: int, only_second: int) -> float:
    """The exact two-sided McNemar p-value: discordant pairs split against an even chance."""
    discordant = only_first + only_second
    if discordant == 0:
        return 1.0
    tail = sum(math.comb(discordant, k) for k in range(min(only_first, only_second) + 1))
    return min(1.0, 2 * tail / 2**discordant)


def agresti_min(only_first: int, only_second: int, pairs: int, z: float = Z95) -> tuple[float, float]:
    """The Agresti-Min interval of a paired difference of proportions (second minus first)."""
    if pairs == 0:
        return -1.0, 1.0
    n = pairs + 2
    gained, lost = (only_second + 0.5) / n, (only_first + 0.5) / n
    centre = gained - lost
    half = z * math.sqrt(max(0.0, gained + lost - centre * centre) / n)
    return max(-1.0, centre - half), min(1.0, centre + half)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given (valid whatever the tests' dependence)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


@dataclass(frozen=True)
class SeatChange:
    """One seat's win rate on each side and the paired difference (second minus first)."""

    seat: int
    before: float
    after: float
    interval: tuple[float, float]
    p_value: float
    q_value: float  # Holm-adjusted over the seats

    @property
    def difference(self) -> float:
        return self.after - self.before

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "before": self.before,
            "after": self.after,
            "difference": self.difference,
            "low": self.interval[0],
            "high": self.interval[1],
            "p": self.p_value,
            "q_holm": self.q_value,
        }


@dataclass(frozen=True)
class Paired:
    """Side `after` against side `before` on the games both played."""

    before: str
    after: str
    games: int
    seats: list[SeatChange]
    edge_before: float  # the largest seat edge (absolute), as a share
    edge_after: float
    edge_interval: tuple[float, float]  # of edge_after - edge_before, paired bootstrap
    first_edge_before: float  # the first seat's signed edge
    first_edge_after: float
    length_before: float
    length_after: float
    length_interval: tuple[float, float]

    @property
    def edge_difference(self) -> float:
        return self.edge_after - self.edge_before

    @property
    def verdict(self) -> str:
        """ "more balanced", "less balanced" or "no clear difference in balance", by the interval."""
        low, high = self.edge_interval
        if high < 0:
            return "more balanced"
        if low > 0:
            return "less balanced"
        return "no clear difference in balance"

    def line(self) -> str:
        """The one-line verdict: `more balanced: first-seat edge 8.1 → 1.2 points, difference −6.9 [−10.2, −3.6]`."""
        low, high = self.edge_interval
        if len(self.seats) == 2:
            edges = f"first-seat edge {_points(self.first_edge_before)} → {_points(self.first_edge_after)} points"
        else:
            edges = f"largest seat edge {_points(self.edge_before)} → {_points(self.edge_after)} points"
        # The verdict reads the edges' sizes: an edge that changes sides is said to change in size.
        flipped = len(self.seats) == 2 and self.first_edge_before * self.first_edge_after < 0
        what = "difference in size" if flipped else "difference"
        size = f"{what} {_points(self.edge_difference, True)} [{_points(low, True)}, {_points(high, True)}]"
        return f"{self.after} against {self.before}: {self.verdict}: {edges}, {size} ({self.games} paired games)"

    def to_json(self) -> dict[str, Any]:
        return {
            "before": self.before,
            "after": self.after,
            "games": self.games,
            "verdict": self.verdict,
            "line": self.line(),
            "seats": [seat.to_json() for seat in self.seats],
            "largest_edge": {
                "before": self.edge_before,
                "after": self.edge_after,
                "difference": self.edge_difference,
                "low": self.edge_interval[0],
                "high": self.edge_interval[1],
            },
            "first_seat_edge": {"before": self.first_edge_before, "after": self.first_edge_after},
            "length": {
                "before": self.length_before,
                "after": self.length_after,
                "difference": self.length_after - self.length_before,
                "low": self.length_interval[0],
                "high": self.length_interval[1],
            },
        }


def _points(share: float, signed: bool = False) -> str:
    text = f"{100 * share:+.1f}" if signed else f"{100 * share:.1f}"
    return text.replace("-", "−")


def pair_up(before: Sequence[Digest], after: Sequence[Digest]) -> list[tuple[Digest, Digest]]:
    """The games both sides played, matched by their index in the tournament."""
    by_index = {int(digest["arena"]["index"]): digest for digest in after}
    return [(digest, by_index[i]) for digest in before if (i := int(digest["arena"]["index"])) in by_index]


def edges(wins: Any) -> Any:
    """Each seat's edge: its win rate minus the seats' mean win rate (rows: resamples or one side)."""
    rates = wins.mean(axis=-2)
    return rates - rates.mean(axis=-1, keepdims=True)


def compare_sides(
    before: str, after: str, first: Sequence[Digest], second: Sequence[Digest], seed: int = 0
) -> Paired | None:
    """The paired differences of `after` against `before`; None when they share no game."""
    import numpy as np

    pairs = pair_up(first, second)
    if not pairs:
        return None
    wins_a = np.array([sole_wins(a) for a, _ in pairs], dtype=float)
    wins_b = np.array([sole_wins(b) for _, b in pairs], dtype=float)
    n, players = wins_a.shape
    seats: list[tuple[int, float, float, tuple[float, float], float]] = []
    for seat in range(players):
        only_a = int(np.sum((wins_a[:, seat] == 1) & (wins_b[:, seat] == 0)))
        only_b = int(np.sum((wins_a[:, seat] == 0) & (wins_b[:, seat] == 1)))
        rates = float(wins_a[:, seat].mean()), float(wins_b[:, seat].mean())
        seats.append((seat, *rates, agresti_min(only_a, only_b, n), mcnemar(only_a, only_b)))
    adjusted = holm([p for *_, p in seats])
    edge_a, edge_b = edges(wins_a), edges(wins_b)
    lengths = np.array([float(b["arena"]["length"]) - float(a["arena"]["length"]) for a, b in pairs])
    return Paired(
        before=before,
        after=after,
        games=n,
        seats=[SeatChange(s, ra, rb, i, p, q) for (s, ra, rb, i, p), q in zip(seats, adjusted, strict=True)],
        edge_before=float(np.abs(edge_a).max()),
        edge_after=float(np.abs(edge_b).max()),
        edge_interval=_bootstrap_edge(wins_a, wins_b, seed),
        first_edge_before=float(edge_a[0]),
        first_edge_after=float(edge_b[0]),
        length_before=float(np.mean([float(a["arena"]["length"]) for a, _ in pairs])),
        length_after=float(np.mean([float(b["arena"]["length"]) for _, b in pairs])),
        length_interval=_mean_interval(lengths),
    )


def _mean_interval(values: Any) -> tuple[float, float]:
    centre = float(values.mean())
    if len(values) < 2:
        return centre, centre
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(len(values))
    return centre - half, centre + half


def _bootstrap_edge(wins_a: Any, wins_b: Any, seed: int, resamples: int = BOOTSTRAP) -> tuple[float, float]:
    """The percentile interval of the difference of largest edges, the same games drawn for both sides."""
    import numpy as np

    rng = np.random.default_rng(seed)
    n = wins_a.shape[0]
    found: list[Any] = []
    for start in range(0, resamples, 250):  # in blocks: a block's weights are 250 x games
        counts = rng.multinomial(n, np.full(n, 1 / n), size=min(250, resamples - start)).astype(float)
        rates_a, rates_b = counts @ wins_a / n, counts @ wins_b / n
        largest_a = np.abs(rates_a - rates_a.mean(axis=1, keepdims=True)).max(axis=1)
        largest_b = np.abs(rates_b - rates_b.mean(axis=1, keepdims=True)).max(axis=1)
        found.append(largest_b - largest_a)
    differences = np.concatenate(found)
    low, high = np.quantile(differences, [ALPHA / 2, 1 - ALPHA / 2])
    return float(low), float(high)


def against_first(labelled: Sequence[tuple[str, Sequence[Digest]]], seed: int = 0) -> list[Paired]:
    """Every side after the first against the first (the base), on the games they share."""
    (base, base_games), *others = labelled
    found = [compare_sides(base, label, base_games, games, seed) for label, games in others]
    return [paired for paired in found if paired is not None]
