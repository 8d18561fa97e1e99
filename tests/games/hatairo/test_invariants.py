"""Whole-game invariants over random games: every card and pigment is somewhere exactly once, and the
limits of the board hold whenever a turn starts."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.engine import Rng, load_game
from parlour.games.hatairo.components import FLAGS, MOTIFS
from parlour.games.hatairo.constants import DRAFTING, PIGMENT_CARDS, TURN_START
from parlour.games.hatairo.state import HatairoState


def where_flags_are(state: HatairoState) -> Counter[int]:
    places: Counter[int] = Counter(state.flag_supply + state.box_flags)
    for row in state.market:
        places.update(row)
    drafting = state.phase == DRAFTING  # after the draft her picks are only remembered, in hand or kept
    for board in state.boards:
        places.update(board.hand + (board.picks if drafting else []) + board.atelier + board.palette_flags)
        places.update(f for f in board.gallery if f >= 0)
    if state.sketch >= 0:
        places[state.sketch] += 1
    return places


def where_motifs_are(state: HatairoState) -> Counter[int]:
    places: Counter[int] = Counter(state.motif_supply + state.box_motifs)
    for pile in state.piles:
        places.update(pile)
    for board in state.boards:
        places.update(m for m in board.motifs if m >= 0)
    return places


def check(state: HatairoState) -> None:
    assert where_flags_are(state) == Counter(range(len(FLAGS)))
    assert where_motifs_are(state) == Counter(range(len(MOTIFS)))
    assert state.pigment_supply + sum(sum(b.pigment_cards) for b in state.boards) == PIGMENT_CARDS
    for board in state.boards:
        assert len(board.atelier) <= 3
        assert board.placed == sum(1 for f in board.gallery if f >= 0)
        assert sum(board.palette) == sum(board.pigment_cards) + len(board.palette_flags)
        if state.phase == TURN_START and state.revealed:
            assert sum(board.palette) <= 10


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.sampled_from([1, 2, 3, 4]),
    beginner=st.booleans(),
    variant=st.sampled_from(["standard", "motif", "drafting", "motif+drafting"]),
)
def test_cards_and_pigments_are_conserved(seed: int, players: int, beginner: bool, variant: str) -> None:
    if players == 1 and "drafting" in variant:
        variant = "motif"
    state = load_game("hatairo", players=players, beginner=beginner, variant=variant).new_state(seed)
    rng = Rng(seed)
    while not state.is_terminal():
        check(state)
        state.apply(rng.choice(state.legal_actions()))
    check(state)
    assert len(set(state.turns)) == 1
