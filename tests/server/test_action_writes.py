"""A batch of actions written in the driver's own SQL (Store.append_actions) reads back as written,
its time in the very form SQLAlchemy stores and compares (text on SQLite), on both databases; and
the writer that gathers actions into batches (server/db/writer.py)."""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from parlour.server.db.models import ActionRow
from parlour.server.db.runner import Database
from parlour.server.db.store import NewAction, Store
from parlour.server.db.threads import Threads
from parlour.server.db.writer import ActionWriter
from parlour.server.settings import database_url


def test_a_batch_of_actions_reads_back_as_written(db: str) -> None:
    store = Store(database_url(db))
    try:
        store.migrate()
        for table_id in ("a", "b"):
            store.create_table(table_id, "nim", {}, 1, [None, None])
        before = datetime.now(UTC)
        store.append_actions([NewAction("a", 0, 2, 0, False), NewAction("b", 0, 1, 0, False)])
        store.append_actions([NewAction("a", 1, 0, 1, False), NewAction("a", 2, 1, 0, True)])
        assert store.actions_from("a", 0) == [(2, 0), (0, 1), (1, 0)]
        assert store.actions_from("a", 1) == [(0, 1), (1, 0)]
        assert store.actions_from("b", 0) == [(1, 0)]
        record = store.table("a")
        assert record is not None and record.finished_at is not None  # the batch's last action ended it
        with Session(store.engine) as session:
            played = list(session.scalars(select(ActionRow.played_at)))
        for moment in played:
            moment = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
            assert before - timedelta(seconds=5) <= moment <= datetime.now(UTC) + timedelta(seconds=5)
        # Stored in the very form SQLAlchemy's own INSERT writes (so that it compares as a time).
        with store.engine.begin() as connection:
            connection.execute(insert(ActionRow).values(table_id="b", ply=1, action_id=0, seat=1, played_at=before))
            raw = dict(connection.exec_driver_sql("SELECT ply, played_at FROM actions WHERE table_id = 'b'").all())
        assert type(raw[0]) is type(raw[1])
        if isinstance(raw[0], str):
            assert len(raw[0]) == len(raw[1]) and raw[0][10] == raw[1][10] and raw[0] >= raw[1]
    finally:
        store.close()


class FakeStore:
    """Records each batch it is asked to write and the thread that wrote it; refuses any action
    numbered 99, and takes `pause` seconds a batch."""

    def __init__(self, pause: float = 0.0) -> None:
        self.pause = pause
        self.batches: list[list[int]] = []
        self.threads: set[str] = set()

    def append_actions(self, batch: list[NewAction]) -> None:
        self.threads.add(threading.current_thread().name)
        time.sleep(self.pause)
        if any(action.action_id == 99 for action in batch):
            raise ValueError("refused row")
        self.batches.append([action.action_id for action in batch])


def action(number: int) -> NewAction:
    return NewAction("t", number, number, 0, False)


def test_the_writer_commits_in_batches_on_the_database_threads() -> None:
    async def scenario() -> FakeStore:
        store, threads = FakeStore(pause=0.05), Threads(1, "db")
        writer = ActionWriter(store, threads)  # type: ignore[arg-type]
        writer.start()
        first = writer.write(action(0))
        await asyncio.sleep(0.01)  # the first batch is being written: the next ones wait together
        rest = [writer.write(action(n)) for n in range(1, 6)]
        await asyncio.gather(first, *rest)
        await writer.stop()
        await threads.stop()
        return store

    store = asyncio.run(scenario())
    assert store.batches == [[0], [1, 2, 3, 4, 5]]
    assert store.threads == {"db-0"}


def test_a_refused_row_fails_alone_and_the_rest_of_its_batch_is_saved() -> None:
    async def scenario() -> tuple[FakeStore, list[object]]:
        store, threads = FakeStore(), Threads(1, "db")
        writer = ActionWriter(store, threads)  # type: ignore[arg-type]
        futures = [writer.write(action(n)) for n in (1, 99, 2)]  # queued before the writer starts
        writer.start()
        outcomes = await asyncio.gather(*futures, return_exceptions=True)
        await writer.stop()
        await threads.stop()
        return store, outcomes

    store, outcomes = asyncio.run(scenario())
    assert store.batches == [[1], [2]]
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], ValueError) and str(outcomes[1]) == "refused row"


def test_stopping_waits_for_the_batch_being_written() -> None:
    async def scenario() -> FakeStore:
        store, threads = FakeStore(pause=0.2), Threads(1, "db")
        writer = ActionWriter(store, threads)  # type: ignore[arg-type]
        writer.start()
        writer.write(action(7))
        await asyncio.sleep(0.02)
        await writer.stop()
        await threads.stop()
        return store

    store = asyncio.run(scenario())
    assert store.batches == [[7]]


def test_the_database_threads_run_no_more_calls_at_once_than_they_are() -> None:
    running, most = 0, 0
    lock = threading.Lock()

    def call(number: int) -> int:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.02)
        with lock:
            running -= 1
        if number == 3:
            raise ValueError("call 3 fails")
        return number * 10

    async def scenario() -> list[object]:
        threads = Threads(2, "db")
        outcomes = await asyncio.gather(*(threads.run(call, n) for n in range(6)), return_exceptions=True)
        await threads.stop()
        assert threads.threads == []
        return outcomes

    outcomes = asyncio.run(scenario())
    assert most == 2
    assert outcomes[:3] == [0, 10, 20] and outcomes[4:] == [40, 50]
    assert isinstance(outcomes[3], ValueError) and str(outcomes[3]) == "call 3 fails"


def test_sqlite_has_one_database_thread(tmp_path: Path) -> None:
    """SQLite writes one at a time: every call and batch goes through one thread (docs/architecture.md)."""
    store = Store(database_url(str(tmp_path / "one.sqlite")))
    try:
        assert Database(store).threads.count == 1
    finally:
        store.close()
