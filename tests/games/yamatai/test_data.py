"""Damaged data files, written into a copy of data/ and loaded through components(), are refused by name."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from parlour.engine.errors import DataError
from parlour.games.yamatai import components as comp
from tests.games.data_copy import copy_data
from tests.games.data_copy import repeat_line as _repeat


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
        ("board.toml", lambda text: text.replace('\nspots = ["', '\nspot = ["', 1), "island 1 ('I01') needs spots"),
        (
            "board.toml",
            lambda text: text.replace("x = -3.464", 'x = "left"', 1),
            "island 1 ('I01') needs x as a number",
        ),
        ("board.toml", lambda text: text.replace("neighbors = [", "neighbours = [", 1), "spot 1 ('S001') needs neigh"),
        ("board.toml", lambda text: text.replace("entry = true", 'entry = "yes"', 1), "entry must be true or false"),
        ("board.toml", lambda text: text.replace("entry_spots = [", "entries = [", 1), "[meta] must list the entry"),
        ("boats.csv", _line(3, lambda line: line.replace(",19,", ",20,")), "row 3: the game has 19 wood boats, not 20"),
        ("culture_tokens.csv", _line(2, lambda line: line.replace(",5,1,4,", ",6,1,5,")), "row 2: culture_1 has 5"),
        ("culture_tokens.csv", _line(8, lambda line: line.replace(",4,1,3,", ",4,2,2,")), "row 8: blank has 4"),
        ("culture_tokens.csv", _line(3, lambda line: line.replace(",green,", ",,")), "row 3: empty colour"),
        ("culture_tokens.csv", _repeat(3), "row 9: kind 'culture_2' already appears in row 3"),
        ("fleet_tiles.csv", _line(3, lambda line: line.replace("2,1,1,0,", "2,2,-1,0,")), "row 3: boat counts cannot"),
        ("fleet_tiles.csv", _line(2, lambda line: line.replace("amount=2", "amount=two")), "row 2: parameter amount"),
        ("fleet_tiles.csv", _line(2, lambda line: line.replace("amount=2", "")), "row 2: gain_coins needs the param"),
        ("fleet_tiles.csv", _line(2, lambda line: line.replace("amount=2", "amount=2;amount=3")), "given twice"),
        ("fleet_tiles.csv", _line(4, lambda line: line.replace("look=3", "look=0")), "row 4: preview_buildings look"),
        ("fleet_tiles.csv", _line(6, lambda line: line.replace("count=1;range", "count=2;range")), "move_boat with"),
        ("fleet_tiles.csv", _line(3, lambda line: line.replace(",,", ",n=1,", 1)), "row 3: swap_culture_tokens has no"),
        ("specialists.csv", _line(12, lambda line: line.replace("coins_per_pp=4", "coins_per_pp=0")), "row 12: coin_r"),
        ("specialists.csv", _line(16, lambda line: line.replace("resource=bamboo", "resource=wood")), "bonus_boat"),
        ("specialists.csv", _line(6, lambda line: line.replace("to=wood", "to=bamboo")), "two different resources"),
        ("specialists.csv", _line(5, lambda line: line.replace("buy_delta=-1", "buy_delta=less")), "parameter buy_d"),
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
