"""A game's data folder copied to a temporary package, so a test can damage one file and load through
the game's own loader (which reads `PACKAGE`) without touching the real files."""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from types import ModuleType

import pytest


class DataCopy:
    def __init__(self, folder: Path, package: str) -> None:
        self.folder = folder
        self.package = package

    def edit(self, filename: str, change: Callable[[str], str]) -> None:
        """Rewrites one file of the copy through `change` (text in, text out); the change must do something."""
        path = self.folder / filename
        before = path.read_text(encoding="utf-8")
        after = change(before)
        assert after != before, f"the edit left {filename} unchanged"
        path.write_text(after, encoding="utf-8")


def copy_data(module: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> DataCopy:
    """Copies `module.PACKAGE`'s files into a fresh package and points `module.PACKAGE` at it."""
    package = f"parlour_data_copy_{tmp_path.name.replace('-', '_')}"
    folder = tmp_path / package
    folder.mkdir()
    for entry in resources.files(module.PACKAGE).iterdir():
        if entry.is_file() and not entry.name.endswith(".py"):
            (folder / entry.name).write_bytes(entry.read_bytes())
    (folder / "__init__.py").touch()
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, package, raising=False)
    monkeypatch.setattr(module, "PACKAGE", package)
    return DataCopy(folder, package)


def repeat_line(number: int) -> Callable[[str], str]:
    """An edit that appends an identical copy of line `number` (line 1 is a CSV file's header)."""

    def edit(text: str) -> str:
        lines = text.splitlines(keepends=True)
        return "".join(lines) + lines[number - 1]

    return edit


def replace_once(old: str, new: str) -> Callable[[str], str]:
    """An edit that replaces the first `old` with `new`."""
    return lambda text: text.replace(old, new, 1)
