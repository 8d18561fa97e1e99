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
        ("motifs.csv", _replace("\nM1-02,", "\n,"), "motifs.csv line 3, column 1 (id): empty id"),
        ("motifs.csv", _repeat(2), "motifs.csv line 38, column 1 (id): id 'M1-01' already appears in line 2"),
        (
            "motifs.csv",
            _replace("M1-18,I,pigment,Pigment", "M1-18,I,pigment,Paint"),
            "motifs.csv line 19 ('M1-18'), column 4 (subject): a pigment motif has the subject 'Pigment', got 'Paint'",
        ),
        (
            "motifs.csv",
            _replace("M2-15,II,three_for_two,3-for-2", "M2-15,II,three_for_two,2-for-3"),
            "motifs.csv line 35 ('M2-15'), column 4 (subject): a three_for_two motif has the subject '3-for-2'",
        ),
        ("topography.csv", _replace("\nT-Red-2,", "\n,"), "topography.csv line 3, column 1 (id): empty id"),
        ("topography.csv", _repeat(2), "topography.csv line 18, column 1 (id): id 'T-Red-1' already appears in line 2"),
        (
            "topography.csv",
            _replace("\nT-Red-2,", "\nt-red-1,"),
            "topography.csv line 3, column 1 (id): id 't-red-1' already appears in line 2",
        ),
        (
            "motifs.csv",
            _replace("M2-01,II,pigment_as_any,Red,Red,", "M2-01,II,pigment_as_any,Red,Blue,"),
            "motifs.csv line 21 ('M2-01'), column 5 (converts_from): pigment_as_any motifs convert 'Red' to 'Any'",
        ),
        (
            "motifs.csv",
            _replace("M2-09,II,any_as_colour,Red,Any,Red", "M2-09,II,any_as_colour,Red,Any,Blue"),
            "motifs.csv line 29 ('M2-09'), column 6 (converts_to): any_as_colour motifs convert 'Any' to 'Red'",
        ),
        (
            "motifs.csv",
            _replace("M1-01,I,feature,Vertical Stripes,,", "M1-01,I,feature,Vertical Stripes,Red,"),
            "motifs.csv line 2 ('M1-01'), column 5 (converts_from): feature motifs convert '' to '', got ('Red', '')",
        ),
        (
            "motifs.csv",
            _replace(
                "M2-16,II,three_for_two,3-for-2,3 same colour,2 any,",
                "M2-16,II,three_for_two,3-for-2,3 same colour,2 any,4",
            ),
            "motifs.csv line 36 ('M2-16'), column 7 (vp_per_match): type-II motifs score nothing themselves",
        ),
        ("flags.csv", _replace("\nAlbania,", "\n,"), "flags.csv line 3, column 1 (name): empty name"),
        (
            "flags.csv",
            _replace("\nAlbania,", "\nalgeria,"),
            "flags.csv line 4, column 1 (name): name 'Algeria' already appears in line 3",
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
