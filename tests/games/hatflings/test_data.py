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
        ("components.csv", _repeat(10), "components.csv row 16: component 'tree' already appears in row 10"),
        ("components.csv", _replace("\ntree,", "\n,"), "components.csv row 10: empty component"),
        ("components.csv", _replace("tree,2,game,designed", "tree,2,game,guessed"), "row 10: status must start"),
        ("components.csv", _replace("joker,1,team,", "joker,1,game,"), "row 3: special_halfling_joker is counted"),
        ("components.csv", _replace("\npig,1,game,", "\npig,1,team,"), "row 15: pig is counted per game"),
        ("specials.csv", _repeat(2), "specials.csv row 8: kind 'joker' already appears in row 2"),
        ("specials.csv", _replace("\njoker,", "\n,"), "specials.csv row 2: empty kind"),
        ("specials.csv", _replace("yes,yes,sourced (text)", "yes,yes,maybe"), "specials.csv row 2: status"),
        ("scene_default.toml", _replace("pig = 1 ", "pig = 2 "), "pig = 2 but components.csv says 1"),
        ("scene_default.toml", _replace("starting_captain = 0", "starting_captain = 2"), "must be 0 or 1, got 2"),
        (
            "scene_default.toml",
            _replace("repetition_limit = 3", "repetition_limit = 1"),
            "repetition_limit must be",
        ),
        ("scene_default.toml", _replace("max_turns = 200", "max_turns = 200000"), "max_turns must be at most"),
        (
            "scene_default.toml",
            _replace("num_objects = 3", "num_objects = 9"),
            "num_objects = 9 but the supply has 8",
        ),
        ("scene_default.toml", _replace('"f1"]', '"g1"]'), "start_zone_0: 'g1' is not a square a1..f6"),
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
