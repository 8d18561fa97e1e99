"""Quick play in the browser: two browsers press Play now for the same game at once and meet at
one table; a player who will not wait gets bots at once; a turn-based table has its clock; the
Play now box at phone size passes the audit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .clicking import MY_TURN_OR_OVER
from .conftest import Server, screenshot
from .screens import SIZES, audit


def press_play_now(page: Any, game: str, name: str, wait: str, mode: str = "live", players: str = "2") -> None:
    card = page.locator(f".game-card[data-game='{game}']")
    card.locator("button.play-now").click()
    page.select_option(f"#quick-players-{game}", players)
    page.select_option(f"#quick-mode-{game}", mode)
    page.select_option(f"#quick-wait-{game}", wait)
    page.fill(f"#quick-name-{game}", name)
    card.locator("button[type=submit]").click()


def table_of(page: Any) -> str:
    page.wait_for_url("**/?table=*", timeout=30_000)
    page.wait_for_selector("#board svg")
    return str(page.evaluate("new URLSearchParams(location.search).get('table')"))


def test_two_browsers_meet_at_one_table(server: Server, open_page: Callable[..., Any]) -> None:
    ann = open_page(server.url + "/")
    press_play_now(ann, "hatflings", "Ann", "60")
    ann.wait_for_function(
        "document.querySelector(\"[data-game='hatflings'] .quick-status\").textContent.includes('only one waiting')"
    )
    bob = open_page(server.url + "/", viewport=SIZES["phone"])
    press_play_now(bob, "hatflings", "Bob", "60")
    table = table_of(bob)
    assert table_of(ann) == table
    seats = server.table(table)["seats"]
    assert sorted(seat["name"] for seat in seats) == ["Ann", "Bob"]
    for page, name in ((ann, "Ann"), (bob, "Bob")):
        page.wait_for_function(
            "() => document.querySelector('#turn.mine')"
            " || document.querySelector('#turn').textContent.startsWith('Waiting for')"
        )
        assert f"{name} — you" in page.inner_text("#players")


def test_no_wait_means_bots_now_and_turn_based_has_its_clock(server: Server, open_page: Callable[..., Any]) -> None:
    page = open_page(server.url + "/")
    press_play_now(page, "yamatai", "Cleo", "0", players="3")
    table = server.table(table_of(page))
    assert [seat["kind"] for seat in table["seats"]] == ["human", "bot", "bot"]
    page.wait_for_function(MY_TURN_OR_OVER)
    page.goto(server.url + "/")
    press_play_now(page, "hanbok_runway", "Cleo", "0", mode="turn_based")
    clocked = server.table(table_of(page))
    assert clocked["clock"]["mode"] == "turn_based"


def test_the_play_now_box_on_a_phone(server: Server, open_page: Callable[..., Any]) -> None:
    page = open_page(server.url + "/", viewport=SIZES["phone"])
    page.locator(".game-card[data-game='hatairo'] button.play-now").click()
    assert page.locator("#quick-players-hatairo option").all_inner_texts() == ["2 players", "3 players", "4 players"]
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES["phone"]["width"]
    page.locator(".game-card[data-game='hatairo']").scroll_into_view_if_needed()
    assert not audit(page)
    screenshot(page, "lobby-play-now-phone")
