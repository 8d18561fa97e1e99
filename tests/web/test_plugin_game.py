"""The game published as its own distribution (tests/plugin_game) in the browser: it ships no board
module, so the table draws the generic board, and it is played from the list of legal moves."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .conftest import Server


def test_a_game_without_a_board_module_is_played_on_the_generic_board(
    server: Server, open_page: Callable[..., Any]
) -> None:
    page = open_page(server.url + "/")
    page.select_option("#game", "pebbles")
    page.select_option("#players", "2")
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "random")
    page.fill("#your-name", "Ann")
    page.click("#create")
    page.wait_for_url("**/?table=*")  # against a bot: straight to the table
    table_id = page.url.rsplit("=", 1)[1]
    drawn = page.wait_for_selector("#board pre.generic-view")
    heap = json.loads(drawn.inner_text())["heap"]
    page.wait_for_selector("#moves option", state="attached")
    assert page.locator("#moves option").all_inner_texts()[:3] == ["Take 1", "Take 2", "Take 3"]
    page.click("#play-move")  # the first of them
    page.wait_for_function("document.querySelectorAll('#log > li').length >= 1")
    page.wait_for_function(f"JSON.parse(document.querySelector('#board pre.generic-view').textContent).heap < {heap}")
    assert server.table(table_id)["version"] >= 1
