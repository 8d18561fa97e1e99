"""Engine throughput: random playouts on one core, as `parlour bench` reports it.

This is the raw speed search bots depend on: legal_actions, a random choice and apply, nothing else.
Both wall-clock and CPU time are reported: on a busy machine the process gets less than a core,
and steps per CPU-second is then the fairer measure of the engine itself.
"""

from __future__ import annotations

import time
from typing import Any

from parlour.engine.game import Game
from parlour.engine.rng import Rng


def random_playouts(game: Game, seconds: float, seed: int = 0) -> dict[str, Any]:
    """Play random games until `seconds` have passed (finishing the last one)."""
    rng = Rng(seed)
    games = steps = 0
    lengths: list[int] = []
    start = time.perf_counter()
    cpu_start = time.process_time()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_state(seed=rng.next64() & 0x7FFFFFFF)
        length = 0
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            length += 1
        games += 1
        steps += length
        lengths.append(length)
    elapsed = time.perf_counter() - start
    cpu = max(time.process_time() - cpu_start, 1e-9)
    return {
        "game": game.name,
        "options": dict(game.options),
        "seconds": round(elapsed, 3),
        "games": games,
        "steps": steps,
        "games_per_s": round(games / elapsed, 2),
        "steps_per_s": round(steps / elapsed, 1),
        "cpu_seconds": round(cpu, 3),
        "steps_per_cpu_s": round(steps / cpu, 1),
        "mean_length": round(steps / games, 1) if games else 0.0,
    }
