"""`parlour data export|check` and the `--data FOLDER` option on the commands that play games."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from parlour.cli import app
from parlour.engine.data import built_in

runner = CliRunner()
PACKAGE = "parlour.games.hanbok_runway.data"


def exported(tmp_path: Path) -> Path:
    folder = tmp_path / "mine"
    result = runner.invoke(app, ["data", "export", "hanbok_runway", str(folder)])
    assert result.exit_code == 0, result.output
    return folder


def test_export_writes_every_data_file_and_says_how_to_use_them(tmp_path: Path) -> None:
    folder = exported(tmp_path)
    assert {path.name for path in folder.iterdir()} == set(built_in(PACKAGE).files)
    assert (folder / "vp_tokens.csv").read_text(encoding="utf-8") == built_in(PACKAGE).files["vp_tokens.csv"]
    result = runner.invoke(app, ["data", "export", "hanbok_runway", str(folder)])
    assert result.exit_code == 2 and "is not empty" in result.output and "--force" in result.output
    assert runner.invoke(app, ["data", "export", "hanbok_runway", str(folder), "--force"]).exit_code == 0


def test_export_refuses_an_unknown_game(tmp_path: Path) -> None:
    result = runner.invoke(app, ["data", "export", "chess", str(tmp_path / "x")])
    assert result.exit_code == 2 and "chess" in result.output
    assert not (tmp_path / "x").exists()


def test_check_says_a_folder_is_ready_or_what_is_wrong(tmp_path: Path) -> None:
    folder = exported(tmp_path)
    ready = runner.invoke(app, ["data", "check", "hanbok_runway", str(folder)])
    assert ready.exit_code == 0 and "the same as the built-in data" in ready.output
    tokens = folder / "fabric_tokens.csv"
    tokens.write_text(tokens.read_text().replace("GR-3,green,1,", "GR-3,gren,1,"))
    broken = runner.invoke(app, ["data", "check", "hanbok_runway", str(folder)])
    assert broken.exit_code == 1
    assert "fabric_tokens.csv line 4, column 2 (colour): unknown colour 'gren'" in " ".join(broken.output.split())


def test_simulate_bench_and_replay_take_the_data_folder(tmp_path: Path) -> None:
    folder = exported(tmp_path)
    config = folder / "config.toml"
    config.write_text(config.read_text().replace("safety_turn_cap = 200 ", "safety_turn_cap = 6 "))
    out = tmp_path / "run"
    simulated = runner.invoke(
        app, ["simulate", "hanbok_runway", "--data", str(folder), "--games", "2", "--workers", "1", "--out", str(out)]
    )
    assert simulated.exit_code == 0, simulated.output
    line = json.loads((out / "records.jsonl").read_text().splitlines()[0])
    assert line["options"]["safety_turn_cap"] == 6  # the folder's config.toml set the default
    # the run keeps the data's files once beside its manifest; each line names them by hash
    assert "files" not in line["data"] and (out / "data" / "config.toml").read_text() == config.read_text()
    benched = runner.invoke(app, ["bench", "hanbok_runway", "--data", str(folder), "--seconds", "0.1", "--json"])
    assert benched.exit_code == 0 and json.loads(benched.output)["games"] >= 1
    record = tmp_path / "game.json"
    record.write_text(json.dumps(line))
    replayed = runner.invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0 and "verified" in replayed.output


def test_a_damaged_folder_starts_nothing(tmp_path: Path) -> None:
    folder = exported(tmp_path)
    (folder / "style_cards.csv").unlink()
    out = tmp_path / "run"
    result = runner.invoke(app, ["simulate", "hanbok_runway", "--data", str(folder), "--games", "2", "--out", str(out)])
    assert result.exit_code == 2 and "missing file(s) style_cards.csv" in result.output
    assert not (out / "records.jsonl").exists()
