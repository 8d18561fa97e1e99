"""The search space of `parlour tune`: which designed values may change, and within what bounds.

A space file is TOML with one `[[parameter]]` table per value:

    [[parameter]]                 # a cell of a CSV data file
    file = "specialists.csv"
    row = "SP03"                  # the row whose key column holds this
    key = "id"                    # the key column (default: the file's first column)
    column = "pp"
    low = 1
    high = 5
    step = 1                      # optional; integers when low, high and step are integers

    [[parameter]]                 # a number in a TOML data file, by its dotted name
    file = "scene_default.toml"
    name = "supply.general_pool_size"
    low = 16
    high = 32

    [[parameter]]                 # a numeric game option
    option = "max_rounds"
    low = 5
    high = 9

A count kept in two files must change in both: `also` lists the other places that take the same
value, `also = [{ file = "components.csv", row = "tree", column = "count" }]`.

Everything is checked against the game's data before a trial runs, and a mistake is reported with
the space file, the parameter's number and the key at fault. Applying a trial's values rewrites only
the cells and lines named, so the rest of each file (its comments and provenance) stays as it was.
"""

from __future__ import annotations

import csv
import io
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parlour.engine.errors import ParlourError
from parlour.engine.game import Game

MAX_PROBES = 25
"""The most values of one parameter checked against the game before the first trial."""
MAX_PARAMETERS = 64
"""The most values one space may tune; beyond this, a few hundred trials cannot explore it."""

KEYS = {"file", "row", "key", "column", "name", "option", "low", "high", "step", "label", "also"}
PLACE_KEYS = {"file", "row", "key", "column", "name"}


class SpaceError(ParlourError, ValueError):
    """A space file that cannot be used: the message names the file, the parameter and the key."""


Number = int | float


@dataclass(frozen=True)
class Place:
    """Where a value lives in the data: a CSV cell (row, key column, column) or a TOML dotted name."""

    file: str
    row: str = ""
    key: str = ""
    column: str = ""
    name: str = ""

    def to_json(self) -> dict[str, str]:
        if self.row:
            return {"file": self.file, "row": self.row, "key": self.key, "column": self.column}
        return {"file": self.file, "name": self.name}


@dataclass(frozen=True)
class Parameter:
    """One tunable value: where it lives (data places, or a game option), its bounds, its base value."""

    label: str
    low: Number
    high: Number
    step: Number | None
    base: Number
    places: tuple[Place, ...] = ()
    option: str = ""
    number: int = 0  # its place in the space file, from 1
    line: int = 0  # the line of its [[parameter]] header

    def probes(self, most: int = MAX_PROBES) -> list[Number]:
        """The values checked against the game before the first trial: every value of a short
        integer range, else the bounds and evenly spaced values between them."""
        step = self.step or (1 if self.integer else None)
        if step is not None and (self.high - self.low) / step < most:
            count = round((self.high - self.low) / step) + 1
            values = [self.low + k * step for k in range(count)]
        else:
            values = [self.low + (self.high - self.low) * k / (most - 1) for k in range(most)]
            if step is not None:  # on the step's grid, as the sampler would draw them
                values = [self.low + round((v - self.low) / step) * step for v in values]
        if self.integer:
            return sorted({int(v) for v in values})
        return sorted({round(float(v), 12) for v in values})

    @property
    def integer(self) -> bool:
        return all(isinstance(v, int) for v in (self.low, self.high, self.step or 1))

    def to_json(self) -> dict[str, Any]:
        where: dict[str, Any] = (
            {"option": self.option} if self.option else {"places": [p.to_json() for p in self.places]}
        )
        return {"label": self.label, **where, "low": self.low, "high": self.high, "step": self.step, "base": self.base}


@dataclass(frozen=True)
class Space:
    path: Path
    parameters: tuple[Parameter, ...]

    def apply(self, files: Mapping[str, str], values: Mapping[str, Number]) -> dict[str, str]:
        """The data files with the trial's `values` (by label) written in."""
        changed = dict(files)
        for parameter in self.parameters:
            if parameter.label in values:
                text = _text(values[parameter.label], parameter.integer)
                for place in parameter.places:
                    changed[place.file] = _write(place, changed[place.file], text)
        return changed

    def options(self, values: Mapping[str, Number]) -> dict[str, Number]:
        """The game options the trial's values set."""
        return {p.option: values[p.label] for p in self.parameters if p.option and p.label in values}


def load_space(path: str | Path, cls: type[Game], files: Mapping[str, str]) -> Space:
    """Read and check a space file against the game's options and its data `files` (name -> text)."""
    where = Path(path)
    try:
        text = where.read_text(encoding="utf-8")
        table = tomllib.loads(text)
    except OSError as error:
        raise SpaceError(f"{where}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise SpaceError(f"{where}: not UTF-8 text ({error.reason})") from None
    except tomllib.TOMLDecodeError as error:
        raise SpaceError(f"{where}: not valid TOML ({error})") from None
    unknown = sorted(set(table) - {"parameter"})
    if unknown:
        raise SpaceError(f"{where}: unknown table or key {unknown[0]!r} (a space holds [[parameter]] tables)")
    entries = table.get("parameter")
    if not isinstance(entries, list) or not entries:
        raise SpaceError(f"{where}: no [[parameter]] table; name at least one value to tune")
    if len(entries) > MAX_PARAMETERS:
        raise SpaceError(f"{where}: {len(entries)} parameters; a space may tune at most {MAX_PARAMETERS}")
    lines = key_lines(text)
    parameters = [
        _parameter(where, number, entry, cls, files, lines.get(number, {})) for number, entry in enumerate(entries, 1)
    ]
    labels = [p.label for p in parameters]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise SpaceError(f"{where}: the value {twice[0]!r} is named by more than one parameter")
    return Space(where, tuple(parameters))


def key_lines(text: str) -> dict[int, dict[str, int]]:
    """Where each `[[parameter]]` table's keys are: {parameter number: {key: line}}, lines from 1.

    The table's own header line is kept under the key "" (a missing key is reported there)."""
    found: dict[int, dict[str, int]] = {}
    number = 0
    for line_number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("[["):
            number += 1
            found[number] = {"": line_number}
        elif stripped.startswith("["):
            number = -1  # another table: its keys are no parameter's
        elif number > 0 and (key := re.match(r"([A-Za-z0-9_-]+)\s*=", stripped)):
            found[number].setdefault(key.group(1), line_number)
    return found


def line_of(lines: Mapping[str, int], key: str) -> str:
    """`line N` of a parameter's key (the table's header line for a key it lacks), or ""."""
    number = lines.get(key.split(" ")[0] if key.startswith("also") else key, lines.get(""))
    return f" line {number}" if number else ""


def _parameter(
    where: Path, number: int, entry: Any, cls: type[Game], files: Mapping[str, str], lines: Mapping[str, int]
) -> Parameter:
    def fail(key: str, problem: str) -> SpaceError:
        return SpaceError(f"{where}{line_of(lines, key)}: parameter {number}, {key}: {problem}")

    if not isinstance(entry, dict):
        raise SpaceError(f"{where}: parameter {number} is not a table")
    for key in entry:
        if key not in KEYS:
            raise fail(key, f"unknown key (keys: {', '.join(sorted(KEYS))})")
    low, high, step = _bounds(entry, fail)
    if "option" in entry:
        for key in sorted(PLACE_KEYS | {"also"}):
            if key in entry:
                raise fail(key, "a game option's parameter takes no file, row, column, name or also")
        base = _option_base(str(entry["option"]), cls, fail)
        label = str(entry.get("label") or f"option {entry['option']}")
        option = str(entry["option"])
        return Parameter(label, low, high, step, base, option=option, number=number, line=lines.get("", 0))
    place, base = _place(entry, files, cls, fail)
    also = entry.get("also", [])
    if not isinstance(also, list) or not all(isinstance(other, dict) for other in also):
        raise fail("also", "must be a list of tables, each a file with row and column, or with name")
    places = [place]
    for other in also:
        unknown = sorted(set(other) - PLACE_KEYS)
        if unknown:
            raise fail("also", f"unknown key {unknown[0]!r} (a place has {', '.join(sorted(PLACE_KEYS))})")
        extra, value = _place(other, files, cls, lambda key, problem: fail(f"also {key}", problem))
        if value != base:
            raise fail("also", f"{_describe(extra)} holds {value}, but {_describe(place)} holds {base}: not one value")
        places.append(extra)
    label = str(entry.get("label") or _describe(place))
    return Parameter(label, low, high, step, base, places=tuple(places), number=number, line=lines.get("", 0))


def _describe(place: Place) -> str:
    return f"{place.file} {place.row} {place.column}" if place.row else f"{place.file} {place.name}"


def _place(entry: Mapping[str, Any], files: Mapping[str, str], cls: type[Game], fail: Any) -> tuple[Place, Number]:
    """The data place an entry names, checked against the files, and the number it holds there."""
    if "file" not in entry:
        raise fail("file", "missing: give the data file (or option = for a game option)")
    filename = str(entry["file"])
    if filename not in files:
        known = ", ".join(sorted(files)) or "none"
        raise fail("file", f"{filename!r} is not one of {cls.name}'s data files ({known})")
    if filename.endswith(".csv"):
        for key in ("row", "column"):
            if key not in entry:
                raise fail(key, f"missing: a CSV cell needs row and column ({filename})")
        if "name" in entry:
            raise fail("name", "a CSV cell is named by row and column, not name")
        key, row, column = _cell(filename, files[filename], entry, fail)
        base = _number(_read_cell(files[filename], key, row, column), fail, "column", f"{filename} {row}")
        return Place(filename, row=row, key=key, column=column), base
    if filename.endswith(".toml"):
        if "name" not in entry:
            raise fail("name", f"missing: the dotted name of a number in {filename} (e.g. supply.trees)")
        for key in ("row", "column", "key"):
            if key in entry:
                raise fail(key, "a TOML value is named by name, not row or column")
        name = str(entry["name"])
        _toml_line(files[filename], name, fail)  # the value must stand on a line of its own
        base = _number(_toml_value(files[filename], name, fail), fail, "name", f"{filename} {name}")
        return Place(filename, name=name), base
    raise fail("file", f"{filename}: only CSV cells and TOML numbers can be tuned")


def _bounds(entry: Mapping[str, Any], fail: Any) -> tuple[Number, Number, Number | None]:
    for key in ("low", "high"):
        if key not in entry:
            raise fail(key, "missing: each parameter needs low and high")
        if isinstance(entry[key], bool) or not isinstance(entry[key], int | float):
            raise fail(key, f"must be a number, got {entry[key]!r}")
    low, high, step = entry["low"], entry["high"], entry.get("step")
    if not low < high:
        raise fail("high", f"must be above low ({low}), got {high}")
    if step is not None:
        if isinstance(step, bool) or not isinstance(step, int | float) or step <= 0:
            raise fail("step", f"must be a number above zero, got {step!r}")
        if step > high - low:
            raise fail("step", f"{step} is wider than the range {low}..{high}")
    return low, high, step


def _option_base(name: str, cls: type[Game], fail: Any) -> Number:
    declared = {option.name: option for option in cls.options_spec}
    if name == "players" or name not in declared:
        known = ", ".join(sorted(n for n in declared if n != "players"))
        raise fail("option", f"{cls.name} has no option {name!r} to tune (its options: {known})")
    option = declared[name]
    if option.type not in (int, float) or isinstance(option.default, bool):
        raise fail("option", f"{name} is not a numeric option")
    return option.default  # type: ignore[no-any-return]


def _number(text: Any, fail: Any, key: str, where: str) -> Number:
    if isinstance(text, bool):
        raise fail(key, f"{where} holds {text!r}, not a number")
    if isinstance(text, int | float):
        return text
    try:
        return int(text)
    except (TypeError, ValueError):
        pass
    try:
        return float(text)
    except (TypeError, ValueError):
        raise fail(key, f"{where} holds {text!r}, not a number") from None


def _cell(filename: str, text: str, entry: Mapping[str, Any], fail: Any) -> tuple[str, str, str]:
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0] if rows else []
    key = str(entry.get("key") or (header[0] if header else ""))
    row, column = str(entry["row"]), str(entry["column"])
    for name, wanted in (("key", key), ("column", column)):
        if wanted not in header:
            raise fail(name, f"{filename} has no column {wanted!r} (columns: {', '.join(header)})")
    position = header.index(key)
    keys = [cells[position] for cells in rows[1:] if len(cells) > position]
    if keys.count(row) != 1:
        problem = "no row" if row not in keys else "more than one row"
        raise fail("row", f"{filename} has {problem} whose {key} is {row!r} ({key}: {', '.join(keys[:12])}…)")
    return key, row, column


def _read_cell(text: str, key: str, row: str, column: str) -> str:
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    for cells in rows[1:]:
        if cells and cells[header.index(key)] == row:
            return cells[header.index(column)]
    raise AssertionError("checked by _cell")


def _write(parameter: Place, text: str, value: str) -> str:
    if parameter.row:
        rows = list(csv.reader(io.StringIO(text)))
        header = rows[0]
        for cells in rows[1:]:
            if cells and cells[header.index(parameter.key)] == parameter.row:
                cells[header.index(parameter.column)] = value
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows(rows)
        return out.getvalue()
    lines = text.splitlines(keepends=True)
    number, match = _toml_line(text, parameter.name, None)
    line = lines[number]
    lines[number] = line[: match.start("value")] + value + line[match.end("value") :]
    return "".join(lines)


def _text(value: Number, integer: bool) -> str:
    """A value as the data file writes it: an integer parameter's as an integer, a decimal's with its point."""
    # Twelve places: a stepped decimal comes back from the sampler as 0.9500000000000001.
    return str(int(value)) if integer else repr(round(float(value), 12))


VALUE = re.compile(r"^(?P<lead>\s*(?P<key>[A-Za-z0-9_-]+)\s*=\s*)(?P<value>[-+]?[0-9][0-9_.eE+-]*)(?P<rest>\s*(#.*)?)$")
HEADER = re.compile(r"^\s*\[(?P<name>[A-Za-z0-9_.-]+)\]\s*(#.*)?$")


def _toml_line(text: str, name: str, fail: Any) -> tuple[int, re.Match[str]]:
    """The line number and match of `name`'s plain number (`key = 3` under the right [table])."""
    table, _, key = name.rpartition(".")
    current = ""
    for number, line in enumerate(text.splitlines()):
        header = HEADER.match(line)
        if header:
            current = header.group("name")
            continue
        match = VALUE.match(line)
        if match and current == table and match.group("key") == key:
            return number, match
    if fail is None:
        raise AssertionError("checked when the space was loaded")
    raise fail("name", f"no line '{key} = <number>' under [{table}]" if table else f"no top-level '{key} = <number>'")


def _toml_value(text: str, name: str, fail: Any) -> Any:
    value: Any = tomllib.loads(text)
    for part in name.split("."):
        if not isinstance(value, dict) or part not in value:
            raise fail("name", f"no value {name!r}")
        value = value[part]
    return value
