"""Protocol invariants of Hatflings! on scenes the harness's variants do not reach (every game,
player count and variant: tests/games/test_conformance.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.engine.conformance import check_game


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), starting=st.sampled_from([0, 1]))
def test_interactive_scene_games_keep_the_protocol(seed: int, starting: int) -> None:
    game = parlour.load_game("hatflings", scene="interactive", num_objects=5, starting_captain=starting)
    check_game(game, seed)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_crowded_scene_with_a_small_pool_keeps_the_protocol(seed: int) -> None:
    game = parlour.load_game(
        "hatflings",
        scene="barrel:b3,barrel:e4,box:c4,box:d3,tree:a4,column:f3,pig:d3",
        general_pool_size=6,
        barrel_break_percent=70,
        max_turns=60,
    )
    check_game(game, seed)
