"""Golden playthroughs of Hatflings!: a seed, the actions, and what every step showed.

Each file in `golden/` holds one game played by seeded random moves: the options, the seed, and per
step the action's label, the events' texts and the view after it. `test_golden.py` replays them and
compares, so any change of behaviour shows up as a diff. After a change made on purpose, rewrite
them with

    .venv/bin/python -m tests.games.hatflings.golden

and review the diff before committing it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import parlour
from parlour.engine import Rng

FOLDER = Path(__file__).parent / "golden"

GAMES: dict[str, tuple[dict[str, Any], int]] = {
    "default_scene_seed_1": ({}, 1),
    "interactive_scene_seed_7": ({"scene": "interactive", "num_objects": 4, "starting_captain": 1}, 7),
    "barrels_and_small_pool_seed_3": (
        {"scene": "barrel:b3,barrel:e4,box:c4,column:d3,pig:b3", "general_pool_size": 8, "barrel_break_percent": 60},
        3,
    ),
}


def play(options: dict[str, Any], seed: int) -> dict[str, Any]:
    """Play one game with random moves drawn from `Rng(seed)` and record every step."""
    state = parlour.load_game("hatflings", **options).new_state(seed=seed)
    chooser = Rng(seed)
    steps: list[dict[str, Any]] = [{"action": None, "events": [], "view": state.view(None)}]
    while not state.is_terminal():
        action = chooser.choice(state.legal_actions())
        events = state.apply(action)
        steps.append({"action": action.label, "events": [event.text for event in events], "view": state.view(None)})
    return {"options": options, "seed": seed, "steps": steps}


def to_text(game: dict[str, Any]) -> str:
    """One JSON line per step, so that a change shows up as a readable diff."""
    lines = [json.dumps({"options": game["options"], "seed": game["seed"]}, sort_keys=True)]
    lines += [json.dumps(step, sort_keys=True) for step in game["steps"]]
    return "\n".join(lines) + "\n"


def regenerate() -> None:
    FOLDER.mkdir(exist_ok=True)
    for name, (options, seed) in GAMES.items():
        (FOLDER / f"{name}.jsonl").write_text(to_text(play(options, seed)), encoding="utf-8")
        print(f"wrote {FOLDER / name}.jsonl")


if __name__ == "__main__":
    regenerate()
