"""Golden playthroughs of every game, in one plain-text format with one regenerate switch.

A golden game is played by seeded random moves (`Rng(chooser).choice` of the legal list) and written
as JSON Lines, one line per step, so that a change of behaviour shows up in a diff at a named step:

    {"game": ..., "options": ..., "seed": ..., "chooser": ...}             the game
    {"start": {"spectator": view, "seat 0": view, ...}}                     every viewer's first view
    {"step": 1, "action": label, "events": [text, ...], "changes": {...}}   one line per move
    {"scores": [...], "winners": [...]}                                     the result

A step's `changes` give, per viewer, only the parts of its view the move changed: each leaf by its
path (`board.squares[3].owner`) with its new value, and the paths it removed under `"removed"`. The
views of every step are thus all in the file, read as the start plus the changes. An event every
viewer sees is its text; one that some do not is `{"text": ..., "for": [seats]}` (those seats
alone) or `{"text": ..., "not for": [seats]}` (everyone else, spectators included). After a change
of behaviour made on purpose, rewrite the files and review their diff before committing it:

    .venv/bin/python -m pytest tests/games/test_goldens.py --regenerate-goldens
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlour.engine import Event, Rng, load_game
from parlour.engine.game import State

ROOT = Path(__file__).parent
REMOVED = "removed"


@dataclass(frozen=True)
class Case:
    game: str
    name: str
    seed: int
    chooser: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def path(self) -> Path:
        return ROOT / self.game / "golden" / f"{self.name}.jsonl"


CASES = [
    Case("hanbok_runway", "seed_7", 7, 7 * 7 + 1),
    Case("hanbok_runway", "seed_2024_start_1", 2024, 2024 * 7 + 1, {"start_player": 1}),
    Case("hanbok_runway", "seed_99_cap_6", 99, 99 * 7 + 1, {"start_player": 0, "safety_turn_cap": 6}),
    Case("hatairo", "two_players_standard", 1, 1, {"players": 2}),
    Case("hatairo", "four_players_motif_drafting", 2, 2, {"players": 4, "variant": "motif+drafting"}),
    Case("hatairo", "three_players_beginner", 4, 4, {"players": 3, "beginner": True}),
    Case("hatairo", "solo", 3, 3, {"players": 1}),
    Case("hatflings", "default_scene_seed_1", 1, 1),
    Case(
        "hatflings", "interactive_scene_seed_7", 7, 7, {"scene": "interactive", "num_objects": 4, "starting_captain": 1}
    ),
    Case(
        "hatflings",
        "barrels_and_small_pool_seed_3",
        3,
        3,
        {"scene": "barrel:b3,barrel:e4,box:c4,column:d3,pig:b3", "general_pool_size": 8, "barrel_break_percent": 60},
    ),
    Case("yamatai", "players_2_seed_1", 1, 1 * 7 + 1, {"players": 2}),
    Case("yamatai", "players_3_seed_2", 2, 2 * 7 + 1, {"players": 3}),
    Case("yamatai", "players_4_seed_3", 3, 3 * 7 + 1, {"players": 4}),
]


def _line(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def leaves(value: Any, path: str = "") -> dict[str, Any]:
    """Every scalar of a JSON value by its path; an empty list or object is a leaf of its own."""
    if isinstance(value, dict) and value:
        found: dict[str, Any] = {}
        for key, item in value.items():
            found.update(leaves(item, f"{path}.{key}" if path else str(key)))
        return found
    if isinstance(value, list) and value:
        found = {}
        for index, item in enumerate(value):
            found.update(leaves(item, f"{path}[{index}]"))
        return found
    return {path: value}


def changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The leaves `after` sets anew or changes, and under REMOVED the paths it no longer has."""
    changed = {path: value for path, value in after.items() if path not in before or before[path] != value}
    removed = sorted(path for path in before if path not in after)
    return {**changed, REMOVED: removed} if removed else changed


def viewers(state: State) -> dict[str, int | None]:
    return {"spectator": None, **{f"seat {seat}": seat for seat in range(state.game.num_players)}}


def seen(state: State) -> dict[str, dict[str, Any]]:
    """Every viewer's view as leaves, passed through JSON as a client would receive it."""
    return {name: leaves(json.loads(json.dumps(state.view(seat)))) for name, seat in viewers(state).items()}


def play(case: Case) -> list[str]:
    """The golden lines of the case, played afresh by the current code."""
    state = load_game(case.game, **case.options).new_state(seed=case.seed)
    chooser = Rng(case.chooser)
    lines = [_line({"game": case.game, "options": case.options, "seed": case.seed, "chooser": case.chooser})]
    lines.append(_line({"start": {name: state.view(seat) for name, seat in viewers(state).items()}}))
    before = seen(state)
    step = 0
    while not state.is_terminal():
        action = chooser.choice(state.legal_actions())
        events = state.apply(action)
        step += 1
        after = seen(state)
        moved = {name: changes(before[name], after[name]) for name in after}
        said = [_event(event) for event in events]
        lines.append(_line({"step": step, "action": action.label, "events": said, "changes": moved}))
        before = after
    lines.append(_line({"scores": [score.to_json() for score in state.scores()], "winners": state.winners()}))
    return lines


def _event(event: Event) -> str | dict[str, Any]:
    """An event as a golden line holds it: its text, and who sees it unless everybody does."""
    if event.audience is not None:
        return {"text": event.text, "for": list(event.audience)}
    if event.excluded:
        return {"text": event.text, "not for": list(event.excluded)}
    return event.text


def write(case: Case) -> None:
    case.path.parent.mkdir(exist_ok=True)
    case.path.write_text("\n".join(play(case)) + "\n", encoding="utf-8")
