"""Replaying the golden Hatflings! playthroughs must give the same actions, events and views."""

from __future__ import annotations

import json

import pytest

import parlour

from .golden import FOLDER, GAMES, play, to_text


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough_is_unchanged(name: str) -> None:
    options, seed = GAMES[name]
    expected = (FOLDER / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    actual = to_text(play(options, seed)).splitlines()
    for step, (want, got) in enumerate(zip(expected, actual, strict=False)):
        assert got == want, f"{name}: first difference at line {step}"
    assert len(actual) == len(expected), f"{name}: {len(actual)} lines instead of {len(expected)}"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_actions_replay_through_labels(name: str) -> None:
    lines = (FOLDER / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    state = parlour.load_game("hatflings", **header["options"]).new_state(seed=header["seed"])
    for line in lines[2:]:
        step = json.loads(line)
        state.apply(step["action"])
        assert state.view(None) == step["view"]
    assert state.is_terminal()
