"""parlour compare --data: a difference made by construction in a data folder shows where it was made."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from parlour.cli import app
from parlour.engine.data import export


def plant(folder: Path, before: str, after: str) -> None:
    """Change one row of the exported specialists.csv in `folder`."""
    specialists = folder / "specialists.csv"
    text = specialists.read_text(encoding="utf-8")
    assert before in text
    specialists.write_text(text.replace(before, after), encoding="utf-8")


def test_planted_changes_are_called_in_their_direction_and_unchanged_components_are_not(tmp_path: Path) -> None:
    # Stronger: the Pilot worth 20 prestige instead of 1. Weaker: the Haggler worth nothing and making its
    # owner pay 20 coins more for a boat and get 20 less for one, instead of 1 less and 1 more.
    for side in ("base", "strong", "weak"):
        export("parlour.games.yamatai.data", tmp_path / side)
    plant(tmp_path / "strong", "\nSP13,Pilot,1,", "\nSP13,Pilot,20,")
    haggler = "\nSP04,Haggler,{},trade_discount,buy_delta={};sell_delta={},"
    plant(tmp_path / "weak", haggler.format(2, -1, "+1"), haggler.format(0, 20, -20))
    sides = [argument for side in ("base", "strong", "weak") for argument in ("--data", str(tmp_path / side))]
    arguments = ["compare", "yamatai", *sides, "--agents", "random,random", "--games", "200", "--json"]
    result = CliRunner().invoke(app, [*arguments, "--workers", "1", "--out", str(tmp_path / "compared")])
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)["variants"]
    assert sorted(found) == ["base", "strong", "weak"]
    verdicts = {side: {c["name"]: c["verdict"] for c in found[side]["components"] if c["verdict"]} for side in found}
    # Equal agents on the built-in data: nothing is called (compared over every seat and matched on picks of
    # their kind, these same games called the Shipwright and the 1-prestige tile B01 weak).
    assert verdicts["base"] == {}
    # Each planted change is called, in its direction, and nothing else is.
    assert verdicts["strong"] == {"specialist: Pilot": "strong"}
    assert verdicts["weak"] == {"specialist: Haggler": "weak"}
    by_name = {side: {c["name"]: c for c in found[side]["components"]} for side in found}
    assert by_name["strong"]["specialist: Pilot"]["difference_low"] > 0.2
    assert by_name["weak"]["specialist: Haggler"]["difference_high"] < 0
    assert by_name["base"]["specialist: Pilot"]["q"] > 0.05 and by_name["base"]["specialist: Haggler"]["q"] > 0.05
    # Judged where they were offered: every seat could recruit them at some point, fewer than half did.
    pilot = by_name["strong"]["specialist: Pilot"]
    assert pilot["offered"]["games"] > pilot["taken"]["wins"] > 0
    # The same seeds on every side: the games differ only where the planted values changed them.
    assert found["base"]["seed"] == found["strong"]["seed"] == found["weak"]["seed"]
    page = (tmp_path / "compared" / "report.html").read_text(encoding="utf-8")
    assert 'id="components"' in page and "Pilot" in page and "passers win" in page


def test_a_data_side_that_is_not_a_folder_is_refused_before_any_game(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["compare", "yamatai", "--data", "builtin", "--data", str(tmp_path / "nowhere"), "--out", str(tmp_path / "c")],
    )
    assert result.exit_code == 2 and "no such folder" in result.output
    assert not (tmp_path / "c").exists()
