"""Hatairo's determinizations and heuristic (the conformance checks of every player count and
variant: tests/games/test_conformance.py)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.engine import Rng, load_game


@settings(max_examples=4, deadline=None)
@given(
    seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]), variant=st.sampled_from(["standard", "drafting"])
)
def test_determinize_keeps_every_seats_view(seed: int, players: int, variant: str) -> None:
    state = load_game("hatairo", players=players, variant=variant).new_state(seed)
    rng = Rng(seed)
    step = 0
    while not state.is_terminal() and step < 120:
        if step % 7 == 0:
            for seat in range(players):
                twin = state.determinize(seat, Rng(seed + step + seat))
                assert json.dumps(twin.view(seat), sort_keys=True) == json.dumps(state.view(seat), sort_keys=True)
                twin_rng = Rng(step)
                while not twin.is_terminal():  # a determinized state plays on to a proper end
                    twin.apply(twin_rng.choice(twin.legal_actions()))
        state.apply(rng.choice(state.legal_actions()))
        step += 1


def test_heuristic_in_range_and_prefers_the_leader() -> None:
    state = load_game("hatairo", players=3).new_state(2)
    rng = Rng(2)
    while not state.is_terminal():
        for seat in range(3):
            assert -1.0 <= state.heuristic(seat) <= 1.0
        state.apply(rng.choice(state.legal_actions()))
    totals = [s.total for s in state.scores()]
    best = totals.index(max(totals))
    assert state.heuristic(best) >= max(state.heuristic(seat) for seat in range(3))


def test_determinize_during_a_draft_keeps_the_cards_she_passed_with_the_others() -> None:
    state = load_game("hatairo", players=3, variant="drafting").new_state(8)
    for _ in range(3):  # one full round: every hand passes left
        state.apply(state.legal_actions()[0])
    passed = set(state.boards[0].passed[0])
    assert len(passed) == 8 and state.view(0)["players"][0]["passed"]
    for trial in range(5):
        twin = state.determinize(0, Rng(trial))
        assert twin.view(0) == state.view(0)
        # R50: she passed her hand to her left neighbour, who holds exactly those cards now.
        assert set(twin.boards[1].hand) == passed and not passed & set(twin.flag_supply + twin.boards[2].hand)
    assert "passed" not in state.view(1)["players"][0]


def test_after_a_draft_she_knows_her_six_leftovers_are_in_the_flag_supply() -> None:
    """The cards left in her hand after the third pick go back to the Flag Supply: she saw them, so
    her view names them until the reveal and a guess at the hidden cards never hands them to others."""
    state = load_game("hatairo", players=3, variant="drafting").new_state(8)
    for _ in range(9):  # three rounds of picks
        state.apply(state.legal_actions()[0])
    own = state.flag_supply[-18:-12]  # the 6 left in each of the 3 hands go back in seat order
    view = state.view(0)["players"][0]
    assert view["returned"] and len(view["returned"]) == 6
    assert "returned" not in state.view(1)["players"][0]
    for trial in range(8):
        twin = state.determinize(0, Rng(trial))
        assert twin.view(0) == state.view(0)
        assert set(own) <= set(twin.flag_supply)
    state.apply(state.legal_actions()[0])
    while not state.revealed:
        state.apply(state.legal_actions()[0])
    assert "returned" not in state.view(0)["players"][0]
