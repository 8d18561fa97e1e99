"""Where the games of a tournament are played: this process, a local process pool, or Ray.

Every backend plays the same games from the same seeds, since a game depends only on the
tournament and its index; backends differ only in the order results come back, which the
store puts right. Games are handed out in chunks of about a quarter of a second each, sized from
the games played so far, so that handing out work costs little, a process is kept busy, and a
crash loses only the few chunks in flight.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import time
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from parlour.arena.match import Played, game_for, play, play_to_line
from parlour.arena.tournament import ArenaError, Tournament, register_source

BACKENDS = ("local", "ray")
Sent = tuple[int, str, dict[str, Any]]
"""What a worker sends back per game: (index, JSON line, digest); see `Played`."""


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


CHUNK_SECONDS = 0.25
"""About how long a chunk of games should take: long enough that handing it out costs little next
to playing it (a hand-out costs the main process a few milliseconds), short enough that a kill
loses little and that the last chunks end together."""

AHEAD_PER_WORKER = 2
"""Chunks given out per worker before the first comes back, so that no worker waits for work."""


class Chunks:
    """Hands out the games to play in chunks sized by how long games have taken so far.

    The first chunks hold one game each; after that a chunk holds about `CHUNK_SECONDS` of games,
    but never more than a fair share of what is left, so that the workers finish together.
    """

    def __init__(self, indices: Sequence[int], workers: int) -> None:
        self.todo = deque(indices)
        self.workers = workers
        self.games_timed = 0
        self.seconds_timed = 0.0

    def take(self) -> list[int]:
        """The next chunk of game indices (empty when every game has been handed out)."""
        size = 1
        if self.games_timed:
            per_game = max(self.seconds_timed / self.games_timed, 1e-6)
            size = round(CHUNK_SECONDS / per_game)
        size = max(1, min(size, len(self.todo) // (AHEAD_PER_WORKER * self.workers)))
        return [self.todo.popleft() for _ in range(min(size, len(self.todo)))]

    def timed(self, games: int, seconds: float) -> None:
        self.games_timed += games
        self.seconds_timed += seconds


def play_chunk(tournament: Tournament, indices: Sequence[int]) -> tuple[list[Sent], float]:
    """The chunk's games as (index, JSON line, digest), and the seconds they took."""
    start = time.perf_counter()
    lines = [play_to_line(tournament, index) for index in indices]
    return lines, time.perf_counter() - start


def run_local(tournament: Tournament, indices: Sequence[int], workers: int) -> Iterator[Played]:
    """Play the games in this process (one worker) or in a pool of `workers` processes."""
    if workers <= 1 or len(indices) <= 1:
        for index in indices:
            yield Played(index, record=play(tournament, index))
        return
    game_for(tournament)  # built once here, so forked workers inherit it rather than each building it
    # Workers register a game registered by hand in this process themselves, so it is known there
    # too whatever the start method.
    with multiprocessing.Pool(workers, initializer=register_source, initargs=(tournament.game_source,)) as pool:
        yield from _pooled(pool, tournament, Chunks(indices, workers))


@contextmanager
def worker_pool(workers: int, game_source: str = "") -> Iterator[Any]:
    """A pool of `workers` processes kept for many tournaments (a tuning run's trials); None for one."""
    if workers <= 1:
        yield None
        return
    with multiprocessing.Pool(workers, initializer=register_source, initargs=(game_source,)) as pool:
        yield pool


def play_in(pool: Any, tournament: Tournament, indices: Sequence[int], workers: int) -> Iterator[Played]:
    """Play the games on a `worker_pool` (in this process when it is None)."""
    if pool is None or len(indices) <= 1:
        for index in indices:
            yield Played(index, record=play(tournament, index))
        return
    yield from _pooled(pool, tournament, Chunks(indices, workers))


def _pooled(pool: Any, tournament: Tournament, chunks: Chunks) -> Iterator[Played]:
    """Keep every worker supplied with chunks and pass each game on as its chunk comes back."""
    finished: queue.SimpleQueue[Any] = queue.SimpleQueue()
    in_flight = 0
    while True:
        while in_flight < AHEAD_PER_WORKER * chunks.workers and (chunk := chunks.take()):
            pool.apply_async(play_chunk, (tournament, chunk), callback=finished.put, error_callback=finished.put)
            in_flight += 1
        if not in_flight:
            return
        outcome = finished.get()
        in_flight -= 1
        if isinstance(outcome, BaseException):
            raise outcome
        lines, seconds = outcome
        chunks.timed(len(lines), seconds)
        for index, line, digest in lines:
            yield Played(index, line=line, digest=digest)


def connect_ray(address: str | None) -> bool:
    """Join the Ray cluster at `address` (`auto`: the one Ray finds), or use the Ray this process
    started already, or start a local Ray of its own.

    Without an address a new local Ray is started rather than letting Ray look for one: Ray's
    search also finds clusters that have since died, and then waits on them for minutes.
    Returns whether this call started or joined Ray (and so the caller should shut it down).
    """
    ray = import_ray()
    if ray.is_initialized():
        return False
    # A Ray started here listens on loopback only: this machine's own cluster needs no network.
    local = {"_node_ip_address": "127.0.0.1"} if address in (None, "local") else {}
    try:
        ray.init(address=address or "local", log_to_driver=False, include_dashboard=False, **local)
    except (ConnectionError, RuntimeError, ValueError) as error:
        raise ArenaError(f"cannot reach the Ray cluster at {address or 'auto'}: {error}") from None
    return True


def run_ray(tournament: Tournament, indices: Sequence[int], workers: int | None) -> Iterator[Played]:
    """Play the games as Ray tasks on the Ray that `connect_ray` joined.

    At most `AHEAD_PER_WORKER` chunks per CPU are submitted ahead, so a stopped run loses only those.
    """
    ray = import_ray()
    cpus = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    chunks = Chunks(indices, cpus)
    task = ray.remote(_ray_chunk)
    pending: list[Any] = []
    while True:
        while len(pending) < AHEAD_PER_WORKER * cpus and (chunk := chunks.take()):
            pending.append(task.remote(tournament, chunk))
        if not pending:
            return
        done, pending = ray.wait(pending, num_returns=1)
        for lines, seconds in ray.get(done):
            chunks.timed(len(lines), seconds)
            for index, line, digest in lines:
                yield Played(index, line=line, digest=digest)


def _ray_chunk(tournament: Tournament, indices: Sequence[int]) -> tuple[list[Sent], float]:
    register_source(tournament.game_source)
    return play_chunk(tournament, indices)


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ArenaError("the ray backend needs Ray: pip install 'parlour[ray]'") from None
    return ray
