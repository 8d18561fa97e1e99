"""A person at the table, played by clicks only: a small deterministic strategy over what the page
highlights (board targets, step buttons, move buttons), never the server's legal list."""

from __future__ import annotations

import time
from typing import Any

MY_TURN_OR_OVER = "() => document.querySelector('#turn.mine') !== null || document.querySelector('#scores') !== null"
CLICKABLE = "#board .target.legal, #choices button.step, #choices button.choice"


def finished(page: Any) -> bool:
    return bool(page.locator("#scores").count())


def click_one(page: Any, turn: int) -> None:
    """Click the `turn`-th (cyclically) highlighted target or move button of the page."""
    options = page.locator(CLICKABLE)
    count = options.count()
    assert count, "it is my turn but nothing is highlighted or offered: " + page.inner_text("#turn")
    options.nth(turn % count).click()


def play_clicks(page: Any, decisions: int | None = None, timeout: float = 180) -> int:
    """Click through the person's turns until the game is over (or `decisions` clicks); the click count."""
    clicks = 0
    deadline = time.monotonic() + timeout
    while decisions is None or clicks < decisions:
        assert time.monotonic() < deadline, "the game did not end in time"
        page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
        if finished(page):
            break
        click_one(page, clicks)
        clicks += 1
    return clicks
