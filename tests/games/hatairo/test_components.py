"""The component data is checked on load: each broken file gives a DataError naming file, row and problem."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from parlour.engine import DataError
from parlour.engine.data import read_csv
from parlour.games.hatairo import components
from parlour.games.hatairo.components import (
    DESIGNS,
    FLAGS,
    PACKAGE,
    designed_flag_vp,
    load_checks,
    load_flags,
    load_motifs,
    load_tiles,
)

Rows = list[dict[str, str]]


def with_rows(monkeypatch: pytest.MonkeyPatch, filename: str, change: Callable[[Rows], None]) -> None:
    rows = read_csv(PACKAGE, filename)
    change(rows)

    def fake(package: str, name: str, required: tuple[str, ...] = ()) -> Rows:
        return rows if name == filename else read_csv(package, name, required)

    monkeypatch.setattr(components, "read_csv", fake)


def test_shipped_data_loads_and_matches_the_rulebook_component_list() -> None:
    assert len(FLAGS) == 208 and len(load_motifs()) == 36 and len(load_tiles()) == 16
    assert load_checks() == {"check_vp_formula": True, "check_bonus_balance": True}
    assert all(flag.vp == designed_flag_vp(flag) for flag in FLAGS)
    assert len(DESIGNS) == 33  # identical cards share a design


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda rows: rows.pop(), "lists 208 flag cards, the file has 207"),
        (
            lambda rows: rows[3].update(continent="Atlantis"),
            r"line 5 \('American Samoa'\), column 2 \(continent\): unknown continent",
        ),
        (lambda rows: rows[0].update(topography="Mountain"), "unknown topography 'Mountain'"),
        (lambda rows: rows[0].update(features="Stripes"), "unknown feature 'Stripes'"),
        (lambda rows: rows[0].update(features="Sun|Sun"), "a feature is listed twice"),
        (lambda rows: rows[0].update(required_pigments="White"), "unknown pigment colour 'White'"),
        (lambda rows: rows[0].update(required_pigments=""), "needs 1 to 7 required pigments"),
        (lambda rows: rows[0].update(bonus_pigment="Gold"), "unknown pigment colour 'Gold'"),
        (lambda rows: rows[0].update(vp="many"), "vp must be a whole number"),
        (lambda rows: rows[0].update(vp="7"), "vp 7 breaks the designed formula"),
        (
            lambda rows: rows[1].update(name="Afghanistan"),
            r"flags.csv line 3, column 1 \(name\): name 'Afghanistan' already appears in line 2",
        ),
        (lambda rows: rows[0].update(bonus_pigment="Red"), "give a Red bonus, the designed balance is 26"),
    ],
)
def test_broken_flags_file_is_refused(monkeypatch: pytest.MonkeyPatch, change, message: str) -> None:
    with_rows(monkeypatch, "flags.csv", change)
    with pytest.raises(DataError, match=message):
        load_flags({"check_vp_formula": True, "check_bonus_balance": True})


def test_designed_checks_can_be_switched_off_for_printed_values(monkeypatch: pytest.MonkeyPatch) -> None:
    with_rows(monkeypatch, "flags.csv", lambda rows: rows[0].update(vp="7", bonus_pigment="Red"))
    flags = load_flags({"check_vp_formula": False, "check_bonus_balance": False})
    assert flags[0].vp == 7


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda rows: rows.pop(0), "19 type-I motifs, the file has 18"),
        (lambda rows: rows[0].update(type="III"), "type must be I or II"),
        (lambda rows: rows[0].update(kind="any_as_colour"), "not a type-I kind"),
        (lambda rows: rows[0].update(subject="Moon"), "unknown feature 'Moon'"),
        (lambda rows: rows[12].update(subject="Antarctica"), "unknown continent 'Antarctica'"),
        (lambda rows: rows[0].update(vp_per_match="0"), "vp_per_match must be at least 1"),
        (lambda rows: rows[19].update(subject="Purple"), "unknown pigment colour 'Purple'"),
        (
            lambda rows: rows[1].update(id="M1-01"),
            r"motifs.csv line 3, column 1 \(id\): id 'M1-01' already appears in line 2",
        ),
    ],
)
def test_broken_motifs_file_is_refused(monkeypatch: pytest.MonkeyPatch, change, message: str) -> None:
    with_rows(monkeypatch, "motifs.csv", change)
    with pytest.raises(DataError, match=message):
        load_motifs()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda rows: rows.pop(), "4 tiles for each of the 4 player colours"),
        (lambda rows: rows[0].update(player_colour="Purple"), "unknown player colour"),
        (lambda rows: rows[0].update(topography="Desert"), "unknown topography"),
        (lambda rows: rows[0].update(vp_2="0"), "must be non-negative and never fall"),
    ],
)
def test_broken_topography_file_is_refused(monkeypatch: pytest.MonkeyPatch, change, message: str) -> None:
    with_rows(monkeypatch, "topography.csv", change)
    with pytest.raises(DataError, match=message):
        load_tiles()
