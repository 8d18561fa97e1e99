"""A damaged first-game scene ([[scene.object]], [scene.pig]) in scene_default.toml is refused with
the line and key of the entry at fault, as the CSV errors name theirs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from parlour.engine import DataError
from parlour.games.hatflings import components
from tests.games.data_copy import copy_data
from tests.games.data_copy import replace_once as _replace

SCENE = "scene_default.toml"


def _refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str) -> tuple[str, int]:
    """The error the scene file edited once (old -> new) gives, and the line (from 1) the edit is on."""
    copy = copy_data(components, tmp_path, monkeypatch)
    before = (copy.folder / SCENE).read_text(encoding="utf-8")
    copy.edit(SCENE, _replace(old, new))
    with pytest.raises(DataError) as caught:
        components.load_components()
    return str(caught.value), before[: before.index(old)].count("\n") + 1


@pytest.mark.parametrize(
    ("old", "new", "key", "problem"),
    [
        ('square = "c3"', 'square = "c1"', "square", "tree on c1 is inside a start zone"),
        ('type = "tree"', 'type = "rock"', "type", "objects are tree, column, box, barrel"),
        ('square = "d4"', 'square = "c3"', "square", "two objects on c3"),  # the second object on c3 is at fault
        ('square = "b4"', 'square = "b9"', "square", "'b9' is not a square a1..f6"),
        ('type = "tree"', "type = 3", "type", "scene object 1 needs a type and a square"),
    ],
)
def test_a_scene_object_is_named_by_its_line_and_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str, key: str, problem: str
) -> None:
    message, line = _refused(tmp_path, monkeypatch, old, new)
    assert re.match(rf"{SCENE} line {line}, column \d+ \({key}\): .*{re.escape(problem)}", message), message


def test_the_pigs_square_is_named_by_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    message, line = _refused(tmp_path, monkeypatch, 'square = "e3"', 'square = "e7"')
    assert re.match(rf"{SCENE} line {line}, column 10 \(square\): .*'e7' is not a square", message), message


def test_a_scene_object_without_a_square_names_its_header_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = copy_data(components, tmp_path, monkeypatch)
    copy.edit(SCENE, _replace('square = "d4"', 'place = "d4"'))
    with pytest.raises(DataError) as caught:
        components.load_components()
    lines = (copy.folder / SCENE).read_text(encoding="utf-8").splitlines()
    header = [number for number, line in enumerate(lines, start=1) if line.strip() == "[[scene.object]]"][1]
    assert str(caught.value).startswith(f"{SCENE} line {header} ([[scene.object]] entry 2): scene object 2 needs")
