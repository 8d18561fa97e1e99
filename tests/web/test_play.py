"""A person plays a whole game of every game against bots in the browser, by clicking."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from .clicking import MY_TURN_OR_OVER, finished, play_clicks
from .conftest import Server
from .screens import record

GAMES = ["hatflings", "hanbok_runway", "hatairo", "yamatai"]


def create_from_lobby(page: Any, game: str, bots: list[str], name: str = "Ann", seed: int | None = 7) -> str:
    """Fill the lobby's form: the game, one person (this page), the given bots and the seed (None: the
    server draws it), and land at the table; the table id."""
    page.select_option("#game", game)
    if seed is not None:
        page.click("details > summary")
        page.fill("#seed", str(seed))
    page.select_option("#players", str(len(bots) + 1))
    page.select_option("#seat-0", "human")
    for index, bot in enumerate(bots, start=1):
        page.select_option(f"#seat-{index}", bot)
    page.fill("#your-name", name)
    page.click("#create")
    # Against bots alone the lobby goes straight to the table (nobody to invite).
    page.wait_for_url("**/?table=*")
    page.wait_for_selector("#board svg")
    return str(parse_qs(urlparse(page.url).query)["table"][0])


@pytest.mark.parametrize("game", GAMES)
def test_a_person_plays_a_whole_game_against_a_bot(server: Server, open_page: Callable[..., Any], game: str) -> None:
    page = open_page(server.url + "/")
    table_id = create_from_lobby(page, game, ["random"])
    page.wait_for_function(MY_TURN_OR_OVER)
    record(page, game, "start")
    play_clicks(page, decisions=12)
    page.wait_for_function(MY_TURN_OR_OVER)
    record(page, game, "middle")
    play_clicks(page)
    assert finished(page)
    assert page.inner_text("#scores h2").startswith(("You won", "You lost", "Shared win"))
    page.wait_for_selector("#deal.verified")
    record(page, game, "end")
    summary = server.table(table_id)
    assert summary["status"] == "finished"
    totals = [row["total"] for row in summary["result"]["scores"]]
    cells = page.locator("#scores tr.total td").all_inner_texts()
    assert [float(cell) for cell in cells] == [float(total) for total in totals]
    # Every move is in the log, in words.
    assert page.locator("#log > li").count() == summary["version"]
    # A seed of the creator's own against bots: the table says so, and the deal checks out at the end.
    page.wait_for_selector("#deal.verified")
    assert "Fixed deal" in page.inner_text("#deal") and "Deal verified" in page.inner_text("#deal")
    assert page.inner_text("#deal .deal-seed") == "7"
