"""Statistics of a tournament from its game records: win rates with Wilson intervals, scores,
seats, game lengths, openskill ratings and which features go with winning.

A seat *wins* a game when it is its only winner; a game with several winners is a *draw* (a
shared win) for each of them and counts as a win for none, so the win rates of the seats of a
two-player game add up to one minus the draw rate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from parlour.arena.components import Component
    from parlour.arena.metrics import GameMetrics

Z95 = 1.959963984540054
"""The standard normal quantile of 0.975: a two-sided 95% interval."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion; (0, 1) when there are no trials."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or n successes the bound is exactly 0 or 1; rounding would leave it a hair off.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def spread(values: Sequence[float]) -> float:
    """The sample standard deviation (n - 1 in the denominator); 0 for fewer than two values."""
    if len(values) < 2:
        return 0.0
    centre = mean(values)
    return math.sqrt(sum((v - centre) ** 2 for v in values) / (len(values) - 1))


@dataclass
class Rate:
    """Successes out of trials with the 95% Wilson interval."""

    wins: int
    games: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {"wins": self.wins, "games": self.games, "rate": self.rate, "low": low, "high": high}


@dataclass
class AgentSummary:
    name: str
    spec: str
    record: Rate
    draws: int
    scores: list[float]
    mean_rank: float
    rating_mu: float
    rating_sigma: float
    by_seat: list[Rate]
    breakdown: dict[str, float]

    @property
    def rating(self) -> float:
        """The openskill ordinal: a conservative rating, mu - 3 sigma."""
        return self.rating_mu - 3 * self.rating_sigma

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "spec": self.spec,
            **self.record.to_json(),
            "draws": self.draws,
            "mean_score": mean(self.scores),
            "score_spread": spread(self.scores),
            "mean_rank": self.mean_rank,
            "rating": self.rating,
            "rating_mu": self.rating_mu,
            "rating_sigma": self.rating_sigma,
            "by_seat": [rate.to_json() for rate in self.by_seat],
            "mean_breakdown": self.breakdown,
        }


@dataclass
class SeatSummary:
    seat: int
    record: Rate
    draws: int
    scores: list[float]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, **self.record.to_json(), "draws": self.draws, "mean_score": mean(self.scores)}


@dataclass
class Feature:
    """A per-seat feature (a move kind, a card taken) and how seats that had it fared."""

    name: str
    with_it: Rate
    without_it: Rate
    mean_winners: float
    mean_others: float
    evidence: float = 0.0  # Welch's t of winners' mean against the others': the sort key

    @property
    def lift(self) -> float:
        return self.with_it.rate - self.without_it.rate

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "with": self.with_it.to_json(),
            "without": self.without_it.to_json(),
            "mean_winners": self.mean_winners,
            "mean_others": self.mean_others,
            "t": self.evidence,
        }


@dataclass
class Summary:
    game: str
    options: dict[str, Any]
    games: int
    draws: int
    agents: list[AgentSummary]
    seats: list[SeatSummary]
    lengths: list[int]
    features: list[Feature] = field(default_factory=list)
    components: list[Component] = field(default_factory=list)
    metrics: GameMetrics | None = None  # None for records written before games carried their course

    @property
    def mean_length(self) -> float:
        return mean([float(n) for n in self.lengths])

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "games": self.games,
            "draws": self.draws,
            "mean_length": self.mean_length,
            "agents": [agent.to_json() for agent in self.agents],
            "seats": [seat.to_json() for seat in self.seats],
            "features": [feature.to_json() for feature in self.features],
            "components": [component.to_json() for component in self.components],
            "metrics": self.metrics.to_json() if self.metrics is not None else None,
        }


def summarize(records: Sequence[Mapping[str, Any]], names: Sequence[str], specs: Sequence[str]) -> Summary:
    """Everything the report and the summary table show, from the games' records."""
    from parlour.arena.components import components  # it builds on this module's Rate
    from parlour.arena.metrics import game_metrics

    players = len(names)
    index_of = {name: i for i, name in enumerate(names)}
    wins, draws = [0] * players, [0] * players
    seat_wins, seat_draws = [0] * players, [0] * players
    agent_seat = [[Rate(0, 0) for _ in range(players)] for _ in range(players)]
    agent_scores: list[list[float]] = [[] for _ in range(players)]
    seat_scores: list[list[float]] = [[] for _ in range(players)]
    ranks: list[list[int]] = [[] for _ in range(players)]
    breakdowns: list[dict[str, float]] = [{} for _ in range(players)]
    draw_games = 0
    for record in records:
        arena, winners = record["arena"], record["winners"]
        draw_games += len(winners) > 1
        for seat, name in enumerate(arena["agents"]):
            agent, score = index_of[name], arena["scores"][seat]
            sole, shared = winners == [seat], seat in winners and len(winners) > 1
            wins[agent] += sole
            draws[agent] += shared
            seat_wins[seat] += sole
            seat_draws[seat] += shared
            agent_seat[agent][seat].wins += sole
            agent_seat[agent][seat].games += 1
            agent_scores[agent].append(float(score["total"]))
            seat_scores[seat].append(float(score["total"]))
            ranks[agent].append(arena["ranks"][seat])
            for part, value in score["breakdown"].items():
                breakdowns[agent][part] = breakdowns[agent].get(part, 0.0) + float(value)
    ratings = openskill_ratings(records, names)
    played = len(records)
    agents = [
        AgentSummary(
            name=names[a],
            spec=specs[a],
            record=Rate(wins[a], len(agent_scores[a])),
            draws=draws[a],
            scores=agent_scores[a],
            mean_rank=mean([float(r) for r in ranks[a]]),
            rating_mu=ratings[a][0],
            rating_sigma=ratings[a][1],
            by_seat=agent_seat[a],
            breakdown={part: total / max(1, len(agent_scores[a])) for part, total in breakdowns[a].items()},
        )
        for a in range(players)
    ]
    seats = [SeatSummary(s, Rate(seat_wins[s], played), seat_draws[s], seat_scores[s]) for s in range(players)]
    first: Mapping[str, Any] = records[0] if records else {"game": "", "options": {}}
    return Summary(
        game=str(first["game"]),
        options=dict(first["options"]),
        games=played,
        draws=draw_games,
        agents=agents,
        seats=seats,
        lengths=[int(record["arena"]["length"]) for record in records],
        features=features(records),
        components=components(records, dict(zip(names, specs, strict=True))),
        metrics=game_metrics(records, dict(zip(names, specs, strict=True))),
    )


def openskill_ratings(records: Sequence[Mapping[str, Any]], names: Sequence[str]) -> list[tuple[float, float]]:
    """(mu, sigma) of each agent after rating the games in order with openskill's Plackett-Luce model."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in names}
    for record in records:
        arena = record["arena"]
        if len(arena["agents"]) < 2:
            continue  # a solo game (Hatairo's) rates nobody against anybody
        teams = [[ratings[name]] for name in arena["agents"]]
        for (rated,), name in zip(model.rate(teams, ranks=list(arena["ranks"])), arena["agents"], strict=True):
            ratings[name] = rated
    return [(ratings[name].mu, ratings[name].sigma) for name in names]


def features(records: Sequence[Mapping[str, Any]], minimum: int = 5) -> list[Feature]:
    """Each feature seen on at least `minimum` seats, with and without it, most telling first."""
    rows: list[tuple[Mapping[str, float], bool]] = []
    for record in records:
        winners = record["winners"]
        for seat, seat_features in enumerate(record["arena"].get("features", [])):
            rows.append((seat_features, winners == [seat]))
    names = sorted({name for seat_features, _ in rows for name in seat_features})
    found: list[Feature] = []
    for name in names:
        has = [(f.get(name, 0.0) > 0, won) for f, won in rows]
        count = sum(1 for present, _ in has if present)
        if count < minimum:
            continue
        winners_values = [f.get(name, 0.0) for f, won in rows if won]
        others_values = [f.get(name, 0.0) for f, won in rows if not won]
        found.append(
            Feature(
                name=name,
                with_it=Rate(sum(1 for present, won in has if present and won), count),
                without_it=Rate(sum(1 for present, won in has if not present and won), len(has) - count),
                mean_winners=mean(winners_values),
                mean_others=mean(others_values),
                evidence=welch(winners_values, others_values),
            )
        )
    found.sort(key=lambda feature: (-abs(feature.evidence), feature.name))
    return found


def welch(first: Sequence[float], second: Sequence[float]) -> float:
    """Welch's t statistic for a difference of means: how many standard errors apart they are.

    0 when either group has fewer than two values or neither varies.
    """
    if len(first) < 2 or len(second) < 2:
        return 0.0
    error = math.sqrt(spread(first) ** 2 / len(first) + spread(second) ** 2 / len(second))
    return (mean(first) - mean(second)) / error if error > 0 else 0.0
