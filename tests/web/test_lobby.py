"""The lobby keeps a player's seat: a table against bots opens at once; back in the lobby it is under
"My tables" with Resume (the seat's token kept in this browser), not Watch; finished tables name
their winner, never a seat number."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .clicking import MY_TURN_OR_OVER
from .conftest import Server
from .test_play import create_from_lobby
from .test_ratings import play_out


def test_my_tables_resume_the_seat_held_in_this_browser(server: Server, open_page: Callable[..., Any]) -> None:
    page = open_page(server.url + "/")
    table_id = create_from_lobby(page, "hanbok_runway", ["random"], name="Ann")
    assert page.locator("#invite-link").count() == 0  # nobody to invite: no invite panel on the way
    page.wait_for_function(MY_TURN_OR_OVER)
    page.goto(server.url + "/")
    mine = page.wait_for_selector(f"#my-tables [data-table='{table_id}']")
    assert mine.query_selector("a.resume").inner_text() == "Resume"
    assert "Watch" not in mine.inner_text() and "Join" not in mine.inner_text()
    # The same table in the full list offers Resume too, never a spectator's view of one's own seat.
    row = page.locator(f".tables:not(#my-tables) [data-table='{table_id}']")
    assert row.locator("a.resume").count() == 1 and "Watch" not in row.inner_text()
    mine.query_selector("a.resume").click()
    page.wait_for_selector("#board svg")
    page.wait_for_function(MY_TURN_OR_OVER)
    assert "Ann — you" in page.inner_text("#players")
    assert "Waiting for Ann" not in page.inner_text("#turn")

    # Another browser holds no seat there: no "My tables", and the table is offered to watch.
    other = open_page(server.url + "/")
    other.wait_for_selector(f"[data-table='{table_id}']")
    assert other.locator("#my-tables").count() == 0
    assert "Watch" in other.inner_text(f"[data-table='{table_id}']")
    assert "Ann · Random bot" in other.inner_text(f"[data-table='{table_id}']")  # names, as at the table


def test_finished_tables_name_their_winner(server: Server, open_page: Callable[..., Any]) -> None:
    created = server.http.post("/api/tables", json={"game": "hatflings", "seats": ["human", "random"]}).json()
    joined = server.http.post(f"/api/tables/{created['id']}/join", json={"name": "Zoe"}).json()
    play_out(server, created["id"], [joined["token"]])
    winners = server.table(created["id"])["result"]["winners"]
    page = open_page(server.url + "/")
    row = page.wait_for_selector(f"[data-table='{created['id']}']").inner_text()
    assert not re.search(r"\bseat \d", row), row
    expected = ["Zoe", "Random bot"]
    if len(winners) == 1:
        assert f"winner: {expected[winners[0]]}" in row, row
    else:
        assert "shared win: Zoe, Random bot" in row, row
