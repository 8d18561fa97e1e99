"""parlour compare --data: a difference made by construction in a data folder shows where it was made."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from parlour.cli import app
from parlour.engine.data import export


def test_a_specialist_made_worth_20_prestige_is_called_strong_on_that_side_alone(tmp_path: Path) -> None:
    export("parlour.games.yamatai.data", tmp_path / "base")
    export("parlour.games.yamatai.data", tmp_path / "mine")
    specialists = tmp_path / "mine" / "specialists.csv"
    text = specialists.read_text(encoding="utf-8")
    assert "\nSP13,Pilot,1," in text
    specialists.write_text(text.replace("\nSP13,Pilot,1,", "\nSP13,Pilot,20,"), encoding="utf-8")
    sides = ["--data", str(tmp_path / "base"), "--data", str(tmp_path / "mine")]
    arguments = ["compare", "yamatai", *sides, "--agents", "random,random", "--games", "200", "--json"]
    result = CliRunner().invoke(app, [*arguments, "--workers", "2", "--out", str(tmp_path / "compared")])
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)["variants"]
    assert sorted(found) == ["base", "mine"]
    pilot = {side: {c["name"]: c for c in found[side]["components"]}["specialist: Pilot"] for side in found}
    assert pilot["mine"]["verdict"] == "strong" and pilot["mine"]["q"] < 0.05
    assert pilot["mine"]["difference_low"] > 0.2
    assert pilot["base"]["verdict"] == ""
    assert pilot["mine"]["takers"]["rate"] > pilot["base"]["takers"]["rate"] + 0.2
    # Only the planted change changes a verdict: whatever the built-in data's own components show, they
    # show it on both sides.
    verdicts = {side: {c["name"]: c["verdict"] for c in found[side]["components"]} for side in found}
    changed = [name for name in verdicts["base"] if verdicts["base"][name] != verdicts["mine"].get(name, "")]
    assert changed == ["specialist: Pilot"]
    # Matched on picks of their kind, the 1-prestige tiles are not called strong (raw figures once did).
    cheap = [f"building tile: B0{i}" for i in range(1, 6)]
    assert not [name for name in cheap if verdicts["base"].get(name) == "strong"]
    # The same seeds on both sides: the games differ only where the Pilot's prestige changed them.
    assert found["base"]["seed"] == found["mine"]["seed"] and found["base"]["games"] == found["mine"]["games"] == 200
    page = (tmp_path / "compared" / "report.html").read_text(encoding="utf-8")
    assert 'id="components"' in page and "Pilot" in page


def test_a_data_side_that_is_not_a_folder_is_refused_before_any_game(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["compare", "yamatai", "--data", "builtin", "--data", str(tmp_path / "nowhere"), "--out", str(tmp_path / "c")],
    )
    assert result.exit_code == 2 and "no such folder" in result.output
    assert not (tmp_path / "c").exists()
