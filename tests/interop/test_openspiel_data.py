"""A data folder's defaults apply through the OpenSpiel adapter unless a parameter sets them."""

from __future__ import annotations

from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

import parlour.interop.openspiel  # noqa: E402,F401  (registers parlour_<game>)
from parlour.engine import data  # noqa: E402
from parlour.games.hanbok_runway.game import PACKAGE  # noqa: E402


def _folder_with_turn_limit(tmp_path: Path, turns: int) -> Path:
    folder = tmp_path / "hanbok"
    data.export(PACKAGE, folder)
    config = folder / "config.toml"
    text = config.read_text(encoding="utf-8")
    assert "safety_turn_cap = 200" in text
    config.write_text(text.replace("safety_turn_cap = 200", f"safety_turn_cap = {turns}"), encoding="utf-8")
    return folder


def test_a_data_folders_turn_limit_applies_when_the_parameter_is_left_at_its_default(tmp_path: Path) -> None:
    folder = _folder_with_turn_limit(tmp_path, 37)
    game = pyspiel.load_game("parlour_hanbok_runway", {"data": str(folder)})
    assert game.engine.options["safety_turn_cap"] == 37


def test_a_turn_limit_parameter_still_overrides_the_folders_default(tmp_path: Path) -> None:
    folder = _folder_with_turn_limit(tmp_path, 37)
    game = pyspiel.load_game("parlour_hanbok_runway", {"data": str(folder), "safety_turn_cap": 55})
    assert game.engine.options["safety_turn_cap"] == 55


def test_the_built_in_turn_limit_is_unchanged_without_a_folder() -> None:
    game = pyspiel.load_game("parlour_hanbok_runway")
    assert game.engine.options["safety_turn_cap"] == 200
