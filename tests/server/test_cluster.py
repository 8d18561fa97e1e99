"""Several server processes on one PostgreSQL database (docs/server.md, "Several server processes").

Three `parlour serve` processes on loopback ports share one schema for the whole module; games are
played with clients split among them, one process is killed with SIGKILL mid-game, and every
record is checked against what each client saw, seat by seat.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from parlour.cli import app as cli
from parlour.engine.records import replay
from parlour.server.settings import database_url

from .conftest import POSTGRES_URL, Player, play_to_end, run_sql, wait_until
from .test_restart import ServerProcess

GAME = "hatflings"  # two seats and hidden cards: what each seat may see differs
LEASE_SECONDS = 2.0

postgres = pytest.mark.skipif(not POSTGRES_URL, reason="needs PARLOUR_TEST_POSTGRES_URL (make test starts PostgreSQL)")


class Node(ServerProcess):
    """A server process of the cluster, with a short lease so that a hand-over is quick."""

    def __init__(self, db: str, log: Path, *extra: str) -> None:
        super().__init__(db, log, ("--lease-seconds", str(LEASE_SECONDS), *extra))
        self.name = self.http.get("/health").json()["process"]


@pytest.fixture(scope="module")
def schema_db() -> Iterator[str]:
    schema = f"parlour_cluster_{os.getpid()}_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    run_sql(POSTGRES_URL, f"DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}")
    yield POSTGRES_URL + ("&" if "?" in POSTGRES_URL else "?") + f"options=-csearch_path%3D{schema}"
    run_sql(POSTGRES_URL, f"DROP SCHEMA IF EXISTS {schema} CASCADE")


@pytest.fixture(scope="module")
def nodes(schema_db: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Node]]:
    logs = tmp_path_factory.mktemp("cluster")
    started: list[Node] = []
    try:
        for index in range(3):
            started.append(Node(schema_db, logs / f"node{index}.log"))
        yield started
    finally:
        for node in started:
            if node.process.poll() is None:
                node.stop()


def open_table(node: Node, seats: list[str], **extra: Any) -> str:
    created = node.http.post("/api/tables", json={"game": GAME, "seats": seats, **extra})
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


def join(node: Node, table_id: str, name: str) -> str:
    joined = node.http.post(f"/api/tables/{table_id}/join", json={"name": name})
    assert joined.status_code == 200, joined.text
    return str(joined.json()["token"])


def record_of(node: Node, table_id: str) -> dict[str, Any]:
    answer = node.http.get(f"/api/tables/{table_id}/record")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def check_seen(record: dict[str, Any], messages: list[dict[str, Any]], seat: int | None) -> list[int]:
    """Every position a client was sent is the record's position at that version as `seat` sees
    it, an action only to the seat that played it; returns the versions of its updates."""
    states = [
        replay({**record, "actions": record["actions"][:n], "labels": None}) for n in range(len(record["actions"]) + 1)
    ]
    versions = []
    for message in messages:
        if message["type"] not in ("sync", "update"):
            continue
        assert message["view"] == json.loads(json.dumps(states[message["version"]].view(seat))), message["version"]
        if message["type"] == "update":
            versions.append(message["version"])
            if message["actor"] == seat:
                assert message["action"]["id"] == record["actions"][message["version"] - 1]
            else:
                assert message["action"] is None  # another seat's action is never shown
    return versions


def running(player: Player) -> dict[str, Any]:
    """The player's position once its process knows every seat is taken (a seat taken through
    another process reaches it by a notice, and a sync)."""
    if player.position["status"] == "running":
        return player.position
    return player.until(lambda m: m["type"] == "sync" and m["status"] == "running")


def watch_to_end(player: Player) -> None:
    player.until(lambda m: m["type"] == "update" and m["status"] == "finished", timeout=120)


def in_threads(*jobs: Any) -> None:
    errors: list[BaseException] = []

    def run(job: Any) -> None:
        try:
            job()
        except BaseException as error:  # handed to the test's thread
            errors.append(error)

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(180)
    assert not errors, errors


def listed(node: Node, status: str | None = None) -> list[tuple[Any, ...]]:
    tables = node.http.get("/api/tables", params={"status": status} if status else {}).json()
    return [(t["id"], t["version"], t["status"], tuple(s["taken"] for s in t["seats"])) for t in tables]


@postgres
@pytest.mark.postgres
def test_seats_on_different_processes_see_every_move_in_order_and_only_their_own(nodes: list[Node]) -> None:
    first, second, third = nodes
    table_id = open_table(first, ["human", "human"])
    # Each seat is taken and played through a process of its own; a spectator watches from the third.
    ann = Player(first, table_id, join(first, table_id, "Ann"), hello=True)
    bob = Player(second, table_id, join(second, table_id, "Bob"), hello=True)
    spectator = Player(third, table_id, None, hello=True)
    assert (ann.seat, bob.seat, spectator.seat) == (0, 1, None)
    in_threads(lambda: play_to_end(ann, seed=1), lambda: play_to_end(bob, seed=2), lambda: watch_to_end(spectator))
    record = record_of(third, table_id)
    moves = len(record["actions"])
    for client, seat in ((ann, 0), (bob, 1), (spectator, None)):
        # Every move, once each, in order, whichever process it was played on.
        assert check_seen(record, client.messages, seat) == list(range(client.position["version"] + 1, moves + 1))
    # The lobby, its finished tables included, is the same from every process.
    wait_until(lambda: listed(first, "finished") == listed(second, "finished") == listed(third, "finished"))
    assert table_id in [entry[0] for entry in listed(second, "finished")]


@postgres
@pytest.mark.postgres
def test_one_move_sent_to_two_processes_at_once_is_committed_once(nodes: list[Node]) -> None:
    first, second, _ = nodes
    table_id = open_table(first, ["human", "human"])
    token = join(first, table_id, "Ann")
    join(second, table_id, "Bob")
    # Seat 0 is connected to two processes and sends its move to both for the same version.
    here, there = Player(first, table_id, token, hello=True), Player(second, table_id, token, hello=True)
    positions = [running(client) for client in (here, there)]
    legal = positions[0]["legal"]
    assert legal and positions[0]["version"] == positions[1]["version"] == 0
    here.send(type="act", action=legal[0]["id"], version=0)
    there.send(type="act", action=legal[-1]["id"], version=0)
    answers = [client.until(lambda m: m["type"] == "update" and m["version"] == 1) for client in (here, there)]
    # Both clients were sent the one move the database holds, and no second one.
    committed = {answer["action"]["id"] for answer in answers}
    assert len(committed) == 1
    for client in (here, there):
        assert client.version() == 1
    refused = [m for m in here.messages + there.messages if m["type"] == "error"]
    assert len(refused) == 1 and refused[0]["code"] in ("stale_version", "not_your_turn"), refused
    engine = create_engine(database_url(nodes[0].db))
    with engine.connect() as connection:
        stored = connection.execute(text("SELECT action_id FROM actions WHERE table_id = :t"), {"t": table_id}).all()
    engine.dispose()
    assert [row[0] for row in stored] == list(committed)


@postgres
@pytest.mark.postgres
def test_a_table_conceded_through_one_process_ends_at_once_on_the_others(nodes: list[Node]) -> None:
    first, second, _ = nodes
    table_id = open_table(first, ["human", "human"])
    ann_token = join(first, table_id, "Ann")
    # Bob plays through the second process, which holds the table in memory for him.
    bob = Player(second, table_id, join(second, table_id, "Bob"), hello=True)
    running(bob)
    conceded = first.http.post(f"/api/tables/{table_id}/concede", headers={"Authorization": f"Bearer {ann_token}"})
    assert conceded.status_code == 200, conceded.text
    told = bob.until(lambda m: m["type"] == "sync" and m["status"] == "finished")
    assert told["ended"] == {"reason": "conceded", "seat": 0} and told["legal"] == []
    shown = second.http.get(f"/api/tables/{table_id}").json()
    assert (shown["status"], shown["ended"]) == ("finished", {"reason": "conceded", "seat": 0})
    bob.send(type="act", action=0)
    assert bob.until(lambda m: m["type"] == "error")["code"] == "game_over"


def lease_owner(db: str, table_id: str) -> str | None:
    engine = create_engine(database_url(db))
    with engine.connect() as connection:
        owner = connection.execute(text("SELECT owner FROM table_leases WHERE table_id = :t"), {"t": table_id}).scalar()
    engine.dispose()
    return owner


@postgres
@pytest.mark.postgres
def test_a_process_killed_mid_game_hands_its_clients_bots_and_clocks_to_the_others(
    schema_db: str, tmp_path: Path, nodes: list[Node]
) -> None:
    first, _, third = nodes
    doomed = Node(schema_db, tmp_path / "doomed.log")
    # A table with a bot and a turn-based table, both opened on the process that will be killed.
    bot_table = open_table(doomed, ["human", "random"])
    token = join(doomed, bot_table, "Ann")
    timed = open_table(doomed, ["human", "human"], mode="turn_based", move_seconds=3600)
    join(first, timed, "Bob")
    join(third, timed, "Cy")
    assert lease_owner(doomed.db, bot_table) == lease_owner(doomed.db, timed) == doomed.name
    # The seats were taken elsewhere; the clock's process heard of it and started the clock.
    wait_until(lambda: doomed.http.get(f"/api/tables/{timed}/clock").json().get("deadline") is not None)
    deadline = datetime.fromisoformat(doomed.http.get(f"/api/tables/{timed}/clock").json()["deadline"])
    ann = Player(doomed, bot_table, token, hello=True)
    message = ann.position
    while message["version"] < 6:  # a few moves each way, the bot's answered by the doomed process
        if message["legal"]:
            ann.send(type="act", action=message["legal"][0]["id"], version=message["version"])
        message = ann.until(lambda m: m["type"] in ("update", "error"))
        assert message["type"] == "update", message
    before = list(ann.messages)
    doomed.kill()
    assert doomed.process.returncode == -signal.SIGKILL
    # Its client comes back through another process and plays on; the bot answers from a survivor.
    ann = Player(third, bot_table, token, hello=True)
    assert ann.position["version"] >= message["version"]  # nothing acknowledged was lost
    final = play_to_end(ann, seed=4)
    survivors = {node.name for node in nodes}
    owner = lease_owner(first.db, bot_table)  # none once its holder has seen the game end
    assert owner is None or owner in survivors
    record = record_of(first, bot_table)
    assert len(record["actions"]) == final["version"]
    check_seen(record, before + ann.messages, 0)
    # The clock's table is taken over too, with the very deadline that was set before the kill.
    wait_until(lambda: lease_owner(first.db, timed) in survivors, timeout=10 * LEASE_SECONDS)
    for node in (first, third):
        # A process shows the clock once it has read what the last holder stored (at most a second).
        def shown(node: Any = node) -> Any:
            return node.http.get(f"/api/tables/{timed}/clock").json().get("deadline")

        wait_until(lambda: shown() is not None, timeout=10 * LEASE_SECONDS)
        assert datetime.fromisoformat(shown()) == deadline


def test_several_workers_need_postgresql(tmp_path: Path) -> None:
    sqlite = tmp_path / "parlour.sqlite"
    result = CliRunner().invoke(cli, ["serve", "--workers", "2", "--db", str(sqlite), "--port", "0"])
    assert result.exit_code != 0
    assert "SQLite means one process" in result.output and "postgresql://" in result.output
    assert not sqlite.exists()  # nothing started, nothing created


@postgres
@pytest.mark.postgres
def test_workers_share_one_port(schema_db: str, tmp_path: Path, nodes: list[Node]) -> None:
    node = Node(schema_db, tmp_path / "workers.log", "--workers", "2")
    try:
        answered: set[str] = set()
        deadline = time.monotonic() + 60
        while len(answered) < 2 and time.monotonic() < deadline:
            # A new connection each time: the kernel hands it to either process.
            answered.add(httpx.get(f"{node.url}/health", timeout=10).json()["process"])
        assert len(answered) == 2
        # A table opened through the shared port is known to every other process too.
        table_id = open_table(node, ["human", "human"])
        assert nodes[0].http.get(f"/api/tables/{table_id}").status_code == 200
    finally:
        node.stop()
