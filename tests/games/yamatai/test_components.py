"""Component data: loaded from the files beside the game and checked against the rulebook's list."""

from __future__ import annotations

import pytest

from parlour.engine.errors import DataError
from parlour.games.yamatai import components as comp
from parlour.games.yamatai.components import RESOURCES, components


def test_component_counts_match_the_rulebook() -> None:
    parts = components()
    assert sum(parts.boat_stock) == 80
    assert dict(zip(RESOURCES, parts.boat_stock, strict=True)) == {
        "bamboo": 22,
        "wood": 19,
        "stone": 16,
        "clay": 13,
        "gold": 10,
    }
    assert [t.number for t in parts.fleet] == list(range(1, 11))
    assert all(1 <= sum(t.boats) <= 3 for t in parts.fleet)
    kinds = [t.kind for t in parts.buildings]
    assert (kinds.count("standard"), kinds.count("torii"), kinds.count("palace")) == (21, 3, 4)
    assert len(parts.specialists) == 18
    assert sum(k.count for k in parts.culture) == 34 and sum(k.mountains for k in parts.culture) == 7
    assert sum(parts.player_buildings.values()) == 34


def test_board_graph_is_loaded_and_symmetric() -> None:
    board = components().board
    assert len(board.island_ids) == 34 and len(board.spot_ids) == 90
    assert [board.spot_ids[s] for s in board.entry_spots] == ["S007", "S021", "S037", "S063", "S078"]
    for i, spots in enumerate(board.island_spots):
        assert len(spots) == 6
        assert all(i in board.spot_islands[s] for s in spots)
    for s, near in enumerate(board.spot_neighbours):
        assert all(s in board.spot_neighbours[t] for t in near)


def test_prices_and_gold_are_not_traded_at_the_mat() -> None:
    parts = components()
    assert parts.buy_price == (2, 3, 4, 5, 0) and parts.sell_price == (1, 1, 2, 2, 0)


def _patched(monkeypatch: pytest.MonkeyPatch, filename: str, change: object) -> None:
    real = comp.read_csv

    def fake(package: str, name: str, required: tuple[str, ...] = ()) -> list[dict[str, str]]:
        rows = real(package, name, required)
        return change(rows) if name == filename else rows  # type: ignore[operator]

    monkeypatch.setattr(comp, "read_csv", fake)
    comp.components.cache_clear()


@pytest.mark.parametrize(
    ("filename", "change", "message"),
    [
        (
            "boats.csv",
            lambda rows: [{**rows[0], "count": "21"}, *rows[1:]],
            "boats.csv line 2, column 3 \\(count\\): the game has 22 bamboo boats",
        ),
        (
            "boats.csv",
            lambda rows: [{**rows[0], "count": "many"}, *rows[1:]],
            "boats.csv line 2, column 3 \\(count\\): count must be a whole number",
        ),
        (
            "fleet_tiles.csv",
            lambda rows: [{**rows[0], "bamboo": "4"}, *rows[1:]],
            "fleet_tiles.csv line 2: a fleet tile shows 1 to 3",
        ),
        ("fleet_tiles.csv", lambda rows: [{**rows[0], "power_key": "fly"}, *rows[1:]], "unknown fleet power"),
        ("building_tiles.csv", lambda rows: rows[:-1], "21 standard, 3 torii and 4 palace"),
        ("building_tiles.csv", lambda rows: [{**rows[0], "boats_total": "3"}, *rows[1:]], "boats_total"),
        (
            "specialists.csv",
            lambda rows: [{**rows[0], "status": "guessed"}, *rows[1:]],
            "specialists.csv line 2, column 8 \\(status\\): status",
        ),
        ("culture_tokens.csv", lambda rows: [{**rows[0], "mountain_count": "2"}, *rows[1:]], "mountain_count"),
        ("player_pieces.csv", lambda rows: [{**rows[0], "standard_buildings": "9"}, *rows[1:]], "34 standard"),
        ("trade_prices.csv", lambda rows: [*rows[:-1], {**rows[-1], "buy_price": "9"}], "gold is never traded"),
    ],
)
def test_bad_data_is_refused_with_file_and_row(
    monkeypatch: pytest.MonkeyPatch, filename: str, change: object, message: str
) -> None:
    _patched(monkeypatch, filename, change)
    try:
        with pytest.raises(DataError, match=message) as caught:
            comp.components()
        assert filename in str(caught.value)
    finally:
        monkeypatch.undo()
        comp.components.cache_clear()
        comp.components()
