"""Table chat in the browser: a message with HTML in it shows as text at the other seat and to a
spectator, and Mute hides the chat for that browser alone, across a reload."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .conftest import Server

HTML = "<b>bold</b> <img src=x onerror=\"document.title='pwned'\"> & <script>alert(1)</script>"


def take_seat(page: Any, name: str) -> None:
    page.fill("#join-name", name)
    page.click("#join")
    page.wait_for_selector("#chat-form:not([hidden])")


def test_chat_shows_html_as_text_and_mute_is_ones_own(server: Server, open_page: Callable[..., Any]) -> None:
    table_id = server.http.post("/api/tables", json={"game": "hatflings", "seats": ["human", "human"]}).json()["id"]
    ann = open_page(f"{server.url}/?table={table_id}")
    take_seat(ann, "Ann")
    ben = open_page(f"{server.url}/?table={table_id}")
    take_seat(ben, "Ben")
    watcher = open_page(f"{server.url}/?table={table_id}&watch=1")
    watcher.wait_for_selector("#chat")
    assert watcher.is_hidden("#chat-form")  # spectators read only
    ann.fill("#chat-text", HTML)
    ann.press("#chat-text", "Enter")
    for page in (ann, ben, watcher):
        page.wait_for_selector("#chat-log .chat-message")
        assert page.inner_text("#chat-log .chat-text") == HTML
        assert page.query_selector("#chat-log b, #chat-log img, #chat-log script") is None
        assert page.title() != "pwned"
    ben.check("#chat-mute")
    ben.wait_for_selector("#chat-muted")
    ann.fill("#chat-text", "second")
    ann.press("#chat-text", "Enter")
    watcher.wait_for_selector("#chat-log .chat-message:nth-child(2)")
    assert "second" not in ben.inner_text("#chat")
    ben.reload()
    ben.wait_for_selector("#chat-muted")
    ben.uncheck("#chat-mute")
    ben.wait_for_selector("#chat-log .chat-message:nth-child(2)")
    assert [t.strip() for t in ben.locator("#chat-log .chat-text").all_inner_texts()] == [HTML, "second"]
