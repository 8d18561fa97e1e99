"""Group commit: actions from all tables are saved in as few transactions as the database allows.

Each submitter waits for its own action to be committed. While one transaction is being written,
the actions that arrive queue up and go together in the next one, so a busy server pays one disk
sync for many moves instead of one each.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

import anyio.to_thread
from anyio import CapacityLimiter
from prometheus_client import Histogram

from parlour.server.db.store import NewAction, Store

BATCH = 500


class ActionWriter:
    def __init__(self, store: Store, limiter: CapacityLimiter, commit_seconds: Histogram | None = None) -> None:
        self.store = store
        self.limiter = limiter
        self.commit_seconds = commit_seconds  # observes each batch's commit (server/metrics.py)
        self.queue: asyncio.Queue[tuple[NewAction, asyncio.Future[None]]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    def write(self, action: NewAction) -> asyncio.Future[None]:
        """A future done once `action` is committed, or failed with what the database raised.
        (A plain future rather than a coroutine: one frame less to resume on every move.)"""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((action, done))
        return done

    async def _run(self) -> None:
        while True:
            batch = [await self.queue.get()]
            while len(batch) < BATCH and not self.queue.empty():
                batch.append(self.queue.get_nowait())
            await self._commit(batch)

    async def _commit(self, batch: list[tuple[NewAction, asyncio.Future[None]]]) -> None:
        try:
            start = time.perf_counter()
            await anyio.to_thread.run_sync(self.store.append_actions, [a for a, _ in batch], limiter=self.limiter)
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
