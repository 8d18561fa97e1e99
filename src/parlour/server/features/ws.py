"""The websocket of a table: one connection per client, seat or spectator.

Every message from a client is checked in this order: rate, size, frame type, JSON (its nesting
depth and the characters of its strings), shape (type and fields), then what it asks for.
Whatever fails gets an `error` message sent to that client alone and changes nothing.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from starlette.responses import JSONResponse
from starlette.websockets import WebSocket, WebSocketDisconnect

from parlour.server.authority.hub import Hub
from parlour.server.authority.table import LiveTable
from parlour.server.edge.errors import ServerError
from parlour.server.edge.logs import log
from parlour.server.edge.text import read_json
from parlour.server.features.chat import Chat
from parlour.server.features.clients import Client, RateLimit

# The fields each message type may carry; `id` is the client's own reference, echoed in errors.
FIELDS: dict[str, set[str]] = {
    "hello": {"type", "id", "token"},
    "act": {"type", "id", "action", "version", "seat"},
    "sync": {"type", "id"},
    "ping": {"type", "id"},
    "chat": {"type", "id", "text"},
    "undo": {"type", "id"},
}
# Over-the-rate messages within one FLOOD_WINDOW after which a flooding client is disconnected;
# the first one in each window gets a `rate_limited` error, the rest are dropped silently.
FLOOD_CLOSE = 200
FLOOD_WINDOW = 10.0


async def refuse_socket(websocket: WebSocket, reason: str) -> None:
    """Refuse a websocket before accepting it: HTTP 429 with the usual error body (every uvicorn
    websocket protocol offers the ASGI denial-response extension)."""
    error = ServerError("too_many_websockets", reason, 429)
    log.info("websocket refused", extra={"event": "too_many_websockets", "reason": reason})
    await websocket.send_denial_response(JSONResponse({"error": error.to_json()}, status_code=error.status))


def parse(text: str, max_depth: int) -> dict[str, Any]:
    """A client message as a dict of known fields, or a ServerError saying what is wrong with it.

    `read_json` bounds its nesting and refuses control and bidirectional-control characters in
    its strings, as for HTTP bodies.
    """
    message = read_json(text, max_depth)
    if not isinstance(message, dict):
        raise ServerError("bad_message", "a message is a JSON object with a 'type' field")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise ServerError("bad_message", f"unknown message type {kind!r} (types: {', '.join(FIELDS)})")
    unknown = sorted(set(message) - FIELDS[kind])
    if unknown:
        fields = ", ".join(sorted(FIELDS[kind]))
        raise ServerError("unknown_field", f"{kind} messages have no field {unknown[0]!r} (fields: {fields})")
    ref = message.get("id")
    if ref is not None and not (type(ref) in (int, str) and len(str(ref)) <= 64):
        raise ServerError("bad_message", "id must be a string or number of at most 64 characters")
    return message


def _optional_int(message: dict[str, Any], name: str) -> int | None:
    value = message.get(name)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise ServerError("bad_message", f"{name} must be a whole number, got {value!r}")
    return value


class Connection:
    """Reads one client's messages and answers them."""

    def __init__(self, hub: Hub, table: LiveTable, websocket: WebSocket) -> None:
        self.hub = hub
        self.table = table
        self.websocket = websocket
        settings = hub.settings
        self.client = Client(websocket, table.id, settings.send_queue)
        self.limit = RateLimit(settings.rate, settings.burst)
        self.dropped = 0
        self.window = 0.0

    async def run(self) -> None:
        try:
            await asyncio.wait_for(self._greeting(), self.hub.settings.hello_timeout)
        except TimeoutError:
            self.client.error("no_hello", "send a hello message first")
            self.client.close(1008, "no hello")
            await self.client.finish(drain=True)
            return
        except WebSocketDisconnect:
            await self.client.finish()
            return
        drain = True
        try:
            while not self.client.closed:
                message = await self._next()
                if message is not None:
                    await self._answer(message)
        except WebSocketDisconnect:
            drain = False
        finally:
            self.table.clients.discard(self.client)
            self.hub.let_go_if_over(self.table)
            await self.client.finish(drain)
            log.info("client left", extra={"event": "disconnect", "table": self.table.id, "seat": self.client.seat})

    async def _greeting(self) -> None:
        while not self.client.greeted and not self.client.closed:
            message = await self._next()
            if message is None:
                continue
            if message["type"] != "hello":
                self.client.error("no_hello", "send a hello message first", message.get("id"))
                continue
            await self._hello(message)

    async def _next(self) -> dict[str, Any] | None:
        """The next well-formed message, or None after answering a bad one with an error."""
        frame = await self.websocket.receive()
        if frame["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(frame.get("code", 1000))
        if not self.limit.allow():
            self._drop()
            return None
        text = frame.get("text")
        if text is None:
            self.client.error("bad_frame", "send JSON as text frames, not binary")
            return None
        size = len(text.encode("utf-8"))
        limit = self.hub.settings.max_message_bytes
        if size > limit:
            self.client.error("too_large", f"message of {size} bytes; the limit is {limit}")
            return None
        try:
            return parse(text, self.hub.settings.max_json_depth)
        except ServerError as error:
            self.client.error(error.code, error.message)
            return None

    def _drop(self) -> None:
        moment = time.monotonic()
        if moment - self.window > FLOOD_WINDOW:
            self.window, self.dropped = moment, 0
        self.dropped += 1
        if self.dropped == 1:
            self.client.error("rate_limited", f"too many messages: at most {self.hub.settings.rate:g} a second")
        elif self.dropped == FLOOD_CLOSE:
            self.client.error("flooding", "too many messages; disconnecting")
            self.client.close(1008, "flooding")

    async def _hello(self, message: dict[str, Any]) -> None:
        token = message.get("token")
        if token is not None:
            if not isinstance(token, str) or len(token) > 200:
                self.client.error("bad_token", "token must be the seat token string you were given", message.get("id"))
                return
            seat = await self.hub.seat_for_token(self.table, token)
            if seat is None:
                self.client.error("bad_token", "this token holds no seat at this table", message.get("id"))
                return
            self.client.seat = seat.index
            await self.hub.seat_connected(self.table, seat.index)
        self.client.greeted = True
        self.table.clients.add(self.client)
        self.hub.keep(self.table)
        seat_name = None if self.client.seat is None else self.table.seats[self.client.seat].name
        self.client.send(
            {
                "type": "welcome",
                "table": self.table.id,
                "seat": self.client.seat,
                "role": "spectator" if self.client.seat is None else "player",
                "name": seat_name,
                "limits": {
                    "max_message_bytes": self.hub.settings.max_message_bytes,
                    "rate": self.hub.settings.rate,
                    "burst": self.hub.settings.burst,
                },
            }
        )
        self.client.send(self.table.sync_message(self.client.seat))
        log.info("client joined", extra={"event": "connect", "table": self.table.id, "seat": self.client.seat})

    async def _answer(self, message: dict[str, Any]) -> None:
        ref = message.get("id")
        kind = message["type"]
        try:
            if kind == "hello":
                raise ServerError("already_greeted", "this connection already said hello; reconnect to change seat")
            if kind == "ping":
                self.client.send({"type": "pong", "id": ref, "version": self.table.version})
            elif kind == "sync":
                self.client.send(self.table.sync_message(self.client.seat))
            elif kind == "chat":
                await self._chat(message)
            elif kind == "undo":
                if self.client.seat is None:
                    raise ServerError("spectator", "spectators cannot take anything back")
                await self.hub.undo(self.table, self.client.seat)
            else:
                await self._act(message)
        except ServerError as error:
            self.client.error(error.code, error.message, ref)
        except Exception:
            # A fault of the server's own: logged with its traceback; the client is told and keeps
            # its connection (a move is committed before anything changes, so nothing half-happened).
            log.exception("message failed", extra={"event": "server_fault", "table": self.table.id, "kind": kind})
            self.client.error("internal_error", "the server failed to answer this message", ref)

    async def _act(self, message: dict[str, Any]) -> None:
        if self.client.seat is None:
            raise ServerError("spectator", "spectators cannot act; join a free seat to play")
        claimed = _optional_int(message, "seat")
        if claimed is not None and claimed != self.client.seat:
            raise ServerError("wrong_seat", f"you hold seat {self.client.seat}, not seat {claimed}")
        version = _optional_int(message, "version")
        action = message.get("action")
        if action is None or isinstance(action, bool) or not isinstance(action, int | str):
            raise ServerError("bad_message", "action must be an action id (number) or its label (text)")
        await self.hub.submit(self.table, self.client.seat, action, version)

    async def _chat(self, message: dict[str, Any]) -> None:
        if self.client.seat is None:
            raise ServerError("spectator", "spectators read the chat; take a seat to write in it")
        text = message.get("text")
        if not isinstance(text, str):
            raise ServerError("bad_message", "text must be the message as a string")
        chat: Chat = self.websocket.app.state.chat
        await chat.say(self.table, self.client.seat, text)
