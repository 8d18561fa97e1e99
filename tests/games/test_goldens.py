"""Every game's golden playthroughs replay to the same moves, events, views and result (the format
and how to regenerate: goldens.py)."""

from __future__ import annotations

import json

import pytest

from parlour.engine import load_game

from .goldens import CASES, REMOVED, Case, leaves, play, seen, write


@pytest.mark.parametrize("case", CASES, ids=[f"{case.game}-{case.name}" for case in CASES])
def test_golden_playthrough_is_unchanged(case: Case, regenerate_goldens: bool) -> None:
    if regenerate_goldens:
        write(case)
        return
    expected = case.path.read_text(encoding="utf-8").splitlines()
    actual = play(case)
    for number, (want, got) in enumerate(zip(expected, actual, strict=False)):
        assert got == want, f"{case.path.name}: line {number + 1} differs (the step it names, or the start)"
    assert len(actual) == len(expected), f"{case.path.name}: {len(actual)} lines instead of {len(expected)}"


@pytest.mark.parametrize("case", CASES, ids=[f"{case.game}-{case.name}" for case in CASES])
def test_golden_file_replays_by_labels_to_its_own_views(case: Case) -> None:
    """The file read on its own: its labels replay, and the start plus each step's changes are the views."""
    lines = [json.loads(line) for line in case.path.read_text(encoding="utf-8").splitlines()]
    header, start, *steps, result = lines
    state = load_game(header["game"], **header["options"]).new_state(seed=header["seed"])
    views = {name: leaves(view) for name, view in start["start"].items()}
    assert views == seen(state)
    for step in steps:
        state.apply(step["action"])
        for name, changed in step["changes"].items():
            for path in changed.get(REMOVED, []):
                del views[name][path]
            views[name].update({path: value for path, value in changed.items() if path != REMOVED})
        assert views == seen(state), f"{case.path.name}: step {step['step']} ({step['action']})"
    assert state.is_terminal() and state.winners() == result["winners"]
