"""The evaluator: VP plus palette value, seeing a completion as a trade and a good sketch as a promise."""

from __future__ import annotations

from parlour.games.hatairo.heuristic import values

from .positions import action_phase, clear_board, flag, refresh, set_market, set_palette, started


def position():
    state = started(2)
    for board in state.boards:
        clear_board(board)
    refresh(state)
    set_market(state, [["Ghana"], ["Japan"], [], []])
    set_palette(state, 0, Red=1, Yellow=1, Green=1, Black=1)
    return action_phase(state)


def test_value_is_score_plus_palette_potential() -> None:
    state = position()
    assert values(state)[0] == 4 + 0.5 * 4 and values(state)[1] == 0


def test_completing_a_big_flag_beats_gaining_a_pigment_one_ply() -> None:
    state = position()
    complete, gain = state.clone(), state.clone()
    complete.apply("complete Ghana")
    gain.apply("gain Japan as Red pigment")
    assert complete.heuristic(0) > gain.heuristic(0) > state.heuristic(0) - 0.01
    complete.apply("place at row 2 column 2")
    assert complete.boards[0].gallery[5] == flag("Ghana")
    assert values(complete)[0] == 10  # 10 VP, the palette spent


def test_a_reserved_big_sketch_is_worth_something() -> None:
    state = position()
    state.apply("reserve Ghana")
    assert values(state)[0] == 6 + 0.5 * (10 - 6)


def test_heuristic_is_zero_sum_shaped_and_bounded() -> None:
    state = position()
    assert state.heuristic(0) > 0 > state.heuristic(1)
    assert -1 < state.heuristic(1) < 1
