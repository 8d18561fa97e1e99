"""The `parlour simulate` and `parlour compare` commands, behind the thin Typer shells in cli.py.

Both check every input (game, options, agents, output folder, backend) before the first game
and raise ParlourError with a message for the person at the keyboard; cli.py prints it and exits
non-zero.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from html import escape as html_escape
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from parlour.arena import report
from parlour.arena.backends import default_workers
from parlour.arena.components import MIN_TAKERS
from parlour.arena.paired import Paired, against_first
from parlour.arena.runner import Progress as ProgressCallback
from parlour.arena.runner import Run, check_backend, facts, run
from parlour.arena.stats import Rate, Summary, mean
from parlour.arena.store import MANIFEST, REPORT
from parlour.arena.tournament import ArenaError, Tournament, plan
from parlour.engine.errors import InvalidOption
from parlour.engine.game import Game
from parlour.engine.registry import game_class
from parlour.game_options import parse_game_options


@dataclass
class Settings:
    """How to run, as opposed to what to play: none of it changes the results."""

    workers: int | None = None
    backend: str = "local"
    address: str | None = None
    out: Path | None = None
    resume: bool = False
    as_json: bool = False


class GamesPerSecond(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:.1f} games/s" if speed else "… games/s")


@contextmanager
def progress_bar(label: str) -> Iterator[ProgressCallback | None]:
    """A progress bar on standard error with games/s and time left, when a person is watching."""
    console = Console(stderr=True)
    if not console.is_terminal:
        yield None
        return
    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), GamesPerSecond(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(label, total=None)
        started = False

        def update(done: int, total: int) -> None:
            nonlocal started
            if not started:  # a resumed folder's games count as done but not towards the speed
                bar.reset(task, total=total, completed=done)
                started = True
            bar.update(task, completed=done)

        yield update


def simulate(
    game: str,
    agents: str,
    games: int,
    seed: int,
    players: int | None,
    option_words: Sequence[str],
    option_pairs: Sequence[str],
    settings: Settings,
) -> int:
    """Run one tournament and print its summary (a table, or one JSON object)."""
    cls = _game_class(game)
    try:
        options = parse_game_options(cls, option_words, option_pairs)
    except InvalidOption as error:
        raise ArenaError(str(error)) from None
    levels = levels_of(agents)
    tournaments = [plan(cls.name, level, games, seed, players, options) for level in levels]
    check_backend(settings.backend, settings.workers, settings.address)
    if len(levels) > 1 and settings.out is not None and (settings.out / MANIFEST).exists():
        raise ArenaError(f"{settings.out} holds a single tournament; give several line-ups a new folder")
    results = []
    for level, tournament in zip(levels, tournaments, strict=True):
        folder = settings.out / _slug(level) if settings.out is not None and len(levels) > 1 else settings.out
        with progress_bar(cls.name + (f" ({level})" if len(levels) > 1 else "")) as progress:
            results.append(_run(tournament, settings, folder, progress))
    if len(levels) > 1 and settings.out is not None:
        _write_levels_report(settings.out, levels, tournaments, results)
    if settings.as_json:
        by_level = {level: result.to_json() for level, result in zip(levels, results, strict=True)}
        print(json.dumps(results[0].to_json() if len(results) == 1 else {"levels": by_level}))
    else:
        for level, result in zip(levels, results, strict=True):
            if len(levels) > 1:
                Console(soft_wrap=True).rule(f"agents {level}")
            print_summary(result, settings)
        if len(levels) > 1:
            Console(soft_wrap=True).print(_seat_edges(levels, results), highlight=False)
            if settings.out is not None:
                Console(soft_wrap=True).print(f"skill levels side by side: {settings.out / REPORT}", highlight=False)
    return 0


def _write_levels_report(
    out: Path, levels: Sequence[str], tournaments: Sequence[Tournament], results: Sequence[Run]
) -> None:
    """One page with every line-up side by side: balance, game metrics and components at each skill level
    (each line-up's own folder keeps its full report too)."""
    the_facts = facts(tournaments[0], results[0].summary.games)
    the_facts = [(k, "; ".join(levels) if k == "agents" else v) for k, v in the_facts]
    labelled = [(level, result.summary) for level, result in zip(levels, results, strict=True)]
    title = f"{tournaments[0].game}: by skill level"
    (out / REPORT).write_text(report.render(title, the_facts, labelled), encoding="utf-8")


def _seat_edges(levels: Sequence[str], results: Sequence[Run]) -> str:
    """Each line-up's first-seat win rate against the fair share, on one line: balance by skill level."""
    parts = []
    for level, result in zip(levels, results, strict=True):
        seat = result.summary.seats[0].record
        parts.append(f"{level}: {_rate(seat)}")
    players = len(results[0].summary.seats)
    return f"first seat's win rate by skill level (fair share {100 / players:.1f}%): " + "; ".join(parts)


def _run(tournament: Tournament, settings: Settings, out: Path | None, progress: ProgressCallback | None) -> Run:
    try:
        return run(
            tournament,
            out=out,
            resume=settings.resume,
            workers=settings.workers,
            backend=settings.backend,
            address=settings.address,
            progress=progress,
        )
    except KeyboardInterrupt:
        where = f"; parlour simulate … --out {out} --resume continues it" if out else ""
        raise ArenaError(f"stopped; the games finished so far are kept{where}") from None


def _game_class(name: str) -> type[Game]:
    try:
        return game_class(name)
    except InvalidOption as error:
        raise ArenaError(str(error)) from None


def _rate(rate: Rate) -> str:
    low, high = rate.interval
    return f"{100 * rate.rate:.1f}% [{100 * low:.1f}–{100 * high:.1f}]"


def print_summary(result: Run, settings: Settings) -> None:
    console = Console(soft_wrap=True)
    summary = result.summary
    workers = settings.workers or ("cluster" if settings.backend == "ray" else default_workers())
    where = f"{settings.backend} backend, workers: {workers}"
    console.print(
        f"{summary.game}: {summary.games} games ({result.played} played now in {result.seconds:.1f} s,"
        f" {result.games_per_second:.1f} games/s, {where}); draws: {summary.draws};"
        f" mean length {summary.mean_length:.1f} moves",
        highlight=False,
    )
    console.print(_agent_table(summary))
    console.print(_seat_table(summary))
    if summary.metrics is not None:
        console.print(f"game: {summary.metrics.line()}", highlight=False)
    if summary.components:
        console.print(_component_lines(summary), highlight=False)
    if result.folder:
        console.print(f"results in {result.folder}: records.jsonl, results.csv, report.html", highlight=False)


def _agent_table(summary: Summary, label: str = "") -> Table:
    table = Table(title=f"agents {label}".strip())
    for column in ("agent", "games", "wins", "draws", "win rate [95% CI]", "mean score", "rating"):
        table.add_column(column)
    for agent in summary.agents:
        row = [agent.name, str(agent.record.games), str(agent.record.wins), str(agent.draws), _rate(agent.record)]
        table.add_row(*row, f"{mean(agent.scores):.2f}", f"{agent.rating:.1f}")
    return table


def _seat_table(summary: Summary, label: str = "") -> Table:
    table = Table(title=f"seats {label}".strip())
    for column in ("seat", "games", "wins", "draws", "win rate [95% CI]", "mean score"):
        table.add_column(column)
    for seat in summary.seats:
        row = [f"seat {seat.seat + 1}", str(seat.record.games), str(seat.record.wins), str(seat.draws)]
        table.add_row(*row, _rate(seat.record), f"{mean(seat.scores):.2f}")
    return table


# --- compare ---------------------------------------------------------------------------------

COMPARISON = "comparison.json"


def variant_options(cls: type[Game], text: str) -> dict[str, Any]:
    """The options one `--variant` names: `motif`, `beginner`, `variant=motif,players=3`, `--beginner`.

    A bare word is a boolean option switched on, or a value of the game's `variant` option;
    `standard` means the game's defaults.
    """
    declared = {option.name: option for option in cls.options_spec}
    words: list[str] = []
    pairs: list[str] = []
    for token in re.split(r"[\s,]+", text.strip()):
        if not token or token in ("standard", "default"):
            continue
        if token.startswith("--"):
            words.append(token)
        elif "=" in token:
            pairs.append(token)
        elif token.replace("-", "_") in declared and declared[token.replace("-", "_")].type is bool:
            words.append(f"--{token}")
        elif "variant" in declared and (not declared["variant"].choices or token in declared["variant"].choices):
            pairs.append(f"variant={token}")
        else:
            known = ", ".join(sorted(declared))
            raise ArenaError(
                f"variant {text!r}: {token!r} is not an option or variant of {cls.name} (options: {known})"
            )
    try:
        return parse_game_options(cls, words, pairs)
    except InvalidOption as error:
        raise ArenaError(f"variant {text!r}: {error}") from None


def _slug(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") or "standard"


BUILT_IN_DATA = "builtin"
"""A `--data` value naming the data that comes with the game rather than a folder."""


@dataclass(frozen=True)
class Side:
    """One side of a comparison: its label in the report and the options it plays with."""

    label: str
    options: dict[str, Any]


def sides(cls: type[Game], variants: Sequence[str], data: Sequence[str]) -> list[Side]:
    """The sides `--variant` and `--data` name, variants first, each checked as the game's options."""
    found = [Side(variant.strip() or "standard", variant_options(cls, variant)) for variant in variants]
    if data and "data" not in {option.name for option in cls.options_spec}:
        raise ArenaError(f"{cls.name} has no data files, so --data cannot change them")
    names = [Path(folder).name or folder for folder in data]
    for folder, name in zip(data, names, strict=True):
        # The folder's own name reads best; the whole path tells apart two folders of one name.
        label = name if names.count(name) == 1 else folder
        value = "" if folder == BUILT_IN_DATA else str(Path(folder).expanduser().resolve())
        try:
            options = parse_game_options(cls, [], [f"data={value}"])
        except InvalidOption as error:
            raise ArenaError(f"--data {folder}: {error}") from None
        found.append(Side(label, options))
    return found


MAX_LEVELS = 4
"""The most agent line-ups (skill levels) one comparison plays, each on every side."""


def levels_of(agents: str) -> list[str]:
    """The agent line-ups `--agents` names: `greedy,greedy` or several, `random,random;greedy,greedy`."""
    levels = [level.strip() for level in agents.split(";")]
    if any(not level for level in levels):
        raise ArenaError(f"--agents {agents!r}: an empty line-up between ';' (give e.g. random,random;greedy,greedy)")
    if len(levels) > MAX_LEVELS:
        raise ArenaError(f"--agents names {len(levels)} line-ups; a comparison plays at most {MAX_LEVELS}")
    if len(set(levels)) != len(levels):
        raise ArenaError(f"--agents {agents!r} names a line-up twice")
    return levels


@dataclass
class Level:
    """One agent line-up's games on every side, and the paired verdicts of the sides against the first."""

    agents: str
    runs: list[Run]
    labelled: list[tuple[str, Summary]]
    paired: list[Paired]


def compare(
    game: str,
    agents: str,
    variants: Sequence[str],
    games: int,
    seed: int,
    players: int | None,
    settings: Settings,
    data: Sequence[str] = (),
) -> int:
    """The same tournament (agents, seeds, seating orders) on each side; one report side by side.

    A side is a `--variant` (rule variants or options) or a `--data` folder (or `builtin`). Several
    agent line-ups (`random,random;greedy,greedy`) play every side each: balance at more than one
    skill level, since an edge only beginners feel is a different finding from one experts feel.
    """
    cls = _game_class(game)
    if len(variants) + len(data) < 2:
        raise ArenaError(
            "compare needs at least two sides: --variant standard --variant beginner, or --data base --data mine"
        )
    compared = sides(cls, variants, data)
    labels = [side.label for side in compared]
    slugs = [_slug(label) for label in labels]
    if len(set(slugs)) != len(slugs):
        raise ArenaError(f"the sides must differ: {', '.join(labels)}")
    levels = levels_of(agents)
    planned = [[plan(cls.name, level, games, seed, players, side.options) for side in compared] for level in levels]
    check_backend(settings.backend, settings.workers, settings.address)
    if settings.out is not None:
        _check_comparison_folder(settings.out, planned[0][0], labels, settings.resume, levels)
    played = [
        _play_level(cls, level, tournaments, labels, slugs, settings, seed, len(levels) > 1)
        for level, tournaments in zip(levels, planned, strict=True)
    ]
    if settings.out is not None:
        extra = {"sides": "; ".join(f"{label} → {slug}/" for label, slug in zip(labels, slugs, strict=True))}
        content = "".join(
            (f"<h2>Agents {html_escape(level.agents)}</h2>" if len(played) > 1 else "")
            + report.body(level.labelled, level.paired)
            for level in played
        )
        the_facts = facts(planned[0][0], games, extra)
        if len(played) > 1:
            the_facts = [(k, "; ".join(levels) if k == "agents" else v) for k, v in the_facts]
        (settings.out / REPORT).write_text(report.page(f"{cls.name}: compared", the_facts, content), encoding="utf-8")
    if settings.as_json:
        print(json.dumps(_comparison_json(cls.name, labels, played)))
    else:
        for level in played:
            print_comparison(level.labelled, settings, level.paired, level.agents if len(played) > 1 else "")
        if len(played) > 1:
            Console(soft_wrap=True).print(_levels_note(played), highlight=False)
    return 0


def _play_level(
    cls: type[Game],
    agents: str,
    tournaments: list[Tournament],
    labels: list[str],
    slugs: list[str],
    settings: Settings,
    seed: int,
    nested: bool,
) -> Level:
    runs: list[Run] = []
    for label, slug, tournament in zip(labels, slugs, tournaments, strict=True):
        folder = None
        if settings.out is not None:
            folder = settings.out / _slug(agents) / slug if nested else settings.out / slug
        with progress_bar(f"{cls.name} {label}" + (f" ({agents})" if nested else "")) as progress:
            runs.append(_run(tournament, settings, folder, progress))
    labelled = [(label, result.summary) for label, result in zip(labels, runs, strict=True)]
    paired = against_first([(label, [g.digest for g in r.games]) for label, r in zip(labels, runs, strict=True)], seed)
    return Level(agents, runs, labelled, paired)


def _comparison_json(game: str, labels: list[str], played: list[Level]) -> dict[str, Any]:
    def one(level: Level) -> dict[str, Any]:
        sides_json = {label: r.to_json() for label, r in zip(labels, level.runs, strict=True)}
        return {"variants": sides_json, "paired": [p.to_json() for p in level.paired]}

    if len(played) == 1:
        return {"game": game, **one(played[0])}
    return {"game": game, "levels": {level.agents: one(level) for level in played}}


def _levels_note(played: list[Level]) -> str:
    """Each line-up's verdicts side by side, and whether they agree."""
    lines = []
    for index, change in enumerate(played[0].paired):
        verdicts = [level.paired[index].verdict for level in played if index < len(level.paired)]
        told = "; ".join(f"{level.agents}: {verdict}" for level, verdict in zip(played, verdicts, strict=True))
        agree = "the line-ups agree" if len(set(verdicts)) == 1 else "the line-ups disagree: an edge of some skill"
        lines.append(f"{change.after} against {change.before} by skill level: {told} ({agree})")
    return "\n".join(lines)


def print_comparison(
    labelled: Sequence[tuple[str, Summary]], settings: Settings, paired: Sequence[Paired] = (), agents: str = ""
) -> None:
    console = Console(soft_wrap=True)
    if agents:
        console.rule(f"agents {agents}")
    for label, summary in labelled:
        console.print(_agent_table(summary, f"— {label}"))
        console.print(_seat_table(summary, f"— {label}"))
        if summary.metrics is not None:
            console.print(f"game ({label}): {summary.metrics.line()}", highlight=False)
        console.print(_component_lines(summary), highlight=False)
    for change in paired:
        console.print(_paired_table(change))
        console.print(change.line() + (f" (agents {agents})" if agents else ""), highlight=False)
    if settings.out is not None and not agents:
        console.print(f"comparison report: {settings.out / REPORT}", highlight=False)


def _paired_table(change: Paired) -> Table:
    table = Table(title=f"{change.after} against {change.before}, game by game")
    for column in ("seat", change.before, change.after, "difference [95% CI]", "McNemar p", "Holm q"):
        table.add_column(column)
    for seat in change.seats:
        low, high = seat.interval
        difference = f"{100 * seat.difference:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]"
        rates = f"{100 * seat.before:.1f}%", f"{100 * seat.after:.1f}%"
        table.add_row(f"seat {seat.seat + 1}", *rates, difference, f"{seat.p_value:.3g}", f"{seat.q_value:.3g}")
    return table


def _component_lines(summary: Summary) -> str:
    """The components called strong or weak (after FDR control), in one line, and those nearly always taken
    when offered: too few passers to judge them, yet the first to look at."""
    called = [f"{c.name} {c.verdict()} ({100 * c.difference:+.0f} pts)" for c in summary.components if c.verdict()]
    if not summary.components:
        return "components: none seen often enough"
    line = "components: " + ("; ".join(called) if called else f"none strong or weak of {len(summary.components)}")
    unjudged = [c for c in summary.components if c.others.games < MIN_TAKERS]
    if unjudged:
        told = ", ".join(f"{c.name} ({c.taken.wins} of {c.taken.games})" for c in unjudged)
        line += f"; taken at nearly every seat offered it, too few passers to judge: {told}"
    return line


def _check_comparison_folder(
    folder: Path, first: Tournament, labels: list[str], resume: bool, levels: Sequence[str] = ()
) -> None:
    """A comparison folder holds one tournament folder per variant and a note of what it compares."""
    note: dict[str, Any] = {
        "format": "parlour-comparison/1",
        "game": first.game,
        "agents": list(first.agents),
        "seed": first.seed,
        "variants": labels,
    }
    if len(levels) > 1:  # several line-ups: each plays every side, in a folder of its own
        note["agents"] = list(levels)
    path = folder / COMPARISON
    if path.exists():
        try:
            held = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            held = None
        if held != note:
            raise ArenaError(f"{folder} holds another comparison ({path}); choose another folder")
        if not resume:
            raise ArenaError(f"{folder} already holds this comparison; add --resume to continue it")
    elif folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        if (folder / MANIFEST).exists():
            raise ArenaError(f"{folder} holds a single tournament, not a comparison; choose another folder")
        raise ArenaError(f"{folder} is not empty and holds no parlour comparison; choose a new or empty folder")
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(note, indent=1) + "\n", encoding="utf-8")
