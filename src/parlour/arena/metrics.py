"""Game metrics of a tournament, as a designer reads a game's shape: how many choices a player has
(the branching factor), how many decisions a game and a seat take, how long games run, how they
end, how far apart the scores finish, how often the lead changes, and how long the agents think.

Each game's record carries its course (`match.Course`): each seat's decisions, the legal moves it
chose among, the decisions it had no choice in, the lead's changes on total score from round to
round (looked at when the turn passes back to an earlier seat), and how the game ended. The
agents' thinking time travels with a game played in this run but is not journaled (it differs
between machines), so a resumed tournament times only the games it played itself.

What these cannot tell: they describe the games these agents played. Random agents make long,
aimless games; a search bot's games are shorter and its branching narrower where it steers into
forced positions. A lead change is counted on the scores the game shows mid-game, which in some
games leave out what is only scored at the end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.arena.stats import Z95, mean, spread


@dataclass(frozen=True)
class Estimate:
    """A mean over games with its 95% normal interval."""

    mean: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Estimate:
        centre = mean(values)
        half = Z95 * spread(values) / len(values) ** 0.5 if values else 0.0
        return cls(centre, centre - half, centre + half)

    def text(self, digits: int = 1) -> str:
        return f"{self.mean:.{digits}f} [{self.low:.{digits}f}–{self.high:.{digits}f}]"

    def to_json(self) -> dict[str, float]:
        return {"mean": self.mean, "low": self.low, "high": self.high}


@dataclass
class GameMetrics:
    games: int  # games whose records carry their course
    decisions: Estimate  # per game
    seat_decisions: list[float]  # mean decisions per game of each seat
    branching: float  # legal moves per decision, over every decision of every game
    seat_branching: list[float]
    branching_per_game: Estimate  # each game's mean legal moves per decision
    branching_by_third: list[float]  # legal moves per decision in the first, middle and last third of the games
    widest: int  # the most legal moves any decision had
    forced: float  # the share of decisions with a single legal move
    lead_changes: Estimate  # per game
    games_with_a_lead_change: float  # share
    margin: Estimate  # the winner's total minus the runner-up's (every game of two or more seats)
    endings: dict[str, int]  # how games ended, most common first
    # Thinking time differs between runs and machines: kept out of comparisons of summaries.
    seconds_per_move: dict[str, float] = field(default_factory=dict, compare=False)  # by agent spec
    timed_games: int = field(default=0, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "decisions_per_game": self.decisions.to_json(),
            "decisions_per_seat": self.seat_decisions,
            "branching": self.branching,
            "branching_per_seat": self.seat_branching,
            "branching_per_game": self.branching_per_game.to_json(),
            "branching_by_third": self.branching_by_third,
            "widest": self.widest,
            "forced_share": self.forced,
            "lead_changes": self.lead_changes.to_json(),
            "games_with_a_lead_change": self.games_with_a_lead_change,
            "winning_margin": self.margin.to_json(),
            "endings": self.endings,
        }

    def timing_json(self) -> dict[str, Any]:
        """The thinking time, apart from the rest: it differs from run to run (`Run.to_json` gives it)."""
        return {"seconds_per_move": self.seconds_per_move, "timed_games": self.timed_games}

    def line(self) -> str:
        """The metrics in one line, for the terminal."""
        ends = ", ".join(f"{reason} {count}" for reason, count in list(self.endings.items())[:3])
        timing = "; ".join(f"{spec} {duration(s)}" for spec, s in self.seconds_per_move.items())
        thirds = " / ".join(f"{b:.1f}" for b in self.branching_by_third)
        parts = [
            f"branching {self.branching:.1f} (by third of the game {thirds}; widest {self.widest},"
            f" forced {100 * self.forced:.0f}%)",
            f"decisions per game {self.decisions.text()}",
            f"lead changes {self.lead_changes.text()}",
            f"winning margin {self.margin.text()}",
            f"endings: {ends}",
        ]
        if timing:
            parts.append(f"time per move: {timing}")
        return "; ".join(parts)


def duration(seconds: float) -> str:
    """A thinking time as read: `35 µs`, `6.01 ms`, `1.25 s`."""
    if seconds < 1e-3:
        return f"{1e6 * seconds:.0f} µs"
    return f"{1e3 * seconds:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def game_metrics(records: Sequence[Mapping[str, Any]], spec_of: Mapping[str, str]) -> GameMetrics | None:
    """The metrics of the games whose records carry their course; None when none does."""
    courses = [(record, record["arena"]["course"]) for record in records if "course" in record["arena"]]
    if not courses:
        return None
    players = len(courses[0][1]["decisions"])
    decisions = [float(sum(course["decisions"])) for _, course in courses]
    choices = [float(sum(course["choices"])) for _, course in courses]
    seat_decisions = [sum(c["decisions"][s] for _, c in courses) for s in range(players)]
    seat_choices = [sum(c["choices"][s] for _, c in courses) for s in range(players)]
    endings = Counter(str(course["end"]) for _, course in courses)
    margins = [_margin(record) for record, _ in courses if len(record["arena"]["scores"]) > 1]
    lead_changes = [float(course["lead_changes"]) for _, course in courses]
    seconds, timed = _timing([record for record, _ in courses], spec_of)
    return GameMetrics(
        games=len(courses),
        decisions=Estimate.of(decisions),
        seat_decisions=[total / len(courses) for total in seat_decisions],
        branching=sum(choices) / max(1.0, sum(decisions)),
        seat_branching=[c / d if d else 0.0 for c, d in zip(seat_choices, seat_decisions, strict=True)],
        branching_per_game=Estimate.of([c / d for c, d in zip(choices, decisions, strict=True) if d]),
        branching_by_third=_by_third([course for _, course in courses]),
        widest=max(int(course["widest"]) for _, course in courses),
        forced=sum(sum(course["forced"]) for _, course in courses) / max(1.0, sum(decisions)),
        lead_changes=Estimate.of(lead_changes),
        games_with_a_lead_change=sum(1 for n in lead_changes if n > 0) / len(courses),
        margin=Estimate.of(margins),
        endings=dict(endings.most_common()),
        seconds_per_move=seconds,
        timed_games=timed,
    )


def _by_third(courses: Sequence[Mapping[str, Any]]) -> list[float]:
    """Legal moves per decision in each third of the games' decisions (games recorded before this: left out)."""
    thirds = [third for course in courses for third in enumerate(course.get("by_third", []))]
    totals = [[0, 0] for _ in range(3)]
    for index, (decisions, choices) in thirds:
        totals[index][0] += decisions
        totals[index][1] += choices
    return [choices / decisions if decisions else 0.0 for decisions, choices in totals]


def _margin(record: Mapping[str, Any]) -> float:
    totals = sorted((float(score["total"]) for score in record["arena"]["scores"]), reverse=True)
    return totals[0] - totals[1]


def _timing(records: Sequence[Mapping[str, Any]], spec_of: Mapping[str, str]) -> tuple[dict[str, float], int]:
    """Mean seconds per decision of each agent spec, over the games this run timed."""
    seconds: dict[str, float] = {}
    moves: dict[str, int] = {}
    timed = 0
    for record in records:
        timing = record.get("timing")
        if timing is None:
            continue
        timed += 1
        course = record["arena"]["course"]
        for seat, name in enumerate(record["arena"]["agents"]):
            spec = spec_of.get(name, name)
            seconds[spec] = seconds.get(spec, 0.0) + float(timing[seat])
            moves[spec] = moves.get(spec, 0) + int(course["decisions"][seat])
    return {spec: seconds[spec] / moves[spec] for spec in sorted(seconds) if moves[spec]}, timed
