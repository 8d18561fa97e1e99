"""A websocket client's outbox (server/features/clients.py): in order, never waiting on the
sender, and a client that stops reading is closed once `send_queue` messages wait for it."""

from __future__ import annotations

import asyncio

from parlour.server.edge.guard import RAW_SEND
from parlour.server.features.clients import Client


class FakeSocket:
    """Records what the writer sends; `stuck` makes every send wait forever (a client that
    stopped reading, its TCP window full)."""

    def __init__(self, stuck: bool = False) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None
        self.stuck = stuck
        self.scope: dict[str, object] = {}  # no raw send: the writer uses send_text

    async def send_text(self, text: str) -> None:
        if self.stuck:
            await asyncio.Event().wait()
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = (code, reason)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_messages_go_out_in_order_and_the_socket_closes_after_them() -> None:
    async def scenario() -> tuple[FakeSocket, Client]:
        socket = FakeSocket()
        client = Client(socket, "t1", queue_size=8)  # type: ignore[arg-type]
        for text in ("a", "b", "c"):
            client.send_text(text)
        await settle()
        client.send_text("d")
        client.close(4000, "bye")
        client.send_text("after close")  # dropped: the client is closing
        await settle()
        return socket, client

    socket, client = asyncio.run(scenario())
    assert socket.sent == ["a", "b", "c", "d"]
    assert socket.closed == (4000, "bye")
    assert client.writer.done()


def test_a_client_that_stops_reading_is_closed_when_its_outbox_is_full() -> None:
    async def scenario() -> tuple[FakeSocket, Client]:
        socket = FakeSocket(stuck=True)
        client = Client(socket, "t1", queue_size=3)  # type: ignore[arg-type]
        client.send_text("first")  # the writer takes it and waits on the socket
        await settle()
        for number in range(3):
            client.send_text(f"queued {number}")
        assert not client.closed  # three wait: the outbox is full, not past it
        client.send_text("one too many")
        assert client.closed
        await settle()
        return socket, client

    socket, client = asyncio.run(scenario())
    assert socket.closed == (1008, "too slow: reconnect to resync")
    assert client.writer.cancelled()
    assert list(client.outbox) == ["queued 0", "queued 1", "queued 2"]


def test_the_writer_stops_when_the_reader_finishes() -> None:
    async def scenario() -> Client:
        client = Client(FakeSocket(), "t1", queue_size=4)  # type: ignore[arg-type]
        await settle()  # the writer waits on an empty outbox
        await client.finish()
        return client

    client = asyncio.run(scenario())
    assert client.closed and client.writer.done()


def test_text_frames_go_through_the_connections_own_send_when_the_guard_kept_it() -> None:
    async def scenario() -> tuple[FakeSocket, list[dict[str, object]]]:
        frames: list[dict[str, object]] = []

        async def raw_send(message: dict[str, object]) -> None:
            frames.append(message)

        socket = FakeSocket()
        socket.scope[RAW_SEND] = raw_send
        client = Client(socket, "t1", queue_size=8)  # type: ignore[arg-type]
        client.send_text("a")
        client.close()
        await settle()
        return socket, frames

    socket, frames = asyncio.run(scenario())
    assert frames == [{"type": "websocket.send", "text": "a"}]
    assert socket.sent == [] and socket.closed == (1000, "")  # closed through Starlette as ever
