"""Running tournaments: the same results whatever the worker count, resuming, and the output folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parlour.arena.runner import run
from parlour.arena.store import MANIFEST, RECORDS, REPORT, RESULTS, results_csv
from parlour.arena.tournament import ArenaError, plan
from parlour.engine.records import verify
from tests.arena.conftest import game_record


def files(folder: Path) -> dict[str, str]:
    return {name: (folder / name).read_text(encoding="utf-8") for name in (MANIFEST, RECORDS, RESULTS)}


def test_results_are_the_same_whatever_the_number_of_workers(tmp_path: Path) -> None:
    tournament = plan("nim", "random,greedy", 40, seed=5)
    outputs = []
    for workers in (1, 2, 3):
        result = run(tournament, out=tmp_path / f"w{workers}", workers=workers)
        assert result.played == 40 and result.complete
        outputs.append(files(tmp_path / f"w{workers}"))
    assert outputs[0] == outputs[1] == outputs[2]
    assert run(tournament, workers=2).summary.to_json() == run(tournament, workers=1).summary.to_json()


def test_every_journal_line_is_a_replayable_record(tmp_path: Path) -> None:
    run(plan("nim", "random,random", 12, seed=1), out=tmp_path, workers=2)
    lines = (tmp_path / RECORDS).read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["arena"]["index"] for line in lines] == list(range(12))
    for line in lines:
        record = json.loads(line)
        state = verify(record)
        assert state.is_terminal() and state.winners() == record["winners"]
        assert len(state.history) == record["arena"]["length"]


def test_results_csv_has_a_row_per_game_and_seat(tmp_path: Path) -> None:
    run(plan("nim", "random,greedy", 6, seed=2), out=tmp_path, workers=1)
    rows = (tmp_path / RESULTS).read_text(encoding="utf-8").splitlines()
    assert rows[0] == "game,seed,agent,seat,score,rank,won,length"
    assert len(rows) == 1 + 6 * 2
    game, _, agent, seat, score, rank, won, _ = rows[1].split(",")
    assert (game, agent, seat) == ("0", "random", "0") and rows[3].split(",")[2] == "greedy"
    assert (score, rank, won) in (("1.0", "1", "1"), ("0.0", "2", "0"))


def test_a_resumed_run_plays_only_the_missing_games(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    run(plan("nim", "random,random", 30, seed=4), out=whole, workers=2)
    part = tmp_path / "part"
    first = run(plan("nim", "random,random", 12, seed=4), out=part, workers=2)
    again = run(plan("nim", "random,random", 30, seed=4), out=part, resume=True, workers=2)
    assert (first.played, again.played) == (12, 18)
    assert files(part)[RECORDS] == files(whole)[RECORDS] and files(part)[RESULTS] == files(whole)[RESULTS]
    assert run(plan("nim", "random,random", 30, seed=4), out=part, resume=True).played == 0


def test_resume_drops_a_line_cut_short_and_replays_that_game(tmp_path: Path) -> None:
    tournament = plan("nim", "random,random", 10, seed=8)
    run(tournament, out=tmp_path / "whole")
    expected = files(tmp_path / "whole")[RECORDS]
    folder = tmp_path / "cut"
    folder.mkdir()
    (folder / MANIFEST).write_text(files(tmp_path / "whole")[MANIFEST])
    lines = expected.splitlines(keepends=True)
    # games 3, 0 and 7 were written, then the kill came in the middle of game 5's line
    (folder / RECORDS).write_text(lines[3] + lines[0] + lines[7] + lines[5][:40])
    result = run(tournament, out=folder, resume=True)
    assert result.played == 7
    assert files(folder)[RECORDS] == expected


def test_a_damaged_journal_is_refused(tmp_path: Path) -> None:
    tournament = plan("nim", "random,random", 4)
    run(tournament, out=tmp_path)
    lines = (tmp_path / RECORDS).read_text().splitlines(keepends=True)
    (tmp_path / RECORDS).write_text(lines[0] + "garbage\n" + lines[1])
    with pytest.raises(ArenaError, match="line 2 is not a game record"):
        run(tournament, out=tmp_path, resume=True)


def test_a_folder_holding_another_tournament_is_refused(tmp_path: Path) -> None:
    run(plan("nim", "random,random", 4, seed=1), out=tmp_path)
    before = files(tmp_path)
    with pytest.raises(ArenaError, match=r"already holds a tournament.*--resume"):
        run(plan("nim", "random,random", 4, seed=1), out=tmp_path)
    with pytest.raises(ArenaError, match=r"holds another tournament: its seed 1 \(asked: 2\)"):
        run(plan("nim", "random,random", 4, seed=2), out=tmp_path, resume=True)
    with pytest.raises(ArenaError, match="agents random,random"):
        run(plan("nim", "random,greedy", 4, seed=1), out=tmp_path, resume=True)
    with pytest.raises(ArenaError, match="--games must be at least 4"):
        run(plan("nim", "random,random", 3, seed=1), out=tmp_path, resume=True)
    assert files(tmp_path) == before


def test_a_folder_seated_by_an_older_parlour_is_not_resumed(tmp_path: Path) -> None:
    run(plan("nim", "random,random", 4, seed=1), out=tmp_path)
    manifest = json.loads((tmp_path / MANIFEST).read_text(encoding="utf-8"))
    (tmp_path / MANIFEST).write_text(json.dumps({**manifest, "format": "parlour-tournament/1"}), encoding="utf-8")
    before = files(tmp_path)
    with pytest.raises(ArenaError, match=r"parlour-tournament/1.*seated otherwise, so start a new folder"):
        run(plan("nim", "random,random", 8, seed=1), out=tmp_path, resume=True)
    assert files(tmp_path) == before


def test_a_folder_with_other_files_or_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ArenaError, match="not empty and holds no parlour tournament"):
        run(plan("nim", "random,random", 2), out=tmp_path)
    with pytest.raises(ArenaError, match="is a file"):
        run(plan("nim", "random,random", 2), out=tmp_path / "notes.txt")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_bad_backend_settings_are_refused_before_any_game(tmp_path: Path) -> None:
    tournament = plan("nim", "random,random", 2)
    with pytest.raises(ArenaError, match="no backend called 'slurm'"):
        run(tournament, out=tmp_path / "a", backend="slurm")
    with pytest.raises(ArenaError, match="--workers must be at least 1"):
        run(tournament, out=tmp_path / "b", workers=0)
    with pytest.raises(ArenaError, match="--address is for the ray backend"):
        run(tournament, out=tmp_path / "c", address="10.0.0.1:6379")
    with pytest.raises(ArenaError, match=r"cannot reach the Ray cluster at 127\.0\.0\.1:1"):
        run(tournament, out=tmp_path / "d", backend="ray", address="127.0.0.1:1")
    with pytest.raises(ArenaError, match="--address must be host:port"):
        run(tournament, out=tmp_path / "e", backend="ray", address="somewhere")
    assert list(tmp_path.iterdir()) == []


def test_the_report_is_written_beside_the_results(tmp_path: Path) -> None:
    run(plan("nim", "random,random", 6), out=tmp_path)
    assert (tmp_path / REPORT).read_text().startswith("<!DOCTYPE html>")


def test_results_csv_spells_out_breakdowns_and_shared_wins() -> None:
    records = [
        game_record(0, ["a", "b"], [2, 2], [0, 1], [1, 1], breakdowns=[{"flips": 2}, {"flips": 1, "pig": 1}]),
        game_record(1, ["b", "a"], [3, 1], [0], [1, 2], breakdowns=[{"flips": 3}, {"flips": 1}]),
    ]
    assert results_csv(records).splitlines() == [
        "game,seed,agent,seat,score,flips,pig,rank,won,length",
        "0,0,a,0,2,2,,1,0,10",
        "0,0,b,1,2,1,1,1,0,10",
        "1,1,b,0,3,3,,1,1,10",
        "1,1,a,1,1,1,,2,0,10",
    ]
