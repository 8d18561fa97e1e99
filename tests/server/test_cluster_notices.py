"""What a move notice carries between server processes (docs/server.md, "Several server processes"):
the committed actions themselves, so that a process holding the table applies them without
reading them back, and a read back whenever a notice cannot carry them or was missed.

The processes here are two Hubs in one test process, each with its own listening connection, on a
PostgreSQL schema of the test's own; the reads of the receiving one are counted."""

from __future__ import annotations

import asyncio
import json
import os
import random
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest

from parlour.server import Settings
from parlour.server.authority.events import NoticeHeard
from parlour.server.authority.hub import Hub
from parlour.server.authority.sync import Heard
from parlour.server.authority.table import LiveTable
from parlour.server.cluster.fanout import Notice, move_notice, move_notices

from .conftest import POSTGRES_URL, run_sql
from .test_broadcast import Listener

GAME = "hatflings"  # two seats and hidden cards: what each seat may see differs
MOVES = 12

postgres = pytest.mark.skipif(not POSTGRES_URL, reason="needs PARLOUR_TEST_POSTGRES_URL (make test starts PostgreSQL)")


def test_a_move_notice_carries_its_actions_when_they_fit() -> None:
    notice = move_notice("p:host:1:ab", "t1", 7, ((12, 0), (3, 1)), 7999)
    assert notice == "m p:host:1:ab t1 7 12.0,3.1"
    assert Notice.parse(notice) == Notice("m", "p:host:1:ab", "t1", 7, ((12, 0), (3, 1)))
    # Too long for the limit: the bare notice, whose actions are read back.
    bare = "m p:host:1:ab t1 7"
    assert move_notice("p:host:1:ab", "t1", 7, ((12, 0), (3, 1)), len(notice) - 1) == bare
    assert move_notice("p:host:1:ab", "t1", 7, ((12, 0), (3, 1)), 0) == bare
    assert move_notice("p:host:1:ab", "t1", 7, None, 7999) == bare
    assert Notice.parse(bare) == Notice("m", "p:host:1:ab", "t1", 7, None)
    # PostgreSQL's own limit holds whatever the setting says.
    many = tuple((1000, 1) for _ in range(2000))
    assert move_notice("p", "t1", 2000, many, 10**6) == "m p t1 2000"


def test_a_batch_is_announced_once_per_table_with_each_tables_actions() -> None:
    committed = [("t1", 4, 10, 0), ("t2", 0, 7, 1), ("t1", 5, 11, 1), ("t3", 2, 1, 0), ("t3", 4, 2, 0)]
    # t3's plies are not one run: its notice carries none, and its actions are read back.
    assert move_notices("p", committed, 7999) == ["m p t1 6 10.0,11.1", "m p t2 1 7.1", "m p t3 5"]


@pytest.mark.parametrize(
    "payload", ["m p t1 7 12.x", "m p t1 7 12", "m p t1 7 .0", "m p t1 1 1.0,2.1", "m p t1 x 1.0", "m p t1 7 1.0,"]
)
def test_a_move_notice_whose_actions_do_not_read_is_read_back(payload: str) -> None:
    notice = Notice.parse(payload)
    assert notice is not None and notice.kind == "m" and notice.actions is None


def test_heard_actions_are_applied_only_as_an_unbroken_run() -> None:
    heard = Heard()
    heard.add(Notice("m", "p", "t1", 2, ((5, 0), (6, 1))))
    assert heard.run_from(0) == [(5, 0), (6, 1)]
    assert heard.run_from(1) == [(6, 1)] and heard.run_from(2) == [] and heard.run_from(3) == []
    heard.add(Notice("m", "p", "t1", 4, ((8, 1),)))  # ply 2 was announced in a notice not heard
    assert heard.run_from(0) is None and heard.run_from(2) is None
    assert heard.run_from(3) == [(8, 1)]
    heard.add(Notice("m", "p", "t1", 5, None))  # a notice that could not carry its action
    assert heard.run_from(3) is None and heard.run_from(5) == []


@pytest.mark.parametrize("value", [-1, 8000, "10", 1.5])
def test_notice_bytes_is_bounded_by_what_postgresql_accepts(value: Any) -> None:
    with pytest.raises(ValueError, match="notice_bytes must be a whole number from 0 to 7999"):
        Settings(notice_bytes=value)


class Client(Listener):
    """A client of the second process: the texts it is sent."""

    def close(self, code: int, reason: str) -> None:
        pass


@pytest.fixture
def schema_db() -> Iterator[str]:
    schema = f"parlour_notices_{os.getpid()}_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    run_sql(POSTGRES_URL, f"DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}")
    yield POSTGRES_URL + ("&" if "?" in POSTGRES_URL else "?") + f"options=-csearch_path%3D{schema}"
    run_sql(POSTGRES_URL, f"DROP SCHEMA IF EXISTS {schema} CASCADE")


async def until(condition: Callable[[], bool], what: str, seconds: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


async def settled(hub: Hub) -> None:
    """Every job the hub's cluster started has run."""
    assert hub.cluster is not None
    await until(lambda: not hub.cluster.running, "the cluster's jobs")  # type: ignore[union-attr]


def count_reads(hub: Hub) -> list[int]:
    """Count the hub's reads of a table's actions (`Store.actions_from`) from now on."""
    reads = [0]
    read = hub.store.actions_from

    def counted(table_id: str, ply: int) -> list[tuple[int, int]]:
        reads[0] += 1
        return read(table_id, ply)

    hub.store.actions_from = counted  # type: ignore[method-assign]
    return reads


async def two_processes(db: str, **settings: Any) -> tuple[Hub, Hub, LiveTable, LiveTable]:
    """Two processes sharing the database, a table of two people opened on the first and held
    in the second's memory too (with a client of each seat and a spectator there)."""
    first = Hub(Settings(db=db, web_dir=None, **settings))
    second = Hub(Settings(db=db, web_dir=None, **settings))
    await first.start()
    await second.start()
    table = await first.create_table(GAME, {}, ["human", "human"], 5, fixed_deal=True)
    for seat in (0, 1):
        await first.join(table.id, seat, f"p{seat}")
    there = await second.table(table.id)
    await until(lambda: there.status == "running", "the seats taken elsewhere")
    await settled(second)
    there.clients.update([Client(0), Client(1), Client(None)])  # type: ignore[list-item]
    return first, second, table, there


async def play(hub: Hub, table: LiveTable, moves: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        if table.state.is_terminal():
            return
        action = rng.choice(table.state.legal_actions())
        await hub.submit(table, table.state.current_player(), action.id, hold=False)


def check_told(table: LiveTable, here: LiveTable, since: int) -> None:
    """The other process's clients were sent each move once, in order, each seat only what it may
    see: its own actions, and every position as `view(seat)` shows it."""
    assert here.state.history == table.state.history
    game = table.state.game
    history = [game.action(action_id) for action_id in here.state.history]
    for client in here.clients:
        told = [json.loads(text) for text in client.texts]  # type: ignore[attr-defined]
        updates = [message for message in told if message["type"] == "update"]
        assert [update["version"] for update in updates] == list(range(since + 1, here.version + 1))
        for update in updates:
            version = update["version"]
            seat = client.seat
            shown = update["action"]
            assert shown == (history[version - 1].to_json() if update["actor"] == seat else None)
            position = game.new_state(seed=table.state.seed)
            for action in history[:version]:
                position.apply(action)
            assert update["view"] == json.loads(json.dumps(position.view(seat)))


Scenario = Callable[[Hub, Hub, LiveTable, LiveTable], Awaitable[None]]


def in_two_processes(db: str, scenario: Scenario, **settings: Any) -> None:
    """Run `scenario(first, second, table, there)` on two processes (see two_processes)."""

    async def run() -> None:
        first, second, table, there = await two_processes(db, **settings)
        try:
            await scenario(first, second, table, there)
        finally:
            await first.stop()
            await second.stop()

    asyncio.run(run())


@postgres
@pytest.mark.postgres
def test_a_process_applies_the_moves_it_hears_of_without_reading_them_back(schema_db: str) -> None:
    async def scenario(first: Hub, second: Hub, table: LiveTable, there: LiveTable) -> None:
        reads = count_reads(second)
        await play(first, table, MOVES, seed=3)
        await until(lambda: there.version == table.version, "the moves heard")
        assert reads[0] == 0
        # Notices heard while the table is busy here (its lock held) wait, and are applied
        # in order once it is free, still without a read.
        heard: list[Notice] = []
        second.events.subscribe(NoticeHeard, lambda event: heard.append(event.notice))
        async with there.lock:
            await play(first, table, 3, seed=4)
            await until(lambda: len(heard) == 3, "the notices heard")
            assert there.version == table.version - 3
        await until(lambda: there.version == table.version, "the moves held back")
        await settled(second)
        assert reads[0] == 0
        assert second.heard == {}  # nothing left waiting
        check_told(table, there, 0)

    in_two_processes(schema_db, scenario)


@postgres
@pytest.mark.postgres
def test_a_notice_too_long_for_its_actions_has_them_read_back(schema_db: str) -> None:
    async def scenario(first: Hub, second: Hub, table: LiveTable, there: LiveTable) -> None:
        reads = count_reads(second)
        await play(first, table, MOVES, seed=4)
        await until(lambda: there.version == table.version, "the moves heard")
        await settled(second)
        assert reads[0] >= 1
        check_told(table, there, 0)

    # No notice carries its actions: every move is read back, and played out just the same.
    in_two_processes(schema_db, scenario, notice_bytes=0)


@postgres
@pytest.mark.postgres
def test_moves_missed_while_not_listening_are_caught_up(schema_db: str) -> None:
    async def scenario(first: Hub, second: Hub, table: LiveTable, there: LiveTable) -> None:
        await play(first, table, 2, seed=5)
        await until(lambda: there.version == table.version, "the first moves heard")
        assert second.cluster is not None and second.cluster.listener is not None
        listening = second.cluster.listener.listening
        listening.clear()
        # The second process's listening connection drops: the moves played meanwhile are
        # never announced to it, and are read once it listens again.
        session = f"application_name = '{second.cluster.name}'"
        run_sql(POSTGRES_URL, f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE {session}")
        await play(first, table, 4, seed=6)
        await until(listening.is_set, "listening again")
        await until(lambda: there.version == table.version, "the missed moves")
        await play(first, table, 3, seed=7)
        await until(lambda: there.version == table.version, "the moves after")
        check_told(table, there, 0)

    in_two_processes(schema_db, scenario)


@postgres
@pytest.mark.postgres
def test_a_process_where_nobody_plays_or_watches_a_table_does_no_work_for_its_moves(schema_db: str) -> None:
    async def scenario(first: Hub, second: Hub, table: LiveTable, there: LiveTable) -> None:
        there.clients.clear()  # the second process's clients left: the table is in memory, unused
        heard: list[Notice] = []
        second.events.subscribe(NoticeHeard, lambda event: heard.append(event.notice))
        reads = count_reads(second)
        await play(first, table, MOVES, seed=8)
        await until(lambda: sum(n.kind == "m" for n in heard) == table.version, "every notice heard")
        await settled(second)
        # Nothing read, nothing applied: the table left memory, marked to be read afresh.
        assert reads[0] == 0 and there.version == 0 and there.stale
        assert table.id not in second.tables and second.heard == {}
        # Asked for again, it is the same table, brought up to date by one read.
        assert await second.table(table.id) is there
        assert there.version == table.version and not there.stale and reads[0] == 1
        # A client watching it again gets every later move from the notices alone.
        there.clients.add(Client(None))  # type: ignore[arg-type]
        second.keep(there)
        await play(first, table, 4, seed=9)
        await until(lambda: there.version == table.version, "the moves watched")
        assert reads[0] == 1

    in_two_processes(schema_db, scenario)
