"""Invariants of the Hatflings! state (spec section 12) checked after every step of random games."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.engine import Rng
from parlour.games.hatflings.pieces import CHEATING, NORMAL, PUDDLE
from parlour.games.hatflings.state import HatflingsState


def check_invariants(state: HatflingsState) -> None:
    game = state.game
    normals = sum(1 for code in state.hat if code >> 1 == NORMAL)
    assert state.pool + normals == game.options["general_pool_size"], "pool + normals on the floor"
    puddles = sum(1 for code in state.scenery if code >= PUDDLE)
    assert state.puddle_supply + puddles == game.puddles, "puddle tokens"
    assert max(state.scenery) <= PUDDLE + 1, "a puddle belongs to seat 0 or seat 1"
    for seat in (0, 1):
        cheats = sum(1 for code in state.hat if code == CHEATING * 2 + seat)
        in_pool = state.specials[seat] >> CHEATING & 1
        assert cheats + in_pool <= 1, "a cheating halfling never changes colour"
    if state.pig >= 0:
        assert not state.hat[state.pig], "nobody shares the pig's square"
        assert state.scenery[state.pig] in (0, 1, 2), "the pig stands on the floor, a box or a barrel"


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), pool=st.sampled_from([0, 4, 24]))
def test_invariants_hold_through_random_games(seed: int, pool: int) -> None:
    scene = "barrel:b3,barrel:e4,box:c4,box:d3,tree:a4,column:f3,pig:d3"
    game = parlour.load_game("hatflings", scene=scene, general_pool_size=pool)
    state = game.new_state(seed=seed)
    assert isinstance(state, HatflingsState)
    rng = Rng(seed)
    while not state.is_terminal():
        check_invariants(state)
        state.apply(rng.choice(state.legal_actions()))
    check_invariants(state)
