"""Paired differences between the sides of a comparison: the tests, the intervals and the verdict."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from parlour.arena.paired import agresti_min, compare_sides, holm, mcnemar
from parlour.cli import app
from tests.arena.conftest import game_record


def two_seat_games(first_seat_wins: list[bool], lengths: list[int] | None = None) -> list[dict]:
    return [
        game_record(
            i,
            ["a", "b"],
            [1, 0] if won else [0, 1],
            [0] if won else [1],
            [1, 2] if won else [2, 1],
            length=(lengths or [10] * len(first_seat_wins))[i],
        )
        for i, won in enumerate(first_seat_wins)
    ]


def test_mcnemar_is_the_exact_binomial_test_of_the_discordant_games() -> None:
    # 10 games won on one side only, 2 on the other only: 2 * P(X <= 2), X ~ Binomial(12, 1/2).
    assert mcnemar(10, 2) == pytest.approx(2 * (1 + 12 + 66) / 4096)
    assert mcnemar(2, 10) == mcnemar(10, 2)
    assert mcnemar(0, 0) == 1.0 and mcnemar(3, 3) == 1.0


def test_agresti_min_adds_a_half_to_each_cell() -> None:
    low, high = agresti_min(only_first=5, only_second=25, pairs=100)
    gained, lost = 25.5 / 102, 5.5 / 102
    half = 1.959963984540054 * ((gained + lost - (gained - lost) ** 2) / 102) ** 0.5
    assert (low, high) == pytest.approx((gained - lost - half, gained - lost + half))
    assert low > 0  # 25 against 5 discordant games is a real change


def test_holm_steps_down_and_keeps_the_order() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_a_first_seat_edge_halved_on_the_same_games_is_called_more_balanced() -> None:
    rng = random.Random(4)
    before = [rng.random() < 0.70 for _ in range(300)]
    # The change turns a share of the first seat's wins into losses, game by game.
    after = [won and rng.random() > 0.25 for won in before]
    paired = compare_sides("base", "mine", two_seat_games(before), two_seat_games(after), seed=1)
    assert paired is not None and paired.games == 300
    assert paired.verdict == "more balanced"
    low, high = paired.edge_interval
    assert low < paired.edge_difference < high < 0
    seat = paired.seats[0]
    assert seat.difference < 0 and seat.interval[1] < 0 and seat.q_value < 0.05
    assert paired.line().startswith("mine against base: more balanced: first-seat edge ")
    assert "−" in paired.line() and "(300 paired games)" in paired.line() and "in size" not in paired.line()
    # An edge that changes sides is compared by its size, and the line says so.
    flipped = compare_sides("base", "mine", two_seat_games(before), two_seat_games([not w for w in before]), seed=1)
    assert flipped is not None and "first-seat edge 17.3 → −17.3 points, difference in size +0.0" in flipped.line()
    worse = compare_sides("mine", "base", two_seat_games(after), two_seat_games(before), seed=1)
    assert worse is not None and worse.verdict == "less balanced"


def test_two_fair_sides_are_rarely_called_different() -> None:
    # Independent fair coins on both sides: the verdict should err about 5% of the time, not more.
    rng = random.Random(11)
    called = 0
    for repeat in range(60):
        first = [rng.random() < 0.5 for _ in range(200)]
        second = [rng.random() < 0.5 for _ in range(200)]
        paired = compare_sides("a", "b", two_seat_games(first), two_seat_games(second), seed=repeat)
        assert paired is not None
        called += paired.verdict != "no clear difference in balance"
    assert called <= 8  # 60 tries at 5%: 3 expected, 8 or more has a chance below 2%


def test_identical_sides_differ_by_nothing() -> None:
    games = two_seat_games([True, False, True, True], lengths=[8, 9, 10, 11])
    paired = compare_sides("a", "b", games, games)
    assert paired is not None
    assert paired.edge_interval == (0.0, 0.0) and paired.verdict == "no clear difference in balance"
    assert [seat.p_value for seat in paired.seats] == [1.0, 1.0]
    assert paired.length_interval == (0.0, 0.0)


def test_only_the_games_both_sides_played_are_paired() -> None:
    before = two_seat_games([True] * 6)
    after = two_seat_games([False] * 4)
    paired = compare_sides("a", "b", before, after)
    assert paired is not None and paired.games == 4
    assert compare_sides("a", "b", before, []) is None


def test_compare_prints_the_verdict_and_the_paired_table(tmp_path: Path) -> None:
    # One stone: the first seat always wins. Ten to twenty: random players come out near even.
    arguments = ["compare", "nim", "--variant", "stones=1", "--variant", "stones=0", "--games", "40"]
    arguments += ["--agents", "random,random", "--workers", "1"]
    result = CliRunner().invoke(app, [*arguments, "--json", "--out", str(tmp_path / "c")])
    assert result.exit_code == 0, result.output
    (paired,) = json.loads(result.output)["paired"]
    assert paired["before"] == "stones=1" and paired["verdict"] == "more balanced"
    assert paired["first_seat_edge"]["before"] == pytest.approx(0.5)
    assert paired["largest_edge"]["high"] < 0 and paired["seats"][0]["q_holm"] < 0.05
    page = (tmp_path / "c" / "report.html").read_text(encoding="utf-8")
    assert 'id="paired"' in page and "more balanced" in page
    shown = CliRunner().invoke(app, arguments)
    assert shown.exit_code == 0, shown.output
    assert "stones=0 against stones=1: more balanced: first-seat edge 50.0 →" in shown.output
    assert "McNemar p" in shown.output


def test_two_labels_for_the_same_rules_are_not_called_different() -> None:
    arguments = ["compare", "nim", "--variant", "standard", "--variant", "stones=0", "--games", "24"]
    result = CliRunner().invoke(app, [*arguments, "--agents", "random,random", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    (paired,) = json.loads(result.output)["paired"]
    assert paired["verdict"] == "no clear difference in balance"
    assert paired["largest_edge"]["difference"] == 0 and paired["largest_edge"]["low"] == 0


def test_a_comparison_plays_every_side_at_each_skill_level(tmp_path: Path) -> None:
    # Random players feel the one-stone pile's first-seat edge as greedy ones do; both verdicts are told.
    arguments = ["compare", "nim", "--variant", "stones=1", "--variant", "stones=0", "--games", "24", "--workers", "1"]
    arguments += ["--agents", "random,random;greedy,greedy"]
    result = CliRunner().invoke(app, [*arguments, "--json", "--out", str(tmp_path / "c")])
    assert result.exit_code == 0, result.output
    levels = json.loads(result.output)["levels"]
    assert sorted(levels) == ["greedy,greedy", "random,random"]
    for level in levels.values():
        (paired,) = level["paired"]
        assert paired["first_seat_edge"]["before"] == pytest.approx(0.5)
        assert sorted(level["variants"]) == ["stones=0", "stones=1"]
    assert (tmp_path / "c" / "greedy-greedy" / "stones-1" / "records.jsonl").exists()
    assert (tmp_path / "c" / "random-random" / "stones-0" / "records.jsonl").exists()
    page = (tmp_path / "c" / "report.html").read_text(encoding="utf-8")
    assert "<h2>Agents random,random</h2>" in page and "<h2>Agents greedy,greedy</h2>" in page
    shown = CliRunner().invoke(app, arguments)
    assert shown.exit_code == 0, shown.output
    assert "stones=0 against stones=1 by skill level: random,random: " in shown.output


@pytest.mark.parametrize(
    ("agents", "message"),
    [
        ("random,random;", "an empty line-up between ';'"),
        ("random,random;random,random", "names a line-up twice"),
        (";".join(["random,random", "greedy,greedy", "random,greedy", "greedy,random", "mcts,mcts"]), "at most 4"),
    ],
)
def test_bad_line_ups_are_refused_before_any_game(tmp_path: Path, agents: str, message: str) -> None:
    arguments = ["compare", "nim", "--variant", "stones=1", "--variant", "stones=0", "--agents", agents]
    result = CliRunner().invoke(app, [*arguments, "--out", str(tmp_path / "c")])
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "c").exists()
