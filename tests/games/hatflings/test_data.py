"""Damaged data files, written into a copy of data/ and loaded through load_components(), are refused by name."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from parlour.engine import DataError
from parlour.games.hatflings import components
from tests.games.data_copy import copy_data
from tests.games.data_copy import repeat_line as _repeat
from tests.games.data_copy import replace_once as _replace


@pytest.mark.parametrize(
    ("filename", "change", "message"),
    [
        (
            "components.csv",
            _repeat(10),
            "components.csv line 16, column 1 (component): component 'tree' already appears in line 10",
        ),
        ("components.csv", _replace("\ntree,", "\n,"), "components.csv line 10, column 1 (component): empty component"),
        (
            "components.csv",
            _replace("tree,2,game,designed", "tree,2,game,guessed"),
            "components.csv line 10, column 4 (status): status must start with sourced or designed, got 'guessed",
        ),
        (
            "components.csv",
            _replace("joker,1,team,", "joker,1,game,"),
            "components.csv line 3, column 3 (per): special_halfling_joker is counted per team, got per 'game'",
        ),
        (
            "components.csv",
            _replace("\npig,1,game,", "\npig,1,team,"),
            "components.csv line 15, column 3 (per): pig is counted per game, got per 'team'",
        ),
        ("specials.csv", _repeat(2), "specials.csv line 8, column 1 (kind): kind 'joker' already appears in line 2"),
        ("specials.csv", _replace("\njoker,", "\n,"), "specials.csv line 2, column 1 (kind): empty kind"),
        (
            "specials.csv",
            _replace("yes,yes,sourced (text)", "yes,yes,maybe"),
            "specials.csv line 2, column 7 (status): status must start with sourced or designed, got 'maybe",
        ),
        (
            "scene_default.toml",
            _replace("pig = 1 ", "pig = 2 "),
            "scene_default.toml line 24, column 7 (pig): pig = 2 but components.csv says 1",
        ),
        (
            "scene_default.toml",
            _replace("starting_captain = 0", "starting_captain = 2"),
            "scene_default.toml line 12, column 20 (starting_captain): starting_captain must be 0 or 1, got 2",
        ),
        (
            "scene_default.toml",
            _replace("repetition_limit = 3", "repetition_limit = 1"),
            "scene_default.toml line 30, column 20 (repetition_limit): repetition_limit must be",
        ),
        (
            "scene_default.toml",
            _replace("max_turns = 200", "max_turns = 200000"),
            "scene_default.toml line 31, column 13 (max_turns): max_turns must be at most",
        ),
        (
            "scene_default.toml",
            _replace("num_objects = 3", "num_objects = 9"),
            "scene_default.toml line 35, column 15 (num_objects): num_objects = 9 but the supply has 8",
        ),
        (
            "scene_default.toml",
            _replace('"f1"]', '"g1"]'),
            "scene_default.toml line 8, column 16 (start_zone_0): hatflings start_zone_0: 'g1' is not a square a1..f6",
        ),
        ("scene_default.toml", _replace('"f6"]', '"f1"]'), "start zones overlap on f1"),
        ("scene_default.toml", _replace('square = "c3"', 'square = "c1"'), "tree on c1 is inside a start zone"),
        ("scene_default.toml", _replace('type = "tree"', 'type = "rock"'), "objects are tree, column, box, barrel"),
        ("scene_default.toml", _replace('square = "c3"', 'square = "d4"'), "two objects on d4"),
    ],
)
def test_a_damaged_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, filename: str, change: Callable[[str], str], message: str
) -> None:
    copy_data(components, tmp_path, monkeypatch).edit(filename, change)
    with pytest.raises(DataError, match=re.escape(message)):
        components.load_components()


def test_a_pool_above_the_option_maximum_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = copy_data(components, tmp_path, monkeypatch)
    copy.edit("components.csv", _replace("double_sided,24,", "double_sided,201,"))
    copy.edit("scene_default.toml", _replace("pool_size = 24", "pool_size = 201"))
    with pytest.raises(DataError, match=re.escape("components.csv: at most 200 normal halflings, got 201")):
        components.load_components()


def test_the_untouched_copy_loads_like_the_real_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy_data(components, tmp_path, monkeypatch)
    assert components.load_components() == components.COMPONENTS
