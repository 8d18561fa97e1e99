"""Live play: a full game of every game over the websocket, spectators, resync, and the HTTP play API."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from parlour.engine.records import verify
from parlour.engine.registry import game_classes

from .conftest import LiveServer, Player, all_games, play_to_end, wait_until

GAMES = all_games()


@pytest.mark.parametrize("game", GAMES)
def test_a_full_game_with_one_person_and_bots(serve: Callable[..., LiveServer], game: str) -> None:
    # This client answers instantly, far faster than a person: lift the rate limit.
    server = serve(rate=10_000.0, burst=10_000)
    players = min(game_classes()[game].player_counts())
    table = server.create(game, ["human"] + ["random"] * (players - 1), seed=11)
    seat = server.join(table["id"], "Ann")
    player = server.connect(table["id"], seat["token"])
    assert player.seat == 0 and player.position["status"] == "running"
    last = play_to_end(player, seed=4)
    assert last["result"]["winners"] and len(last["result"]["scores"]) == players
    # After the first position, versions arrive one by one, none skipped, none repeated (a bot
    # may have moved first, before the person connected).
    versions = [m["version"] for m in player.messages if m["type"] == "update"]
    assert versions == list(range(player.position["version"] + 1, last["version"] + 1))
    summary = server.table(table["id"])
    assert summary["status"] == "finished" and summary["seed"] == 11
    record = server.http.get(f"/api/tables/{table['id']}/record").json()
    assert verify(record).history == record["actions"] and len(record["actions"]) == last["version"]
    player.close()


def test_two_people_and_a_spectator_see_the_same_game(server: LiveServer) -> None:
    table = server.create("nim", ["human", "human"], seed=2)
    ann_seat = server.join(table["id"], "Ann")
    ann = server.connect(table["id"], ann_seat["token"])
    watcher = server.connect(table["id"])
    assert watcher.seat is None and ann.position["status"] == "open" and ann.position["legal"] == []
    bo_seat = server.join(table["id"], "Bo")
    bo = server.connect(table["id"], bo_seat["token"])
    # Bo taking the last seat starts the game: everybody is sent the new position.
    started = ann.until(lambda m: m["type"] == "sync")
    assert started["status"] == "running" and started["legal"]
    assert watcher.until(lambda m: m["type"] == "sync")["legal"] == []
    turn = {0: ann, 1: bo}
    position = started
    while position["status"] != "finished":
        mover = turn[position["to_move"]]
        mover.send(type="act", action=mover_legal(mover, position)[0]["label"], version=position["version"])
        position = watcher.until(lambda m: m["type"] == "update")
        assert position["action"] is None and position["legal"] == []
        for person in (ann, bo):
            seen = person.until(lambda m: m["type"] == "update")
            assert seen["version"] == position["version"] and seen["view"] == position["view"]
    assert position["result"]["winners"] in ([0], [1])


def mover_legal(mover: Player, position: dict[str, Any]) -> list[dict[str, Any]]:
    # The watcher's copy has no legal list; the mover's own latest message has it.
    latest = [m for m in mover.messages if m["type"] in ("sync", "update")][-1]
    assert latest["version"] == position["version"]
    return list(latest["legal"])


def test_a_reconnecting_player_resyncs_to_the_current_version(server: LiveServer) -> None:
    table = server.create("nim", ["human", "random"], options={"stones": 20}, seed=1)
    seat = server.join(table["id"], "Ann")
    first = server.connect(table["id"], seat["token"])
    legal = first.position["legal"]
    first.send(type="act", action=legal[0]["id"], version=0)
    first.close()
    wait_until(lambda: server.table(table["id"])["version"] == 2)
    again = server.connect(table["id"], seat["token"])
    assert again.seat == 0 and again.position["version"] == 2
    assert again.position["view"]["to_move"] == 0 and again.position["view"]["pile"] in (16, 17, 18)
    assert again.position["legal"]
    again.send(type="sync")
    assert again.until(lambda m: m["type"] == "sync")["version"] == 2


def test_actions_over_http_with_the_seat_token(server: LiveServer) -> None:
    table = server.create("nim", ["human", "random"], options={"stones": 15}, seed=1)
    seat = server.join(table["id"], "Ann")
    auth = {"Authorization": f"Bearer {seat['token']}"}
    position = server.http.get(f"/api/tables/{table['id']}/state", headers=auth).json()
    assert position["seat"] == 0 and [a["label"] for a in position["legal"]] == ["take 1", "take 2", "take 3"]
    body = {"action": "take 3", "version": 0}
    response = server.http.post(f"/api/tables/{table['id']}/actions", json=body, headers=auth)
    assert response.status_code == 200, response.text
    moved = response.json()
    assert moved["version"] == 1 and moved["action"]["label"] == "take 3" and moved["view"]["pile"] == 12
    wait_until(lambda: server.table(table["id"])["version"] == 2)
    spectator = server.http.get(f"/api/tables/{table['id']}/state").json()
    assert spectator["seat"] is None and spectator["legal"] == [] and spectator["version"] == 2


def test_a_bot_only_table_plays_itself_out(server: LiveServer) -> None:
    table = server.create("peek", ["random", "greedy"], seed=8)
    assert table["status"] == "running"
    wait_until(lambda: server.table(table["id"])["status"] == "finished")
    assert server.table(table["id"])["version"] == 4
