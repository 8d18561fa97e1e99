"""`parlour simulate` and `parlour compare` from the command line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from parlour.arena import report
from parlour.arena.store import REPORT
from parlour.cli import app

runner = CliRunner()


def test_simulate_prints_one_json_object() -> None:
    result = runner.invoke(app, ["simulate", "nim", "--agents", "random,greedy", "--games", "10", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["games"] == 10 and summary["games_per_s"] > 0 and "draws" in summary
    assert [agent["name"] for agent in summary["agents"]] == ["random", "greedy"]
    assert sum(agent["wins"] for agent in summary["agents"]) + summary["draws"] == 10
    assert sum(seat["wins"] for seat in summary["seats"]) == sum(agent["wins"] for agent in summary["agents"])
    assert all("mean_score" in agent for agent in summary["agents"])


def test_simulate_prints_tables_and_writes_the_folder(tmp_path: Path) -> None:
    arguments = ["simulate", "nim", "--games", "6", "--seed", "2", "--workers", "1", "--stones", "12"]
    result = runner.invoke(app, [*arguments, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "games/s" in result.output and "draws: 0" in result.output and "seat 2" in result.output
    assert "random #1" in result.output and "win rate" in result.output
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["options"] == {"players": 2, "stones": 12} and manifest["games"] == 6


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["simulate", "chess"], "no game called 'chess'"),
        (["simulate", "nim", "--agents", "random,wizard"], "no agent called 'wizard'"),
        (["simulate", "nim", "--agents", "random"], "nim is played by 2 players, but --agents gives 1"),
        (["simulate", "nim", "--colour", "red"], "nim has no option --colour"),
        (["simulate", "nim", "--stones", "lots"], "nim option stones takes int"),
        (["simulate", "nim", "--players", "3", "--agents", "random,random"], "3 players need 3 agents"),
        (["simulate", "nim", "--backend", "slurm"], "no backend called 'slurm'"),
        (["compare", "nim", "--variant", "stones=10"], "at least two sides"),
        (["compare", "nim", "--data", "base", "--data", "mine"], "nim has no data files"),
        (["compare", "nim", "--variant", "stones=10", "--variant", "sideways"], "'sideways' is not an option"),
    ],
)
def test_bad_input_is_refused_before_any_game(arguments: list[str], message: str) -> None:
    result = runner.invoke(app, [*arguments, "--games", "3"])
    assert result.exit_code == 2
    assert "error:" in result.output and message in result.output
    assert "Traceback" not in result.output


def test_a_folder_of_another_tournament_is_refused(tmp_path: Path) -> None:
    assert runner.invoke(app, ["simulate", "nim", "--games", "2", "--out", str(tmp_path)]).exit_code == 0
    held = (tmp_path / "records.jsonl").read_text()
    result = runner.invoke(app, ["simulate", "nim", "--games", "2", "--seed", "1", "--out", str(tmp_path), "--resume"])
    assert result.exit_code == 2 and "holds another tournament: its seed 0 (asked: 1)" in result.output
    assert (tmp_path / "records.jsonl").read_text() == held


def test_errors_reach_a_person_without_a_traceback(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "parlour.cli", "simulate", "hatflings", "--agents", "random,wizard"]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 2
    assert "no agent called 'wizard'" in finished.stderr and "Traceback" not in finished.stderr
    assert finished.stdout == ""


def test_simulate_plays_hatflings() -> None:
    result = runner.invoke(app, ["simulate", "hatflings", "--games", "20", "--workers", "2", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["games"] == 20 and summary["game"] == "hatflings"
    assert any(feature["name"].startswith("special: ") for feature in summary["features"])


def test_compare_reports_the_variants_side_by_side(tmp_path: Path) -> None:
    arguments = ["compare", "nim", "--variant", "stones=10", "--variant", "stones=30", "--games", "6"]
    result = runner.invoke(app, [*arguments, "--out", str(tmp_path), "--json", "--workers", "1"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert sorted(summary["variants"]) == ["stones=10", "stones=30"]
    assert summary["variants"]["stones=30"]["options"]["stones"] == 30
    page = (tmp_path / REPORT).read_text()
    assert re.findall(r'<section id="([a-z-]+)">', page) == [s for s in report.SECTIONS if s != "components"]
    assert (tmp_path / "stones-10" / "records.jsonl").exists() and (tmp_path / "stones-30" / REPORT).exists()
    again = runner.invoke(app, [*arguments, "--out", str(tmp_path)])
    assert again.exit_code == 2 and "add --resume" in again.output
    resumed = runner.invoke(app, [*arguments, "--out", str(tmp_path), "--resume"])
    assert resumed.exit_code == 0, resumed.output


def test_simulate_names_the_components_it_calls_strong_or_weak() -> None:
    result = runner.invoke(
        app, ["simulate", "hatflings", "--agents", "random,random", "--games", "30", "--workers", "1"]
    )
    assert result.exit_code == 0, result.output
    assert re.search(r"components: (none strong or weak of \d+|special: )", result.output)
    nim = runner.invoke(app, ["simulate", "nim", "--games", "4", "--workers", "1"])
    assert nim.exit_code == 0 and "components:" not in nim.output  # Nim has none


def test_simulate_plays_each_skill_level_and_sets_their_first_seats_side_by_side(tmp_path: Path) -> None:
    arguments = ["simulate", "nim", "--games", "6", "--workers", "1", "--agents", "random,random;greedy,greedy"]
    result = runner.invoke(app, [*arguments, "--json", "--out", str(tmp_path / "levels")])
    assert result.exit_code == 0, result.output
    levels = json.loads(result.output)["levels"]
    assert sorted(levels) == ["greedy,greedy", "random,random"] and levels["random,random"]["games"] == 6
    assert (tmp_path / "levels" / "greedy-greedy" / "records.jsonl").exists()
    # One page sets the line-ups side by side: balance, game metrics and components at each skill level.
    page = (tmp_path / "levels" / "report.html").read_text(encoding="utf-8")
    assert "nim: by skill level" in page and "random,random; greedy,greedy" in page
    for anchor in ("seats", "metrics"):
        section = re.search(rf'<section id="{anchor}">.*?</section>', page, re.S)
        assert section is not None and "random,random" in section.group(0) and "greedy,greedy" in section.group(0)
    shown = runner.invoke(app, [*arguments, "--out", str(tmp_path / "shown")])
    assert shown.exit_code == 0, shown.output
    assert "first seat's win rate by skill level (fair share 50.0%): random,random: " in shown.output
    assert f"skill levels side by side: {tmp_path / 'shown' / 'report.html'}" in shown.output.replace("\n", "")
    refused = runner.invoke(app, ["simulate", "nim", "--agents", "random,random;", "--games", "2"])
    assert refused.exit_code == 2 and "an empty line-up" in refused.output


def test_simulate_and_compare_say_they_take_several_line_ups() -> None:
    for command in ("simulate", "compare"):
        shown = runner.invoke(app, [command, "--help"])
        assert shown.exit_code == 0
        assert "several line-ups (skill levels) separated by ';'" in re.sub(r"[\s│]+", " ", shown.output)
