"""Each game's `write` (the tensor read from the position) gives exactly the values of its `encode`
(the tensor read from the seat's view, the documented layout), at every seat, over many random
positions of every game, player count and variant that changes what a tensor holds."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import parlour
from parlour.engine import Rng
from parlour.interop.encoding import observation_size, observation_tensor, state_tensor, writer_for

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("hatflings", {}),
    ("hatflings", {"scene": "interactive", "num_objects": 5}),
    ("hanbok_runway", {}),
    ("hatairo", {"players": 1}),
    ("hatairo", {"players": 2}),
    ("hatairo", {"players": 3, "beginner": True}),
    ("hatairo", {"players": 4, "variant": "motif"}),
    ("hatairo", {"players": 2, "variant": "drafting"}),
    ("hatairo", {"players": 3, "variant": "motif+drafting"}),
    ("yamatai", {"players": 2}),
    ("yamatai", {"players": 3}),
    ("yamatai", {"players": 4}),
]
GAMES = 4
"""Random games per configuration; every position of each is compared, at every seat."""


def test_every_player_count_is_covered() -> None:
    covered = {(name, options.get("players", 2)) for name, options in CONFIGS}
    for name, cls in parlour.game_classes().items():
        if cls.__module__.startswith("parlour.games."):
            assert writer_for(cls) is not None, f"{name} has no fast writer"
            assert {(name, players) for players in cls.player_counts()} <= covered


def spectator(state: Any) -> np.ndarray:
    """The writer's tensor for a spectator (seat None), which `state_tensor` does not offer."""
    write = writer_for(state.game)
    assert write is not None
    tensor = np.zeros(observation_size(state.game), np.float32)
    write(state, None, memoryview(tensor))
    return tensor


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=[f"{n}-{o}" for n, o in CONFIGS])
def test_write_gives_the_view_encoders_values(name: str, options: dict[str, Any]) -> None:
    game = parlour.load_game(name, **options)
    compared = 0
    for seed in range(GAMES):
        state, rng = game.new_state(seed=seed), Rng(seed + 100)
        while True:
            for seat in (*range(game.num_players), None):
                fast = state_tensor(state, seat) if seat is not None else spectator(state)
                reference = observation_tensor(game, state.view(seat), seat)
                if not np.array_equal(fast, reference):
                    differing = np.flatnonzero(fast != reference)[:8].tolist()
                    pytest.fail(f"seed {seed}, step {len(state.history)}, seat {seat}: slots {differing} differ")
                compared += 1
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
    assert compared > 50 * GAMES, "too few positions compared to mean much"
