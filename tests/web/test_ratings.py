"""Ratings in the browser: a rated table opened from the lobby by a signed-in player, joined by
another in a second browser context, played to its end; the ratings then show on the leaderboard,
in the lobby and beside the names at the table."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from .conftest import Server, screenshot

PASSWORD = "correct horse battery"


def signed_up(open_page: Callable[..., Any], server: Server, name: str) -> Any:
    page = open_page(f"{server.url}/?account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#signed-in-as")
    return page


def token_of(page: Any, table_id: str) -> str:
    return str(json.loads(page.evaluate(f"localStorage.getItem('parlour.seat.{table_id}')"))["token"])


def play_out(server: Server, table_id: str, tokens: list[str]) -> None:
    """Both seats play their first legal move until the game is over (over HTTP, quickly)."""
    deadline = time.monotonic() + 120
    while server.table(table_id)["status"] != "finished":
        assert time.monotonic() < deadline, "the game did not end"
        for token in tokens:
            position = server.http.get(f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {token}"})
            legal = position.json()["legal"]
            if legal:
                body = {"action": legal[0]["id"], "version": position.json()["version"]}
                server.http.post(
                    f"/api/tables/{table_id}/actions", json=body, headers={"Authorization": f"Bearer {token}"}
                )


def signed(rating: str) -> str:
    value = float(rating)
    return f"{'+' if value > 0 else '-' if value < 0 else '±'}{abs(value):.1f}"


def test_a_rated_game_changes_the_ratings_shown(server: Server, open_page: Callable[..., Any]) -> None:
    ann = signed_up(open_page, server, "rateann")
    ben = signed_up(open_page, server, "rateben")
    ann.goto(f"{server.url}/")
    ann.select_option("#game", "hatflings")
    ann.select_option("#players", "2")
    ann.select_option("#seat-1", "human")
    ann.check("#rated")
    ann.fill("#your-name", "Ann")
    ann.click("#create")
    ann.wait_for_selector("#go-table")
    table_id = ann.input_value("#invite-link").rsplit("/", 1)[1]
    assert server.table(table_id)["rated"] is True
    ben.goto(f"{server.url}/?table={table_id}")
    ben.fill("#join-name", "Ben")
    ben.click("#join")
    ben.wait_for_selector("#players")
    play_out(server, table_id, [token_of(ann, table_id), token_of(ben, table_id)])
    deadline = time.monotonic() + 30
    while len(server.http.get("/api/ratings/hatflings?players=2").json()["ratings"]) < 2:
        assert time.monotonic() < deadline, "the ratings were not updated"
        time.sleep(0.1)
    ben.goto(f"{server.url}/?ratings=hatflings")
    ben.wait_for_selector("#ratings-2 [data-player='rateann']")
    rows = {name: ben.inner_text(f"#ratings-2 [data-player='{name}'] .rating") for name in ("rateann", "rateben")}
    assert all(float(value) != 0.0 for value in rows.values())
    screenshot(ben, "ratings")
    # The leaderboard shows each player's last change too.
    for name, rating in rows.items():
        assert ben.inner_text(f"#ratings-2 [data-player='{name}'] .rating-change") == signed(rating)
    # Beside the names: in the lobby's finished games and at the table.
    ben.goto(f"{server.url}/")
    row = ben.locator(f"[data-table='{table_id}']")
    row.wait_for()
    assert f"({float(rows['rateann']):.1f})" in row.inner_text()
    # With what the game changed it by: a first rated game starts from 0, so by the rating itself.
    assert f"({float(rows['rateann']):.1f}) {signed(rows['rateann'])} this game" in row.inner_text()
    ann.goto(f"{server.url}/?table={table_id}")
    ann.wait_for_selector(f"#players li:has-text('({float(rows['rateann']):.1f})')")
