"""Damaged data files, written into a copy of data/ and loaded through the game's loaders, are refused by name."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from parlour.engine import DataError
from parlour.games.hatairo import components
from tests.games.data_copy import copy_data
from tests.games.data_copy import repeat_line as _repeat
from tests.games.data_copy import replace_once as _replace


def _load_all() -> Any:
    return components.load_flags(components.load_checks()), components.load_motifs(), components.load_tiles()


@pytest.mark.parametrize(
    ("filename", "change", "message"),
    [
        ("motifs.csv", _replace("\nM1-02,", "\n,"), "motifs.csv row 3: empty id"),
        ("motifs.csv", _repeat(2), "motifs.csv row 38: id 'M1-01' already appears in row 2"),
        ("motifs.csv", _replace("M1-18,I,pigment,Pigment", "M1-18,I,pigment,Paint"), "row 19 ('M1-18'): a pigment"),
        (
            "motifs.csv",
            _replace("M2-15,II,three_for_two,3-for-2", "M2-15,II,three_for_two,2-for-3"),
            "row 35 ('M2-15'): a three",
        ),
        ("topography.csv", _replace("\nT-Red-2,", "\n,"), "topography.csv row 3: empty id"),
        ("topography.csv", _repeat(2), "topography.csv row 18: id 'T-Red-1' already appears in row 2"),
        ("topography.csv", _replace("\nT-Red-2,", "\nt-red-1,"), "topography.csv row 3: id 't-red-1' already"),
        (
            "motifs.csv",
            _replace("M2-01,II,pigment_as_any,Red,Red,", "M2-01,II,pigment_as_any,Red,Blue,"),
            "row 21 ('M2-01'): pigment_as_any motifs convert 'Red' to 'Any'",
        ),
        (
            "motifs.csv",
            _replace("M2-09,II,any_as_colour,Red,Any,Red", "M2-09,II,any_as_colour,Red,Any,Blue"),
            "row 29 ('M2-09'): any_as_colour motifs convert 'Any' to 'Red'",
        ),
        (
            "motifs.csv",
            _replace("M1-01,I,feature,Vertical Stripes,,", "M1-01,I,feature,Vertical Stripes,Red,"),
            "row 2 ('M1-01'): feature motifs convert '' to ''",
        ),
        (
            "motifs.csv",
            _replace(
                "M2-16,II,three_for_two,3-for-2,3 same colour,2 any,",
                "M2-16,II,three_for_two,3-for-2,3 same colour,2 any,4",
            ),
            "row 36 ('M2-16'): type-II motifs score nothing",
        ),
        ("flags.csv", _replace("\nAlbania,", "\n,"), "flags.csv row 3: empty name"),
        (
            "flags.csv",
            _replace("\nAlbania,", "\nalgeria,"),
            "flags.csv row 4: name 'Algeria' already appears in row 3",
        ),
        (
            "provenance.toml",
            _replace("check_vp_formula = true", 'check_vp_formula = "false"'),
            "must be true or false",
        ),
    ],
)
def test_a_damaged_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, filename: str, change: Callable[[str], str], message: str
) -> None:
    copy_data(components, tmp_path, monkeypatch).edit(filename, change)
    with pytest.raises(DataError, match=re.escape(message)):
        _load_all()


def test_the_untouched_copy_loads_like_the_real_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy_data(components, tmp_path, monkeypatch)
    assert _load_all() == (components.FLAGS, components.MOTIFS, components.TILES)
