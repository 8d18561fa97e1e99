"""Durability: a server killed mid-game comes back with every table exactly as it was, and play goes on."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, update

from parlour.engine.records import replay
from parlour.server import Settings
from parlour.server.db.models import ActionRow, now
from parlour.server.settings import database_url

from ..engine.nim import Nim
from .conftest import LiveServer, Player, free_socket, play_to_end, wait_until

# The subprocess knows only the real games; hatflings is short and has hidden information.
GAME = "hatflings"


class ServerProcess:
    """`parlour serve` as its own process, on a free loopback port."""

    def __init__(self, db: str, log: Path, extra: tuple[str, ...] = ()) -> None:
        sock = free_socket()
        self.port = sock.getsockname()[1]
        sock.close()
        self.db = db
        command = [sys.executable, "-m", "parlour.cli", "serve", "--port", str(self.port), "--db", db, *extra]
        self.log = log.open("ab")
        self.process = subprocess.Popen([*command, "--bot-delay", "0"], stdout=self.log, stderr=self.log)
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}: {log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.1)
        self.http = httpx.Client(base_url=self.url, timeout=30)
        # The Player helper only needs these two attributes of a server.
        self.ws_url = f"ws://127.0.0.1:{self.port}"

    def kill(self) -> None:
        self.http.close()
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)
        self.log.close()

    def stop(self) -> None:
        self.http.close()
        self.process.terminate()
        self.process.wait(30)
        self.log.close()


@pytest.fixture
def processes(db: str, tmp_path: Path) -> Iterator[Callable[[], ServerProcess]]:
    started: list[ServerProcess] = []

    def start() -> ServerProcess:
        server = ServerProcess(db, tmp_path / "server.log")
        started.append(server)
        return server

    yield start
    for server in started:
        if server.process.poll() is None:
            server.stop()


def act_until(player: Player, versions: int) -> dict[str, Any]:
    """Play seat 0's first legal move each turn until the table has passed `versions` actions."""
    message = player.position
    while message["version"] < versions:
        if message["legal"]:
            player.send(type="act", action=message["legal"][0]["id"], version=message["version"])
        message = player.until(lambda m: m["type"] in ("update", "error"))
        assert message["type"] == "update", message
    return message


def test_sigkill_mid_game_loses_nothing(processes: Callable[[], ServerProcess]) -> None:
    first = processes()
    table = first.http.post("/api/tables", json={"game": GAME, "seats": ["human", "random"], "seed": 77}).json()
    joined = first.http.post(f"/api/tables/{table['id']}/join", json={"name": "Ann"}).json()
    player = Player(first, table["id"], joined["token"], hello=True)
    seen = act_until(player, 8)
    before_kill = [m for m in player.messages if m["type"] == "update"]
    first.kill()
    assert first.process.returncode == -signal.SIGKILL

    second = processes()
    summary = second.http.get(f"/api/tables/{table['id']}").json()
    # Every action anybody was told about was committed first, so it is all still there.
    assert summary["version"] >= seen["version"] and summary["status"] == "running"
    player = Player(second, table["id"], joined["token"], hello=True)
    assert player.seat == 0 and player.position["version"] == summary["version"]
    final = play_to_end(player, seed=3)
    record = second.http.get(f"/api/tables/{table['id']}/record").json()
    assert len(record["actions"]) == final["version"]
    # The game after the restart continues the very game that was broadcast before the kill.
    states = [replay({**record, "actions": record["actions"][:n], "labels": None}) for n in range(final["version"] + 1)]
    for message in before_kill:
        assert message["view"] == json.loads(json.dumps(states[message["version"]].view(0)))
        if message["action"] is not None:
            assert record["actions"][message["version"] - 1] == message["action"]["id"]
    second.stop()


def test_a_restart_keeps_tables_seats_and_tokens(serve: Callable[..., LiveServer]) -> None:
    first = serve()
    table = first.create("peek", ["human", "human"], seed=6)
    ann = first.join(table["id"], "Ann")
    bo = first.join(table["id"], "Bo")
    waiting = first.create("nim", ["human", "random"], options={"stones": 13})
    player = first.connect(table["id"], ann["token"])
    player.send(type="act", action="draw", version=0)
    moved = player.until(lambda m: m["type"] == "update")
    player.close()
    first.stop()

    second = serve()
    again = second.connect(table["id"], ann["token"])
    assert again.position["version"] == 1 and again.position["view"] == moved["view"]
    other = second.connect(table["id"], bo["token"])
    assert other.seat == 1 and other.position["legal"]
    assert second.table(waiting["id"])["status"] == "open"
    assert [s["name"] for s in second.table(table["id"])["seats"]] == ["Ann", "Bo"]
    taken = second.http.post(f"/api/tables/{table['id']}/join", json={"name": "Cy"})
    assert taken.status_code == 409


def test_a_finished_game_is_served_after_a_restart(serve: Callable[..., LiveServer]) -> None:
    first = serve()
    table = first.create("peek", ["random", "random"], seed=2)
    wait_until(lambda: first.table(table["id"])["status"] == "finished")
    record = first.http.get(f"/api/tables/{table['id']}/record").json()
    first.stop()
    second = serve()
    assert second.http.get(f"/api/tables/{table['id']}/record").json() == record
    assert table["id"] in {t["id"] for t in second.http.get("/api/tables", params={"status": "finished"}).json()}


def test_a_table_whose_stored_actions_do_not_replay_is_set_aside(serve: Callable[..., LiveServer], db: str) -> None:
    first = serve()
    broken = first.create("nim", ["human", "human"], options={"stones": 3}, seed=1)
    fine = first.create("nim", ["human", "human"], options={"stones": 3}, seed=1)
    for table in (broken, fine):
        tokens = [first.join(table["id"], name)["token"] for name in ("Ann", "Bo")]
        player = first.connect(table["id"], tokens[0])
        player.send(type="act", action="take 1", version=0)
        player.until(lambda m: m["type"] == "update")
        player.close()
    first.stop()
    # Tamper with the stored game behind the server's back: "take 3" of a pile of 2 cannot replay.
    engine = create_engine(database_url(db))
    with engine.begin() as connection:
        connection.execute(update(ActionRow).where(ActionRow.table_id == broken["id"]).values(action_id=2))
        connection.execute(
            ActionRow.__table__.insert().values(table_id=broken["id"], ply=1, action_id=2, seat=1, played_at=now())
        )
    engine.dispose()
    second = serve()
    assert second.http.get("/health").json()["status"] == "ok"
    assert second.table(fine["id"])["version"] == 1
    response = second.http.get(f"/api/tables/{broken['id']}")
    assert response.status_code == 409 and "step 1" in response.json()["error"]["message"]


def test_the_sqlite_file_is_created_on_first_start(tmp_path: Path) -> None:
    path = tmp_path / "new" / "games.sqlite"
    server = LiveServer(Settings(db=str(path), web_dir=None))
    try:
        health = server.http.get("/health").json()
        # One process (in this very test process, here): SQLite is served by one.
        expected = {"status": "ok", "database": "ok", "backend": "sqlite", "tables": 0}
        assert health == {**expected, "process": f"pid {os.getpid()}"}
        assert path.is_file() and path.stat().st_size > 0
    finally:
        server.stop()


def test_serve_refuses_a_database_it_cannot_open(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "parlour.cli", "serve", "--port", "0", "--db", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert f"error: cannot open the database sqlite:///{tmp_path}: unable to open database file" in done.stderr


def test_a_restart_rebuilds_tables_on_one_game_and_keeps_only_what_play_needs(serve: Callable[..., LiveServer]) -> None:
    first = serve()
    ids = []
    for _ in range(3):
        table = first.create("nim", ["human", "human"], options={"stones": 13})
        ann, _ = (first.join(table["id"], name)["token"] for name in ("Ann", "Bo"))
        played = first.http.post(
            f"/api/tables/{table['id']}/actions", json={"action": "take 1"}, headers={"Authorization": f"Bearer {ann}"}
        )
        assert played.status_code == 200
        ids.append(table["id"])
    first.stop()

    second = serve()
    hub = second.app.state.hub
    # Nobody is connected and no bot is to move: the tables wait in the lobby, not in memory.
    assert not set(ids) & set(hub.tables)
    listed = {t["id"]: t for t in second.http.get("/api/tables").json()}
    assert all(listed[table_id]["status"] == "running" and listed[table_id]["version"] == 1 for table_id in ids)
    # Asked for, each is rebuilt on the one Game its options need, built once.
    for table_id in ids:
        assert second.table(table_id)["version"] == 1
    assert len({id(hub.tables[table_id].state.game) for table_id in ids}) == 1


def test_a_restart_builds_each_game_once_whatever_the_cache_keeps(
    serve: Callable[..., LiveServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = serve()
    for stones in (10, 11, 10, 11, 10):
        first.create("nim", ["human", "human"], options={"stones": stones})
    first.stop()
    built: list[Nim] = []
    build_actions = Nim._build_actions

    def counted(game: Nim) -> Any:
        built.append(game)
        return build_actions(game)

    monkeypatch.setattr(Nim, "_build_actions", counted)
    # One Game kept, two option sets among five tables: the tables are rebuilt set by set.
    second = serve(game_cache=1)
    assert len(second.http.get("/api/tables").json()) == 5
    assert len(built) == 2
