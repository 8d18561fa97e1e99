"""What a rival's move changed plays as motion over the board already drawn in its final state:
pieces slide, cards flip, tokens travel (web/js/motion.js and the board modules' data-motion
marks); with reduced motion nothing moves."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from .clicking import MY_TURN_OR_OVER, click_one, finished
from .conftest import Server
from .test_play import create_from_lobby

DESKTOP = {"width": 1280, "height": 900}

# Every animation started on a marked component of the board, as it starts: its keyframes, whether
# the browser runs it, and the component's drawing then and once it has ended.
MOTION_SPY = """
window.__motions = [];
window.__boardAnimations = 0;  // every script animation on the board, marked for motion or not
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  const animation = animate.call(this, frames, options);
  if (this.closest && this.closest("#board, .motion-layer")) window.__boardAnimations++;
  if (this.dataset && this.dataset.motion && this.closest("#board, .motion-layer")) {
    const seen = { motion: this.dataset.motion, kind: options.id, duration: options.duration,
      delay: options.delay || 0, fill: options.fill || "auto",
      properties: [...new Set(frames.flatMap((frame) => Object.keys(frame)))],
      start: frames[0].transform, end: frames[frames.length - 1].transform,
      running: this.getAnimations().includes(animation) && animation.playState === "running",
      drawn: this.outerHTML, connected: this.isConnected };
    animation.finished.then(() => Object.assign(seen, { after: this.outerHTML, onPage: this.isConnected }),
      () => (seen.after = "cancelled"));
    window.__motions.push(seen);
  }
  return animation;
};
"""

# What each game shows moving after a few of the random bot's turns.
EXPECTED = {
    "hanbok_runway": r"(tok|card|set):",  # a token earned, a card drawn, a set made
    "hatairo": r"(flag|pig):",  # a flag card taken or dealt, a pigment gained
    "yamatai": r"(fleet|bldg|spec|boat):",  # a fleet tile taken, a building, a specialist, a boat
}

# What, once moved, a later step of the same turn never moves back: a token earned, a card taken.
LASTING = {"hanbok_runway": r"tok:", "hatairo": r"flag:", "yamatai": r"(bldg|spec):"}


def play_until(page: Any, done: str, clicks: int) -> None:
    """Click through this seat's turns until `done` (a page expression) holds or the game ends."""
    for turn in range(clicks):
        page.wait_for_function(MY_TURN_OR_OVER)
        if finished(page) or page.evaluate(done):
            return
        click_one(page, turn)


# How many moves of the log the rival (not Ann, this page's player) made.
# A log line is the move's sentence, which starts with the player's name ("Random bot places…").
RIVAL_STEPS = "[...document.querySelectorAll('#log > li')].filter((n) => !/^(Ann|You)\\b/.test(n.textContent)).length"


@pytest.mark.parametrize("game", sorted(EXPECTED))
def test_what_a_rival_changed_moves_over_the_final_board(
    server: Server, open_page: Callable[..., Any], browser: Any, game: str
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(MOTION_SPY)
    try:
        page = open_page(server.url + "/", context=context)
        create_from_lobby(page, game, ["random"])
        wanted = f"window.__motions.some((m) => /^{EXPECTED[game]}/.test(m.motion))"
        play_until(page, wanted, 60)
        assert page.evaluate(wanted), f"nothing of {game} moved: {page.evaluate('window.__motions')}"
        page.wait_for_function("window.__motions.every((m) => 'after' in m)")
        # The copies that flew from one drawing to another are gone once they arrived.
        page.wait_for_function("document.querySelectorAll('.motion-layer').length === 0")
        # A turn's steps arrive together, each redrawing the board: a token or card a step moved
        # and a later step's redraw took off the page moves again on the new drawing, to its end.
        motions = page.evaluate("window.__motions")
        drawn = set(page.eval_on_selector_all("#board [data-motion]", "nodes => nodes.map((n) => n.dataset.motion)"))
        ended = {seen["motion"] for seen in motions if seen.get("onPage")}
        lasting = {seen["motion"] for seen in motions if re.match(LASTING[game], seen["motion"])}
        assert lasting & drawn <= ended, motions
        for seen in page.evaluate("window.__motions"):
            # Short, running at once over the drawn component, and only moving it: the final state
            # shows from the start and is the same once the motion ends.
            assert seen["kind"] in {"slide", "travel", "flip"} and seen["duration"] <= 400, seen
            assert seen["running"] and seen["connected"] and seen["delay"] == 0 and seen["fill"] == "auto", seen
            assert seen["properties"] == ["transform"] and seen["end"] == "none", seen
            assert seen["after"] in {seen["drawn"], "cancelled"}, seen
            if seen["kind"] == "flip":
                assert seen["start"].startswith("scaleX("), seen
            else:
                offset = re.fullmatch(r"translate\((-?[\d.e-]+)px, (-?[\d.e-]+)px\)", seen["start"])
                assert offset and (float(offset[1]), float(offset[2])) != (0.0, 0.0), seen
    finally:
        context.close()


@pytest.mark.parametrize("game", ["hatflings", *sorted(EXPECTED)])
def test_with_reduced_motion_nothing_moves(
    server: Server, open_page: Callable[..., Any], browser: Any, game: str
) -> None:
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    context.add_init_script(MOTION_SPY)
    try:
        page = open_page(server.url + "/", context=context)
        create_from_lobby(page, game, ["random"])
        play_until(page, f"{RIVAL_STEPS} >= 3", 60)
        page.wait_for_function(MY_TURN_OR_OVER)
        assert page.evaluate(RIVAL_STEPS) >= 3, "the rival hardly moved"
        assert page.evaluate("window.__boardAnimations") == 0
        assert page.evaluate("document.getAnimations().length") == 0
    finally:
        context.close()


# The views the server sent, as they come.
VIEW_SPY = """
window.__views = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.view) window.__views.push(message.view);
    });
  }
};
"""

# Yamataï's archipelago drawn for a view, then for the same view with boats moved as `change` says
# (a fleet power's move or swap, whose events name no spot): the animations the second drawing plays.
MOVE_BOATS = """async (change) => {
  const board = (await import("/games/yamatai/board.js")).default;
  const { snapshot, animateChanges } = await import("/js/motion.js");
  const view = structuredClone(window.__views[window.__views.length - 1]);
  const names = view.mats.map((_, i) => `P${i}`);
  const context = { seat: 0, seats: names.map(() => ({})), colours: [], names, toMove: 0 };
  const area = document.createElement("div");
  area.className = "board-area";
  document.body.append(area);
  const before = structuredClone(view);
  const spots = Object.keys(before.boats);
  for (const spot of spots) delete before.boats[spot];
  Object.assign(before.boats, change.before);
  const after = structuredClone(before);
  for (const spot of Object.keys(change.before)) delete after.boats[spot];
  Object.assign(after.boats, change.after);
  area.append(board.draw(before, context));
  const seen = snapshot(area);
  area.replaceChildren(board.draw(after, context));
  const played = animateChanges(seen, area).map((a) => [a.effect.target.closest("[data-key]").dataset.key, a.id]);
  area.remove();
  return played;
}"""


def test_yamatai_boats_moved_by_a_fleet_power_slide(
    server: Server, open_page: Callable[..., Any], browser: Any
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(VIEW_SPY)
    try:
        page = open_page(server.url + "/", context=context)
        create_from_lobby(page, "yamatai", ["random"])
        page.wait_for_function("window.__views.length > 0")
        keys = "nodes => nodes.map((n) => n.dataset.key.slice(5))"
        spots = page.eval_on_selector_all("#board [data-key^='spot:']", keys)
        a, b, c = spots[:3]
        # A boat moved from one spot to another: it slides there; the boat that stayed does not move.
        moved = page.evaluate(MOVE_BOATS, {"before": {a: "wood", c: "wood"}, "after": {b: "wood", c: "wood"}})
        assert moved == [[f"spot:{b}", "slide"]]
        # Two boats swapped: each slides to the other's spot.
        swapped = page.evaluate(MOVE_BOATS, {"before": {a: "wood", b: "stone"}, "after": {a: "stone", b: "wood"}})
        assert sorted(swapped) == [[f"spot:{a}", "slide"], [f"spot:{b}", "slide"]]
        # Nothing changed: nothing moves.
        assert page.evaluate(MOVE_BOATS, {"before": {a: "wood"}, "after": {a: "wood"}}) == []
    finally:
        context.close()
