"""One websocket client: its seat, its outgoing queue and its message budget.

Broadcasting never waits on a client: messages go into the client's outbox and a writer task of
its own sends them, so one slow connection cannot hold up a table. A client whose outbox fills up
is disconnected; it resyncs when it reconnects.

The outbox is a deque and a future the writer waits on while it is empty, not an `asyncio.Queue`:
every message of every move passes through it, and the queue's bookkeeping (its getters and
putters, its unfinished-task count) cost more than sending the message's frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from typing import Any

from starlette.types import Send
from starlette.websockets import WebSocket

from parlour.server.authority.broadcast import encode
from parlour.server.edge.guard import RAW_SEND
from parlour.server.edge.logs import log


class RateLimit:
    """A token bucket: `rate` messages a second on average, at most `burst` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        moment = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (moment - self.stamp) * self.rate)
        self.stamp = moment
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Client:
    def __init__(self, websocket: WebSocket, table_id: str, queue_size: int) -> None:
        self.websocket = websocket
        self.table_id = table_id
        self.seat: int | None = None
        self.greeted = False
        self.closed = False
        self.close_code, self.close_reason = 1000, ""
        self.queue_size = queue_size
        # What is still to send, in order; None (the last item) means: close the socket.
        self.outbox: deque[str | None] = deque()
        self.waiting: asyncio.Future[None] | None = None  # the writer's, while the outbox is empty
        # The ASGI send below Starlette's wrappers (edge/guard.py), for the text frames; the socket
        # is still accepted and closed through Starlette, which keeps its state.
        self.send_frame: Send | None = websocket.scope.get(RAW_SEND)
        self.writer = asyncio.create_task(self._write())
        self.closer: asyncio.Task[None] | None = None

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        if len(self.outbox) >= self.queue_size:
            log.warning("client too slow, disconnecting", extra={"table": self.table_id, "seat": self.seat})
            self.close(1008, "too slow: reconnect to resync")
            return
        self._put(text)

    def _put(self, item: str | None) -> None:
        self.outbox.append(item)
        waiting = self.waiting
        if waiting is not None and not waiting.done():
            waiting.set_result(None)

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def error(self, code: str, message: str, ref: Any = None) -> None:
        error: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if ref is not None:
            error["id"] = ref
        self.send(error)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Stop sending; the writer closes the socket once what is queued has gone out."""
        if self.closed:
            return
        self.closed = True
        self.close_code, self.close_reason = code, reason
        if len(self.outbox) >= self.queue_size:
            # Nothing more can be queued to a client that stopped reading: close it at once.
            self.writer.cancel()
            self.closer = asyncio.create_task(self._close_socket())
            return
        self._put(None)

    async def _close_socket(self) -> None:
        with contextlib.suppress(Exception):
            await self.websocket.close(self.close_code, self.close_reason)

    async def _write(self) -> None:
        outbox = self.outbox
        try:
            while True:
                if not outbox:
                    self.waiting = asyncio.get_running_loop().create_future()
                    await self.waiting
                    continue
                text = outbox.popleft()
                if text is None:
                    break
                if self.send_frame is not None:
                    await self.send_frame({"type": "websocket.send", "text": text})
                else:
                    await self.websocket.send_text(text)
            await self.websocket.close(self.close_code, self.close_reason)
        except Exception:  # a vanished client is normal; the reader notices and cleans up
            self.closed = True

    async def finish(self, drain: bool = False) -> None:
        """Called by the reader when the connection ends: stop the writer.

        With `drain` (the server closed the connection), what is queued, the last error
        included, still goes out before the socket closes.
        """
        self.closed = True
        if drain:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(self.writer), 5.0)
        self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.writer
