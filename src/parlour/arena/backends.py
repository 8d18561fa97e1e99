"""Where the games of a tournament are played: this process, a local process pool, or Ray.

Every backend plays the same games from the same seeds, since a game depends only on the
tournament and its index; backends differ only in the order results come back, which the
store puts right. Games are handed out in small chunks so that a process is kept busy without
holding many finished games that a crash would lose.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator, Sequence
from functools import partial
from typing import Any

from parlour.arena.match import game_for, play
from parlour.arena.tournament import ArenaError, Tournament, register_source

BACKENDS = ("local", "ray")
Result = dict[str, Any]


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def chunk_size(games: int, workers: int) -> int:
    """Large enough to hide the cost of handing out a task, small enough to lose little on a kill."""
    return max(1, min(16, games // (workers * 16)))


def play_chunk(tournament: Tournament, indices: Sequence[int]) -> list[Result]:
    return [play(tournament, index) for index in indices]


def run_local(tournament: Tournament, indices: Sequence[int], workers: int) -> Iterator[Result]:
    """Play the games in this process (one worker) or in a pool of `workers` processes."""
    if workers <= 1 or len(indices) <= 1:
        for index in indices:
            yield play(tournament, index)
        return
    chunk = chunk_size(len(indices), workers)
    game_for(tournament)  # built once here, so forked workers inherit it rather than each building it
    # Workers register a game registered by hand in this process themselves, so it is known there
    # too whatever the start method.
    with multiprocessing.Pool(workers, initializer=register_source, initargs=(tournament.game_source,)) as pool:
        yield from pool.imap_unordered(partial(play, tournament), indices, chunksize=chunk)


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


def run_ray(tournament: Tournament, indices: Sequence[int], workers: int | None) -> Iterator[Result]:
    """Play the games as Ray tasks on the Ray that `connect_ray` joined.

    At most two chunks per CPU are submitted ahead, so a stopped run loses only those.
    """
    ray = import_ray()
    cpus = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    chunk = chunk_size(len(indices), cpus)
    task = ray.remote(_ray_chunk)
    chunks = [indices[start : start + chunk] for start in range(0, len(indices), chunk)]
    pending: list[Any] = []
    while chunks or pending:
        while chunks and len(pending) < 2 * cpus:
            pending.append(task.remote(tournament, chunks.pop(0)))
        done, pending = ray.wait(pending, num_returns=1)
        for results in ray.get(done):
            yield from results


def _ray_chunk(tournament: Tournament, indices: Sequence[int]) -> list[Result]:
    register_source(tournament.game_source)
    return play_chunk(tournament, indices)


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ArenaError("the ray backend needs Ray: pip install 'parlour[ray]'") from None
    return ray
