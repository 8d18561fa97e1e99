"""Game metrics: branching, decisions, lead changes, margins, endings and thinking time."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from parlour.arena.match import Played, play, play_to_line
from parlour.arena.metrics import game_metrics
from parlour.arena.runner import run
from parlour.arena.tournament import plan
from parlour.cli import app
from parlour.engine.registry import load_game
from tests.arena.conftest import game_record


def replayed_course(record: dict) -> tuple[list[int], list[int], int, list[int]]:
    """Each seat's decisions and legal moves, the lead's changes and every decision's legal moves, worked
    out again from the moves."""
    game = load_game(record["game"], **record["options"])
    state = game.new_state(seed=record["seed"])
    players = len(record["arena"]["agents"])
    decisions, choices, leader, changes = [0] * players, [0] * players, None, 0
    every: list[int] = []
    for action in record["actions"]:
        seat = state.current_player()
        decisions[seat] += 1
        choices[seat] += len(state.legal_actions())
        every.append(len(state.legal_actions()))
        state.apply(action)
        if not state.is_terminal() and state.current_player() >= seat:
            continue  # the lead is looked at once a round, and at the end
        totals = [score.total for score in state.scores()]
        if totals.count(max(totals)) == 1:
            changes += leader is not None and totals.index(max(totals)) != leader
            leader = totals.index(max(totals))
    return decisions, choices, changes, every


@pytest.mark.parametrize("game", ["nim", "hatflings", "hanbok_runway"])
def test_a_games_course_is_what_its_moves_say(game: str) -> None:
    tournament = plan(game, "random,greedy", 2, seed=4)
    for index in range(2):
        record = play(tournament, index)
        course = record["arena"]["course"]
        decisions, choices, changes, every = replayed_course(record)
        assert course["decisions"] == decisions and sum(decisions) == len(record["actions"])
        # Branching over the game: the i-th of n decisions falls in third 3i // n.
        thirds = [[0, 0], [0, 0], [0, 0]]
        for i, legal in enumerate(every):
            thirds[3 * i // len(every)][0] += 1
            thirds[3 * i // len(every)][1] += legal
        assert course["by_third"] == thirds and sum(n for n, _ in thirds) == len(every)
        assert course["choices"] == choices and course["lead_changes"] == changes
        assert course["widest"] >= max(c / d for c, d in zip(choices, decisions, strict=True))
        assert course["end"] and not any(ch.isdigit() for ch in course["end"])


def test_how_games_end_is_told_in_the_games_words() -> None:
    record = play(plan("hanbok_runway", "random,random", 1, seed=2), 0)
    assert record["arena"]["course"]["end"] in (
        "the end is triggered on seat N's turn",
        "the safety cap of N turns is reached",
    )
    # Yamataï states its end in the spectator's view: that is the ending, as the game words it.
    tournament = plan("yamatai", "random,random", 1, seed=2)
    yamatai = play(tournament, 0)
    state = tournament.load().new_state(seed=yamatai["seed"])
    for action in yamatai["actions"]:
        state.apply(action)
    assert yamatai["arena"]["course"]["end"] == state.view(None)["end_reason"] != ""


def test_thinking_time_travels_with_the_game_but_is_not_journaled() -> None:
    tournament = plan("nim", "random,greedy", 1, seed=1)
    _, line, digest = play_to_line(tournament, 0)
    assert "timing" not in json.loads(line) and len(digest["timing"]) == 2
    assert all(seconds >= 0 for seconds in digest["timing"])
    assert "timing" not in Played(0, line=line).digest  # a game read back from a journal is not timed


def test_metrics_summarise_the_games() -> None:
    def course(decisions: list[int], choices: list[int], changes: int, end: str) -> dict:
        # Each game's branching by third: its first third twice as wide as the rest.
        third = sum(decisions) // 3
        rest = sum(choices) / (4 * third) if third else 0
        return {
            "decisions": decisions,
            "choices": choices,
            "by_third": [[third, round(2 * rest * third)], [third, round(rest * third)], [third, round(rest * third)]],
            "forced": [1, 0],
            "widest": 9,
            "lead_changes": changes,
            "end": end,
        }

    games = [
        game_record(0, ["a", "b"], [10, 7], [0], [1, 2]),
        game_record(1, ["b", "a"], [4, 9], [1], [2, 1]),
        game_record(2, ["a", "b"], [5, 5], [0, 1], [1, 1]),
    ]
    for record, (shape, timing) in zip(
        games,
        [
            (course([5, 5], [20, 30], 2, "deck ran out"), [0.5, 1.0]),
            (course([6, 4], [30, 10], 0, "deck ran out"), [0.1, 0.2]),
            (course([3, 3], [9, 9], 1, "turn limit"), None),
        ],
        strict=True,
    ):
        record["arena"]["course"] = shape
        if timing is not None:
            record["timing"] = timing
    metrics = game_metrics(games, {"a": "random", "b": "greedy"})
    assert metrics is not None and metrics.games == 3
    assert metrics.branching == pytest.approx(108 / 26)
    first, middle, last = metrics.branching_by_third
    assert first == pytest.approx(2 * middle, rel=0.1) and middle == pytest.approx(last)
    assert metrics.seat_decisions == pytest.approx([14 / 3, 12 / 3])
    assert metrics.decisions.mean == pytest.approx(26 / 3)
    assert metrics.lead_changes.mean == pytest.approx(1.0) and metrics.games_with_a_lead_change == pytest.approx(2 / 3)
    assert metrics.margin.mean == pytest.approx((3 + 5 + 0) / 3)
    assert metrics.endings == {"deck ran out": 2, "turn limit": 1}
    assert metrics.forced == pytest.approx(3 / 26) and metrics.widest == 9
    # Thinking time per decision of each agent spec, over the two games timed.
    assert metrics.timed_games == 2
    assert metrics.seconds_per_move["random"] == pytest.approx((0.5 + 0.2) / (5 + 4))
    assert metrics.seconds_per_move["greedy"] == pytest.approx((1.0 + 0.1) / (5 + 6))
    assert game_metrics([game_record(0, ["a", "b"], [1, 0], [0], [1, 2])], {}) is None


def test_every_report_shows_the_metrics_and_two_runs_agree_on_them() -> None:
    tournament = plan("nim", "random,greedy", 12, seed=5)
    first, second = run(tournament, workers=1), run(tournament, workers=1)
    assert first.summary.metrics == second.summary.metrics  # thinking time aside, the same games
    assert first.to_json()["timing"]["timed_games"] == 12
    result = CliRunner().invoke(
        app, ["simulate", "hanbok_runway", "--games", "4", "--workers", "1", "--agents", "random,random"]
    )
    assert result.exit_code == 0, result.output
    assert "game: branching " in result.output and "decisions per game" in result.output
    assert (
        "endings: the end is triggered on seat N's turn" in result.output and "time per move: random" in result.output
    )


def test_thinking_times_are_written_in_a_unit_that_shows_them() -> None:
    from parlour.arena.metrics import duration

    assert [duration(s) for s in (0.000035, 0.00601, 1.25)] == ["35 µs", "6.01 ms", "1.25 s"]
