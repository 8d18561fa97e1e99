"""The check that ends `parlour tune`: the study's best few points and the base, replayed on fresh seeds.

A study's scores come from the seeds it tuned on, and the best of many noisy scores is flattered
by its luck (the winner's curse). So before a best is named, the few best points (by their mean
over every evaluation) and the base values are played again on seeds no trial played, the same
seeds and seating orders for each of them, and scored with the same objectives. A point is named
the best only when its check score is below the base's check score; when none is, the report says
so and the base stays: the check never names a point it contradicts.

The base against the named point (or against the study's best when none is named) is then
written up as `parlour compare` writes two sides, with the paired verdict.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlour.arena.objectives import score
from parlour.arena.paired import Paired, compare_sides
from parlour.arena.runner import facts, run
from parlour.arena.space import Number
from parlour.arena.stats import Summary
from parlour.arena.store import REPORT
from parlour.arena.tournament import derive_seed, plan
from parlour.arena.tune import Outcome, Point, Running, Setup, measures, points_of

CHECKED = 3
"""The study's best points replayed by the check, besides the base."""
CHECK_SEEDS = 2
"""The seed path of the check: derive_seed(seed, 2), apart from the trials' seeds."""


@dataclass
class Candidate:
    """One set of values as the check played it."""

    label: str  # "base" or "trial N"
    values: dict[str, Number]
    study_value: float | None  # its mean score in the study (None for the base unless it was a trial)
    evaluations: int  # how many times the study played it
    check_value: float = 0.0
    measures: dict[str, float] = field(default_factory=dict)
    summary: Summary | None = None
    digests: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Check:
    games: int
    seed: int
    base: Candidate
    candidates: list[Candidate]
    named: Candidate | None
    paired: Paired | None  # base against the named point, or against the study's best

    @property
    def compared(self) -> list[tuple[str, Summary]]:
        other = self.named or (self.candidates[0] if self.candidates else None)
        sides = [self.base] + ([other] if other is not None else [])
        return [(side.label, side.summary) for side in sides if side.summary is not None]

    def line(self) -> str:
        if not self.candidates:
            return "no trial finished, so nothing was checked"
        where = f"on {self.games} fresh games"
        if self.named is None:
            best = self.candidates[0]
            return (
                f"no best named: on {self.games} fresh games no checked point scored below the base"
                f" (base {self.base.check_value:.4f}, {best.label} {best.check_value:.4f}); the base values stay"
            )
        return (
            f"best: {self.named.label}, score {self.named.check_value:.4f} {where}"
            f" against the base's {self.base.check_value:.4f}"
        )


def check_seed(setup: Setup) -> int:
    return derive_seed(setup.seed, CHECK_SEEDS)


def candidates_of(setup: Setup, outcome: Outcome, most: int = CHECKED) -> tuple[Candidate, list[Candidate]]:
    """The base and the study's best points (other than the base's own values)."""
    base_values = {p.label: p.base for p in setup.space.parameters}
    points = points_of(outcome.trials)
    base_point = next((p for p in points if p.values == base_values), None)
    base = _candidate("base", base_values, base_point)
    others = [p for p in points if p.values != base_values][:most]
    return base, [_candidate(f"trial {p.number}", p.values, p) for p in others]


def _candidate(label: str, values: Mapping[str, Number], point: Point | None) -> Candidate:
    if point is None:
        return Candidate(label, dict(values), None, 0)
    return Candidate(label, dict(values), point.value, len(point.trials))


def check(setup: Setup, outcome: Outcome, folder: Path, games: int, running: Running) -> Check:
    """Replay the base and the best points on fresh seeds, name a best only where the check agrees."""
    base, candidates = candidates_of(setup, outcome)
    seed = check_seed(setup)
    shutil.rmtree(folder, ignore_errors=True)  # a resumed study may check other points
    data_folder = folder / "data"
    for candidate in [base, *candidates]:
        _play(setup, candidate, folder, data_folder, games, seed, running)
    beating = [c for c in candidates if c.check_value < base.check_value]
    named = min(beating, key=lambda c: (c.check_value, c.label)) if beating else None
    other = named or (candidates[0] if candidates else None)
    paired = None
    if other is not None:
        paired = compare_sides(base.label, other.label, base.digests, other.digests, seed)
    result = Check(games, seed, base, candidates, named, paired)
    _write_report(setup, folder, result, games, seed)
    return result


def _play(
    setup: Setup, candidate: Candidate, folder: Path, data_folder: Path, games: int, seed: int, running: Running
) -> None:
    from parlour.arena.tune import write_data

    options: dict[str, Any] = {**setup.options, **setup.space.options(candidate.values)}
    if setup.base_files:
        target = data_folder / candidate.label.replace(" ", "-")
        write_data(target, setup.space.apply(setup.base_files, candidate.values))
        options["data"] = str(target.resolve())
    tournament = plan(setup.game, setup.agents, games, seed, setup.players, options)
    played = run(
        tournament, out=folder / candidate.label.replace(" ", "-"), workers=running.workers, backend=running.backend
    )
    candidate.summary = played.summary
    candidate.digests = [game.digest for game in played.games]
    candidate.check_value = score(setup.objectives, played.summary)
    candidate.measures = measures(setup.objectives, played.summary)


def _write_report(setup: Setup, folder: Path, result: Check, games: int, seed: int) -> None:
    from parlour.arena import report

    base = plan(setup.game, setup.agents, games, seed, setup.players, dict(setup.options))
    paired = [result.paired] if result.paired is not None else []
    html = report.render(f"{setup.game}: base against best", facts(base, games), result.compared, paired)
    (folder / REPORT).write_text(html, encoding="utf-8")


def best_folder_values(result: Check) -> dict[str, Number] | None:
    """The values `best-data/` is written with: the named point's, none when the check named none."""
    return dict(result.named.values) if result.named is not None else None
