"""Damaged data files, written into a copy of data/ and loaded through components(), are refused by name."""

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


def _line(number: int, change: Callable[[str], str]) -> Callable[[str], str]:
    """An edit of one line of a file (line 1 is the header)."""

    def edit(text: str) -> str:
        lines = text.splitlines(keepends=True)
        lines[number - 1] = change(lines[number - 1])
        return "".join(lines)

    return edit


def _repeat(number: int) -> Callable[[str], str]:
    """Appends an identical copy of one line."""

    def edit(text: str) -> str:
        lines = text.splitlines(keepends=True)
        return "".join(lines) + lines[number - 1]

    return edit


def _first_cell(value: str) -> Callable[[str], str]:
    return lambda line: value + line[line.index(",") :]


@pytest.mark.parametrize(
    ("filename", "change", "message"),
    [
        ("specialists.csv", _line(2, lambda line: line.replace("Master,2,", "Master,-2,")), "row 2: a specialist's PP"),
        ("specialists.csv", _line(3, _first_cell("")), "row 3: empty id"),
        ("specialists.csv", _line(3, lambda line: line.replace("SP02,Merchant", "SP02,")), "row 3: empty name"),
        ("specialists.csv", _line(3, lambda line: line.replace("Merchant", "harbour master")), "row 3: name"),
        ("building_tiles.csv", _line(2, _first_cell("")), "row 2: empty id"),
        ("building_tiles.csv", _line(2, lambda line: line.replace(",2,1,own", ",2,-1,own")), "row 2: a building is"),
        ("building_tiles.csv", _line(3, _first_cell("B01")), "row 3: id 'B01' already appears in row 2"),
        ("boats.csv", _repeat(2), "row 7: resource 'bamboo' already appears in row 2"),
        ("trade_prices.csv", _repeat(2), "row 7: resource 'bamboo' already appears in row 2"),
        ("player_pieces.csv", _repeat(5), "row 6: colour 'grey' already appears"),
        ("culture_tokens.csv", _line(2, lambda line: line.replace(",5,1,4,", ",5,-1,6,")), "row 2: mountain_count"),
        ("coins.csv", _line(2, lambda line: line.replace("1,23,", "1,22,")), "23 coins of 1"),
        ("coins.csv", _line(4, lambda line: line.replace("10,18,", "10,17,")), "18 of a third value"),
        ("coins.csv", _repeat(3), "row 5: denomination '2' already appears in row 3"),
        ("coins.csv", _line(3, _first_cell("two")), "row 3: denomination must be a whole number"),
        ("tokens.csv", _line(3, lambda line: line.replace(",8,", ",9,")), "row 3: the game has 8 of sacred_ground"),
        ("tokens.csv", _line(4, lambda line: line.replace(",7,", ",6,")), "row 4: the game has 7 of mountain_tile"),
        ("tokens.csv", _line(5, lambda line: line.replace("torii_piece,3", "torii_piece,4")), "row 5: the game has 3"),
        ("tokens.csv", _line(7, lambda line: ""), "no row for player_mat"),
        ("tokens.csv", _line(7, _first_cell("player_board")), "row 7: unknown component 'player_board'"),
        ("tokens.csv", _repeat(2), "row 8: component 'prestige_point_token' already appears"),
        ("tokens.csv", _line(2, lambda line: line.replace("sourced", "guessed")), "row 2: status"),
        ("board.toml", lambda text: text.replace("island_count = 34", "island_count = 35"), "island_count = 35"),
        ("board.toml", lambda text: text.replace("spot_count = 90", "spot_count = 89"), "spot_count = 89"),
        ("board.toml", lambda text: text.replace("entry_spot_count = 5", "entry_spot_count = 4"), "entry_spot_count"),
    ],
)
def test_a_damaged_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, filename: str, change: Callable[[str], str], message: str
) -> None:
    copy_data(comp, tmp_path, monkeypatch).edit(filename, change)
    with pytest.raises(DataError, match=re.escape(message)) as caught:
        comp.components()
    assert str(caught.value).startswith(filename)


def test_the_untouched_copy_loads_like_the_real_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = comp.components()
    comp.components.cache_clear()
    copy_data(comp, tmp_path, monkeypatch)
    assert comp.components() == real
