"""The `parlour tune` command behind its Typer shell in cli.py: check every input, run the study,
compare the base data with the best, write the report and print what was found."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from parlour.arena.commands import _game_class
from parlour.arena.objectives import parse_objectives
from parlour.arena.runner import check_backend, facts, run
from parlour.arena.space import load_space
from parlour.arena.stats import Summary
from parlour.arena.store import REPORT
from parlour.arena.tournament import ArenaError, plan
from parlour.arena.tune import BEST, MAX_STEPS, PRUNERS, SAMPLERS, Budget, Outcome, Running, Setup, Trial, tune
from parlour.arena.tune_report import render
from parlour.engine.errors import InvalidOption
from parlour.game_options import parse_game_options

COMPARISON = "comparison"


@dataclass
class Request:
    """What `parlour tune` was asked, as the command line gives it."""

    game: str
    space: Path
    objectives: Sequence[str]
    out: Path
    agents: str = "greedy,greedy"
    games: int = 100
    seed: int = 0
    players: int | None = None
    data: str | None = None  # the base data folder (default: the built-in data)
    option_words: Sequence[str] = ()
    option_pairs: Sequence[str] = ()
    steps: int = 4
    check_games: int | None = None  # games of the before/after comparison (default: --games)


def setup_of(request: Request) -> Setup:
    """Everything checked before the first trial: game, options, agents, base data, space, objectives."""
    cls = _game_class(request.game)
    try:
        options = parse_game_options(cls, request.option_words, request.option_pairs)
    except InvalidOption as error:
        raise ArenaError(str(error)) from None
    if "data" in options:
        raise ArenaError("give the base data folder with --data, not as a game option")
    if not 1 <= request.steps <= min(MAX_STEPS, request.games):
        raise ArenaError(
            f"--steps must be 1 to {min(MAX_STEPS, request.games)} (at most one per game), got {request.steps}"
        )
    has_data = "data" in {option.name for option in cls.options_spec}
    if request.data is not None and not has_data:
        raise ArenaError(f"{cls.name} has no data files, so --data cannot give a base")
    base = {} if request.data is None else {"data": str(Path(request.data).expanduser().resolve())}
    tournament = plan(cls.name, request.agents, request.games, request.seed, request.players, {**options, **base})
    game = tournament.load()
    data = getattr(game, "data", None)
    files: dict[str, str] = dict(data.files) if has_data and data is not None else {}
    space = load_space(request.space, cls, files)
    tuned = sorted(p.option for p in space.parameters if p.option and p.option in options)
    if tuned:
        raise ArenaError(f"the option {tuned[0]} is tuned by the space; do not also fix it on the command line")
    # Only the options given: the rest (filled in by the game) may follow from each trial's data.
    fixed = {key: value for key, value in options.items() if key != "data"}
    return Setup(
        game=cls.name,
        agents=tournament.agents,
        games=request.games,
        seed=request.seed,
        players=request.players,
        options=fixed,
        base_files=files,
        base_origin=base.get("data", "built-in"),
        space=space,
        objectives=tuple(parse_objectives(request.objectives)),
        steps=request.steps,
    )


def tune_command(request: Request, budget: Budget, running: Running, resume: bool) -> int:
    if running.sampler not in SAMPLERS:
        raise ArenaError(f"no sampler called {running.sampler!r} (samplers: {', '.join(SAMPLERS)})")
    if running.pruner not in PRUNERS:
        raise ArenaError(f"no pruner called {running.pruner!r} (pruners: {', '.join(PRUNERS)})")
    if budget.trials is not None and budget.trials < 1:
        raise ArenaError(f"--trials must be at least 1, got {budget.trials}")
    if budget.minutes is not None and budget.minutes <= 0:
        raise ArenaError(f"--minutes must be above 0, got {budget.minutes}")
    if request.check_games is not None and request.check_games < 1:
        raise ArenaError(f"--check-games must be at least 1, got {request.check_games}")
    check_backend(running.backend, running.workers, None)
    setup = setup_of(request)
    console = Console(stderr=True, soft_wrap=True)
    outcome = tune(setup, request.out, budget, running, resume, told=lambda t, b: console.print(_line(t, b)))
    compared = before_and_after(setup, outcome, request, running)
    lines = [("game", setup.game), ("agents", ", ".join(setup.agents)), ("games per trial", str(setup.games))]
    lines += [("seed", str(setup.seed)), ("base data", setup.base_origin)]
    lines += [("objectives", "; ".join(o.text for o in setup.objectives)), ("space", str(setup.space.path))]
    lines += [("sampler, pruner", f"{running.sampler}, {running.pruner} ({setup.steps} steps per trial)")]
    html = render(f"{setup.game}: tuned", lines, setup, outcome, compared)
    (request.out / REPORT).write_text(html, encoding="utf-8")
    _print_outcome(setup, outcome, request.out)
    return 0


def _line(trial: Trial, best: Trial | None) -> str:
    values = ", ".join(f"{name}={value}" for name, value in trial.values.items())
    if trial.value is None:
        what = trial.error or trial.state
    else:
        shown = "; ".join(f"{name} {value:.3f}" for name, value in trial.measures.items() if name != "games")
        what = f"score {trial.value:.4f} ({shown})"
    lead = f"best {best.value:.4f} (trial {best.number})" if best is not None and best.value is not None else ""
    return f"trial {trial.number}: {values}: {what}" + (f"; {lead}" if lead else "")


def before_and_after(setup: Setup, outcome: Outcome, request: Request, running: Running) -> list[tuple[str, Summary]]:
    """The base against the best trial, played as `parlour compare` plays two sides."""
    if outcome.best is None:
        return []
    folder = request.out / COMPARISON
    shutil.rmtree(folder, ignore_errors=True)  # a resumed study may have a new best
    games = request.check_games or setup.games
    base: dict[str, Any] = dict(setup.options)
    best: dict[str, Any] = {**setup.options, **setup.space.options(outcome.best.values)}
    if setup.base_files:
        base["data"] = "" if setup.base_origin == "built-in" else setup.base_origin
        best["data"] = str((request.out / BEST).resolve())
    compared = []
    for label, options in (("base", base), ("best", best)):
        tournament = plan(setup.game, setup.agents, games, setup.seed, setup.players, options)
        result = run(tournament, out=folder / label, workers=running.workers, backend=running.backend)
        compared.append((label, result.summary))
    both = facts(plan(setup.game, setup.agents, games, setup.seed, setup.players, base), games)
    from parlour.arena import report

    (folder / REPORT).write_text(report.render(f"{setup.game}: base against best", both, compared), encoding="utf-8")
    return compared


def _print_outcome(setup: Setup, outcome: Outcome, out: Path) -> None:
    console = Console(soft_wrap=True)
    best = outcome.best
    console.print(
        f"{setup.game}: {len(outcome.trials)} trials, {outcome.games_played} games played now in"
        f" {outcome.seconds:.1f} s ({outcome.games_per_second:.1f} games/s)",
        highlight=False,
    )
    if best is None:
        console.print("no trial finished", highlight=False)
        return
    console.print(f"best: trial {best.number}, score {best.value:.4f}", highlight=False)
    for parameter in setup.space.parameters:
        value = best.values.get(parameter.label, parameter.base)
        console.print(f"  {parameter.label}: {parameter.base} → {value}", highlight=False)
    where = f"best data in {out / BEST}, " if setup.base_files else ""
    console.print(f"{where}study in {out / 'study.sqlite'}, report in {out / REPORT}", highlight=False)
