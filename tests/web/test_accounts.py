"""Accounts in the browser: sign up, sign out, a wrong password, sign in, change password, sign out
everywhere, and a guest's seat kept in an account; one shared server and browser."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .conftest import Server, screenshot

PASSWORD = "correct horse battery"


def fill_credentials(page: Any, kind: str, name: str, password: str) -> None:
    page.fill(f"#{kind}-name", name)
    page.fill(f"#{kind}-password", password)
    page.click(f"#{kind}-form button[type=submit]")


def test_sign_up_sign_out_sign_in_and_change_password(
    server: Server, open_page: Callable[..., Any], browser: Any
) -> None:
    page = open_page(f"{server.url}/")
    page.wait_for_selector("#account-link:text('Sign in')")
    assert page.inner_text("#nav").strip() == "Sign in"  # a guest's top bar: the link, nothing else
    page.click("#account-link")
    fill_credentials(page, "signup", "webalice", PASSWORD)
    page.wait_for_selector("#signed-in-as")
    assert page.inner_text("#account-link") == "webalice"
    screenshot(page, "account")
    # The cookie is out of the page's reach (HttpOnly).
    assert "parlour_session" not in page.evaluate("document.cookie")
    page.click("#sign-out")
    page.wait_for_selector("#account-link:text('Sign in')")
    # A wrong password: in a page of its own, since the browser logs the 401 answer as an error.
    context = browser.new_context()
    wrong = context.new_page()
    wrong.goto(f"{server.url}/?account")
    fill_credentials(wrong, "signin", "webalice", "not the password")
    wrong.wait_for_selector("#signin-form .status.error")
    assert "no account has this name and password" in wrong.inner_text("#signin-form .status")
    assert wrong.inner_text("#account-link") == "Sign in"
    context.close()
    page.goto(f"{server.url}/?account")
    fill_credentials(page, "signin", "webalice", PASSWORD)
    page.wait_for_selector("#signed-in-as")
    page.fill("#old-password", PASSWORD)
    page.fill("#new-password", "a new password here")
    page.click("#password-form button[type=submit]")
    page.wait_for_selector("#password-form .status:text('Password changed')")
    page.click("#sign-out-everywhere")
    page.wait_for_selector("#account-link:text('Sign in')")
    assert server.http.post("/api/account/signin", json={"name": "webalice", "password": PASSWORD}).status_code == 401


def test_a_guest_seat_is_kept_in_an_account(server: Server, open_page: Callable[..., Any]) -> None:
    created = server.http.post("/api/tables", json={"game": "hatflings", "seats": ["human", "human"]})
    table_id = created.json()["id"]
    page = open_page(f"{server.url}/?table={table_id}")
    page.fill("#join-name", "guest")
    page.click("#join")
    page.wait_for_selector("#players")
    assert page.query_selector("#claim-seat") is None  # a guest has no account to keep it in
    page.goto(f"{server.url}/?account")
    fill_credentials(page, "signup", "webguest", PASSWORD)
    page.wait_for_selector("#signed-in-as")
    page.goto(f"{server.url}/?table={table_id}")
    page.click("#claim-seat")
    page.wait_for_selector("#seat-claimed")
    held = json.loads(page.evaluate(f"localStorage.getItem('parlour.seat.{table_id}')"))
    assert held["account"] == "webguest"
    # A seat taken while signed in is the account's from the start.
    page.goto(f"{server.url}/?table={table_id}&watch=1")
    second = server.http.post("/api/tables", json={"game": "hatflings", "seats": ["human", "human"]}).json()["id"]
    page.goto(f"{server.url}/?table={second}")
    page.fill("#join-name", "webguest")
    page.click("#join")
    page.wait_for_selector("#players")
    held = json.loads(page.evaluate(f"localStorage.getItem('parlour.seat.{second}')"))
    assert held["account"] == "webguest"
    assert page.query_selector("#claim-seat") is None


def test_my_games_resumes_a_seat_on_another_device(server: Server, open_page: Callable[..., Any], browser: Any) -> None:
    laptop = open_page(f"{server.url}/?account")
    fill_credentials(laptop, "signup", "webcarol", PASSWORD)
    laptop.wait_for_selector("#signed-in-as")
    table_id = server.http.post("/api/tables", json={"game": "hatflings", "seats": ["human", "human"]}).json()["id"]
    laptop.goto(f"{server.url}/?table={table_id}")
    laptop.fill("#join-name", "Carol")
    laptop.click("#join")
    laptop.wait_for_selector("#players")
    server.http.post(f"/api/tables/{table_id}/join", json={"name": "guest"})
    # Another device: sign in, open My games, resume.
    phone = open_page(f"{server.url}/?account")
    fill_credentials(phone, "signin", "webcarol", PASSWORD)
    phone.wait_for_selector("#my-games-link")
    phone.click("#my-games-link")
    phone.wait_for_selector(f"[data-table='{table_id}']")
    mover = server.table(table_id)["to_move"]
    where = "your_turn" if mover == 0 else "their_turn"
    assert phone.get_attribute(f"[data-table='{table_id}']", "data-where") == where
    if where == "your_turn":
        assert phone.title().startswith("(1) ")
    phone.click(f"[data-table='{table_id}'] a")
    phone.wait_for_selector("#players")
    held = json.loads(phone.evaluate(f"localStorage.getItem('parlour.seat.{table_id}')"))
    assert held["seat"] == 0 and held["account"] == "webcarol"
    phone.wait_for_selector("#players li:has-text('— you')")
    # The laptop is let go of: on reconnecting its old token is refused and it watches instead.
    laptop.wait_for_selector("#explain:has-text('this token holds no seat')")
    phone.click("#my-games-link")
    phone.click("#my-profile")
    phone.wait_for_selector("#profile-totals")
    assert "Games played: 0" in phone.inner_text("#profile-totals")
