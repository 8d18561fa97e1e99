"""Saving from the terminal: a record never overwrites another file, and a game is never lost."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

import parlour
from parlour.cli import app
from parlour.engine.records import verify
from parlour.engine.registry import register
from parlour.play import TerminalSession, seat_table

from ..engine.nim import Nim
from .scripted import typed

register(Nim)
runner = CliRunner()


def session(entries: list[str], record_path: Path | None = None) -> tuple[list[str], TerminalSession]:
    said: list[str] = []
    ask = typed(entries)

    table = seat_table(parlour.load_game("nim", stones=9), ["human", "human"], seed=3)
    return said, TerminalSession(table, ask=ask, say=said.append, record_path=record_path)


@pytest.mark.parametrize(
    ("target", "message"),
    [("notes.txt", "would be overwritten"), ("folder", "is a folder"), ("missing/game.json", "there is no folder")],
)
def test_play_refuses_a_record_path_before_the_game_starts(tmp_path: Path, target: str, message: str) -> None:
    (tmp_path / "notes.txt").write_text("my notes")
    (tmp_path / "folder").mkdir()
    result = runner.invoke(app, ["play", "nim", "--record", str(tmp_path / target)], input="1\n")
    assert result.exit_code == 2 and message in result.output
    assert "nim, seed" not in result.output.lower()
    assert (tmp_path / "notes.txt").read_text() == "my notes"


def test_save_never_overwrites_another_file_but_updates_its_own(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    game = tmp_path / "game.json"
    said, play = session(["1", f"save {notes}", f"save {game}", "1", f"save {game}", "quit"])
    play.run()
    assert notes.read_text() == "my notes"
    assert any("Not saved" in line and "not a record of this game" in line for line in said)
    assert len(verify(json.loads(game.read_text())).history) == 2


def test_a_record_that_cannot_go_where_asked_is_kept_elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "spare"))
    (tmp_path / "spare").mkdir()
    folder = tmp_path / "gone"
    folder.mkdir()
    said, play = session(["1", "1"], record_path=folder / "game.json")
    folder.rmdir()  # the folder disappears during the game
    play.run()
    spare = list((tmp_path / "spare").glob("parlour-nim-3-*.json"))
    assert len(spare) == 1 and len(verify(json.loads(spare[0].read_text())).history) == 2
    assert any(str(spare[0]) in line for line in said)


def test_save_refuses_a_name_the_system_cannot_take(tmp_path: Path) -> None:
    said, play = session(["save bad\0name.json", f"save {tmp_path / ('x' * 300)}", "quit"])
    assert play.run() == 0
    refusals = [line for line in said if line.startswith("Not saved")]
    assert len(refusals) == 2 and "NUL character" in refusals[0]


def test_save_reads_a_file_name_as_a_shell_would(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    said, play = session(["1", "save ~/first.json", "save 'my game.json'", "quit"])
    monkeypatch.chdir(tmp_path)
    play.run()
    assert (tmp_path / "first.json").exists() and (tmp_path / "my game.json").exists(), said
