"""Turn-based tables: a time per move whose deadline is stored (it survives a restart), a bot
playing a timed-out turn or the seat forfeited to a bot as chosen at creation, and the checks on
what a table is opened with."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from .conftest import LiveServer

QUICK = {"min_move_seconds": 0.05, "timer_poll": 0.02, "timeout_agent": "random"}


def turn_based(server: LiveServer, move_seconds: float, on_timeout: str = "bot", stones: int = 9) -> dict[str, Any]:
    table = server.create(
        "nim",
        ["human", "human"],
        options={"stones": stones},
        mode="turn_based",
        move_seconds=move_seconds,
        on_timeout=on_timeout,
    )
    table["tokens"] = [server.join(table["id"], name)["token"] for name in ("Ann", "Ben")]
    return table


def clock(server: LiveServer, table_id: str) -> dict[str, Any]:
    return dict(server.http.get(f"/api/tables/{table_id}/clock").json())


def wait_for_deadline(server: LiveServer, table_id: str, version: int) -> dict[str, Any]:
    """The clock once the deadline of the turn at `version` is set (the watch sets it within a poll)."""
    deadline = time.monotonic() + 10
    while (shown := clock(server, table_id)).get("deadline") is None or server.table(table_id)["version"] != version:
        assert time.monotonic() < deadline, shown
        time.sleep(0.02)
    return shown


@pytest.mark.parametrize(
    ("extra", "refusal"),
    [
        ({"mode": "turn_based"}, "needs move_seconds"),
        ({"mode": "turn_based", "move_seconds": 5}, "move_seconds must be from 60 to 604800, got 5"),
        ({"mode": "turn_based", "move_seconds": 10**7}, "move_seconds must be from 60"),
        ({"move_seconds": 3600}, "move_seconds belongs to turn_based tables"),
        ({"on_timeout": "bot"}, "on_timeout belongs to turn_based tables and time banks"),
        ({"mode": "turn_based", "move_seconds": 3600, "time_bank_seconds": 600}, "belongs to live tables"),
        ({"time_bank_seconds": 5}, "time_bank_seconds must be from 60 to 604800, got 5"),
    ],
)
def test_a_table_is_opened_with_a_sound_mode(server: LiveServer, extra: dict[str, Any], refusal: str) -> None:
    response = server.http.post("/api/tables", json={"game": "nim", "seats": ["human", "human"], **extra})
    assert response.status_code == 422 and response.json()["error"]["code"] == "bad_mode"
    assert refusal in response.json()["error"]["message"]
    assert server.http.get("/api/tables").json() == []


def test_unknown_mode_and_timeout_are_refused(server: LiveServer) -> None:
    cases = [
        ({"mode": "blitz"}, "mode: Input should be 'live' or 'turn_based'"),
        ({"mode": "turn_based", "move_seconds": 3600, "on_timeout": "pass"}, "Input should be 'bot' or 'forfeit'"),
    ]
    for extra, said in cases:
        response = server.http.post("/api/tables", json={"game": "nim", "seats": ["human", "human"], **extra})
        assert response.status_code == 422 and response.json()["error"]["code"] == "bad_request"
        assert said in response.json()["error"]["message"]


def test_a_live_table_has_no_clock(server: LiveServer) -> None:
    table = server.create("nim", ["human", "human"])
    assert table["clock"] is None and server.table(table["id"])["clock"] is None
    assert clock(server, table["id"]) == {"table": table["id"], "mode": "live", "expellable": []}


def test_a_timed_out_turn_is_played_by_the_bot(serve: Callable[..., LiveServer]) -> None:
    server = serve(**QUICK)
    # Two seconds a turn: Ann's runs out while she waits, and Ben's is long enough, on a busy
    # machine too, for his move to come in time.
    table = turn_based(server, 2.0)
    first = wait_for_deadline(server, table["id"], 0)
    assert first["mode"] == "turn_based" and first["on_timeout"] == "bot" and first["to_move"] == 0
    ann = server.connect(table["id"], table["tokens"][0])
    update = ann.until(lambda m: m["type"] == "update", timeout=10)
    assert (update["actor"], update["version"]) == (0, 1)  # played for Ann, by the timeout bot
    # Ann keeps her seat; the clock now runs for Ben's turn, from a new deadline.
    second = wait_for_deadline(server, table["id"], 1)
    assert second["to_move"] == 1 and second["deadline"] > first["deadline"]
    assert server.table(table["id"])["seats"][0]["kind"] == "human"
    ben_moves = server.http.post(
        f"/api/tables/{table['id']}/actions",
        json={"action": 0, "version": 1},
        headers={"Authorization": f"Bearer {table['tokens'][1]}"},
    )
    assert ben_moves.status_code == 200, ben_moves.text  # in time: his own move


def test_a_move_in_time_sets_the_next_deadline(serve: Callable[..., LiveServer]) -> None:
    server = serve(**QUICK)
    table = turn_based(server, 3600)
    first = wait_for_deadline(server, table["id"], 0)
    moved = server.http.post(
        f"/api/tables/{table['id']}/actions",
        json={"action": 0},
        headers={"Authorization": f"Bearer {table['tokens'][0]}"},
    )
    assert moved.status_code == 200
    second = wait_for_deadline(server, table["id"], 1)
    assert second["to_move"] == 1 and second["deadline"] >= first["deadline"]
    assert 3590 < second["seconds_left"] <= 3600


def test_a_timed_out_seat_is_forfeited_to_the_bot(serve: Callable[..., LiveServer]) -> None:
    server = serve(**QUICK)
    table = turn_based(server, 1.0, on_timeout="forfeit", stones=4)
    ann = server.connect(table["id"], table["tokens"][0])  # connected before her time runs out
    wait_for_deadline(server, table["id"], 0)
    watcher = server.connect(table["id"])
    watcher.until(lambda m: m["type"] == "sync" and m["seats"][0]["kind"] == "bot", timeout=10)
    with pytest.raises(ConnectionClosed) as closed:
        ann.until(lambda _message: False, timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4004
    # Ann's token holds nothing now; the bot plays her seat and Ben's game goes on.
    refused = server.http.get(
        f"/api/tables/{table['id']}/state", headers={"Authorization": f"Bearer {table['tokens'][0]}"}
    )
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "bad_token"
    ben = server.connect(table["id"], table["tokens"][1])
    message = ben.position
    while message["status"] != "finished":
        if message["legal"]:
            ben.send(type="act", action=message["legal"][0]["id"], version=message["version"])
        message = ben.until(lambda m: m["type"] in ("sync", "update"), timeout=10)
    assert server.table(table["id"])["status"] == "finished"


def test_the_deadline_survives_a_restart(serve: Callable[..., LiveServer]) -> None:
    first = serve(**QUICK)
    table = turn_based(first, 3600)
    before = wait_for_deadline(first, table["id"], 0)["deadline"]
    first.stop()
    second = serve(**QUICK)
    assert clock(second, table["id"])["deadline"] == before  # the same deadline, not a new one


def test_a_deadline_passed_while_the_server_was_down_expires_on_return(serve: Callable[..., LiveServer]) -> None:
    first = serve(**QUICK)
    # Time enough to read the first turn's deadline on a busy machine before bots play out the game.
    table = turn_based(first, 3.0)
    deadline = datetime.fromisoformat(wait_for_deadline(first, table["id"], 0)["deadline"])
    first.stop()
    # Wait out the deadline while no server runs (three seconds at most).
    time.sleep(max(0.0, deadline.timestamp() - time.time() + 0.05))
    second = serve(**QUICK)
    watcher = second.connect(table["id"])
    if watcher.position["version"] == 0:
        watcher.until(lambda m: m["type"] == "update", timeout=10)
    assert second.table(table["id"])["version"] >= 1


BANK = 4.0


def test_a_live_tables_time_bank_is_spent_by_its_seat_and_runs_out(serve: Callable[..., LiveServer]) -> None:
    # Ann keeps most of her bank for the restart at the end: a live bank runs while the server is
    # down, and a restart on a busy machine can take more than a second.
    server = serve(**QUICK)
    table = server.create("nim", ["human", "human"], options={"stones": 9}, time_bank_seconds=BANK)
    tokens = [server.join(table["id"], name)["token"] for name in ("Ann", "Ben")]
    start = wait_for_deadline(server, table["id"], 0)
    assert (start["mode"], start["time_bank_seconds"], start["time_banks"]) == ("live", BANK, [BANK, BANK])
    assert start["move_seconds"] is None
    watcher = server.connect(table["id"])
    ann_moves = server.http.post(
        f"/api/tables/{table['id']}/actions", json={"action": 0}, headers={"Authorization": f"Bearer {tokens[0]}"}
    )
    assert ann_moves.status_code == 200
    after = wait_for_deadline(server, table["id"], 1)
    ann_left = after["time_banks"][0]
    assert 0 < ann_left < BANK and after["time_banks"][1] == BANK  # Ann spent some of hers, Ben none yet
    # Ben never moves: his bank runs out and the bot plays his turn; Ann's bank is as she left it.
    timed_out = watcher.until(lambda m: m["type"] == "update" and m["version"] == 2, timeout=10)
    assert timed_out["actor"] == 1
    spent = wait_for_deadline(server, table["id"], 2)
    assert spent["time_banks"] == [ann_left, 0.0] and spent["to_move"] == 0
    # A restart keeps the banks.
    server.stop()
    again = serve(**QUICK)
    assert clock(again, table["id"])["time_banks"] == [ann_left, 0.0]
