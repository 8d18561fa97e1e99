"""Refused actions name the rule that forbids them, and change nothing."""

from __future__ import annotations

import pickle

import pytest

from parlour.engine import IllegalAction

from .positions import action_phase, clear_board, give_motif, new, refresh, set_market, set_palette, started, turn_of


def blank(players: int = 2, **options):
    state = started(players, **options)
    for board in state.boards:
        clear_board(board)
    return refresh(state)


@pytest.mark.parametrize(
    ("label", "message"),
    [
        ("reserve Japan", "Red is in the set-up: keep cards step"),
        ("keep Japan in palette", "not among your cards"),
        ("motif Sun above column 1", "set-up"),
    ],
)
def test_setup_refusals(label: str, message: str) -> None:
    state = new(2, seed=9)
    hand = {state.game.actions[a.id].label for a in state.legal_actions()}
    assert "keep Japan in palette" not in hand
    before = pickle.dumps(state)
    with pytest.raises(IllegalAction, match=message):
        state.apply(label)
    assert pickle.dumps(state) == before


def test_topography_refusals_say_which_column_is_next_or_that_the_tile_is_used() -> None:
    state = new(2, seed=9)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    state.apply("topography Island under column 1")
    with pytest.raises(IllegalAction, match="column by column: the next one goes under column 2"):
        state.apply("topography Coastal under column 3")
    with pytest.raises(IllegalAction, match="no Island tile left"):
        state.apply("topography Island under column 2")


def test_turn_refusals_name_the_rule() -> None:
    state = blank(2)
    set_market(state, [["France", "Japan"], [], [], []])
    turn_of(state, 0)
    with pytest.raises(IllegalAction, match="not the rightmost card of its Market row"):
        state.apply("gain France as Blue pigment")
    with pytest.raises(IllegalAction, match="is not in the Market"):
        state.apply("reserve Chile")
    with pytest.raises(IllegalAction, match="pass only when no action is possible"):
        state.apply("pass")
    with pytest.raises(IllegalAction, match="cannot pay for Japan"):
        state.apply("complete Japan")
    with pytest.raises(IllegalAction, match="turn start step"):
        state.apply("discard Red")
    set_market(state, [["France", "Japan"], ["Chile"], ["Italy"], ["Ghana"]])
    with pytest.raises(IllegalAction, match="needs at least one empty Market row"):
        state.apply("start the motif phase")


def test_motif_phase_refusals() -> None:
    state = blank(2)
    set_market(state, [["Japan"], [], [], []])
    give_motif(state, 0, "Star", 0)
    turn_of(state, 0)
    state.apply("start the motif phase")
    supply = [state.game.actions[a.id].label for a in state.legal_actions()]
    assert all("above column 1" not in label for label in supply)
    taken = next(label for label in supply if label.endswith("above column 2")).replace("column 2", "column 1")
    with pytest.raises(IllegalAction, match="motif space is taken"):
        state.apply(taken)
    with pytest.raises(IllegalAction, match="in the motif phase step"):
        state.apply("start the motif phase")


def test_solo_refuses_a_voluntary_motif_phase() -> None:
    state = blank(1)
    set_market(state, [["Japan"], [], [], []])
    turn_of(state, 0)
    with pytest.raises(IllegalAction, match="solo mode the automaton runs the Motif phase"):
        state.apply("start the motif phase")


def test_full_gallery_and_clean_phase_refusals() -> None:
    state = blank(2)
    set_market(state, [["Japan"], [], [], []])
    set_palette(state, 0, Red=11, Blue=1)
    state.boards[0].gallery = [0] * 12
    state.boards[0].placed = 12
    action_phase(state)
    with pytest.raises(IllegalAction, match="Gallery is full"):
        state.apply("complete Japan")
    state.apply("gain Japan as Red pigment")
    with pytest.raises(IllegalAction, match="holds no Green"):
        state.apply("discard Green")
