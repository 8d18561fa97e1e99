"""Leaving and ending in the browser: a seat concedes with one click (and a confirmation); both
pages and the lobby then say who conceded, and an expired table is listed as expired."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .conftest import Server
from .seating import ann_and_ben
from .test_ratings import signed_up


def test_a_concession_is_shown_at_the_table_and_in_the_lobby(server: Server, open_page: Callable[..., Any]) -> None:
    table_id, ann, ben = ann_and_ben(server, open_page)
    ann.wait_for_selector("#concede:visible")
    ann.once("dialog", lambda dialog: dialog.accept())
    ann.click("#concede")
    ben.wait_for_selector("#turn:has-text('The table ended: conceded by Ann')")
    ann.wait_for_selector("#turn:has-text('conceded by Ann')")
    assert ann.locator("#concede-box").is_hidden()
    lobby = open_page(f"{server.url}/")
    row = lobby.locator(f"li[data-table='{table_id}']")
    row.wait_for()
    assert "conceded by Ann" in row.inner_text()
    assert row.locator("a:has-text('Replay')").count() == 0


def test_leaving_a_game_hands_the_seat_to_a_bot(server: Server, open_page: Callable[..., Any]) -> None:
    table_id, ann, _ben = ann_and_ben(server, open_page)
    ann.wait_for_selector("#leave:visible")
    ann.once("dialog", lambda dialog: dialog.accept())
    ann.click("#leave")
    ann.wait_for_url(f"{server.url}/")
    seats = server.table(table_id)["seats"]
    assert seats[0]["kind"] == "bot" and server.table(table_id)["status"] == "running"
    # Back on the table's page, Ann is a spectator now: no seat of hers is remembered.
    ann.goto(f"{server.url}/?table={table_id}&watch=1")
    ann.wait_for_selector("#turn")
    assert ann.locator("#concede-box").is_hidden()


def test_a_signed_in_player_joins_by_invite_without_typing_a_name(
    server: Server, open_page: Callable[..., Any]
) -> None:
    table_id = server.http.post("/api/tables", json={"game": "hatflings", "seats": ["human", "human"]}).json()["id"]
    page = signed_up(open_page, server, "invitee")
    page.evaluate("localStorage.setItem('parlour.name', 'Guest name')")  # typed once as a guest
    page.goto(f"{server.url}/invite/{table_id}")
    page.wait_for_selector(".as-account")
    assert page.input_value("#join-name") == "invitee"
    page.click("#join")
    page.wait_for_selector("#players li:has-text('— you')")
    seat = server.table(table_id)["seats"][0]
    assert seat["name"] == "invitee" and server.table(table_id)["ratings"]["0"]["account"] == "invitee"


def test_sign_up_states_its_rules_before_a_try(server: Server, open_page: Callable[..., Any]) -> None:
    page = open_page(f"{server.url}/?account")
    page.wait_for_selector("#signup-name-rule")
    rules = server.http.get("/api/account/rules").json()
    assert page.inner_text("#signup-name-rule") == f"{rules['name']}."
    assert page.inner_text("#signup-password-rule") == f"{rules['password']}."
    # The browser holds the name to the rule as it is typed: a bad one never reaches the server.
    page.fill("#signup-name", "a!")
    assert page.evaluate("document.querySelector('#signup-name').validity.patternMismatch") is True
    page.fill("#signup-name", "good_name")
    assert page.evaluate("document.querySelector('#signup-name').validity.valid") is True
