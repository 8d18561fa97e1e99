"""What a game's package carries, served to the browser: its rules page and its board module."""

from __future__ import annotations

import pytest

from .conftest import LiveServer

BUILT_IN = ("hanbok_runway", "hatairo", "hatflings", "yamatai")


@pytest.mark.parametrize("game", BUILT_IN)
def test_each_game_serves_its_board_module_and_rules_from_its_package(server: LiveServer, game: str) -> None:
    board = server.http.get(f"/games/{game}/board.js")
    assert board.status_code == 200, board.text
    assert board.headers["content-type"].startswith("text/javascript")
    assert "export default" in board.text and 'from "/js/dom.js"' in board.text
    rules = server.http.get(f"/api/games/{game}/rules")
    assert rules.status_code == 200 and rules.text.startswith("#")


def test_a_game_without_a_board_module_is_sent_to_the_generic_board(server: LiveServer) -> None:
    answer = server.http.get("/games/nim/board.js")
    assert answer.status_code == 307 and answer.headers["location"] == "/js/games/generic.js"
    unknown = server.http.get("/games/chess/board.js")
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "unknown_game"
