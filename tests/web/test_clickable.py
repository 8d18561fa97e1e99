"""Every highlighted target can be clicked where it is drawn, and every word is a player's, in every
game, player count and variant, on a desktop and on a phone: a person plays a whole game against
random bots by clicks, and at each new kind of step (and every few decisions) every legal target
is scrolled into view and hit-tested at both sizes (tests/web/hits.py) and the page's text is
scanned for codes, rule numbers, file names and the like (tests/web/wording.py), to the end screen."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from .clicking import MY_TURN_OR_OVER, click_one, finished
from .conftest import Server
from .hits import unreachable
from .screens import SIZES
from .wording import page_faults

# Each game at each player count, and each option that changes what is drawn (Hatairo's variants
# and beginner set-up, Hatflings!' interactive scene).
TABLES = [
    ("hatflings", {}),
    ("hatflings", {"scene": "interactive"}),
    ("hanbok_runway", {}),
    ("hatairo", {"players": 1}),
    ("hatairo", {"players": 2, "variant": "motif"}),
    ("hatairo", {"players": 2, "beginner": True}),
    ("hatairo", {"players": 3, "variant": "drafting"}),
    ("hatairo", {"players": 4}),
    ("hatairo", {"players": 4, "variant": "motif+drafting"}),
    ("yamatai", {"players": 2}),
    ("yamatai", {"players": 3}),
    ("yamatai", {"players": 4}),
]
EVERY = 8  # besides each new kind of step, a check every this many decisions
KINDS = """() => [...new Set([...document.querySelectorAll('#board .target.legal')]
  .map((n) => n.dataset.key.split(':')[0]))].sort().join(' ')"""


def seated_page(browser: Any, open_page: Callable[..., Any], server: Server, game: str, options: dict[str, Any]) -> Any:
    """A table of `game` with a person at the first seat and random bots at the others, opened at that seat."""
    players = int(options.get("players", 2))
    body = {"game": game, "options": options, "seats": ["human"] + ["random"] * (players - 1), "seed": 11}
    created = server.http.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    joined = server.http.post(f"/api/tables/{table_id}/join", json={"name": "Ann", "seat": 0})
    assert joined.status_code == 200, joined.text
    context = browser.new_context(viewport=SIZES["desktop"])
    held = json.dumps({"token": joined.json()["token"], "seat": 0, "name": "Ann", "account": None})
    context.add_init_script(f"localStorage.setItem('parlour.seat.{table_id}', {json.dumps(held)})")
    page = open_page(f"{server.url}/?table={table_id}", context=context)
    page.wait_for_selector("#board svg")
    return page


def table_id(game: str, options: dict[str, Any]) -> str:
    """A test id one can select with -k: hatairo-4p-motif-drafting, hatflings-interactive."""
    words = [game] + [
        f"{value}p" if name == "players" else name if value is True else str(value) for name, value in options.items()
    ]
    return "-".join(words).replace("+", "-")


@pytest.mark.parametrize(("game", "options"), TABLES, ids=[table_id(g, o) for g, o in TABLES])
def test_every_legal_target_is_hit_where_it_is_drawn(
    server: Server, browser: Any, open_page: Callable[..., Any], game: str, options: dict[str, Any]
) -> None:
    page = seated_page(browser, open_page, server, game, options)
    seen: set[str] = set()
    decisions, checks = 0, 0
    while True:
        assert decisions < 400, "the game did not end"
        page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
        if finished(page):
            break
        kinds = page.evaluate(KINDS)
        if kinds and (kinds not in seen or decisions % EVERY == 0):
            seen.add(kinds)
            for size, viewport in SIZES.items():
                page.set_viewport_size(viewport)
                missed = unreachable(page)
                assert not missed, f"{game} {options} on a {size}, decision {decisions}:\n" + "\n".join(missed)
            page.set_viewport_size(SIZES["desktop"])
            words = page_faults(page)
            assert not words, f"{game} {options}, decision {decisions}:\n" + "\n".join(words)
            checks += 1
        click_one(page, decisions)
        decisions += 1
    assert checks >= 2, "too few positions were checked"
    # The end: the scores, the breakdown, the log in full, the deal.
    page.wait_for_selector("#scores")
    page.wait_for_function("document.querySelectorAll('#log > li').length > 0")
    words = page_faults(page)
    assert not words, f"{game} {options}, the end:\n" + "\n".join(words)
    # The last click was on the board: no component's words linger on the end screen.
    page.mouse.move(200, 300)
    assert page.inner_text("#detail").strip() == ""
