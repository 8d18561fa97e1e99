"""`parlour train`: its refusals, and a tiny run end to end (weights, card, a resumed run)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import parlour
from parlour.agents.learned.evaluator import from_file
from parlour.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--keep", "2"], "--keep is the share of positions kept, in (0, 1], got 2"),
        (["--minutes", "0"], "--minutes must be more than 0, got 0"),
        (["--hidden", "64,x"], "--hidden takes whole numbers separated by commas, got '64,x'"),
        (["--hidden", "0"], "--hidden takes layer widths of at least 1"),
    ],
)
def test_bad_requests_are_refused_before_any_game(tmp_path: Path, extra: list[str], message: str) -> None:
    pytest.importorskip("jax")
    result = runner.invoke(app, ["train", "hatflings", "--out", str(tmp_path / "out"), *extra])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert not (tmp_path / "out").exists()


def test_a_game_without_an_observation_encoder_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("jax")
    from ..engine.nim import Nim  # registered by tests/agents/conftest.py

    assert Nim.name == "nim"
    result = runner.invoke(app, ["train", "nim", "--out", str(tmp_path / "out"), "--minutes", "0.1"])
    assert result.exit_code == 2 and "nim has no observation encoder" in " ".join(result.output.split())


@pytest.mark.slow
def test_a_tiny_run_writes_weights_and_a_card_and_resumes(tmp_path: Path) -> None:
    pytest.importorskip("jax")
    out = tmp_path / "out"
    command = ["train", "hatflings", "--out", str(out), "--minutes", "0.3", "--max-games", "6", "--round-games", "3"]
    command += ["--agents", "greedy,random", "--hidden", "8", "--steps", "30", "--check-games", "2"]
    result = runner.invoke(app, command)
    assert result.exit_code == 0, result.output
    card = json.loads((out / "evaluator_2p.json").read_text())
    assert card["game"] == "hatflings" and card["data"]["games"] == 6 and card["training"]["steps"] <= 30
    assert card["data"]["tournament_seeds"] == [0]
    assert card["data"]["search_defaults"] == dict(parlour.load_game("hatflings").search_defaults)
    assert card["validation"]["value_mse"] >= 0 and card["bytes"] == (out / "evaluator_2p.npz").stat().st_size
    assert len(card["strength"]) == 1 and card["strength"][0]["games"] == 2
    from_file(out / "evaluator_2p.npz", parlour.load_game("hatflings"))  # loads and fits
    again = runner.invoke(app, command)
    assert again.exit_code == 0, again.output
    assert "6 games played" in again.output
    journal = out / "games" / "line-up-0" / "records.jsonl"
    assert len(journal.read_text().splitlines()) == 6  # the games came back from the folder, none played twice


@pytest.mark.slow
def test_the_same_command_trains_the_same_weights(tmp_path: Path) -> None:
    """What docs/bots.md promises of the shipped evaluator: its card's command, run again, writes the
    same weights (the games, the positions kept, the split and the fit all follow the seeds)."""
    pytest.importorskip("jax")
    import numpy as np

    made = []
    for run in ("first", "second"):  # --minutes only bounds the run: games and steps end it first
        out = tmp_path / run
        command = ["train", "hatflings", "--out", str(out), "--minutes", "5", "--max-games", "4"]
        command += ["--round-games", "2", "--agents", "greedy,random", "--hidden", "8", "--steps", "20"]
        command += ["--check-games", "0", "--lam", "0.8"]
        result = runner.invoke(app, command)
        assert result.exit_code == 0, result.output
        made.append(np.load(out / "evaluator_2p.npz"))
    first, second = made
    assert sorted(first.files) == sorted(second.files)
    for name in first.files:
        assert np.array_equal(first[name], second[name]), name
