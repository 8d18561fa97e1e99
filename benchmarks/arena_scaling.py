"""Arena throughput with one worker against several, on random agents (a benchmark, not a test).

    .venv/bin/python benchmarks/arena_scaling.py --game hatflings --games 2000 --workers 2

Plays the same tournament once in this process (one worker) and once on a pool of `--workers`
processes, and prints games/s for each and the speed-up. The target for two workers is 1.8x.
Each figure is the best of `--repeat` runs, since other work on the machine only slows a run down.
On a busy machine the wall-clock speed-up says more about the other work than about the pool, so
the CPU time spent per game is measured too: from it follows the speed-up the pool would reach on
idle cores.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import tempfile

from parlour.arena.runner import run
from parlour.arena.tournament import plan


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers once it closes)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def measure(game: str, games: int, workers: int, repeat: int, out: bool) -> tuple[float, float]:
    """(best games/s of wall time, CPU seconds per game) over `repeat` runs."""
    tournament = plan(game, "random,random", games, seed=1)
    best, cpu = 0.0, float("inf")
    for _ in range(repeat):
        before = cpu_seconds()
        with tempfile.TemporaryDirectory() as folder:
            result = run(tournament, out=f"{folder}/run" if out else None, workers=workers)
        best = max(best, result.games_per_second)
        cpu = min(cpu, (cpu_seconds() - before) / games)
    return best, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="hatflings")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", action="store_true", help="write a results folder in each run, as simulate --out")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    arguments = parser.parse_args()
    one, cpu_one = measure(arguments.game, arguments.games, 1, arguments.repeat, arguments.out)
    many, cpu_many = measure(arguments.game, arguments.games, arguments.workers, arguments.repeat, arguments.out)
    # What the pool would reach on idle cores: each worker as fast as the single one, less the
    # extra CPU the pool spends per game (hand-outs, pickling). Unaffected by other load.
    idle = arguments.workers * cpu_one / cpu_many
    figures = {
        "game": arguments.game,
        "games": arguments.games,
        "results_folder": arguments.out,
        "cores": os.cpu_count(),
        "load_average": os.getloadavg()[0],
        "games_per_s_1_worker": round(one, 1),
        f"games_per_s_{arguments.workers}_workers": round(many, 1),
        "speedup": round(many / one, 2),
        "cpu_ms_per_game_1_worker": round(1000 * cpu_one, 3),
        f"cpu_ms_per_game_{arguments.workers}_workers": round(1000 * cpu_many, 3),
        "speedup_on_idle_cores": round(idle, 2),
    }
    if arguments.json:
        print(json.dumps(figures))
        return
    print(f"{arguments.game}, {arguments.games} games of random agents, best of {arguments.repeat}:")
    print(f"  1 worker:  {one:8.1f} games/s")
    print(f"  {arguments.workers} workers: {many:8.1f} games/s")
    print(f"  speed-up:  {many / one:8.2f}x (target 1.8x for 2 workers)")
    print(f"  CPU per game: {1000 * cpu_one:.2f} ms (1 worker), {1000 * cpu_many:.2f} ms ({arguments.workers} workers)")
    print(f"  speed-up on idle cores from CPU cost: {idle:.2f}x; load average now {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
