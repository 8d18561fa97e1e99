"""`parlour tune`: search a game's designed values for balance with Optuna.

Each trial writes the values its sampler suggests into a copy of the base data (or sets game
options), plays a batch of bot games on the arena's workers, always from the same seeds and
seating orders (common random numbers, so that two trials differ by their values and not by their
luck), and scores the result against the objectives (`objectives.py`). The batch is played in
`steps` parts; after each part the trial reports its score so far and the pruner may stop a
hopeless trial early. Data a game refuses (a count its rules cannot hold) fails that trial alone,
with the game's message; the space was checked against the game before the first trial
(`space_check.py`), so only values refused together get this far.

Noise: the study's best point is played again on other seeds until it has `repeats` evaluations,
and points are ranked by their mean (`Point`). A resumed study's sampler is seeded from the seed
and the trials the study holds, so it draws on rather than drawing the first run's values again.

The output folder holds the study (`study.sqlite`, which `--resume` continues), `tune.json` (what
the study tunes, checked on resume), `best-data/` (the base data with the values the check on
fresh seeds named, `tune_check.py`), `comparison/` (that check's games) and `report.html`.
"""

from __future__ import annotations

import json
import shutil
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlour.arena.backends import default_workers, play_in, run_ray, worker_pool
from parlour.arena.objectives import Objective, first_seat_rate, score
from parlour.arena.space import Number, Parameter, Space
from parlour.arena.stats import Summary, summarize
from parlour.arena.tournament import ArenaError, Tournament, derive_seed, plan
from parlour.engine.errors import ParlourError

FORMAT = "parlour-tune/2"
"""/2: promising points are played again on other seeds (`repeats`)."""
STUDY = "study.sqlite"
NOTE = "tune.json"
BEST = "best-data"
TRIALS = "trials"  # a trial's data folder lives here while the trial runs
STUDY_NAME = "parlour-tune"
SAMPLERS = ("tpe", "random")
PRUNERS = ("median", "hyperband", "none")
MAX_STEPS = 20
"""The most parts a trial's batch may be cut into (each part is a point the pruner may stop at)."""
REPEATS = 2
"""Evaluations of a promising point (each on its own seeds) before the study stops playing it again."""
MAX_REPEATS = 10
PROMISING = 1
"""A point is promising while its mean score is among this many best points of the study."""
REPEAT_SEEDS = 1
"""The seed path of a point's repeated evaluations: repeat k plays from derive_seed(seed, 1, k)."""


@dataclass(frozen=True)
class Setup:
    """What a study tunes: everything that must match for `--resume` to continue it."""

    game: str
    agents: tuple[str, ...]
    games: int
    seed: int
    players: int | None
    options: Mapping[str, Any]  # fixed game options (besides data)
    base_files: Mapping[str, str]  # the base data files, name -> text ({} for a game without data)
    base_origin: str  # "built-in" or the folder
    space: Space
    objectives: tuple[Objective, ...]
    steps: int = 4
    repeats: int = REPEATS

    def note(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "agents": list(self.agents),
            "games": self.games,
            "seed": self.seed,
            "players": self.players,
            "options": dict(self.options),
            "base_data": self.base_origin,
            "base_files": sorted(self.base_files),
            "space": [parameter.to_json() for parameter in self.space.parameters],
            "objectives": [objective.text for objective in self.objectives],
            "steps": self.steps,
            "repeats": self.repeats,
        }


@dataclass
class Budget:
    trials: int | None = None  # the study's total number of trials
    minutes: float | None = None  # this run's time


@dataclass
class Running:
    """How to run: none of it changes a trial's result."""

    workers: int | None = None
    backend: str = "local"
    sampler: str = "tpe"
    pruner: str = "median"


@dataclass
class Trial:
    """One finished trial as the report shows it."""

    number: int
    state: str
    value: float | None
    values: dict[str, Number]
    measures: dict[str, float] = field(default_factory=dict)
    error: str = ""
    reached: float | None = None  # the last score reported to the pruner (a pruned trial's)
    repeat: int = 0  # 0: the point's first evaluation; k: its k-th replay on other seeds


@dataclass
class Point:
    """One set of values and every finished evaluation of it: the study's estimate is their mean."""

    values: dict[str, Number]
    trials: list[Trial]

    @property
    def value(self) -> float:
        return sum(t.value for t in self.trials if t.value is not None) / len(self.trials)

    @property
    def number(self) -> int:
        """The first trial that played these values: how the report names the point."""
        return self.trials[0].number

    @property
    def measures(self) -> dict[str, float]:
        names = self.trials[0].measures
        return {name: sum(t.measures.get(name, 0.0) for t in self.trials) / len(self.trials) for name in names}


@dataclass
class Outcome:
    folder: Path
    trials: list[Trial]
    best: Point | None  # the study's best estimate, before the check on fresh seeds
    games_played: int  # games this run played
    seconds: float  # this run's time spent playing trials
    importances: dict[str, float]

    @property
    def games_per_second(self) -> float:
        return self.games_played / self.seconds if self.seconds > 0 else 0.0


TrialLine = Callable[[Trial, Point | None], None]
"""Told each trial as it ends, with the best trial so far: the progress shown while tuning runs."""


def optuna_module() -> Any:
    try:
        import optuna
    except ImportError:
        raise ArenaError("parlour tune needs Optuna: pip install 'parlour[arena]'") from None
    # A failed trial is told by parlour's own line (with the game's message), not by Optuna's traceback.
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    return optuna


def open_study(setup: Setup, folder: Path, resume: bool, running: Running) -> Any:
    """The study in `folder` (new, or the one held there when resuming the same setup)."""
    optuna = optuna_module()
    note_path, study_path = folder / NOTE, folder / STUDY
    if note_path.exists():
        try:
            held = json.loads(note_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            held = None
        if held != setup.note():
            changed = _first_difference(held, setup.note())
            raise ArenaError(f"{folder} holds another tuning study ({changed}); choose another folder")
        if not resume:
            raise ArenaError(f"{folder} already holds this study; add --resume to continue it")
    elif resume:
        raise ArenaError(f"{folder} holds no tuning study to resume (no {NOTE})")
    elif folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ArenaError(f"{folder} is not empty and holds no parlour tuning study; choose a new or empty folder")
    folder.mkdir(parents=True, exist_ok=True)
    note_path.write_text(json.dumps(setup.note(), indent=1) + "\n", encoding="utf-8")
    study = optuna.create_study(
        study_name=STUDY_NAME,
        storage=f"sqlite:///{study_path.resolve()}",
        load_if_exists=True,
        direction="minimize",
        sampler=_sampler(optuna, running.sampler, setup.seed),
        pruner=_pruner(optuna, running.pruner),
    )
    held_trials = len(study.get_trials(deepcopy=False))
    if held_trials:
        # The sampler's random state goes on from the trials the study holds: a sampler seeded from
        # --seed alone would draw the first run's values again.
        study.sampler = _sampler(optuna, running.sampler, derive_seed(setup.seed, held_trials) % 2**32)
    return study


def _first_difference(held: Any, wanted: dict[str, Any]) -> str:
    if not isinstance(held, dict):
        return f"{NOTE} is unreadable"
    for key, value in wanted.items():
        if held.get(key) != value:
            return f"its {key} is {held.get(key)!r}, asked: {value!r}"
    return "its note differs"


def _sampler(optuna: Any, name: str, seed: int) -> Any:
    if name == "tpe":
        return optuna.samplers.TPESampler(seed=seed)
    if name == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    raise ArenaError(f"no sampler called {name!r} (samplers: {', '.join(SAMPLERS)})")


def _pruner(optuna: Any, name: str) -> Any:
    if name == "median":
        # A trial is stopped only after a few trials have finished and its first part is played.
        return optuna.pruners.MedianPruner(n_startup_trials=4, n_warmup_steps=1)
    if name == "hyperband":
        return optuna.pruners.HyperbandPruner(min_resource=1)
    if name == "none":
        return optuna.pruners.NopPruner()
    raise ArenaError(f"no pruner called {name!r} (pruners: {', '.join(PRUNERS)})")


def suggest(trial: Any, parameter: Parameter) -> Number:
    if parameter.integer:
        return int(trial.suggest_int(parameter.label, parameter.low, parameter.high, step=parameter.step or 1))
    value = float(trial.suggest_float(parameter.label, parameter.low, parameter.high, step=parameter.step))
    # A stepped value is low + k * step: rounded so that 0.95 is written as 0.95, not 0.9500000000000001.
    return round(value, 12) if parameter.step else value


def write_data(folder: Path, files: Mapping[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8", newline="")


def tournament_for(setup: Setup, values: Mapping[str, Number], data_folder: Path | None, repeat: int = 0) -> Tournament:
    """The trial's tournament: the fixed options, the trial's option values and its data folder.

    A point's first evaluation plays from the study's seed, as every other point's does (common
    random numbers); its k-th repeat plays the k-th other set of seeds, shared by every repeat k."""
    options: dict[str, Any] = {**setup.options, **setup.space.options(values)}
    if data_folder is not None:
        options["data"] = str(data_folder.resolve())
    seed = setup.seed if repeat == 0 else derive_seed(setup.seed, REPEAT_SEEDS, repeat)
    return plan(setup.game, setup.agents, setup.games, seed, setup.players, options)


def step_ends(games: int, steps: int) -> list[int]:
    """Where each part of a trial's batch ends: `steps` parts as equal as can be."""
    return sorted({max(1, round(games * (step + 1) / steps)) for step in range(steps)})


class Player:
    """Plays a tournament's games on the run's workers: a local pool kept for every trial, or Ray."""

    def __init__(self, pool: Any, workers: int, backend: str) -> None:
        self.pool, self.workers, self.backend = pool, workers, backend

    def games(self, tournament: Tournament, indices: Sequence[int]) -> Iterator[dict[str, Any]]:
        if self.backend == "ray":
            played = run_ray(tournament, indices, self.workers)
        else:
            played = play_in(self.pool, tournament, indices, self.workers)
        for game in played:
            yield game.digest


@contextmanager
def player(running: Running, game_source: str) -> Iterator[Player]:
    if running.backend == "ray":
        from parlour.arena.backends import connect_ray, import_ray

        started = connect_ray(None)
        try:
            yield Player(None, running.workers or 0, "ray")
        finally:
            if started:
                import_ray().shutdown()
        return
    workers = running.workers or default_workers()
    with worker_pool(workers, game_source) as pool:
        yield Player(pool, workers, "local")


def run_trial(trial: Any, setup: Setup, folder: Path, play: Player, counter: list[int]) -> float:
    """One trial: write its data, play its batch part by part, report to the pruner, return its score."""
    optuna = optuna_module()
    values = {parameter.label: suggest(trial, parameter) for parameter in setup.space.parameters}
    data_folder = folder / TRIALS / f"{trial.number:05d}" if setup.base_files else None
    try:
        if data_folder is not None:
            write_data(data_folder, setup.space.apply(setup.base_files, values))
        try:
            repeat = repeat_of(trial, values)
            tournament = tournament_for(setup, values, data_folder, repeat)
        except ParlourError as error:
            trial.set_user_attr("error", str(error))
            raise
        digests: list[dict[str, Any]] = []
        start = 0
        for step, end in enumerate(step_ends(setup.games, setup.steps)):
            digests.extend(play.games(tournament, list(range(start, end))))
            counter[0] += end - start
            start = end
            digests.sort(key=lambda digest: int(digest["arena"]["index"]))
            summary = summarize(digests, tournament.names, tournament.agents)
            value = score(setup.objectives, summary)
            trial.set_user_attr("measures", measures(setup.objectives, summary))
            trial.report(value, step)
            # A repeat plays its whole batch: stopping the best point's replay would keep only its luck.
            if end < setup.games and repeat == 0 and trial.should_prune():
                raise optuna.TrialPruned()
        return value
    finally:
        if data_folder is not None:
            shutil.rmtree(data_folder, ignore_errors=True)


def repeat_of(trial: Any, values: Mapping[str, Number]) -> int:
    """How many earlier trials played these values: a point drawn again plays new seeds, not the same games."""
    earlier = [
        t
        for t in trial.study.get_trials(deepcopy=False)
        if t.number < trial.number and t.state.name in ("COMPLETE", "PRUNED", "RUNNING") and _same(t.params, values)
    ]
    trial.set_user_attr("repeat", len(earlier))
    return len(earlier)


def _same(params: Mapping[str, Any], values: Mapping[str, Number]) -> bool:
    def rounded(found: Mapping[str, Any]) -> dict[str, Any]:
        return {k: round(v, 12) if isinstance(v, float) else v for k, v in found.items()}

    return rounded(params) == rounded(values)


def measures(objectives: Sequence[Objective], summary: Summary) -> dict[str, float]:
    """What each objective looks at, and always the first seat's win rate and the mean length."""
    found = {"first seat's win rate": first_seat_rate(summary), "mean length": summary.mean_length}
    found.update({objective.measured: objective.measure(summary) for objective in objectives})
    found["games"] = float(summary.games)
    return found


def trials_of(study: Any) -> list[Trial]:
    found = []
    for trial in study.get_trials(deepcopy=False):
        if trial.state.name == "WAITING":
            continue  # a repeat queued for the next run: not played yet
        found.append(
            Trial(
                number=trial.number,
                state=trial.state.name.lower(),
                value=trial.value if trial.state.name == "COMPLETE" else None,
                values={name: round(v, 12) if isinstance(v, float) else v for name, v in trial.params.items()},
                measures=dict(trial.user_attrs.get("measures", {})),
                error=str(trial.user_attrs.get("error", "")),
                reached=trial.intermediate_values[max(trial.intermediate_values)]
                if trial.intermediate_values
                else None,
                repeat=int(trial.user_attrs.get("repeat", 0)),
            )
        )
    return found


def points_of(trials: Sequence[Trial]) -> list[Point]:
    """The finished trials grouped by their values, best mean score first."""
    found: dict[str, Point] = {}
    for trial in trials:
        if trial.value is not None:
            key = repr(sorted(trial.values.items()))
            found.setdefault(key, Point(dict(trial.values), [])).trials.append(trial)
    return sorted(found.values(), key=lambda point: (point.value, point.number))


def best_of(trials: Sequence[Trial]) -> Point | None:
    """The point with the best mean score over its evaluations."""
    points = points_of(trials)
    return points[0] if points else None


def repeat_if_promising(study: Any, setup: Setup, finished: Any) -> None:
    """Queue another evaluation of a finished trial's values, on other seeds, while they stay among
    the study's best few and have been played fewer than `repeats` times (as NTBEA re-samples its
    best arms): one lucky batch of seeds then cannot carry a point to the top on its own."""
    if finished.state.name != "COMPLETE" or setup.repeats < 2:
        return
    trials = trials_of(study)
    points = points_of(trials)
    key = repr(sorted((name, round(v, 12) if isinstance(v, float) else v) for name, v in finished.params.items()))
    ranked = [repr(sorted(point.values.items())) for point in points[:PROMISING]]
    if key not in ranked:
        return
    point = points[ranked.index(key)]
    waiting = [
        t
        for t in study.get_trials(deepcopy=False)
        if t.state.name == "WAITING" and t.system_attrs.get("fixed_params", t.params) == finished.params
    ]
    played = len(point.trials) + len(waiting)
    if played < setup.repeats:
        study.enqueue_trial(dict(finished.params))


def importances(study: Any) -> dict[str, float]:
    """Optuna's parameter importances (PED-ANOVA: how far each parameter's values among the best
    trials stand apart from its values over all trials); empty while too few trials have finished."""
    optuna = optuna_module()
    complete = [t for t in study.get_trials(deepcopy=False) if t.state.name == "COMPLETE"]
    if len(complete) < 2 or len({repr(sorted(t.params.items())) for t in complete}) < 2:
        return {}
    try:
        with warnings.catch_warnings():  # too few distinct trials draws a warning; the report says so itself
            warnings.simplefilter("ignore")
            evaluator = optuna.importance.PedAnovaImportanceEvaluator()
            found = optuna.importance.get_param_importances(study, evaluator=evaluator)
    except (RuntimeError, ValueError, ZeroDivisionError):
        return {}
    return {name: float(value) for name, value in found.items()}


def tune(
    setup: Setup, folder: Path, budget: Budget, running: Running, resume: bool, told: TrialLine | None = None
) -> Outcome:
    """Run the study to its budget and write the best data folder; the report is written by the caller."""
    if budget.trials is None and budget.minutes is None:
        raise ArenaError("give a budget: --trials N (the study's total) or --minutes M, or both")
    study = open_study(setup, folder, resume, running)
    if not study.get_trials(deepcopy=False):
        enqueue_base(study, setup)
    finished = len([t for t in study.get_trials(deepcopy=False) if t.state.name not in ("RUNNING", "WAITING")])
    remaining = None if budget.trials is None else max(0, budget.trials - finished)
    counter = [0]
    started = time.perf_counter()

    def callback(_: Any, frozen: Any) -> None:
        repeat_if_promising(study, setup, frozen)
        if told is not None:
            trials = trials_of(study)
            (mine,) = [trial for trial in trials if trial.number == frozen.number]
            told(mine, best_of(trials))

    if remaining != 0:
        with player(running, tournament_for(setup, base_values(setup), None).game_source) as play:
            try:
                study.optimize(
                    lambda trial: run_trial(trial, setup, folder, play, counter),
                    n_trials=remaining,
                    timeout=None if budget.minutes is None else budget.minutes * 60,
                    catch=(ParlourError,),
                    callbacks=[callback],
                )
            except KeyboardInterrupt:
                raise ArenaError(f"stopped; the finished trials are kept: add --resume to continue {folder}") from None
    seconds = time.perf_counter() - started
    shutil.rmtree(folder / TRIALS, ignore_errors=True)
    trials = trials_of(study)
    return Outcome(folder, trials, best_of(trials), counter[0], seconds, importances(study))


def write_best(setup: Setup, folder: Path, values: Mapping[str, Number] | None) -> None:
    """The base data with `values` written in, in `folder`/best-data (removed when there are none)."""
    target = folder / BEST
    shutil.rmtree(target, ignore_errors=True)
    if values is not None and setup.base_files:
        write_data(target, setup.space.apply(setup.base_files, {**base_values(setup), **values}))


def enqueue_base(study: Any, setup: Setup) -> None:
    """A new study's first trial plays the base values, where they lie within the space's bounds,
    so the history starts from where the designer stands."""
    values = base_values(setup)
    inside = {p.label: values[p.label] for p in setup.space.parameters if p.low <= p.base <= p.high and _on_step(p)}
    if inside:
        study.enqueue_trial(inside)


def _on_step(parameter: Parameter) -> bool:
    if not parameter.step:
        return True
    steps = (parameter.base - parameter.low) / parameter.step
    return abs(steps - round(steps)) < 1e-9


def base_values(setup: Setup) -> dict[str, Number]:
    return {parameter.label: parameter.base for parameter in setup.space.parameters}
