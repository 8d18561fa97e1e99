"""Bot games per second a tuning run sustains (a benchmark, not a test).

    .venv/bin/python benchmarks/tune_speed.py --game hatflings --agents greedy,greedy --trials 8 --games 40

Runs the same short study (Hatflings!' pool of normal halflings, objective `fair`, no pruning so
every trial plays its whole batch) with one worker and with `--workers`, side by side in one run,
and prints the games per second while the study optimises (the worker pool's start, each trial's
data folder written, its game built in the workers, its games played and scored, Optuna's sampling
and its SQLite writes) and over the whole call (opening the study, importances, best data folder).
On a busy machine the wall clock says more about the other work than about the pool, so the CPU
time spent per game (this process and its workers) is measured too, and from it the speed-up the
pool would reach on idle cores: workers × CPU per game with one worker ÷ CPU per game with the pool.
"""

from __future__ import annotations

import argparse
import json
import resource
import tempfile
import time
from pathlib import Path

from parlour.arena.tune import Budget, Running, tune
from parlour.arena.tune_command import Request, setup_of

SPACE = """
[[parameter]]
file = "scene_default.toml"
name = "supply.general_pool_size"
low = 8
high = 32
also = [{ file = "components.csv", row = "normal_halfling_double_sided", column = "count" }]
"""


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers once it closes)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def measure(game: str, agents: str, trials: int, games: int, workers: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        space = Path(folder) / "space.toml"
        space.write_text(SPACE, encoding="utf-8")
        request = Request(game, space, ["fair"], Path(folder) / "study", agents=agents, games=games, seed=1)
        setup = setup_of(request)
        before = cpu_seconds()
        started = time.perf_counter()
        outcome = tune(setup, request.out, Budget(trials=trials), Running(workers, pruner="none"), resume=False)
        whole = time.perf_counter() - started
        cpu = cpu_seconds() - before
    return {
        "workers": workers,
        "games": outcome.games_played,
        "optimise_games_per_s": round(outcome.games_per_second, 2),
        "run_games_per_s": round(outcome.games_played / whole, 2),
        "cpu_ms_per_game": round(1000 * cpu / max(1, outcome.games_played), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="hatflings")
    parser.add_argument("--agents", default="greedy,greedy")
    parser.add_argument("--trials", type=int, default=8)
    parser.add_argument("--games", type=int, default=40, help="games per trial")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    arguments = parser.parse_args()
    rows = [
        measure(arguments.game, arguments.agents, arguments.trials, arguments.games, workers)
        for workers in sorted({1, arguments.workers})
    ]
    idle = arguments.workers * rows[0]["cpu_ms_per_game"] / rows[-1]["cpu_ms_per_game"]
    if arguments.json:
        print(json.dumps({"game": arguments.game, "agents": arguments.agents, "runs": rows, "idle_speed_up": idle}))
        return
    print(f"{arguments.game}, {arguments.agents}: {arguments.trials} trials of {arguments.games} games")
    for row in rows:
        print(
            f"  workers {row['workers']}: {row['optimise_games_per_s']:.1f} games/s while optimising,"
            f" {row['run_games_per_s']:.1f} games/s over the whole run ({row['games']:.0f} games),"
            f" {row['cpu_ms_per_game']:.1f} ms CPU per game"
        )
    print(f"  speed-up {arguments.workers} workers would reach on idle cores: {idle:.2f}x")


if __name__ == "__main__":
    main()
