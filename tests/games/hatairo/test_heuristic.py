"""The evaluator: VP plus palette value, seeing a completion as a trade, a good sketch (the more so in
the right colours) and empty spaces under motifs as promises."""

from __future__ import annotations

import parlour
from parlour.engine.rng import Rng
from parlour.games.hatairo.components import FLAGS
from parlour.games.hatairo.heuristic import horizon, layout, values

from .positions import action_phase, clear_board, flag, give_motif, put_flags, refresh, set_market, set_palette, started


def flag_vp(name: str) -> int:
    return FLAGS[flag(name)].vp


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
    # Surplus 10 - 1.5 * 4 = 4, times 1/2 * (all four of its colours held).
    assert values(state)[0] == 6 + 4 * 0.5


def test_a_pigment_a_sketch_needs_is_worth_more_than_another() -> None:
    state = position()
    state.boards[0].atelier = [flag("Ghana")]
    set_palette(state, 0, Red=1)
    set_market(state, [["Bulgaria"], ["Australia"], [], []])  # bonus Green (Ghana needs it) and Blue
    green, blue = state.clone(), state.clone()
    green.apply("gain Bulgaria as Green pigment")
    blue.apply("gain Australia as Blue pigment")
    assert values(green)[0] - values(blue)[0] == 4 * 0.5 / 4
    assert green.heuristic(0) > blue.heuristic(0)


def test_a_flag_that_misses_a_motif_is_not_put_under_it() -> None:
    state = position()
    give_motif(state, 0, "Star", 0)  # above column 1: 2 VP per Star flag there
    before = values(state)[0]
    under, aside = state.clone(), state.clone()
    put_flags(under, 0, {0: "Bulgaria"})  # no Star, row 1 column 1
    put_flags(aside, 0, {1: "Bulgaria"})  # row 1 column 2
    assert values(aside)[0] > values(under)[0]
    star = state.clone()
    put_flags(star, 0, {0: "Australia"})  # a Star flag scores the motif at once
    assert values(star)[0] > values(aside)[0] - flag_vp("Bulgaria") + flag_vp("Australia")
    assert before < values(star)[0]


def test_heuristic_is_zero_sum_shaped_and_bounded() -> None:
    state = position()
    assert state.heuristic(0) > 0 > state.heuristic(1)
    assert -1 < state.heuristic(1) < 1


def test_promises_fade_as_a_rival_fills_her_gallery() -> None:
    state = position()  # seat 0: four pigments, 4 VP in score, 2 VP of promise
    assert horizon(state) == 1 and values(state)[0] == 4 + 2
    put_flags(state, 1, dict.fromkeys(range(9), "Japan"))  # three spaces left of twelve
    assert horizon(state) == 0.25 and values(state)[0] == 4 + 0.25 * 2
    state.trigger = 1  # her gallery is full: the last round, what is not scored now never will be
    assert horizon(state) == 0 and values(state)[0] == 4


def test_the_cached_layout_gives_every_seats_score_exactly() -> None:
    # The evaluator reads each board's laid cards from a cache; with the pigments added back they
    # must come to the score the rules give, on every position of random games (pigment motifs,
    # whose points follow the pigments, included).
    checked = 0
    for players in (2, 4):
        for seed in range(3):
            state = parlour.load_game("hatairo", players=players).new_state(seed)
            rng = Rng(seed)
            while not state.is_terminal():
                columns = state.game.columns
                for board, score in zip(state.boards, state.scores(), strict=True):
                    fixed, per_pigment, _, _ = layout(
                        tuple(board.gallery), tuple(board.motifs), tuple(board.tiles), columns
                    )
                    pigments = sum(board.palette)
                    assert fixed + per_pigment * pigments + pigments == score.total
                    checked += 1
                state.apply(rng.choice(state.legal_actions()))
    assert checked > 1000
