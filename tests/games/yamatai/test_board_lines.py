"""A damaged board.toml is refused with the line and key of the entry at fault, as the CSV errors name theirs."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from parlour.engine.errors import DataError
from parlour.games.yamatai import components as comp
from tests.games.data_copy import copy_data


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    comp.components.cache_clear()
    yield
    comp.components.cache_clear()


def _nth_line_holding(text: str, needle: str, nth: int = 1) -> int:
    """The number (from 1) of the nth line of `text` that holds `needle`."""
    found = [number for number, line in enumerate(text.splitlines(), start=1) if needle in line]
    return found[nth - 1]


def _refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: Callable[[str], str]) -> tuple[str, str]:
    """The error a damaged board.toml gives, and the damaged text."""
    copy = copy_data(comp, tmp_path, monkeypatch)
    copy.edit("board.toml", change)
    with pytest.raises(DataError) as caught:
        comp.components()
    return str(caught.value), (copy.folder / "board.toml").read_text(encoding="utf-8")


def test_a_field_of_the_wrong_type_names_its_line_and_column(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    message, text = _refused(tmp_path, monkeypatch, lambda text: text.replace("x = -3.464", 'x = "left"', 1))
    line = _nth_line_holding(text, 'x = "left"')
    assert message.startswith(f"board.toml line {line}, column 5 (x): island 1 ('I01') needs x as a number")


def test_a_missing_field_names_the_entrys_header_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    message, text = _refused(tmp_path, monkeypatch, lambda text: text.replace("neighbors = [", "neighbours = [", 1))
    header = _nth_line_holding(text, "[[spots]]")
    assert message.startswith(f"board.toml line {header} ([[spots]] entry 1): spot 1 ('S001') needs neighbors")


def test_an_unknown_border_names_the_islands_borders_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    edit = lambda text: text.replace('borders = ["I01", "I03", "I08", "I09"]', 'borders = ["I01", "I99", "I08"]')  # noqa: E731
    message, text = _refused(tmp_path, monkeypatch, edit)
    line = _nth_line_holding(text, '"I99"')
    assert re.match(rf"board\.toml line {line}, column \d+ \(borders\): I02 refers to unknown I99$", message)


def test_a_repeated_island_id_names_the_second_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    message, text = _refused(tmp_path, monkeypatch, lambda text: text.replace('id = "I05"', 'id = "I04"', 1))
    line = _nth_line_holding(text, 'id = "I04"', nth=2)
    assert message.startswith(f"board.toml line {line}, column 6 (id): island id 'I04' appears twice")


def test_a_one_sided_border_names_the_island_that_lists_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    edit = lambda text: text.replace('borders = ["I01", "I03", "I08", "I09"]', 'borders = ["I03", "I08", "I09"]')  # noqa: E731
    message, text = _refused(tmp_path, monkeypatch, edit)
    line = _nth_line_holding(text, 'borders = ["I02", "I07", "I08"]')  # I01 still lists I02
    assert re.match(rf"board\.toml line {line}, column \d+ \(borders\): border I01-I02 is not symmetric$", message)


def test_a_wrong_count_in_meta_names_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    message, text = _refused(tmp_path, monkeypatch, lambda text: text.replace("spot_count = 90", "spot_count = 89"))
    line = _nth_line_holding(text, "spot_count = 89")
    assert message.startswith(f"board.toml line {line}, column 14 (spot_count): meta spot_count = 89")
