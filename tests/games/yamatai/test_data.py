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
        (
            "specialists.csv",
            _line(2, lambda line: line.replace("Master,2,", "Master,-2,")),
            "specialists.csv line 2, column 3 (pp): a specialist's PP cannot be negative, got -2",
        ),
        ("specialists.csv", _line(3, _first_cell("")), "specialists.csv line 3, column 1 (id): empty id"),
        (
            "specialists.csv",
            _line(3, lambda line: line.replace("SP02,Merchant", "SP02,")),
            "specialists.csv line 3, column 2 (name): empty name",
        ),
        (
            "specialists.csv",
            _line(3, lambda line: line.replace("Merchant", "harbour master")),
            "specialists.csv line 3, column 2 (name): name 'harbour master' already appears in line 2",
        ),
        ("building_tiles.csv", _line(2, _first_cell("")), "building_tiles.csv line 2, column 1 (id): empty id"),
        (
            "building_tiles.csv",
            _line(2, lambda line: line.replace(",2,1,own", ",2,-1,own")),
            "building_tiles.csv line 2, column 9 (pp): a building is worth at least 1 PP, got -1",
        ),
        (
            "building_tiles.csv",
            _line(3, _first_cell("B01")),
            "building_tiles.csv line 3, column 1 (id): id 'B01' already appears in line 2",
        ),
        ("boats.csv", _repeat(2), "boats.csv line 7, column 2 (resource): resource 'bamboo' already appears in line 2"),
        (
            "trade_prices.csv",
            _repeat(2),
            "trade_prices.csv line 7, column 1 (resource): resource 'bamboo' already appears in line 2",
        ),
        (
            "player_pieces.csv",
            _repeat(5),
            "player_pieces.csv line 6, column 1 (colour): colour 'grey' already appears in line 5",
        ),
        (
            "culture_tokens.csv",
            _line(2, lambda line: line.replace(",5,1,4,", ",5,-1,6,")),
            "culture_tokens.csv line 2, column 4 (mountain_count): mountain_count and plain_count cannot be negative",
        ),
        ("coins.csv", _line(2, lambda line: line.replace("1,23,", "1,22,")), "23 coins of 1"),
        ("coins.csv", _line(4, lambda line: line.replace("10,18,", "10,17,")), "18 of a third value"),
        (
            "coins.csv",
            _repeat(3),
            "coins.csv line 5, column 1 (denomination): denomination '2' already appears in line 3",
        ),
        (
            "coins.csv",
            _line(3, _first_cell("two")),
            "coins.csv line 3, column 1 (denomination): denomination must be a whole number, got 'two'",
        ),
        (
            "tokens.csv",
            _line(3, lambda line: line.replace(",8,", ",9,")),
            "tokens.csv line 3, column 2 (count): the game has 8 of sacred_ground_token, the file says 9",
        ),
        (
            "tokens.csv",
            _line(4, lambda line: line.replace(",7,", ",6,")),
            "tokens.csv line 4, column 2 (count): the game has 7 of mountain_tile, the file says 6",
        ),
        (
            "tokens.csv",
            _line(5, lambda line: line.replace("torii_piece,3", "torii_piece,4")),
            "tokens.csv line 5, column 2 (count): the game has 3 of torii_piece, the file says 4",
        ),
        ("tokens.csv", _line(7, lambda line: ""), "no row for player_mat"),
        (
            "tokens.csv",
            _line(7, _first_cell("player_board")),
            "tokens.csv line 7, column 1 (component): unknown component 'player_board'",
        ),
        (
            "tokens.csv",
            _repeat(2),
            "tokens.csv line 8, column 1 (component): component 'prestige_point_token' already appears in line 2",
        ),
        (
            "tokens.csv",
            _line(2, lambda line: line.replace("sourced", "guessed")),
            "tokens.csv line 2, column 4 (status): status must be one of sourced, designed, mixed, got 'guessed'",
        ),
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
        (
            "boats.csv",
            _line(3, lambda line: line.replace(",19,", ",20,")),
            "boats.csv line 3, column 3 (count): the game has 19 wood boats, not 20",
        ),
        (
            "culture_tokens.csv",
            _line(2, lambda line: line.replace(",5,1,4,", ",6,1,5,")),
            "culture_tokens.csv line 2, column 3 (count): culture_1 has 5 tokens",
        ),
        (
            "culture_tokens.csv",
            _line(8, lambda line: line.replace(",4,1,3,", ",4,2,2,")),
            "culture_tokens.csv line 8, column 4 (mountain_count): blank has 4 tokens",
        ),
        (
            "culture_tokens.csv",
            _line(3, lambda line: line.replace(",green,", ",,")),
            "culture_tokens.csv line 3, column 2 (colour): empty colour",
        ),
        (
            "culture_tokens.csv",
            _repeat(3),
            "culture_tokens.csv line 9, column 1 (kind): kind 'culture_2' already appears in line 3",
        ),
        (
            "fleet_tiles.csv",
            _line(3, lambda line: line.replace("2,1,1,0,", "2,2,-1,0,")),
            "fleet_tiles.csv line 3, column 3 (wood): boat counts cannot be negative",
        ),
        (
            "fleet_tiles.csv",
            _line(2, lambda line: line.replace("amount=2", "amount=two")),
            "fleet_tiles.csv line 2, column 8 (power_params): parameter amount must be a whole number, got 'two'",
        ),
        (
            "fleet_tiles.csv",
            _line(2, lambda line: line.replace("amount=2", "")),
            "fleet_tiles.csv line 2, column 8 (power_params): gain_coins needs the parameter amount",
        ),
        ("fleet_tiles.csv", _line(2, lambda line: line.replace("amount=2", "amount=2;amount=3")), "given twice"),
        (
            "fleet_tiles.csv",
            _line(4, lambda line: line.replace("look=3", "look=0")),
            "fleet_tiles.csv line 4, column 8 (power_params): preview_buildings look must be at least 1, got 0",
        ),
        ("fleet_tiles.csv", _line(6, lambda line: line.replace("count=1;range", "count=2;range")), "move_boat with"),
        (
            "fleet_tiles.csv",
            _line(3, lambda line: line.replace(",,", ",n=1,", 1)),
            "fleet_tiles.csv line 3, column 8 (power_params): swap_culture_tokens has no parameter n (it takes none)",
        ),
        (
            "specialists.csv",
            _line(12, lambda line: line.replace("coins_per_pp=4", "coins_per_pp=0")),
            "specialists.csv line 12, column 5 (power_params): coin_rate coins_per_pp must be at least 1, got 0",
        ),
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
