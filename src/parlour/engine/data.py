"""Reading a game's component data files (CSV and TOML beside its code) with clear errors.

Games validate the rows they get (counts, enums, totals against the rulebook) and raise
DataError naming the file, the row and the problem.
"""

from __future__ import annotations

import csv
import io
import tomllib
from importlib import resources
from typing import Any

from parlour.engine.errors import DataError


def _read_text(package: str, filename: str) -> str:
    try:
        # utf-8-sig: a spreadsheet's byte-order mark must not become part of the first column's name.
        return resources.files(package).joinpath(filename).read_text(encoding="utf-8-sig")
    except (FileNotFoundError, OSError) as error:
        raise DataError(f"{package}: cannot read data file {filename}: {error}") from None
    except UnicodeDecodeError as error:
        raise DataError(f"{filename}: not UTF-8 text ({error.reason} at byte {error.start})") from None


def read_csv(package: str, filename: str, required: tuple[str, ...] = ()) -> list[dict[str, str]]:
    """Rows of a CSV data file as dicts; checks the `required` columns exist and every row fills the header.

    Rows are numbered as lines of the file (the header is row 1), as the games' own errors number them.
    """
    reader = csv.DictReader(io.StringIO(_read_text(package, filename)))
    header = list(reader.fieldnames or ())
    missing = [column for column in required if column not in header]
    if missing:
        raise DataError(f"{filename}: missing column(s) {', '.join(missing)}")
    repeated = sorted({column for column in header if header.count(column) > 1})
    if repeated:
        raise DataError(f"{filename}: column(s) {', '.join(repeated)} appear more than once in the header")
    rows = []
    try:
        for row in reader:
            # DictReader fills a short row with None and keeps a long row's surplus under the key None.
            if None in row or None in row.values():
                cells = sum(value is not None for key, value in row.items() if key is not None)
                cells += len(row.get(None) or ())  # type: ignore[call-overload]
                raise DataError(
                    f"{filename} row {reader.line_num}: the header has {len(header)} columns but this row has {cells}"
                )
            rows.append(row)
    except csv.Error as error:
        raise DataError(f"{filename} row {reader.line_num}: not valid CSV ({error})") from None
    return rows


def read_toml(package: str, filename: str) -> dict[str, Any]:
    try:
        return tomllib.loads(_read_text(package, filename))
    except tomllib.TOMLDecodeError as error:
        raise DataError(f"{filename}: not valid TOML ({error})") from None


def as_int(filename: str, row_number: int, column: str, value: str) -> int:
    """A CSV cell as an integer, or a DataError that says where."""
    try:
        return int(value)
    except (TypeError, ValueError):
        raise DataError(f"{filename} row {row_number}: {column} must be a whole number, got {value!r}") from None


def check_keys(filename: str, rows: list[dict[str, str]], column: str) -> None:
    """Refuses a row whose `column` (an id or name) is empty or repeats an earlier row's, ignoring case.

    Rows are numbered as in read_csv's errors (the header is row 1).
    """
    first: dict[str, int] = {}
    for number, row in enumerate(rows, start=2):
        key = (row.get(column) or "").strip()
        if not key:
            raise DataError(f"{filename} row {number}: empty {column}")
        earlier = first.setdefault(key.casefold(), number)
        if earlier != number:
            raise DataError(f"{filename} row {number}: {column} {key!r} already appears in row {earlier}")
