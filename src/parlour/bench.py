"""Engine throughput: random playouts on one core, as `parlour bench` reports it.

This is the raw speed search bots depend on: legal_actions, a random choice and apply, nothing else.
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
    return {
        "game": game.name,
        "options": dict(game.options),
        "seconds": round(elapsed, 3),
        "games": games,
        "steps": steps,
        "games_per_s": round(games / elapsed, 2),
        "steps_per_s": round(steps / elapsed, 1),
        "mean_length": round(steps / games, 1) if games else 0.0,
    }
