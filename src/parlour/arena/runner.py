"""Running a tournament: check the output folder, play the missing games on a backend, journal
each game as it ends, then write the summary, the CSV and the report."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parlour.arena import report
from parlour.arena.backends import BACKENDS, connect_ray, default_workers, import_ray, run_local, run_ray
from parlour.arena.match import Played
from parlour.arena.stats import Summary, summarize
from parlour.arena.store import Store
from parlour.arena.tournament import ArenaError, Tournament

Progress = Callable[[int, int], None]
"""Told (games done, games in the tournament) after every game."""


@dataclass
class Run:
    tournament: Tournament
    summary: Summary
    played: int  # games played by this run (a resumed run counts only its own)
    seconds: float
    folder: Path | None
    games: list[Played]  # in game order

    @property
    def records(self) -> list[dict[str, Any]]:
        """The games' full records, in game order."""
        return [game.record for game in self.games]

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0

    @property
    def complete(self) -> bool:
        return self.summary.games == self.tournament.games

    def to_json(self) -> dict[str, Any]:
        return {
            **self.summary.to_json(),
            "agents_given": list(self.tournament.agents),
            "seed": self.tournament.seed,
            "planned_games": self.tournament.games,
            "played_now": self.played,
            "seconds": round(self.seconds, 3),
            "games_per_s": round(self.games_per_second, 2),
            "timing": self.summary.metrics.timing_json() if self.summary.metrics is not None else None,
            "out": str(self.folder) if self.folder else None,
        }


MAX_WORKERS_PER_CORE = 8


def check_backend(backend: str, workers: int | None, address: str | None) -> None:
    if backend not in BACKENDS:
        raise ArenaError(f"no backend called {backend!r} (backends: {', '.join(BACKENDS)})")
    if workers is not None and workers < 1:
        raise ArenaError(f"--workers must be at least 1, got {workers}")
    if backend == "local" and workers is not None and workers > MAX_WORKERS_PER_CORE * default_workers():
        # Each local worker is a process: far more than the cores only slows the run and can exhaust the machine.
        most = MAX_WORKERS_PER_CORE * default_workers()
        raise ArenaError(f"--workers {workers} is too many processes for this machine (at most {most})")
    if address and backend != "ray":
        raise ArenaError("--address is for the ray backend (add --backend ray)")
    if backend == "ray":
        import_ray()
        if address:
            check_reachable(address)


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on a Ray address nobody answers at (Ray itself would keep retrying for minutes)."""
    if address in ("auto", "local"):
        return
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        raise ArenaError(f"--address must be host:port, ray://host:port or auto, got {address!r}")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as error:
        raise ArenaError(f"cannot reach the Ray cluster at {address}: {error.strerror or error}") from None


def games_of(tournament: Tournament, todo: list[int], backend: str, workers: int | None) -> Iterator[Played]:
    if backend == "ray":
        return run_ray(tournament, todo, workers)
    return run_local(tournament, todo, workers or default_workers())


def run(
    tournament: Tournament,
    out: str | Path | None = None,
    resume: bool = False,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
) -> Run:
    """Play the tournament (or what a resumed folder still lacks) and write its results.

    Everything that can be wrong is checked before the first game. On Ctrl-C the games finished
    so far are kept and written up, and KeyboardInterrupt is raised again.
    """
    check_backend(backend, workers, address)
    store = Store.open(out, tournament, resume) if out is not None else None
    done: dict[int, Played] = store.done if store else {}
    todo = [index for index in range(tournament.games) if index not in done]
    ray_started_here = connect_ray(address) if backend == "ray" and todo else False
    if store:
        store.start()
    started = time.perf_counter()
    played = 0
    try:
        if progress:
            progress(len(done), tournament.games)
        for game in games_of(tournament, todo, backend, workers):
            if store:
                store.append(game)
            else:
                done[game.index] = game
            played += 1
            if progress:
                progress(len(done), tournament.games)
    finally:
        seconds = time.perf_counter() - started
        games = [done[index] for index in sorted(done)]
        summary = summarize([game.digest for game in games], tournament.names, tournament.agents)
        if store:
            store.finish(report.render(title(tournament), facts(tournament, len(games)), [("", summary)]))
        if ray_started_here:
            import_ray().shutdown()
    return Run(tournament, summary, played, seconds, store.folder if store else None, games)


def title(tournament: Tournament) -> str:
    return f"{tournament.game}: {' vs '.join(tournament.names)}"


def facts(tournament: Tournament, played: int, extra: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    options = ", ".join(f"{k}={v}" for k, v in tournament.options.items()) or "none"
    return [
        ("game", tournament.game),
        ("options", options),
        ("agents", ", ".join(tournament.agents)),
        ("games", f"{played} of {tournament.games}"),
        ("seed", str(tournament.seed)),
        *(extra or {}).items(),
    ]
