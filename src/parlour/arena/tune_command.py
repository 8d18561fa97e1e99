"""The `parlour tune` command behind its Typer shell in cli.py: check every input, run the study,
compare the base data with the best, write the report and print what was found."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from parlour.arena.commands import _game_class
from parlour.arena.objectives import parse_objectives
from parlour.arena.runner import check_backend
from parlour.arena.space import load_space
from parlour.arena.space_check import check_space
from parlour.arena.store import REPORT
from parlour.arena.tournament import ArenaError, plan
from parlour.arena.tune import (
    BEST,
    MAX_REPEATS,
    MAX_STEPS,
    PRUNERS,
    REPEATS,
    SAMPLERS,
    Budget,
    Outcome,
    Point,
    Running,
    Setup,
    Trial,
    tune,
    write_best,
)
from parlour.arena.tune_check import Check, best_folder_values, check
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
    check_games: int | None = None  # games of the check on fresh seeds (default: --games)
    repeats: int = REPEATS  # evaluations of a promising point, each on its own seeds


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
    if not 1 <= request.repeats <= MAX_REPEATS:
        raise ArenaError(f"--repeats must be 1 to {MAX_REPEATS}, got {request.repeats}")
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
    setup = Setup(
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
        repeats=request.repeats,
    )
    check_space(setup)  # every value the space allows, against the game, before the first trial
    return setup


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
    checked = check(setup, outcome, request.out / COMPARISON, request.check_games or setup.games, running)
    write_best(setup, request.out, best_folder_values(checked))
    lines = [("game", setup.game), ("agents", ", ".join(setup.agents)), ("games per trial", str(setup.games))]
    lines += [("seed", str(setup.seed)), ("base data", setup.base_origin)]
    lines += [("objectives", "; ".join(o.text for o in setup.objectives)), ("space", str(setup.space.path))]
    lines += [("sampler, pruner", f"{running.sampler}, {running.pruner} ({setup.steps} steps per trial)")]
    lines += [("repeats of a promising point", str(setup.repeats))]
    lines += [("check", f"{checked.games} games from seed {checked.seed}, apart from the trials' seeds")]
    html = render(f"{setup.game}: tuned", lines, setup, outcome, checked)
    (request.out / REPORT).write_text(html, encoding="utf-8")
    _print_outcome(setup, outcome, checked, request.out)
    return 0


def _line(trial: Trial, best: Point | None) -> str:
    values = ", ".join(f"{name}={value}" for name, value in trial.values.items())
    if trial.value is None:
        what = trial.error or trial.state
    else:
        shown = "; ".join(f"{name} {value:.3f}" for name, value in trial.measures.items() if name != "games")
        what = f"score {trial.value:.4f} ({shown})"
    lead = f"best {best.value:.4f} (trial {best.number})" if best is not None and best.value is not None else ""
    return f"trial {trial.number}: {values}: {what}" + (f"; {lead}" if lead else "")


def _print_outcome(setup: Setup, outcome: Outcome, checked: Check, out: Path) -> None:
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
    runs = f", over {len(best.trials)} evaluations" if len(best.trials) > 1 else ""
    console.print(f"the study's best: trial {best.number}, mean score {best.value:.4f}{runs}", highlight=False)
    console.print(checked.line(), highlight=False)
    if checked.paired is not None:
        console.print(checked.paired.line(), highlight=False)
    named = checked.named
    if named is not None:
        for parameter in setup.space.parameters:
            value = named.values.get(parameter.label, parameter.base)
            console.print(f"  {parameter.label}: {parameter.base} → {value}", highlight=False)
    where = f"best data in {out / BEST}, " if setup.base_files and named is not None else ""
    console.print(f"{where}study in {out / 'study.sqlite'}, report in {out / REPORT}", highlight=False)
