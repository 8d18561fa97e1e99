"""Hanbok Runway's data files: they load, match the rulebook's component list, and bad data is refused clearly."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from parlour.engine import DataError, Rng
from parlour.engine.data import read_csv, read_toml
from parlour.games.hanbok_runway.components import PACKAGE, build_components, load_components

FILES = (
    "components.csv",
    "fabric_tokens.csv",
    "queue_setup.csv",
    "style_cards.csv",
    "fabric_cards.csv",
    "vp_tokens.csv",
)


def parts() -> dict[str, Any]:
    loaded: dict[str, Any] = {"config.toml": read_toml(PACKAGE, "config.toml")}
    for filename in FILES:
        loaded[filename] = read_csv(PACKAGE, filename)
    return copy.deepcopy(loaded)


def build(loaded: dict[str, Any]) -> Any:
    return build_components(loaded["config.toml"], *(loaded[f] for f in FILES))


def test_data_files_load_and_match_the_component_list() -> None:
    comps = load_components()
    assert len(comps.style_cards) == 30 and len(comps.fabric_cards) == 30
    assert sum(len(values) for values in comps.token_values) == 36
    assert comps.queue_face_up == (False, False, False, True, True, False)
    assert sum(comps.vp_trophies) == 12 and comps.additional_vp_supply == 6
    assert (comps.initial_draw, comps.draw_per_turn, comps.hand_limit) == (3, 2, 5)
    assert (comps.max_sets_per_turn, comps.max_sets_per_player, comps.end_trigger_empty_colours) == (2, 10, 2)


def test_designed_values_keep_their_markers() -> None:
    for filename in ("fabric_tokens.csv", "style_cards.csv", "fabric_cards.csv", "vp_tokens.csv"):
        rows = read_csv(PACKAGE, filename)
        assert all(any("designed" in value for value in row.values()) for row in rows), filename


def _set(filename: str, row: int, column: str, value: str) -> Callable[[dict[str, Any]], None]:
    def change(loaded: dict[str, Any]) -> None:
        loaded[filename][row][column] = value

    return change


def _drop(filename: str, row: int) -> Callable[[dict[str, Any]], None]:
    def change(loaded: dict[str, Any]) -> None:
        del loaded[filename][row]

    return change


def _config(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(loaded: dict[str, Any]) -> None:
        loaded["config.toml"][key] = value

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            _set("fabric_tokens.csv", 0, "colour", "purple"),
            r"fabric_tokens.csv line 2, column 2 \(colour\): unknown colour 'purple'",
        ),
        (
            _set("fabric_tokens.csv", 0, "influence", "x"),
            r"fabric_tokens.csv line 2, column 3 \(influence\): influence must be a whole number",
        ),
        (_set("fabric_tokens.csv", 0, "influence", "5"), r"green values .* differ from config.toml token_influences"),
        (_drop("fabric_tokens.csv", 3), r"green has 5 tokens, config says 6"),
        (
            _set("queue_setup.csv", 0, "side_up", "sideways"),
            r"queue_setup.csv line 2, column 2 \(side_up\): side_up must be front or back",
        ),
        (_set("queue_setup.csv", 0, "side_up", "front"), r"differ from config.toml queue_sides"),
        (
            _set("style_cards.csv", 4, "symbol", "circle"),
            r"style_cards.csv line 6, column 2 \(symbol\): unknown symbol 'circle'",
        ),
        (_drop("style_cards.csv", 0), r"29 style_cards but components.csv lists 30"),
        (
            _set("fabric_cards.csv", 0, "colour_b", "teal"),
            r"fabric_cards.csv line 2, column 3 \(colour_b\): unknown colour 'teal'",
        ),
        (_drop("fabric_cards.csv", 0), r"29 fabric_cards but components.csv lists 30"),
        (
            _set("vp_tokens.csv", 0, "trophies", "9"),
            r"vp_tokens.csv line 2, column 4 \(trophies\): green shows 9 trophies, config.toml says 2",
        ),
        (
            _set("vp_tokens.csv", 1, "colour", "green"),
            r"vp_tokens.csv line 3, column 3 \(colour\): a second VP token for green",
        ),
        (_set("vp_tokens.csv", 7, "type", "bonus"), r"type must be victory_point or additional_vp"),
        (_drop("vp_tokens.csv", 11), r"5 additional VP tokens, config.toml says 6"),
        (_config("players", 3), r"2-player game"),
        (_config("hand_limit", "five"), r"hand_limit must be a whole number"),
        (_config("colours", ["green", "green"]), r"colours lists a colour twice"),
        (_set("components.csv", 0, "count", "31"), r"30 style_cards but components.csv lists 31"),
    ],
)
def test_bad_data_is_refused_with_file_row_and_problem(change: Callable[[dict[str, Any]], None], message: str) -> None:
    loaded = parts()
    change(loaded)
    with pytest.raises(DataError, match=message):
        build(loaded)


def test_token_influences_cross_check_is_optional() -> None:
    loaded = parts()
    del loaded["config.toml"]["token_influences"]
    for row in loaded["fabric_tokens.csv"]:
        if row["colour"] == "orange" and row["influence"] == "4":
            row["influence"] = "5"  # a designer gives orange a riskier spread
    comps = build(loaded)
    assert sorted(comps.token_values[comps.colours.index("orange")]) == [-3, -1, 1, 2, 3, 5]


def test_shuffle_reaches_every_order_evenly() -> None:
    counts: Counter[tuple[int, ...]] = Counter()
    rng = Rng(5)
    for _ in range(24_000):
        items = [0, 1, 2, 3]
        rng.shuffle_sparingly(items)
        counts[tuple(items)] += 1
    assert len(counts) == 24
    # each of the 24 orders expects 1000; 5 standard deviations is about 156
    assert all(abs(n - 1000) < 160 for n in counts.values())
    deck = list(range(30))
    rng.shuffle_sparingly(deck)
    assert sorted(deck) == list(range(30)) and deck != list(range(30))
