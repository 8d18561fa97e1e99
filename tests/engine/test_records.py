"""Record files that are damaged in ways a person or a disk can damage them: each is refused by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import parlour
from parlour.engine.errors import InvalidOption, RecordError
from parlour.engine.records import full_record, load, verify
from parlour.engine.registry import register

from .nim import Nim

register(Nim)


def record() -> dict:
    state = parlour.load_game("nim", stones=5).new_state(seed=4)
    for action in ("take 1", "take 3", "take 1"):
        state.apply(action)
    return full_record(state)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"game": "nim", "game": "nim", "options": {}, "seed": 1, "actions": []}', "'game' appears twice"),
        ("[" * 100_000 + "]" * 100_000, "nests its JSON too deeply"),
        ('{"seed": ' + "9" * 5000 + "}", "number too long"),
    ],
)
def test_load_refuses_json_that_is_no_record(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "record.json"
    path.write_text(text)
    with pytest.raises(RecordError, match=message):
        load(path)


def test_a_record_of_another_format_is_refused() -> None:
    with pytest.raises(RecordError, match="format is 'parlour-record/9'"):
        verify(dict(record(), format="parlour-record/9"))


def test_labels_of_another_length_or_type_are_named() -> None:
    good = record()
    with pytest.raises(RecordError, match="3 actions but 2 labels"):
        verify(dict(good, labels=good["labels"][:2]))
    with pytest.raises(RecordError, match="'labels' field has the wrong type"):
        verify(dict(good, labels="take 1"))


def test_a_step_is_named_with_the_move_number_replay_show_prints() -> None:
    with pytest.raises(RecordError, match=r"step 1 \(move 2\)"):
        verify(dict(record(), actions=[0, -1, 0], labels=None))
    with pytest.raises(RecordError, match=r"step 2 \(move 3\)"):
        verify(dict(record(), actions=[0, 2, 1.0], labels=None))


def test_a_good_record_round_trips_through_a_file(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record()))
    assert verify(load(path)).history == verify(record()).history


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is empty"),
        (" \n", "is empty"),
        ('{"game": "nim", "options": {', "ends before its JSON is complete"),
        ('{"game": "ni', "ends before its JSON is complete"),
        ('{"game": "nim"}\n{"game": "nim"}\n', "holds several JSON values"),
        ('{"game": nim}', "line 1, column 10"),
    ],
)
def test_load_says_what_is_wrong_with_the_text(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "record.json"
    path.write_text(text)
    with pytest.raises(RecordError, match=message):
        load(path)


def test_a_byte_order_mark_is_no_damage(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(record()).encode())
    assert verify(load(path)).history == verify(record()).history


@pytest.mark.parametrize("text", ["1_0", " 7", "+7", "٣", "7.0", ""])
def test_an_integer_option_takes_plain_digits_only(text: str) -> None:
    with pytest.raises(InvalidOption, match="stones takes int"):
        parlour.load_game("nim", stones=text)
    assert parlour.load_game("nim", stones="7").options["stones"] == 7


def test_an_integer_option_of_thousands_of_digits_is_refused() -> None:
    with pytest.raises(InvalidOption, match="stones takes int"):
        parlour.load_game("nim", stones="9" * 5000)
