"""Turn-based play in the browser: a game across two browser contexts with the server restarted
between moves (the seats, the position and the clock's deadline come back), the tab title saying
whose turn it is, and a timer expiring (a tiny time per move allowed by this server's settings)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server, screenshot
from .screens import audit

SETTINGS = {"min_move_seconds": 0.5, "timer_poll": 0.05, "timeout_agent": "random"}


@pytest.fixture(scope="module")
def timed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    """This module's own server (restartable at the same address); the list holds the running one."""
    running = [Server(tmp_path_factory.mktemp("timed") / "parlour.sqlite", settings=SETTINGS)]
    yield running
    running[0].stop()


def restart(timed: list[Server]) -> Server:
    old = timed[0]
    old.stop()
    timed[0] = Server(Path(old.db), port=old.port, settings=SETTINGS)
    return timed[0]


def open_table(server: Server, move_seconds: float) -> str:
    body = {"game": "hatflings", "seats": ["human", "human"], "mode": "turn_based", "move_seconds": move_seconds}
    created = server.http.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


def take_seat(page: Any, name: str) -> None:
    page.fill("#join-name", name)
    page.click("#join")
    page.wait_for_selector("#players")


def seated(server: Server, table_id: str, open_one: Callable[[str], Any]) -> tuple[Any, Any]:
    """Ann's and Ben's pages, each at its seat of the table."""
    pages = []
    for name in ("Ann", "Ben"):
        page = open_one(f"{server.url}/?table={table_id}")
        take_seat(page, name)
        pages.append(page)
    return pages[0], pages[1]


def play_one_move(page: Any) -> None:
    """Play the first legal move from the list of every legal move."""
    page.wait_for_selector("#moves option", state="attached")
    page.focus("#play-move")
    page.keyboard.press("Enter")


@pytest.fixture
def restarting_pages(browser: Any) -> Iterator[Callable[[str], Any]]:
    """Pages that fail the test on any console error but one: while the server restarts, the
    browser reports each refused reconnection of the websocket as an error."""
    errors: list[str] = []
    contexts: list[Any] = []

    def open_one(url: str) -> Any:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(context)
        page = context.new_page()
        expected = "ERR_CONNECTION_REFUSED"
        page.on(
            "console",
            lambda m: m.type == "error" and expected not in m.text and errors.append(f"{page.url}: {m.text}"),
        )
        page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
        page.set_default_timeout(20_000)
        page.goto(url)
        return page

    yield open_one
    for context in contexts:
        context.close()
    assert not errors, "console errors:\n" + "\n".join(errors)


def test_a_turn_based_game_across_a_restart(timed: list[Server], restarting_pages: Callable[[str], Any]) -> None:
    server = timed[0]
    table_id = open_table(server, 86400)
    ann, ben = seated(server, table_id, restarting_pages)
    first = server.table(table_id)["to_move"]
    mover, other = (ann, ben) if first == 0 else (ben, ann)
    # The deadline is set within a poll of the last seat being taken; the page asks again until then.
    # The clock speaks to the seat to move as "you", and names it to the others.
    mover.wait_for_selector("#clock:has-text('you have')")
    assert "1d 0h per move" in mover.inner_text("#clock")
    assert "left (then a bot plays your turn)" in mover.inner_text("#clock")
    other.wait_for_selector("#clock:has-text('left (then a bot plays the turn)')")
    assert ("Ann has" if mover is ann else "Ben has") in other.inner_text("#clock")
    mover.wait_for_function("document.title.startsWith('Your turn')")
    assert not other.title().startswith("Your turn")
    deadline = server.http.get(f"/api/tables/{table_id}/clock").json()["deadline"]
    screenshot(mover, "turn-based")
    # The server goes away and comes back at the same address; each browser opens the table
    # again (next day, say) and is back at its seat, the clock as it was.
    server = restart(timed)
    assert server.http.get(f"/api/tables/{table_id}/clock").json()["deadline"] == deadline
    for page in (mover, other):
        page.reload()
        page.wait_for_selector("#players li:has-text('— you')")
    mover.wait_for_function("document.title.startsWith('Your turn')")
    version = server.table(table_id)["version"]
    play_one_move(mover)
    other.wait_for_function("document.title.startsWith('Your turn')", timeout=30_000)
    assert server.table(table_id)["version"] == version + 1
    assert not mover.title().startswith("Your turn")


def test_a_timer_expires_and_the_bot_plays_the_turn(timed: list[Server], open_page: Callable[..., Any]) -> None:
    server = timed[0]
    table_id = open_table(server, 1.5)
    ann, ben = seated(server, table_id, open_page)
    first = server.table(table_id)["to_move"]
    waiting = ben if first == 0 else ann
    # Nobody moves: the timer expires, the bot plays the turn and the other seat is to move.
    waiting.wait_for_function("document.title.startsWith('Your turn')", timeout=30_000)
    # (On a busy machine the next seat's time may run out as well, so at least one move.)
    assert server.table(table_id)["version"] >= 1
    waiting.wait_for_selector("#log > li")


def test_a_live_table_with_time_banks_from_the_lobby(timed: list[Server], open_page: Callable[..., Any]) -> None:
    server = timed[0]
    page = open_page(f"{server.url}/")
    page.select_option("#game", "hatflings")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "human")
    assert page.is_hidden("#on-timeout")
    page.select_option("#time-bank", "300")
    page.select_option("#on-timeout", "forfeit")
    page.fill("#your-name", "Ann")
    page.click("#create")
    page.wait_for_selector("#go-table")
    table_id = page.input_value("#invite-link").rsplit("/", 1)[1]
    clock = server.http.get(f"/api/tables/{table_id}/clock").json()
    assert (clock["mode"], clock["time_bank_seconds"], clock["on_timeout"]) == ("live", 300, "forfeit")
    server.http.post(f"/api/tables/{table_id}/join", json={"name": "Ben"})
    page.click("#go-table")
    page.wait_for_selector("#clock:has-text('Time banks: You')")
    assert "Ben" in page.inner_text("#clock")
    assert "when one runs out" in page.inner_text("#clock")


def test_a_seat_out_of_time_is_expelled_from_the_players_panel(
    timed: list[Server], open_page: Callable[..., Any]
) -> None:
    server = timed[0]
    table_id = open_table(server, 1.5)
    ann, ben = seated(server, table_id, open_page)
    late, page, other = (0, ben, ann) if server.table(table_id)["to_move"] == 0 else (1, ann, ben)
    name = "Ann" if late == 0 else "Ben"
    # Nobody moves: the bot plays the late seat's turn, and the other seat is offered to expel it.
    button = page.locator(f"#players li[data-seat='{late}'] #expel-{late}")
    button.wait_for(timeout=30_000)
    assert late in server.http.get(f"/api/tables/{table_id}/clock").json()["expellable"]
    assert other.locator(f"#expel-{late}").count() == 0  # never offered against oneself
    screenshot(page, "expel")
    assert not audit(page)  # the button is named and reachable like every other control
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", answer)
    button.click()
    page.wait_for_selector(f"#expel-status:has-text('{name} was expelled')")
    assert f"{name} ran out of time" in asked[0] and "cannot come back" in asked[0]
    assert server.table(table_id)["seats"][late]["kind"] == "bot"
    page.wait_for_selector(f"#expel-{late}", state="detached")
