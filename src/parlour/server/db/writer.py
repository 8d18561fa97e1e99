"""Group commit: actions from all tables are saved in as few transactions as the database allows.

Each submitter waits for its own action to be committed. While one transaction is being written,
the actions that arrive queue up and go together in the next one, so a busy server pays one disk
sync for many moves instead of one each.

Each batch is one call on the database's threads (server/db/threads.py), which other database
calls share: on SQLite, with its one thread, a batch and a lobby query never run at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque

from prometheus_client import Histogram

from parlour.server.db.store import NewAction, Store
from parlour.server.db.threads import Threads

BATCH = 500

Pending = tuple[NewAction, "asyncio.Future[None]"]


class ActionWriter:
    def __init__(self, store: Store, threads: Threads, commit_seconds: Histogram | None = None) -> None:
        self.store = store
        self.threads = threads
        self.commit_seconds = commit_seconds  # observes each batch's commit (server/metrics.py)
        self.pending: deque[Pending] = deque()
        self.waiting: asyncio.Future[None] | None = None  # the writer task's, while nothing is pending
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop taking batches (a batch being written still ends: see Threads.stop)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    def write(self, action: NewAction) -> asyncio.Future[None]:
        """A future done once `action` is committed, or failed with what the database raised.
        (A plain future rather than a coroutine: one frame less to resume on every move.)"""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending.append((action, done))
        waiting = self.waiting
        if waiting is not None and not waiting.done():
            waiting.set_result(None)
        return done

    async def _run(self) -> None:
        pending = self.pending
        while True:
            if not pending:
                self.waiting = asyncio.get_running_loop().create_future()
                await self.waiting
                continue
            batch = [pending.popleft() for _ in range(min(len(pending), BATCH))]
            await self._commit(batch)

    async def _commit(self, batch: list[Pending]) -> None:
        try:
            start = time.perf_counter()
            await self.threads.run(self.store.append_actions, [a for a, _ in batch])
            if self.commit_seconds is not None:
                self.commit_seconds.observe(time.perf_counter() - start)
        except Exception as error:
            if len(batch) == 1:
                _settle(batch[0][1], error)
                return
            # One bad row must not sink the others: try each on its own.
            for item in batch:
                await self._commit([item])
            return
        for _, done in batch:
            _settle(done, None)


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    if done.done():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)
