"""The game published as its own distribution (tests/plugin_game) at a server table: created,
joined and moved on like a built-in game, its rules served from its package, no board module."""

from __future__ import annotations

from .conftest import LiveServer, wait_until


def test_a_table_of_the_plugin_game_takes_a_move(server: LiveServer) -> None:
    assert "pebbles" in {game["name"] for game in server.http.get("/api/games").json()}
    table = server.create("pebbles", ["human", "random", "random"], options={"players": 3, "misere": True}, seed=2)
    seat = server.join(table["id"], "Ann")
    auth = {"Authorization": f"Bearer {seat['token']}"}
    position = server.http.get(f"/api/tables/{table['id']}/state", headers=auth).json()
    heap = position["view"]["heap"]
    assert position["seat"] == 0 and [a["label"] for a in position["legal"]] == ["take 1", "take 2", "take 3"]
    moved = server.http.post(
        f"/api/tables/{table['id']}/actions", json={"action": "take 2", "version": 0}, headers=auth
    )
    assert moved.status_code == 200, moved.text
    assert moved.json()["view"]["heap"] == heap - 2
    wait_until(lambda: server.table(table["id"])["version"] >= 3)  # both bots answered


def test_its_rules_come_from_its_package_and_the_client_gets_the_generic_board(server: LiveServer) -> None:
    rules = server.http.get("/api/games/pebbles/rules")
    assert rules.status_code == 200 and rules.text.startswith("# Pebbles")
    board = server.http.get("/games/pebbles/board.js")
    assert board.status_code == 307 and board.headers["location"] == "/js/games/generic.js"
