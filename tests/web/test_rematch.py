"""Rematch in the browser: at the end of a game between two browser contexts, one clicks Rematch
and lands at the new table; the other's button becomes Join the rematch and seats them there."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .conftest import Server
from .seating import ann_and_ben
from .test_ratings import play_out, token_of


def test_one_click_offers_the_same_players_a_new_table(server: Server, open_page: Callable[..., Any]) -> None:
    table_id, ann, ben = ann_and_ben(server, open_page)
    ben.wait_for_selector("#players")
    play_out(server, table_id, [token_of(ann, table_id), token_of(ben, table_id)])
    # The whole game was played in a moment over HTTP: each page opens the finished table afresh.
    ann.reload()
    ben.reload()
    ann.wait_for_selector("#rematch:visible")
    ben.wait_for_selector("#rematch:visible")
    ann.click("#rematch")
    ann.wait_for_url(lambda url: table_id not in url)
    new_id = ann.url.rsplit("=", 1)[1]
    ann.wait_for_selector("#players li:has-text('— you')")
    ben.wait_for_selector("#rematch:has-text('Join the rematch')")
    ben.click("#rematch")
    ben.wait_for_url(f"**/?table={new_id}")
    ben.wait_for_selector("#players li:has-text('— you')")
    new = server.table(new_id)
    # Each player one seat on: who plays first alternates.
    assert new["status"] == "running" and [s["name"] for s in new["seats"]] == ["Ben", "Ann"]
