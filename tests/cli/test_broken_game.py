"""A game whose data file is damaged is refused by name; the other games still work."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from parlour.cli import app
from parlour.engine import registry
from parlour.engine.errors import DataError

runner = CliRunner()


@pytest.fixture
def broken_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A game package whose data fails its check at import, installed with its entry point."""
    package = tmp_path / "brokengame"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from parlour.engine.errors import DataError\n"
        "raise DataError(\"pieces.csv row 3: count must be a whole number, got 'x'\")\n"
    )
    info = tmp_path / "brokengame-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: brokengame\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[parlour.games]\nbrokengame = brokengame\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    monkeypatch.setattr(registry, "_GAMES", {})
    monkeypatch.setattr(registry, "_INSTALLED", {})
    monkeypatch.setattr(registry, "_BROKEN", {})
    yield
    sys.modules.pop("brokengame", None)


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
