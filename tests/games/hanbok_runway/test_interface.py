"""Hanbok Runway's views, rendering, heuristic, options, records and its use from the command line."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

import parlour
from parlour.cli import app
from parlour.engine import InvalidOption, Rng, load_game, replay
from parlour.games.hanbok_runway import heuristic
from parlour.games.hanbok_runway.heuristic import colour_edge, spreads
from parlour.play import TerminalSession, seat_table
from tests.games.hanbok_runway.positions import colour, give, place_set, put_first, turn_position


def test_render_shows_a_seat_only_its_own_view() -> None:
    state = turn_position()
    place_set(state, 1, "bell", "pink", -3)
    place_set(state, 0, "trapezoid", "green", 4)
    give(state, 0, "oval", "green/red")
    mine, theirs, spectator = state.render(1), state.render(0), state.render(None)
    assert "pink 1 (-3)" in mine and "green 1 ??" in mine
    assert "pink 1 ??" in theirs and "green 1 (+4)" in theirs
    assert "pink 1 ??" in spectator and "green 1 ??" in spectator
    assert "Seat 0 (you, start): 2 cards: oval | green/red" in theirs
    assert "green   1:--" in theirs and "4:" in theirs
    give(state, 1, "bell")
    assert "Seat 1: 1 card: bell | -" in state.render(0)


def test_views_are_json_and_hide_deck_order() -> None:
    state = turn_position(seed=3)
    other = turn_position(seed=3)
    other.style_deck.reverse()
    other.fabric_deck.reverse()
    for seat in (None, 0, 1):
        assert json.loads(json.dumps(state.view(seat))) == other.view(seat)


def test_options_are_checked() -> None:
    with pytest.raises(InvalidOption, match="2 players"):
        load_game("hanbok_runway", players=3)
    with pytest.raises(InvalidOption, match="start_player"):
        load_game("hanbok_runway", start_player=2)
    with pytest.raises(InvalidOption, match="safety_turn_cap"):
        load_game("hanbok_runway", safety_turn_cap=-1)
    assert parlour.load_game("Hanbok-Runway").name == "hanbok_runway"


def test_mid_game_scores_count_only_face_up_tokens() -> None:
    state = turn_position()
    t = place_set(state, 0, "oval", "green", 4)
    assert state.scores()[0].total == 0  # the +4 is face-down: no score may reveal it
    state.face_up[t] = True
    assert state.scores()[0].total == 2 and state.scores()[0].breakdown["green influence"] == 4


def test_heuristic_expects_influence_per_colour() -> None:
    state = turn_position()
    place_set(state, 0, "triangle", "orange", 4)  # 6 known to seat 0, unknown to seat 1
    assert state.heuristic(0) > 0.1 and state.heuristic(1) < -0.1
    # seat 1 only knows orange's unseen values average 1: it expects 1 + 2 = 3 influence
    assert state.heuristic(1) > -state.heuristic(0)
    state.additional[colour("orange")] = 3
    assert state.heuristic(0) > 0.3


def test_heuristic_reads_only_what_the_seat_knows() -> None:
    state = load_game("hanbok_runway").new_state(seed=5)
    rng = Rng(5)
    for step in range(60):
        if state.is_terminal():
            break
        seat = step % 2
        for k in range(3):
            assert state.determinize(seat, Rng(step * 3 + k)).heuristic(seat) == pytest.approx(state.heuristic(seat))
        state.apply(rng.choice(state.legal_actions()))


def test_a_lead_counts_for_more_the_fewer_tokens_its_colour_has_left() -> None:
    state = turn_position()
    place_set(state, 0, "oval", "green", 2)
    for value in (-3, -1, 1, 2, 3, 4):
        place_set(state, 1 if value < 2 else 0, "oval", "red", value)
    spread = spreads(state)
    # a queue of six tokens has five left in green and none in red; the other colours are full
    assert spread[colour("green")] == pytest.approx(2.0) and spread[colour("red")] == pytest.approx(0.75)
    assert spread[colour("blue")] == pytest.approx(2.25)
    # the same lead of 2 is surer in the settled colour
    assert colour_edge(2, 0, 1, spread[colour("red")]) > colour_edge(2, 0, 1, spread[colour("green")]) > 0.3


def test_the_heuristic_judges_each_colour_by_its_own_spread() -> None:
    state = turn_position()
    place_set(state, 0, "oval", "green", 2)  # a lead of 2 in green, five green tokens still to come
    unsettled = heuristic.trophy_edge(state, 0)
    # the same lead, weighed as if every colour were settled, is surer
    settled = [heuristic.SPREAD_SETTLED] * len(state.taken)
    assert heuristic.trophy_edge(state, 0, spread=settled) > unsettled > 0


def test_heuristic_counts_the_sets_the_cards_in_hand_promise() -> None:
    state = turn_position()
    bare = state.heuristic(0)
    give(state, 0, "trapezoid", "green/blue")
    nxt = put_first(state, "green", 4)
    state.known[nxt] |= 1  # seat 0 peeked: a trapezoid there is worth 8
    promising = state.heuristic(0)
    assert promising > bare + 0.05
    # the set itself is worth more than its promise, and a -3 next in line promises less
    made = turn_position()
    place_set(made, 0, "trapezoid", "green", 4)
    assert made.heuristic(0) > promising
    put_first(state, "green", -3)
    state.known[nxt] |= 1
    assert bare < state.heuristic(0) < promising
    # the rival's hand counts against seat 0
    give(state, 1, "bell", "blue/black")
    assert state.heuristic(0) < promising


def test_heuristic_promises_nothing_to_a_player_without_turns_left() -> None:
    state = turn_position(seat=1)
    state.triggered = True  # seat 1 is the second player: its turn is the last one
    before = state.heuristic(1)
    give(state, 0, "triangle", "orange/pink")
    assert state.heuristic(1) == pytest.approx(before)
    give(state, 1, "triangle", "orange/pink")
    assert state.heuristic(1) > before


def test_a_revealed_determinization_is_judged_by_the_values_drawn_in_it() -> None:
    state = turn_position()
    hidden = place_set(state, 1, "triangle", "orange", 4)  # face-down: seat 0 does not know it
    worlds = {}
    for seed in range(40):
        world = state.determinize(0, Rng(seed))
        world.reveal()
        worlds.setdefault(world.value[hidden], world)
    low, high = worlds[min(worlds)], worlds[max(worlds)]
    assert max(worlds) - min(worlds) >= 3
    assert all(high.knows(seat, t) for seat in (0, 1) for t in range(len(high.value)))
    assert not state.knows(0, hidden) and state.value[hidden] == 4  # the real position is untouched
    # unrevealed, seat 0 judges the rival's token by its expectation, the same in every world
    assert state.determinize(0, Rng(1)).heuristic(0) == pytest.approx(state.heuristic(0))
    assert low.heuristic(0) > state.heuristic(0) > high.heuristic(0)


def test_heuristic_of_a_finished_game_is_its_returns() -> None:
    state = turn_position()
    place_set(state, 0, "oval", "green", 2)
    state.phase, state.to_move, state.triggered = 2, 1, True
    state._legal = None
    state.apply("pass")
    assert state.heuristic(0) == 1.0 and state.heuristic(1) == -1.0


def test_record_replays_to_the_same_views() -> None:
    state = load_game("hanbok_runway", start_player=1).new_state(seed=12)
    rng = Rng(12)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    again = replay(json.loads(json.dumps(state.record())))
    assert [again.view(s) for s in (None, 0, 1)] == [state.view(s) for s in (None, 0, 1)]


def test_hot_seat_game_in_the_terminal_hands_the_screen_over() -> None:
    said: list[str] = []
    entries = iter(["2", "1", "2"] * 700)

    def ask(prompt: str) -> str:
        said.append(prompt)
        return next(entries)

    table = seat_table(parlour.load_game("hanbok_runway", start_player=0), ["human", "human"], seed=4)
    session = TerminalSession(table, ask=ask, say=said.append)
    assert session.run() == 0
    text = "\n".join(said)
    assert table.state.is_terminal() and "Game over." in text
    assert "Pass the screen to Player 2" in text and "you are Player 2" in text
    # a person's own secret is printed right after their own move, while they hold the screen
    lines = text.splitlines()
    secrets = 0
    for number, line in enumerate(lines):
        if re.search(r"\(face-down: [+-]\d\)|in the queue: [+-]\d", line):  # a value only its owner learns
            told_by = next(x for x in reversed(lines[: number + 1]) if not x.startswith(" "))
            holder = next(x for x in reversed(lines[:number]) if x.endswith("> "))
            assert told_by.split(":")[0] == holder.removesuffix("> ")
            secrets += 1
    assert secrets


def test_cli_bench_and_simulate_run_hanbok_runway() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["bench", "hanbok_runway", "--seconds", "0.3", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["steps"] > 0


def test_render_marks_tokens_somebody_else_has_seen() -> None:
    state = turn_position()
    give(state, 0, "oval", "green/red")
    state.apply("set oval + green/red, earn green")
    state.apply("peek at green 2")
    seen = state.value[1]
    assert f"2:({seen:+d})  " in state.render(0)
    assert "2:??*" in state.render(1) and "2:??*" in state.render(None)
    assert "green 1 ??*" in state.render(1)
