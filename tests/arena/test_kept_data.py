"""An arena run on changed data keeps the data's files once beside its manifest; its record lines
name the data by hash, replay and verify from that folder, and a folder whose kept files no longer
match the hash is refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from parlour.arena.runner import run
from parlour.arena.tournament import ArenaError, plan
from parlour.cli import app
from parlour.engine import data
from parlour.engine.errors import RecordError
from parlour.engine.records import kept_data_beside, verify

PACKAGE = "parlour.games.hatairo.data"


def _designers_folder(folder: Path) -> Path:
    """Hatairo's topography tiles that scored 0/1/3/6 score 0/2/5/9."""
    data.export(PACKAGE, folder)
    tiles = folder / "topography.csv"
    text = tiles.read_text(encoding="utf-8")
    assert ",0,1,3,6," in text
    tiles.write_text(text.replace(",0,1,3,6,", ",0,2,5,9,"), encoding="utf-8")
    return folder


def _lines(out: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (out / "records.jsonl").read_text(encoding="utf-8").splitlines()]


def test_a_run_on_changed_data_keeps_its_files_once_and_lines_name_the_hash(tmp_path: Path) -> None:
    mine = _designers_folder(tmp_path / "mine")
    digest = data.from_folder(PACKAGE, mine).digest
    out = tmp_path / "out"
    run(plan("hatairo", "random,random", 4, seed=3, options={"data": str(mine)}), out=out, workers=1)
    kept = out / "data"
    assert sorted(path.name for path in kept.iterdir()) == sorted(data.built_in(PACKAGE).files)
    assert (kept / "topography.csv").read_text(encoding="utf-8") == (mine / "topography.csv").read_text(
        encoding="utf-8"
    )
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8"))["data"] == {"hash": digest, "files": "data"}
    lines = _lines(out)
    assert len(lines) == 4 and all(line["data"] == {"hash": digest} for line in lines)


def test_a_run_on_the_built_in_data_keeps_no_data_folder(tmp_path: Path) -> None:
    run(plan("hatairo", "random,random", 2, seed=3), out=tmp_path / "out", workers=1)
    assert not (tmp_path / "out" / "data").exists()
    assert "data" not in json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))


def test_a_line_replays_and_verifies_from_the_tournament_folder_alone(tmp_path: Path) -> None:
    mine = _designers_folder(tmp_path / "mine")
    out = tmp_path / "out"
    run(plan("hatairo", "random,random", 3, seed=5, options={"data": str(mine)}), out=out, workers=1)
    shutil.rmtree(mine)  # the designer's folder is gone: only the tournament folder keeps the data
    records = out / "records.jsonl"
    line = _lines(out)[1]
    with pytest.raises(RecordError, match="does not store"):
        verify(line)  # without the kept data the hash alone names nothing
    state = verify(line, kept_data_beside(records))
    assert state.is_terminal() and [score.total for score in state.scores()] == line["scores"]
    result = CliRunner().invoke(app, ["replay", str(records), "--line", "2"])
    assert result.exit_code == 0, result.output
    assert "verified" in result.output


def test_kept_files_that_do_not_match_the_hash_are_refused_by_replay_and_resume(tmp_path: Path) -> None:
    mine = _designers_folder(tmp_path / "mine")
    out = tmp_path / "out"
    tournament = plan("hatairo", "random,random", 2, seed=5, options={"data": str(mine)})
    run(tournament, out=out, workers=1)
    tiles = out / "data" / "topography.csv"
    tiles.write_text(tiles.read_text(encoding="utf-8").replace(",0,2,5,9,", ",0,2,5,8,"), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(out / "records.jsonl"), "--line", "1"])
    assert result.exit_code == 1
    assert "does not match the record's hash" in result.output and "changed after the game" in result.output
    with pytest.raises(ArenaError, match="the data changed since the run began"):
        run(plan("hatairo", "random,random", 4, seed=5, options={"data": str(mine)}), out=out, resume=True)


def test_resuming_after_the_designers_folder_changed_is_refused(tmp_path: Path) -> None:
    mine = _designers_folder(tmp_path / "mine")
    out = tmp_path / "out"
    run(plan("hatairo", "random,random", 2, seed=5, options={"data": str(mine)}), out=out, workers=1)
    tiles = mine / "topography.csv"
    tiles.write_text(tiles.read_text(encoding="utf-8").replace(",0,2,5,9,", ",0,2,5,7,"), encoding="utf-8")
    with pytest.raises(ArenaError, match="the data changed since the run began"):
        run(plan("hatairo", "random,random", 4, seed=5, options={"data": str(mine)}), out=out, resume=True)
    assert len(_lines(out)) == 2  # nothing was played or written


def test_replay_of_a_line_that_is_not_there_is_refused(tmp_path: Path) -> None:
    run(plan("hatairo", "random,random", 1, seed=5), out=tmp_path / "out", workers=1)
    result = CliRunner().invoke(app, ["replay", str(tmp_path / "out" / "records.jsonl"), "--line", "7"])
    assert result.exit_code == 1 and "no record on line 7" in result.output
