"""Golden playthroughs replay to the same views, step by step (see golden.py to regenerate)."""

from __future__ import annotations

import json

import pytest

from parlour.engine import load_game

from .golden import FOLDER, GAMES, digest, views


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough(name: str) -> None:
    record = json.loads((FOLDER / f"{name}.json").read_text(encoding="utf-8"))
    options, seed = GAMES[name]
    assert record["options"] == options and record["seed"] == seed
    state = load_game("hatairo", **record["options"]).new_state(seed=record["seed"])
    assert digest(state) == record["view_digests"][0]
    for step, label in enumerate(record["actions"], start=1):
        state.apply(label)
        assert digest(state) == record["view_digests"][step], f"views differ after step {step} ({label})"
    assert state.is_terminal()
    assert json.loads(json.dumps(views(state))) == record["final_views"]
    assert [score.to_json() for score in state.scores()] == record["scores"]
