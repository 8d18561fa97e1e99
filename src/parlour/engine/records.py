"""Game records: save, load, replay and verify.

A record is `{game, options, seed, actions}`; that is enough to rebuild a game exactly, because
all chance flows from the seed. A saved file adds each action's label and the final scores, so that
`verify` can say where a corrupt or tampered record first stops matching.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from parlour.engine.errors import IllegalAction, InvalidOption, RecordError
from parlour.engine.game import State
from parlour.engine.registry import load_game

FORMAT = "parlour-record/1"


def full_record(state: State) -> dict[str, Any]:
    """The record plus what verification checks: labels, and scores once the game is over."""
    record: dict[str, Any] = {"format": FORMAT, **state.record()}
    record["labels"] = [state.game.actions[i].label for i in state.history]
    if state.is_terminal():
        record["scores"] = [score.total for score in state.scores()]
        record["winners"] = state.winners()
    return record


def _field(record: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in record:
        raise RecordError(f"the record has no {name!r} field")
    value = record[name]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise RecordError(f"the record's {name!r} field has the wrong type ({type(value).__name__})")
    return value


def replay(record: Mapping[str, Any]) -> State:
    """Rebuild the state a record describes. Raises RecordError at the first step that fails."""
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object with game, options, seed and actions")
    name = _field(record, "game", str)
    options = _field(record, "options", dict)
    seed = _field(record, "seed", int)
    actions = _field(record, "actions", list)
    try:
        state = load_game(name, **options).new_state(seed=seed)
    except InvalidOption as error:
        raise RecordError(f"the record's game cannot be set up: {error}") from None
    labels = record.get("labels")
    if labels is not None and (not isinstance(labels, list) or len(labels) != len(actions)):
        raise RecordError("the record's labels do not match its actions one for one")
    for step, action_id in enumerate(actions):
        if not isinstance(action_id, int) or isinstance(action_id, bool):
            raise RecordError(f"step {step}: {action_id!r} is not an action id", step)
        try:
            action = state.game.action(action_id)
            if labels is not None and labels[step] != action.label:
                raise RecordError(
                    f"step {step}: the record says {labels[step]!r} but action {action_id} is {action.label!r}",
                    step,
                )
            state.apply(action)
        except IllegalAction as error:
            raise RecordError(f"step {step}: {error}", step) from None
    return state


def verify(record: Mapping[str, Any]) -> State:
    """Replay a record and check its claimed outcome; raises RecordError at the first divergence."""
    state = replay(record)
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
    path = Path(path)
    path.write_text(json.dumps(full_record(state), indent=1) + "\n", encoding="utf-8")
    return path


def load(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"{path} is not valid JSON (line {error.lineno}: {error.msg})") from None
    if not isinstance(record, dict):
        raise RecordError(f"{path} does not hold a record (a JSON object)")
    return record
