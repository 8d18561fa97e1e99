"""Golden playthroughs of Hanbok Runway: seed, options, the actions played and every view after each step.

Any change to the rules, the shuffles or the views shows up here as a difference at a named step.
The files are gzipped JSON (indented; read one with `zcat golden/seed_7.json.gz`), since the three
views after every step of a game add up to about a megabyte of text. When a change is intended,
regenerate them on purpose and review what the test reported:

    .venv/bin/python -m tests.games.hanbok_runway.test_golden --regenerate
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from parlour.engine import Rng, load_game

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "seed_7": (7, {}),
    "seed_2024_start_1": (2024, {"start_player": 1}),
    "seed_99_cap_6": (99, {"start_player": 0, "safety_turn_cap": 6}),
}


def playthrough(seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """A game whose moves a seeded generator picks, with the views of both seats and a spectator."""
    state = load_game("hanbok_runway", **options).new_state(seed=seed)
    rng = Rng(seed * 7 + 1)
    steps = []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply(action)
        steps.append({"action": action.label, "views": [state.view(seat) for seat in (None, 0, 1)]})
    return {
        "seed": seed,
        "options": options,
        "initial_views": [load_game("hanbok_runway", **options).new_state(seed=seed).view(s) for s in (None, 0, 1)],
        "steps": steps,
        "scores": [score.to_json() for score in state.scores()],
        "winners": state.winners(),
    }


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    golden = json.loads(gzip.decompress((GOLDEN / f"{name}.json.gz").read_bytes()).decode("utf-8"))
    seed, options = CASES[name]
    assert golden["seed"] == seed and golden["options"] == options
    state = load_game("hanbok_runway", **options).new_state(seed=seed)
    assert [state.view(s) for s in (None, 0, 1)] == golden["initial_views"]
    for number, step in enumerate(golden["steps"]):
        state.apply(step["action"])
        for viewer, expected in zip((None, 0, 1), step["views"], strict=True):
            assert state.view(viewer) == expected, f"step {number} ({step['action']}), viewer {viewer}"
    assert state.is_terminal()
    assert [score.to_json() for score in state.scores()] == golden["scores"]
    assert state.winners() == golden["winners"]


def regenerate() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, (seed, options) in CASES.items():
        text = json.dumps(playthrough(seed, options), indent=1, sort_keys=True) + "\n"
        path = GOLDEN / f"{name}.json.gz"
        path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
        print(f"wrote {path}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit(__doc__)
    regenerate()
