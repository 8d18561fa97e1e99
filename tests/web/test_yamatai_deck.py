"""Yamataï's board says what a seat knows of the building deck's hidden top after a preview."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from parlour.engine.registry import game_classes

from .conftest import Server

GOLDEN = Path(__file__).parents[1] / "games" / "yamatai" / "golden" / "players_3_seed_2.jsonl"

DRAW = """async (view) => {
  const module = (await import("/games/yamatai/board.js")).default;
  await module.prepare({ game: "yamatai" });
  const drawn = module.draw(view, { seat: 1, names: ["Ann", "Bo", "Cy"] });
  document.body.append(drawn);
  const note = drawn.querySelector("#deck-known");
  return note ? note.textContent : null;
}"""


def view_after_a_preview(seat: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Seat's view just before and just after another seat's preview puts a tile back in the deck."""
    lines = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    game = game_classes()["yamatai"](**lines[0]["options"])
    state = game.new_state(lines[0]["seed"])
    for line in lines[1:]:
        if "action" not in line:
            continue
        before = state.view(seat)
        state.apply(game.action(line["action"]))
        if state.view(seat)["deck_known_within"]:
            return before, state.view(seat)
    raise AssertionError("no preview in the recorded game")


def test_the_tiles_known_near_the_deck_top_are_shown(server: Server, open_page: Callable[..., Any]) -> None:
    before, after = view_after_a_preview(seat=1)
    assert not before["deck_known_within"] and not before["known_deck_top"]
    page = open_page(server.url + "/")
    assert page.evaluate(DRAW, before) is None
    note = page.evaluate(DRAW, after)
    fact = after["deck_known_within"][0]
    # The tile by what it is (its kind, PP and needs), never by its code.
    assert note is not None and f"top {fact['within']}" in note and fact["tile"] not in note
    assert re.search(r"the (standard building|palace|torii) \(\d+ PP, ", note), note
