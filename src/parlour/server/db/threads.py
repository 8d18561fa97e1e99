"""The database's threads: a fixed number of them, each running the calls the event loop hands it.

Every database call of the server goes through them (server/db/runner.py, and the action writer's
batches), so the database never sees more threads at once than there are here: one on SQLite,
which writes one at a time, a few on PostgreSQL.

They are plain threads fed by one thread-safe queue, each call answered by one callback on the
event loop, rather than anyio's worker threads: those cost the event loop about 50 µs of CPU per
call in their own bookkeeping and wake-ups, against some 10 µs this way, and a busy server makes
one call for every one or two moves (benchmarks/server_load.py; docs/performance.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import queue
import threading
from collections.abc import Callable
from typing import Any

Call = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", contextvars.Context, Callable[..., Any], tuple[Any, ...]]


class Threads:
    def __init__(self, count: int, name: str) -> None:
        if count < 1:
            raise ValueError(f"a pool of threads needs at least one, got {count}")
        self.count = count
        self.name = name
        self.calls: queue.SimpleQueue[Call | None] = queue.SimpleQueue()
        self.threads: list[threading.Thread] = []

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """`function(*args)` on one of the threads, in the caller's context (as anyio's threads
        run it). A call already handed over runs to its end even if its caller is cancelled."""
        if not self.threads:
            self._start()
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        self.calls.put((loop, done, contextvars.copy_context(), function, args))
        return await done

    async def stop(self) -> None:
        """End the threads once the calls handed to them are done."""
        threads, self.threads = self.threads, []
        for _ in threads:
            self.calls.put(None)
        for thread in threads:
            await asyncio.to_thread(thread.join)

    def _start(self) -> None:
        for number in range(self.count):
            thread = threading.Thread(target=self._serve, name=f"{self.name}-{number}", daemon=True)
            thread.start()
            self.threads.append(thread)

    def _serve(self) -> None:
        while (call := self.calls.get()) is not None:
            loop, done, context, function, args = call
            try:
                result = context.run(function, *args)
            except Exception as error:
                _answer(loop, _fail, done, error)
            except BaseException as error:  # not for an asyncio future as it is: the caller still hears
                _answer(loop, _fail, done, RuntimeError(f"a database call ended with {error!r}"))
            else:
                _answer(loop, _resolve, done, result)


def _answer(loop: asyncio.AbstractEventLoop, how: Callable[..., None], done: asyncio.Future[Any], value: Any) -> None:
    with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is waiting any more
        loop.call_soon_threadsafe(how, done, value)


def _resolve(done: asyncio.Future[Any], result: Any) -> None:
    if not done.done():  # its caller may have been cancelled meanwhile
        done.set_result(result)


def _fail(done: asyncio.Future[Any], error: BaseException) -> None:
    if not done.done():
        done.set_exception(error)
