"""A game whose data file is damaged is refused by name; the other games still work."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import parlour.games
from parlour.cli import app
from parlour.engine import registry
from parlour.engine.errors import DataError

runner = CliRunner()


@pytest.fixture
def broken_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "brokengame"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from parlour.engine.errors import DataError\n"
        "raise DataError(\"pieces.csv row 3: count must be a whole number, got 'x'\")\n"
    )
    monkeypatch.setattr(parlour.games, "__path__", [*parlour.games.__path__, str(tmp_path)])
    monkeypatch.setattr(registry, "_GAMES", {})
    monkeypatch.setattr(registry, "_BROKEN", {})


@pytest.mark.usefixtures("broken_game")
def test_the_damaged_game_is_named_and_the_others_still_load() -> None:
    assert "hatflings" in registry.game_classes()
    with pytest.raises(DataError, match=r"brokengame cannot be loaded, a data file is damaged: pieces\.csv row 3"):
        registry.game_class("brokengame")


@pytest.mark.usefixtures("broken_game")
def test_the_command_line_says_which_game_is_damaged() -> None:
    result = runner.invoke(app, ["play", "brokengame"])
    assert result.exit_code == 2 and "pieces.csv row 3" in result.output
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 1 and "hatflings" in result.output and "brokengame cannot be loaded" in result.output
