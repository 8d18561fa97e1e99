"""The lobby invites: each game as a card with a picture drawn by its own board module, a line on
what it is like, players and length, and Learn to play; seats named "You" and "Opponent N"; the
table lists without seat numbers, internal ids or a stray "null"; readable on a phone; the axe
audit at both sizes."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .conftest import Server, screenshot
from .screens import SIZES, audit

GAMES = {"hanbok_runway": "Hanbok Runway", "hatairo": "Hatairo", "hatflings": "Hatflings!", "yamatai": "Yamataï"}


def test_each_game_is_a_card_with_its_picture_and_what_it_is_like(
    server: Server, open_page: Callable[..., Any]
) -> None:
    page = open_page(server.url + "/")
    page.wait_for_selector("h2:text('Open and running tables')")
    for game, title in GAMES.items():
        card = page.locator(f".game-card[data-game='{game}']")
        card.locator(".game-picture svg[role=img]").wait_for()
        assert title in card.locator(".game-picture svg").get_attribute("aria-label")
        assert card.locator("h3").inner_text() == title
        assert len(card.locator(".feel").inner_text()) > 40
        assert re.fullmatch(r"[1-4](–[2-4])? players? · \d+–\d+ min", card.locator(".facts").inner_text())
        assert card.locator("a.learn").get_attribute("href") == f"/?learn={game}"
    # "New table" on a card chooses that game in the form.
    page.locator(".game-card[data-game='yamatai'] button.new-table").click()
    assert page.eval_on_selector("#game", "select => select.value") == "yamatai"
    page.select_option("#players", "3")
    labels = page.locator(".seat-row label").all_inner_texts()
    assert labels == ["You", "Opponent 1", "Opponent 2"]


def test_the_lists_say_nothing_internal_and_fit_a_phone(server: Server, open_page: Callable[..., Any]) -> None:
    created = server.http.post(
        "/api/tables", json={"game": "hatairo", "seats": ["human", "human", "random"], "options": {"players": 3}}
    ).json()
    server.http.post(f"/api/tables/{created['id']}/join", json={"name": "Mira"})
    violations = []
    for size, viewport in SIZES.items():
        page = open_page(server.url + "/", viewport=viewport)
        row = page.wait_for_selector(f"[data-table='{created['id']}']")
        page.locator(".game-card .game-picture svg").first.wait_for()
        text = page.inner_text("main")
        assert "null" not in text and "undefined" not in text
        assert created["id"] not in text
        assert not re.search(r"\bseat \d", text, re.IGNORECASE), re.search(r"\bseat \d", text, re.IGNORECASE)
        assert "Mira · Random bot · 1 free seat" in row.inner_text()
        assert "waiting for players" in row.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        violations += [f"the lobby on a {size}: {v}" for v in audit(page)]
        screenshot(page, f"lobby-{size}")
    assert not violations, "\n".join(violations)
