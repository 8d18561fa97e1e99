"""Protocol invariants on random games at 2, 3 and 4 players (engine conformance checks)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.engine import load_game
from parlour.engine.conformance import check_game


@settings(max_examples=2, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**31 - 1), players=st.sampled_from([2, 3, 4]))
def test_conformance_random_games(seed: int, players: int) -> None:
    final = check_game(load_game("yamatai", players=players), seed)
    assert final.is_terminal() and final.end_reason


def test_conformance_each_player_count() -> None:
    for players, seed in ((2, 11), (3, 12), (4, 13)):
        final = check_game(load_game("yamatai", players=players), seed)
        assert len(final.scores()) == players
