"""Reading a game's component data files (CSV and TOML beside its code, or a designer's own folder)
with clear errors.

A game's data is a `DataSet`: the text of each of its files and the content hash that names them.
The built-in set is read from the game's `data` package; `parlour data export` writes it to a
folder, and the game option `data` (a folder path) loads that folder instead. Games validate the
rows they get (counts, enums, totals against the rulebook) and raise DataError naming the file, the
line, the column and the problem.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import io
import json
import tomllib
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from parlour.engine.errors import DataError
from parlour.engine.options import Option

BUILT_IN = ""
"""The `data` option's value for the data that comes with the game."""
STORED_PREFIX = "sha256:"
"""A `data` option of this form names a data set by its hash: one a record carried (see records.py)."""
RECORD_ORIGIN = "the record's data"
"""Where a data set read from a record's stored files came from, as its errors say."""
MAX_FILE_BYTES = 4_000_000
"""The largest data file a folder may hold; a game's own files are a few kilobytes."""

DATA_OPTION = Option(
    "data",
    str,
    BUILT_IN,
    "a folder of the game's data files (written by parlour data export) to use instead of the built-in data"
    " (none: the built-in data)",
    title="Data folder",
    host_only=True,
)
"""The option every game with data files declares. A path on the machine that runs the game, so a
server never takes it from a client (Option.host_only)."""

T = TypeVar("T")


@dataclass(frozen=True, eq=False)
class DataSet:
    """A game's data files as text (name -> text), where they came from, and their content hash."""

    files: Mapping[str, str]
    origin: str  # "built-in", the folder read, or where a record's stored files came from
    digest: str
    package: str  # the game's data package, whose files these replace

    @property
    def built_in(self) -> bool:
        return self.origin == "built-in"

    @property
    def changed(self) -> bool:
        """True when these files differ from the game's built-in data (an exported, unedited folder does not)."""
        return self.digest != built_in(self.package).digest

    def where(self, filename: str) -> str:
        """The file as an error names it: a folder's files with their path, the built-in ones by name."""
        return filename if self.origin in ("built-in", RECORD_ORIGIN) else str(Path(self.origin) / filename)


def digest_of(files: Mapping[str, str]) -> str:
    """The content hash of a data set: every file's name and text, in name order."""
    canonical = json.dumps(sorted(files.items()), ensure_ascii=False, separators=(",", ":"))
    return STORED_PREFIX + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _data_set(package: str, files: Mapping[str, str], origin: str) -> DataSet:
    frozen = MappingProxyType(dict(sorted(files.items())))
    return DataSet(frozen, origin, digest_of(frozen), package)


@functools.cache
def built_in(package: str) -> DataSet:
    """The data files that come with the game (every non-Python file of its data package)."""
    try:
        entries = [entry for entry in resources.files(package).iterdir() if _is_data_file(entry.name)]
    except (ModuleNotFoundError, FileNotFoundError, OSError) as error:
        raise DataError(f"{package}: cannot list the data files: {error}") from None
    files = {entry.name: _read_text(package, entry.name) for entry in entries if entry.is_file()}
    return _data_set(package, files, "built-in")


def _is_data_file(name: str) -> bool:
    return not name.endswith((".py", ".pyc")) and not name.startswith((".", "_"))


def from_folder(package: str, folder: str | Path) -> DataSet:
    """A designer's data folder: the same files as the built-in set (other files there are ignored)."""
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise DataError(f"data folder {folder}: no such folder (write one with parlour data export)")
    names = sorted(built_in(package).files)
    missing = [name for name in names if not (path / name).is_file()]
    if missing:
        raise DataError(
            f"data folder {folder}: missing file(s) {', '.join(missing)} (the game's data files: {', '.join(names)})"
        )
    return _data_set(package, {name: _read_file(path / name) for name in names}, str(path))


def from_files(package: str, files: Mapping[str, Any], origin: str) -> DataSet:
    """A data set given as text (a record's stored data), checked to hold exactly the game's files."""
    names = set(built_in(package).files)
    if set(files) != names or not all(isinstance(text, str) for text in files.values()):
        raise DataError(
            f"{origin}: the data must hold the text of exactly the files {', '.join(sorted(names))},"
            f" got {', '.join(sorted(map(str, files))) or 'none'}"
        )
    return _data_set(package, files, origin)


def _read_file(path: Path) -> str:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise DataError(f"{path}: larger than {MAX_FILE_BYTES} bytes, too large for a data file")
        return path.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise DataError(f"{path}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise DataError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None


_STORED: dict[str, DataSet] = {}
"""Data sets read from records in this process, by hash (see `remember`)."""


def remember(data: DataSet) -> str:
    """Keep a data set (a record's) so the `data` option value it returns names it in this process."""
    _STORED.setdefault(data.digest, data)
    return data.digest


def resolve(package: str, value: str) -> DataSet:
    """The data set a `data` option names: built-in (""), one remembered by hash, or a folder."""
    if value == BUILT_IN:
        return built_in(package)
    if value.startswith(STORED_PREFIX):
        if value == built_in(package).digest:
            return built_in(package)
        if value not in _STORED:
            raise DataError(f"no data with hash {value} is known here (a record that stores its data names one)")
        return _STORED[value]
    return from_folder(package, value)


def game_data(game: str, package: str, options: Mapping[str, Any]) -> DataSet:
    """The data set a game's options ask for (its `data` option checked as every option is)."""
    return resolve(package, DATA_OPTION.parse(game, options.get(DATA_OPTION.name, BUILT_IN)))


PARSED_LIMIT = 64
"""How many parsed data sets (per game) a process keeps; the least recently used beyond it are
dropped and parsed again if a game asks for them. A tuning run makes a data set per trial."""
_PARSED: OrderedDict[tuple[str, str], Any] = OrderedDict()


def parsed(data: DataSet, build: Callable[[DataSet], T]) -> T:
    """`build(data)` (a game's validated components), computed once per content hash and builder
    (the PARSED_LIMIT most recently used are kept).

    A folder's errors name the folder: the game's own messages name the file by its name alone."""
    key = (f"{build.__module__}.{build.__qualname__}", data.digest)
    if key in _PARSED:
        _PARSED.move_to_end(key)
    else:
        try:
            _PARSED[key] = build(data)
        except DataError as error:
            if data.built_in:
                raise
            where = data.origin if data.origin == RECORD_ORIGIN else f"data folder {data.origin}"
            raise DataError(f"{where}: {error}") from None
        while len(_PARSED) > max(1, PARSED_LIMIT):
            _PARSED.popitem(last=False)
    result: T = _PARSED[key]
    return result


def game_components(
    game: str, package: str, options: Mapping[str, Any], build: Callable[[DataSet], T]
) -> tuple[DataSet, T]:
    """What every game's constructor loads: the data set its options ask for (the built-in `data/`
    of `package`, a designer's folder, or a record's stored data) and its components, validated by
    the game's `build` (its `components.load_components`) and parsed once per content."""
    data = game_data(game, package, options)
    return data, parsed(data, build)


def export(package: str, folder: str | Path, force: bool = False) -> list[Path]:
    """Write the built-in data files into `folder` (made if missing); refuses a non-empty folder unless `force`."""
    path = Path(folder).expanduser()
    if path.exists() and not path.is_dir():
        raise DataError(f"{folder} is a file, not a folder")
    if path.is_dir() and any(path.iterdir()) and not force:
        raise DataError(f"{folder} is not empty; choose an empty folder or pass --force to overwrite its data files")
    try:
        path.mkdir(parents=True, exist_ok=True)
        written = []
        for name, text in built_in(package).files.items():
            target = path / name
            target.write_text(text, encoding="utf-8", newline="")
            written.append(target)
    except OSError as error:
        raise DataError(f"cannot write to {folder}: {error.strerror or error}") from None
    return written


def _text_of(source: str | DataSet, filename: str) -> str:
    if isinstance(source, DataSet):
        if filename not in source.files:
            raise DataError(f"{source.where(filename)}: no such data file")
        return source.files[filename]
    return _read_text(source, filename)


def _read_text(package: str, filename: str) -> str:
    try:
        # utf-8-sig: a spreadsheet's byte-order mark must not become part of the first column's name.
        return resources.files(package).joinpath(filename).read_text(encoding="utf-8-sig")
    except (FileNotFoundError, OSError) as error:
        raise DataError(f"{package}: cannot read data file {filename}: {error}") from None
    except UnicodeDecodeError as error:
        raise DataError(f"{filename}: not UTF-8 text ({error.reason} at byte {error.start})") from None


def read_csv(source: str | DataSet, filename: str, required: tuple[str, ...] = ()) -> list[dict[str, str]]:
    """Rows of a CSV data file as dicts; checks the `required` columns exist and every row fills the header.

    Every row is one line of the file, so rows are numbered as its lines (the header is line 1), as
    the games' own errors number them; a blank line or a cell that spans lines would break that
    numbering and is refused.
    """
    reader = csv.DictReader(io.StringIO(_text_of(source, filename)))
    header = list(reader.fieldnames or ())
    missing = [column for column in required if column not in header]
    if missing:
        raise DataError(f"{filename} line 1 (the header): missing column(s) {', '.join(missing)}")
    repeated = sorted({column for column in header if header.count(column) > 1})
    if repeated:
        raise DataError(f"{filename} line 1 (the header): column(s) {', '.join(repeated)} appear more than once")
    rows = []
    try:
        for line, row in enumerate(reader, start=2):
            if reader.line_num != line:
                raise DataError(
                    f"{filename} line {line}: a blank line or a cell that spans lines; every row is one line"
                )
            # DictReader fills a short row with None and keeps a long row's surplus under the key None.
            if None in row or None in row.values():
                cells = sum(value is not None for key, value in row.items() if key is not None)
                cells += len(row.get(None) or ())  # type: ignore[call-overload]
                raise DataError(
                    f"{filename} line {line}: the header has {len(header)} columns but this row has {cells}"
                )
            rows.append(row)
    except csv.Error as error:
        raise DataError(f"{filename} line {reader.line_num}: not valid CSV ({error})") from None
    return rows


def at(filename: str, line: int, row: Mapping[str, str] | None = None, column: str | None = None) -> str:
    """Where a problem is, as every data error names it: `flags.csv line 5, column 3 (vp)`.

    `row` is the row read_csv gave (its keys are the header, in order), which numbers the column."""
    where = f"{filename} line {line}"
    if column is None:
        return where
    if row is not None and column in row:
        return f"{where}, column {list(row).index(column) + 1} ({column})"
    return f"{where}, column {column}"


class TomlTable(dict[str, Any]):
    """A TOML file's contents that keep the file's text, so an error can name the line of a key."""

    text: str = ""


def read_toml(source: str | DataSet, filename: str) -> dict[str, Any]:
    text = _text_of(source, filename)
    try:
        table = TomlTable(tomllib.loads(text))
    except tomllib.TOMLDecodeError as error:
        raise DataError(f"{filename}: not valid TOML ({error})") from None
    table.text = text
    return table


def toml_at(filename: str, config: Mapping[str, Any], *keys: str) -> str:
    """Where a key of a TOML file is, as errors name it: `config.toml line 19, column 19 (safety_turn_cap)`.

    `keys` is the key's path: `("vp_trophies", "blue")` is `blue` in the table `[vp_trophies]`; the
    column is where its value starts. A key the text does not show plainly is named without a line."""
    text = config.text if isinstance(config, TomlTable) else ""
    *tables, key = keys
    if keys and text and not _holds(config, keys):
        return f"{filename}: {'.'.join(keys)} is missing{_misspelt(text, tables, key)}"
    table: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("["):
            header = stripped.lstrip("[").split("]", 1)[0]  # [table] or [[array]], maybe with a comment
            table = [part.strip() for part in header.split(".")]
            continue
        if table == tables and _key_of(line) == key:
            return f"{filename} line {number}, column {_value_column(line)} ({key})"
    return f"{filename} ({'.'.join(keys)})" if keys else filename


def entry_at(filename: str, config: Mapping[str, Any], array: str, number: int, key: str | None = None) -> str:
    """Where entry `number` (from 1) of an array of tables is, as errors name it: its `key`
    (`board.toml line 131, column 11 (borders)`), or its `[[array]]` header line when no key is given
    or the entry does not show it. `array` is the table path as the file writes it (`scene.object`)."""
    text = config.text if isinstance(config, TomlTable) else ""
    wanted = [part.strip() for part in array.split(".")]
    seen, header = 0, 0
    for line_number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("["):
            if header:
                break  # the entry ended without showing the key
            name = stripped.lstrip("[").split("]", 1)[0]
            if stripped.startswith("[[") and [part.strip() for part in name.split(".")] == wanted:
                seen += 1
                header = line_number if seen == number else 0
            continue
        if header and key is not None and _key_of(line) == key:
            return f"{filename} line {line_number}, column {_value_column(line)} ({key})"
    if header:
        return f"{filename} line {header} ([[{array}]] entry {number})"
    return f"{filename} ([[{array}]] entry {number})"


def _holds(config: Mapping[str, Any], keys: tuple[str, ...]) -> bool:
    value: Any = config
    for part in keys:
        if not isinstance(value, Mapping) or part not in value:
            return False
        value = value[part]
    return True


def _misspelt(text: str, tables: list[str], key: str) -> str:
    """` (line 15 sets triangle_bonux: misspelt?)` when a key of the same table is close to `key`."""
    import difflib

    table: list[str] = []
    found: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("["):
            table = [part.strip() for part in stripped.lstrip("[").split("]", 1)[0].split(".")]
        elif table == tables and (name := _key_of(line)) and not stripped.startswith("#"):
            found.setdefault(name, number)
    close = difflib.get_close_matches(key, list(found), n=1, cutoff=0.75)
    return f" (line {found[close[0]]} sets {close[0]}: misspelt?)" if close else ""


def _key_of(line: str) -> str | None:
    """The key a `key = value` line of TOML sets (None for any other line)."""
    name, sep, _ = line.partition("=")
    return name.strip() if sep else None


def _value_column(line: str) -> int:
    """The column (from 1) where a `key = value` line's value starts."""
    name, _, value = line.partition("=")
    return len(name) + 1 + len(value) - len(value.lstrip()) + 1


def as_int(filename: str, row_number: int, column: str, value: str | Mapping[str, str]) -> int:
    """A CSV cell as an integer, or a DataError that says where. `value` is the cell, or its whole row
    (which lets the error number the column)."""
    row = value if isinstance(value, Mapping) else None
    cell = value[column] if isinstance(value, Mapping) else value
    try:
        return int(cell)
    except (TypeError, ValueError):
        where = at(filename, row_number, row, column)
        raise DataError(f"{where}: {column} must be a whole number, got {cell!r}") from None


def check_keys(filename: str, rows: list[dict[str, str]], column: str) -> None:
    """Refuses a row whose `column` (an id or name) is empty or repeats an earlier row's, ignoring case.

    Rows are numbered as in read_csv's errors (the header is line 1).
    """
    first: dict[str, int] = {}
    for number, row in enumerate(rows, start=2):
        key = (row.get(column) or "").strip()
        where = at(filename, number, row, column)
        if not key:
            raise DataError(f"{where}: empty {column}")
        earlier = first.setdefault(key.casefold(), number)
        if earlier != number:
            raise DataError(f"{where}: {column} {key!r} already appears in line {earlier}")
