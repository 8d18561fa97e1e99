"""Golden Hatairo playthroughs: seed, options, the actions played and what every seat saw after
each step (a SHA-256 of the views of the spectator and every seat), plus the full final views.

The games are played by a seeded random chooser. To regenerate the files on purpose (after a
deliberate rules change, reviewing the diff of the final views):

    .venv/bin/python -m tests.games.hatairo.golden
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from parlour.engine import Rng, load_game
from parlour.engine.game import State

FOLDER = Path(__file__).parent / "golden"
GAMES: dict[str, tuple[dict[str, Any], int]] = {
    "two_players_standard": ({"players": 2}, 1),
    "four_players_motif_drafting": ({"players": 4, "variant": "motif+drafting"}, 2),
    "three_players_beginner": ({"players": 3, "beginner": True}, 4),
    "solo": ({"players": 1}, 3),
}


def views(state: State) -> list[dict[str, Any]]:
    return [state.view(seat) for seat in [None, *range(state.game.num_players)]]


def digest(state: State) -> str:
    return hashlib.sha256(json.dumps(views(state), sort_keys=True).encode()).hexdigest()


def play(options: dict[str, Any], seed: int) -> dict[str, Any]:
    state = load_game("hatairo", **options).new_state(seed=seed)
    rng = Rng(seed)
    labels, digests = [], [digest(state)]
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply(action)
        labels.append(action.label)
        digests.append(digest(state))
    return {
        "options": options,
        "seed": seed,
        "actions": labels,
        "view_digests": digests,
        "final_views": views(state),
        "scores": [score.to_json() for score in state.scores()],
    }


def write_all() -> None:
    FOLDER.mkdir(exist_ok=True)
    for name, (options, seed) in GAMES.items():
        path = FOLDER / f"{name}.json"
        path.write_text(json.dumps(play(options, seed), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    write_all()
