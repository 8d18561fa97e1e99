"""Terminal rendering, the heuristic, scores with their breakdown and refusal messages."""

from __future__ import annotations

import pytest

from parlour.engine import IllegalAction, Rng
from parlour.games.yamatai import board as geo
from parlour.games.yamatai import constants as r
from parlour.games.yamatai.heuristic import CULTURE_VALUE, HARBOUR_VALUE, estimates, evaluate

from .positions import bare, fresh, island, play, put_boats, put_tokens, tile, turn


def test_render_draws_islands_spots_boats_and_entries() -> None:
    state = bare()
    put_tokens(state, I05="orange")
    put_boats(state, S050="clay")
    state.island_building[island("I20")] = geo.TORII
    state.island_building[island("I21")] = 1
    state.mountain = tuple(i == island("I05") for i in range(34))
    text = state.render(0)
    assert "I05 or^" in text and "I20<T>" in text and "I21[O]" in text
    assert all(f">{n:02d}" in text for n in (7, 21, 37, 63, 78))  # the five free entry spots, named
    assert "c50" in text and ".51" in text and ".50" not in text  # every spot shows the number moves use
    assert "fleet track:" in text and "building row:" in text and "specialists (deck: 13)" in text
    assert "seat 0 blue (you)" in text and "[??]" in text


def test_render_marks_this_turns_boats_and_shows_the_preview_only_to_its_owner() -> None:
    state = bare()
    state.deck = [tile("B01"), tile("B05"), tile("B20")]
    turn(state, fleet=3, hand={"bamboo": 1})
    play(state, "place bamboo boat at S007", "use the fleet power")
    assert "B07" in state.render(0).splitlines()[2]
    assert "looking at: B20, B05, B01" in state.render(0)
    assert "looking at" not in state.render(1) and "looking at" not in state.render(None)


def test_render_of_a_finished_game_shows_scores_and_winner() -> None:
    state = fresh(2, seed=4)
    rng = Rng(1)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    text = state.render(None)
    assert "game over:" in text and "winner:" in text and "unused boats" in text


def test_scores_breakdown_adds_up() -> None:
    state = bare()
    state.coins[1] = 17
    state.pp_tokens[1] = 2
    state.built[1] = (1 << tile("B21")) | (1 << tile("P04"))
    state.specs[1] = 1 << 0  # Harbour Master, 2 PP
    state.reserved[1] = 1 << tile("B01")
    state.discarded[1] = 5
    score = state.scores()[1]
    assert score.breakdown == {
        "coins": 3,
        "prestige tokens": 2,
        "buildings": 14,
        "specialists": 2,
        "reserved tiles unbuilt": -1,
        "unused boats": -2,
    }
    assert score.total == 18


def test_heuristic_is_bounded_and_favours_the_leader() -> None:
    state = bare()
    state.pp_tokens[2] = 12
    values = [state.heuristic(seat) for seat in range(4)]
    assert all(-1 <= v <= 1 for v in values)
    assert values[2] > 0 > values[0]
    state.culture[0:6] = [3, 3, 0, 0, 0, 0]
    state._estimates = None  # kept until the next move; this edit is not one
    assert state.heuristic(0) > values[0]


def test_heuristic_estimates_add_up_the_score_breakdown() -> None:
    # The estimate skips scores() for speed; it must still count exactly what the breakdown counts.
    rng = Rng(5)
    for players in (2, 3, 4):
        state = fresh(players, seed=players)
        for step in range(120):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
            if step % 10:
                continue
            for seat in range(players):  # any specialists and tiles, the end-game ones included
                state.specs[seat] = rng.next64() & (1 << 18) - 1
                state.built[seat] = rng.next64() & (1 << 28) - 1
                state.reserved[seat] = rng.next64() & (1 << 28) - 1
                state.culture[6 * seat + rng.randrange(6)] += rng.randrange(5)
                state.coins[seat] += rng.randrange(30)
            expected = []
            for seat, score in enumerate(state.scores()):
                held = sum(state.culture[6 * seat : 6 * seat + 6])
                waiting = sum(state.harbour[5 * seat : 5 * seat + 5])
                exact = state.coins[seat] / state.coin_rate(seat)
                expected.append(
                    score.total - score.breakdown["coins"] + exact + CULTURE_VALUE * held + HARBOUR_VALUE * waiting
                )
            assert estimates(state) == expected
            state._estimates = None  # the edits above were not moves


def test_heuristic_keeps_its_estimates_only_until_the_next_move() -> None:
    rng = Rng(6)
    for players in (2, 4):
        state = fresh(players, seed=players)
        while not state.is_terminal():
            # evaluate without estimates works them out afresh
            assert [state.heuristic(s) for s in range(players)] == [evaluate(state, s) for s in range(players)]
            twin = state.determinize(0, rng.spawn())
            assert [twin.heuristic(s) for s in range(players)] == [evaluate(twin, s) for s in range(players)]
            state.apply(rng.choice(state.legal_actions()))


def test_heuristic_of_a_finished_game_is_its_result() -> None:
    state = fresh(3, seed=9)
    rng = Rng(2)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert [state.heuristic(s) for s in range(3)] == state.returns()


def test_refusals_name_the_rule() -> None:
    state = turn(bare(), hand={"bamboo": 1})
    with pytest.raises(IllegalAction, match="no wood boat left to place"):
        state.apply("place wood boat at S007")
    with pytest.raises(IllegalAction, match="steps go in order"):
        state.apply("recruit the Merchant")
    with pytest.raises(IllegalAction, match="at the 'place boats' step"):
        state.apply("put sacred ground on I01")
    with pytest.raises(IllegalAction, match="first boat goes on a free entry spot"):
        state.apply("place bamboo boat at S050")
    before = state.view(0)
    with pytest.raises(IllegalAction):
        state.apply("build B01 on I01")
    assert state.view(0) == before


def test_events_describe_what_happened() -> None:
    state = bare()
    put_tokens(state, I01="orange")
    turn(state, hand={"bamboo": 1})
    events = state.apply("place bamboo boat at S007")
    assert [e.kind for e in events] == ["place"] and "S007" in events[0].text
    events = state.apply("collect the token on I01")
    assert events[0].data == {"seat": 0, "island": "I01", "token": "orange"}
    assert state.phase in (r.RECRUIT, r.END, r.FLEET)


def test_round_and_game_end_events() -> None:
    state = fresh(4, seed=6, max_rounds=1)
    kinds = []
    while not state.is_terminal():
        kinds.extend(e.kind for e in state.apply(state.legal_actions()[0]))
    assert kinds[-1] == "game_over" and "round" not in kinds
    state = fresh(4, seed=6)
    while state.round_no == 1:
        events = state.apply(state.legal_actions()[0])
    assert events[-1].kind == "round" and events[-1].data["round"] == 2


def test_placement_refusals_name_the_pilot_and_the_navigator() -> None:
    state = turn(bare(), hand={"bamboo": 3}, specialists=("Pilot", "Navigator"))
    with pytest.raises(IllegalAction, match="next to a boat of any colour \\(Pilot\\)"):
        state.apply("place bamboo boat at S050")
    play(state, "place bamboo boat at S007", "place bamboo boat at S014")
    with pytest.raises(IllegalAction, match="next to another boat you placed this turn \\(Navigator\\)"):
        state.apply("place bamboo boat at S050")
