"""Yamataï through the `parlour` command line: play (bots and a typed human move), replay, bench, rules."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from parlour.cli import app

runner = CliRunner()


def test_play_with_bots_records_a_game_that_replays(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(
        app,
        [
            "play",
            "yamatai",
            "--players",
            "3",
            "--seats",
            "random,random,random",
            "--seed",
            "4",
            "--record",
            str(record),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "game over" in result.output.lower() and "fleet track" in result.output
    assert json.loads(record.read_text())["game"] == "yamatai"
    replayed = runner.invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0, replayed.output


def test_a_person_types_action_labels() -> None:
    result = runner.invoke(
        app,
        ["play", "yamatai", "--players", "2", "--seats", "human,random", "--seed", "1"],
        input="take fleet tile 99\n",
    )
    assert result.exit_code == 0
    assert "Your move:" in result.output and "1. take fleet tile" in result.output and "Blue> " in result.output
    assert "no action called 'take fleet tile 99'" in result.output


def test_bench_and_rules() -> None:
    result = runner.invoke(app, ["bench", "yamatai", "--players", "2", "--seconds", "0.2", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["options"] == {"players": 2, "max_rounds": 30}
    shown = runner.invoke(app, ["rules", "yamatai"])
    assert shown.exit_code == 0 and "R47" in shown.output
    refused = runner.invoke(app, ["bench", "yamatai", "--players", "5", "--seconds", "0.1"])
    assert refused.exit_code == 2 and "2-4 players" in refused.output
