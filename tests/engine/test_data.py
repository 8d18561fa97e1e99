"""Reading component data files: a damaged file is refused naming the file, the line and the column."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from parlour.engine.data import check_keys, read_csv
from parlour.engine.errors import DataError

PACKAGE = "parlour_test_data_files"


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / PACKAGE
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, PACKAGE, raising=False)
    return folder


def test_a_good_file_reads_as_rows(package: Path) -> None:
    (package / "pieces.csv").write_bytes(b"\xef\xbb\xbfkind,count\r\nboat,4\r\nhut,2\r\n")
    assert read_csv(PACKAGE, "pieces.csv", ("kind", "count")) == [
        {"kind": "boat", "count": "4"},
        {"kind": "hut", "count": "2"},
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("kind,count\nboat,4\nhut\n", "pieces.csv line 3: the header has 2 columns but this row has 1"),
        ("kind,count\nboat,4,7\n", "pieces.csv line 2: the header has 2 columns but this row has 3"),
        ("kind,count,kind\nboat,4,hut\n", "pieces.csv line 1 (the header): column(s) kind appear more than once"),
        ("kind,count\n", None),
        ("kind,count\nboat,4\n\nhut,2\n", "pieces.csv line 3: a blank line or a cell that spans lines"),
        ('kind,count\n"big\nboat",4\n', "pieces.csv line 2: a blank line or a cell that spans lines"),
        ("kind\nboat\n", "pieces.csv line 1 (the header): missing column(s) count"),
    ],
)
def test_a_damaged_file_names_its_row(package: Path, text: str, message: str | None) -> None:
    (package / "pieces.csv").write_text(text)
    if message is None:
        assert read_csv(PACKAGE, "pieces.csv", ("kind", "count")) == []
        return
    with pytest.raises(DataError, match=re.escape(message)):
        read_csv(PACKAGE, "pieces.csv", ("kind", "count"))


def test_blank_lines_after_the_last_row_are_no_damage(package: Path) -> None:
    (package / "pieces.csv").write_text("kind,count\nboat,4\n\n\n")
    assert read_csv(PACKAGE, "pieces.csv", ("kind", "count")) == [{"kind": "boat", "count": "4"}]


def test_a_file_that_is_not_utf8_is_named(package: Path) -> None:
    (package / "pieces.csv").write_bytes(b"kind,count\n\xff\xfe,4\n")
    with pytest.raises(DataError, match=r"pieces\.csv: not UTF-8 text"):
        read_csv(PACKAGE, "pieces.csv")


def test_a_missing_file_is_named(package: Path) -> None:
    with pytest.raises(DataError, match=r"cannot read data file absent\.csv"):
        read_csv(PACKAGE, "absent.csv")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "kind,count\nboat,4\nhut,2\nboat,4\n",
            "pieces.csv line 4, column 1 (kind): kind 'boat' already appears in line 2",
        ),
        ("kind,count\nboat,4\nBoat ,1\n", "pieces.csv line 3, column 1 (kind): kind 'Boat' already appears in line 2"),
        ("kind,count\nboat,4\n ,2\n", "pieces.csv line 3, column 1 (kind): empty kind"),
        ("kind,count\nboat,4\nhut,2\n", None),
    ],
)
def test_check_keys_refuses_empty_and_repeated_keys(package: Path, text: str, message: str | None) -> None:
    (package / "pieces.csv").write_text(text)
    rows = read_csv(PACKAGE, "pieces.csv", ("kind", "count"))
    if message is None:
        check_keys("pieces.csv", rows, "kind")
        return
    with pytest.raises(DataError, match=re.escape(message)):
        check_keys("pieces.csv", rows, "kind")
