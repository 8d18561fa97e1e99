"""Golden playthroughs of Yamataï: seed, options, the actions played and every view after each step.

Any change to the rules, the shuffles or the views shows up as a difference at a named step. The
files are gzipped JSON (read one with `zcat golden/players_4_seed_3.json.gz`). When a change is
intended, regenerate them on purpose and review what the test reported:

    .venv/bin/python -m tests.games.yamatai.test_golden --regenerate
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
    "players_2_seed_1": (1, {"players": 2}),
    "players_3_seed_2": (2, {"players": 3}),
    "players_4_seed_3": (3, {"players": 4}),
}


def _views(state: Any) -> list[dict[str, Any]]:
    return [state.view(seat) for seat in (None, *range(state.game.num_players))]


def playthrough(seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """A game whose moves a seeded generator picks, with every seat's and a spectator's view."""
    state = load_game("yamatai", **options).new_state(seed=seed)
    initial = _views(state)
    rng = Rng(seed * 7 + 1)
    steps = []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply(action)
        steps.append({"action": action.label, "views": _views(state)})
    return {
        "seed": seed,
        "options": options,
        "initial_views": initial,
        "steps": steps,
        "scores": [score.to_json() for score in state.scores()],
        "winners": state.winners(),
    }


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    golden = json.loads(gzip.decompress((GOLDEN / f"{name}.json.gz").read_bytes()).decode("utf-8"))
    seed, options = CASES[name]
    assert golden["seed"] == seed and golden["options"] == options
    state = load_game("yamatai", **options).new_state(seed=seed)
    assert _views(state) == golden["initial_views"]
    for number, step in enumerate(golden["steps"]):
        state.apply(step["action"])
        for viewer, (got, expected) in enumerate(zip(_views(state), step["views"], strict=True)):
            assert got == expected, f"step {number} ({step['action']}), viewer {viewer - 1 if viewer else None}"
    assert state.is_terminal()
    assert [score.to_json() for score in state.scores()] == golden["scores"]
    assert state.winners() == golden["winners"]


def regenerate() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, (seed, options) in CASES.items():
        text = json.dumps(playthrough(seed, options), sort_keys=True, separators=(",", ":"))
        (GOLDEN / f"{name}.json.gz").write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
        print(f"wrote {name}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit("usage: python -m tests.games.yamatai.test_golden --regenerate")
    regenerate()
