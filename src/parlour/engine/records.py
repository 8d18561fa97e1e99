"""Game records: save, load, replay and verify.

A record is `{game, options, seed, actions}`; that is enough to rebuild a game exactly, because
all chance flows from the seed. A saved file adds each action's label and the final scores, so that
`verify` can say where a corrupt or tampered record first stops matching, and for a game with data
files the data it was played with: `data = {"hash": ...}` always, with `"files"` (each file's text)
when that data is not the built-in data, so a game played on a designer's folder replays anywhere.
Many records of one run (an arena's records.jsonl) name the data by hash alone and keep its files
once in a folder beside them, which `replay(record, data_folders=...)` is pointed at.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from parlour.engine import data
from parlour.engine.errors import DataError, IllegalAction, InvalidOption, RecordError
from parlour.engine.game import Game, State
from parlour.engine.registry import game_class, load_game

FORMAT = "parlour-record/1"
KEPT_DATA = "data"
"""The folder beside many records (an arena's records.jsonl) that keeps the data they name by hash."""


def full_record(state: State, store_data: bool = True) -> dict[str, Any]:
    """The record plus what verification checks: labels, the data played with, and scores once the game is over.

    `store_data=False` leaves changed data's files out (the hash stays): for many records of one
    run that keep the data once beside them."""
    record: dict[str, Any] = {"format": FORMAT, **state.record()}
    record["labels"] = [state.game.actions[i].label for i in state.history]
    played_on = _data_of(state.game)
    if played_on is not None:
        record["data"] = {"hash": played_on.digest}
        if played_on.changed and store_data:
            record["data"]["files"] = dict(played_on.files)
    if state.is_terminal():
        record["scores"] = [score.total for score in state.scores()]
        record["winners"] = state.winners()
    return record


def _data_of(game: Game) -> data.DataSet | None:
    """The data set a game was built with, for games with data files (they keep it as `data`)."""
    held = getattr(game, "data", None)
    return held if isinstance(held, data.DataSet) else None


def _field(record: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in record:
        raise RecordError(f"the record has no {name!r} field")
    value = record[name]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise RecordError(f"the record's {name!r} field has the wrong type ({type(value).__name__})")
    return value


def replay(record: Mapping[str, Any], data_folders: Sequence[str | Path] = ()) -> State:
    """Rebuild the state a record describes. Raises RecordError at the first step that fails.

    `data_folders`: where the files of data the record names by hash alone may be kept (an arena
    keeps them beside its records); one that exists must hold exactly that data."""
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object with game, options, seed and actions")
    _check_format(record)
    name = _field(record, "game", str)
    options = _field(record, "options", dict)
    seed = _field(record, "seed", int)
    actions = _field(record, "actions", list)
    try:
        options = _options_with_data(record, name, options, data_folders)
        state = load_game(name, **options).new_state(seed=seed)
    except (InvalidOption, DataError) as error:
        raise RecordError(f"the record's game cannot be set up: {error}") from None
    labels = _labels(record, len(actions))
    for step, action_id in enumerate(actions):
        where = _where(step)
        if not isinstance(action_id, int) or isinstance(action_id, bool):
            raise RecordError(f"{where}: {action_id!r} is not an action id", step)
        try:
            action = state.game.action(action_id)
            if labels is not None and labels[step] != action.label:
                raise RecordError(
                    f"{where}: the record says {labels[step]!r} but action {action_id} is {action.label!r}", step
                )
            state.apply(action)
        except IllegalAction as error:
            raise RecordError(f"{where}: {error}", step) from None
    return state


def _options_with_data(
    record: Mapping[str, Any], name: str, options: dict[str, Any], data_folders: Sequence[str | Path] = ()
) -> dict[str, Any]:
    """The options to rebuild the game with: its `data` option pointed at the data the record stores.

    A record without a data field (older ones) keeps its options as they are. One that names the
    built-in data plays on it wherever its folder was; one that stores its files plays on those
    files, once their hash is checked, whatever the folder it names now holds."""
    stored = record.get("data")
    if stored is None:
        return options
    if not isinstance(stored, dict) or not isinstance(stored.get("hash"), str):
        raise RecordError("the record's 'data' field must be an object with the data's hash")
    package = _data_package(name)
    if package is None:
        raise RecordError(f"the record stores data, but {name} has no data files")
    files = stored.get("files")
    if files is None:
        found = _unstored_data(package, name, stored["hash"], options, data_folders)
        return {**options, data.DATA_OPTION.name: found}
    if not isinstance(files, dict):
        raise RecordError("the record's data 'files' must map each file's name to its text")
    kept = data.from_files(package, files, data.RECORD_ORIGIN)
    if kept.digest != stored["hash"]:
        raise RecordError(
            f"the record's stored data does not match its hash (it says {stored['hash']}, the files give"
            f" {kept.digest}): the data was changed after the game was played"
        )
    return {**options, data.DATA_OPTION.name: data.remember(kept)}


def _unstored_data(
    package: str, name: str, digest: str, options: Mapping[str, Any], data_folders: Sequence[str | Path] = ()
) -> str:
    """The `data` option for a record that names its data by hash alone: the built-in data, the
    data kept for it in one of `data_folders`, or the folder its options name if that folder still
    holds exactly that data."""
    if digest == data.built_in(package).digest:
        return data.BUILT_IN
    for kept in data_folders:
        if Path(kept).is_dir():
            return data.remember(_kept_data(package, Path(kept), digest))
    folder = options.get(data.DATA_OPTION.name)
    if isinstance(folder, str) and folder and not folder.startswith(data.STORED_PREFIX):
        try:
            if data.from_folder(package, folder).digest == digest:
                return folder
        except DataError:
            pass  # the folder is gone or damaged: the refusal below says what is missing
    raise RecordError(
        f"the record was played on {name} data with hash {digest}, which it does not store; neither the built-in"
        f" data nor the folder {folder!r} it names holds that data now"
    )


def _kept_data(package: str, folder: Path, digest: str) -> data.DataSet:
    """The data kept in `folder` for records that name it by `digest`; refused unless it is exactly that data."""
    try:
        kept = data.from_folder(package, folder)
    except DataError as error:
        raise RecordError(f"the data kept for this record in {folder} cannot be read: {error}") from None
    if kept.digest != digest:
        raise RecordError(
            f"the data kept in {folder} does not match the record's hash (the record says {digest}, the files"
            f" give {kept.digest}): the files were changed after the game was played"
        )
    return kept


def _data_package(name: str) -> str | None:
    """The data package of a game with data files (its class's `data_package`), else None."""
    try:
        cls = game_class(name)
    except InvalidOption as error:
        raise RecordError(f"the record's game cannot be set up: {error}") from None
    package = getattr(cls, "data_package", None)
    return package if isinstance(package, str) else None


def _where(step: int) -> str:
    """A step as the error names it: the 0-based index into `actions` and the move number `replay --show` prints."""
    return f"step {step} (move {step + 1})"


def _check_format(record: Mapping[str, Any]) -> None:
    # A record without `format` is a plain state.record(); one with another format is not ours to guess at.
    if "format" in record and record["format"] != FORMAT:
        raise RecordError(f"the record's format is {record['format']!r}; this parlour reads {FORMAT!r}")


def _labels(record: Mapping[str, Any], count: int) -> list[Any] | None:
    labels = record.get("labels")
    if labels is None:
        return None
    if not isinstance(labels, list):
        raise RecordError(f"the record's 'labels' field has the wrong type ({type(labels).__name__})")
    if len(labels) != count:
        raise RecordError(f"the record has {count} actions but {len(labels)} labels; they must match one for one")
    return labels


def verify(record: Mapping[str, Any], data_folders: Sequence[str | Path] = ()) -> State:
    """Replay a record and check its claimed outcome; raises RecordError at the first divergence."""
    state = replay(record, data_folders)
    if "scores" in record or "winners" in record:
        if not state.is_terminal():
            raise RecordError(f"the record claims a finished game but it stops after {len(state.history)} actions")
        scores = [score.total for score in state.scores()]
        if "scores" in record and record["scores"] != scores:
            raise RecordError(f"final scores differ: the record says {record['scores']}, replay gives {scores}")
        if "winners" in record and record["winners"] != state.winners():
            raise RecordError(f"winners differ: the record says {record['winners']}, replay gives {state.winners()}")
    return state


def save(state: State, path: str | Path) -> Path:
    """Write the full record; the file is replaced whole, so a failed write leaves any old one intact."""
    path = Path(path)
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.write_text(json.dumps(full_record(state), indent=1) + "\n", encoding="utf-8")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return path


def check_writable(path: str | Path, state: State | None = None) -> Path:
    """Refuse a path a record cannot be saved to, or whose file would be lost by saving there.

    An existing file may be replaced only by a later save of the same game (`state`), so saving
    the game again as it goes on is allowed but another game or another file is never overwritten.
    """
    if "\0" in str(path):
        raise RecordError(f"{str(path)!r} is no file name (it holds a NUL character)")
    path = Path(path)
    if path.is_dir():
        raise RecordError(f"{path} is a folder; give a file name for the record")
    folder = path.parent
    if not folder.is_dir():
        raise RecordError(f"cannot save to {path}: there is no folder {folder}")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise RecordError(f"cannot save to {path}: permission denied")
    if path.exists() and not _earlier_save(path, state):
        what = "is not a record of this game" if state is not None else "would be overwritten"
        raise RecordError(f"{path} already exists and {what}; choose another file name")
    return path


def _earlier_save(path: Path, state: State | None) -> bool:
    if state is None:
        return False
    try:
        held = load(path)
    except RecordError:
        return False
    ours = state.record()
    actions = held.get("actions")
    return (
        all(held.get(key) == ours[key] for key in ("game", "options", "seed"))
        and isinstance(actions, list)
        and actions == ours["actions"][: len(actions)]
    )


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice (json would silently keep the last one)."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise RecordError(f"the key {key!r} appears twice in one object")
        result[key] = value
    return result


def load(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")  # an editor's byte-order mark is no damage
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file") from None
    if not text.strip():
        raise RecordError(f"{path} is empty")
    try:
        record = json.loads(text, object_pairs_hook=_no_repeated_keys)
    except json.JSONDecodeError as error:
        if error.msg == "Extra data" and text.lstrip().startswith("{"):
            raise RecordError(
                f"{path} holds several JSON values (one record a line, like an arena's records.jsonl?);"
                f" a record file holds one: give the line, e.g. parlour replay {path} --line {error.lineno}"
            ) from None
        if error.pos >= len(text.rstrip()) or error.msg.startswith("Unterminated string"):
            raise RecordError(f"{path} ends before its JSON is complete (was the file cut short?)") from None
        where = f"line {error.lineno}, column {error.colno}"
        raise RecordError(f"{path} is not valid JSON ({where}: {error.msg})") from None
    except RecursionError:
        raise RecordError(f"{path} nests its JSON too deeply to be a record") from None
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None
    except ValueError:  # Python refuses to convert an integer of thousands of digits
        raise RecordError(f"{path} holds a number too long to be part of a record") from None
    if not isinstance(record, dict):
        raise RecordError(f"{path} does not hold a record (a JSON object)")
    return record


MAX_LINE = 10_000_000
"""The highest line number `load_line` accepts."""


def load_line(path: str | Path, number: int) -> dict[str, Any]:
    """The record on line `number` (from 1) of a file of one record a line (an arena's records.jsonl)."""
    path = Path(path)
    if not 1 <= number <= MAX_LINE:
        raise RecordError(f"line numbers start at 1 (at most {MAX_LINE:,}), got {number}")
    try:
        with path.open(encoding="utf-8-sig") as lines:
            text = next(itertools.islice(lines, number - 1, None), None)
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file") from None
    if text is None or not text.strip():
        raise RecordError(f"{path} has no record on line {number}")
    try:
        record = json.loads(text, object_pairs_hook=_no_repeated_keys)
    except (json.JSONDecodeError, RecordError, RecursionError, ValueError) as error:
        raise RecordError(f"{path} line {number} is not a record ({error})") from None
    if not isinstance(record, dict):
        raise RecordError(f"{path} line {number} does not hold a record (a JSON object)")
    return record


def kept_data_beside(path: str | Path) -> list[Path]:
    """Where the data of a record saved in `path` may be kept by hash: the folder beside it."""
    return [Path(path).parent / KEPT_DATA]
