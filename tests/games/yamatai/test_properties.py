"""Protocol invariants on random games at 2, 3 and 4 players (engine conformance checks)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.engine import Rng, load_game
from parlour.games.yamatai.state import YamataiState


def _check_conservation(state: YamataiState, spent_tokens: int) -> None:
    n = state.game.num_players
    boats = [state.reserve[c] + state.hand[c] for c in range(5)]
    for b in state.spot_boat:
        if b >= 0:
            boats[b] += 1
    for seat in range(n):
        for c in range(5):
            boats[c] += state.harbour[5 * seat + c]
    assert sum(boats) + sum(state.discarded) == 80
    assert all(boats[c] <= stock for c, stock in enumerate(state.game.components.boat_stock))
    tokens = sum(1 for k in state.island_token if k >= 0) + sum(state.culture)
    assert tokens + spent_tokens == 30
    on_track = sorted(t for t in state.fleet_track if t)
    assert sorted(on_track + state.turn_fleets) == list(range(1, 11)) or state.is_terminal()
    tiles = [t for t in state.row if t >= 0] + state.deck + state.preview
    for seat in range(n):
        tiles += [t for t in range(28) if (state.built[seat] | state.reserved[seat]) >> t & 1]
    assert sorted(tiles) == list(range(28))
    specialists = [s for s in state.spec_track if s >= 0] + state.spec_deck
    specialists += [s for seat in range(n) for s in range(18) if state.specs[seat] >> s & 1]
    assert sorted(specialists) == list(range(18))
    buildings = sum(1 for b in state.island_building if 0 <= b < 4)
    assert buildings + sum(state.pieces) == n * {2: 10, 3: 8, 4: 6}[n]


@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**31 - 1), players=st.sampled_from([2, 3, 4]))
def test_components_are_conserved_through_random_games(seed: int, players: int) -> None:
    state = load_game("yamatai", players=players).new_state(seed)
    rng = Rng(seed)
    spent = 0
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        before = sum(state.culture)
        state.apply(action)
        if action.kind == "pay":
            spent += before - sum(state.culture)
        _check_conservation(state, spent)
