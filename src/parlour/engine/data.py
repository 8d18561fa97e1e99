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
        return resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError) as error:
        raise DataError(f"{package}: cannot read data file {filename}: {error}") from None


def read_csv(package: str, filename: str, required: tuple[str, ...] = ()) -> list[dict[str, str]]:
    """Rows of a CSV data file as dicts; checks that the `required` columns exist."""
    reader = csv.DictReader(io.StringIO(_read_text(package, filename)))
    missing = [column for column in required if column not in (reader.fieldnames or ())]
    if missing:
        raise DataError(f"{filename}: missing column(s) {', '.join(missing)}")
    return list(reader)


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
