"""What the server accepts from the network before any of it reaches a table.

Three layers, from the outside in, each refusing with the documented error shape
(`{"error": {"code", "message"}}` over HTTP, an `error` message on a websocket):

- `GuardedH11`, the HTTP/1.1 protocol: a request's headers must arrive within `header_timeout`
  and fit in `max_header_bytes`; idle keep-alive connections are uvicorn's (`timeout_keep_alive`).
- `RequestGuard`, the ASGI middleware: a body is read while counting its bytes (chunked or not)
  and must be complete within `body_timeout` and `max_body_bytes`; it must be JSON and pass `read_json`.
- `read_json` (server/edge/text.py), shared with the websocket: JSON nested at most
  `max_json_depth` deep, whose every string (keys too) is free of control and
  bidirectional-control characters.

docs/server.md, "Limits on requests and messages", lists every limit and its setting.
"""

from __future__ import annotations

import asyncio
import email.message
import json
from typing import Annotated, Any
from urllib.parse import unquote_plus

import h11
from pydantic import BeforeValidator
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from parlour.server.edge.errors import ServerError
from parlour.server.edge.text import check_text, read_json
from parlour.server.settings import Settings

# --- request bodies' types ----------------------------------------------------------------------

JSON_TYPES = {int: "a whole number", bool: "true or false", str: "text"}


def exactly(*types: type, what: str) -> BeforeValidator:
    """Accept values of these very JSON types (a bool is not an int), with a sentence saying what is wanted."""

    def check(value: Any) -> Any:
        if type(value) not in types:
            raise ValueError(f"{what}, got {json.dumps(value, default=str)[:60]}")
        return value

    return BeforeValidator(check)


ActionRef = Annotated[int | str, exactly(int, str, what="action must be an action id (number) or its label (text)")]


# The scope key under which a websocket's own ASGI send is kept.
RAW_SEND = "parlour.raw_send"


# --- HTTP bodies --------------------------------------------------------------------------------


class RequestGuard:
    """Read each HTTP request's body under the limits, check it, then hand it to the app.

    Bodies are small (64 KiB by default), so the whole body is read here, counting bytes as
    they arrive: a chunked body announces no length and is cut at the limit all the same.
    """

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and _bad_address(scope) is not None:
            # Closing before accepting answers the upgrade with 403.
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] == "websocket":
            # The connection's own send, for the messages of a move (features/clients.py): inside
            # this middleware Starlette wraps it once more for its error pages, which a websocket
            # past its handshake never gets, at a cost on every message.
            scope[RAW_SEND] = send
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            body = await self._body(scope, receive)
        except ServerError as error:
            # The rest of the body is unread: the connection cannot carry another request.
            await respond(error, send, close=True)
            return
        if body is None:  # the client went away
            return
        problem = _bad_address(scope) or self._bad_body(scope, body)
        if problem is not None:
            await respond(problem, send)
            return
        await self.app(scope, _replay(body, receive), send)

    async def _body(self, scope: Scope, receive: Receive) -> bytes | None:
        limit = self.settings.max_body_bytes
        announced = _header(scope, b"content-length")
        if announced is not None and (not announced.isdigit() or int(announced) > limit):
            raise ServerError("too_large", f"request bodies are limited to {limit} bytes", 413)
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.settings.body_timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > limit:
                        raise ServerError("too_large", f"request bodies are limited to {limit} bytes", 413)
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        return b"".join(chunks)
        except TimeoutError:
            seconds = f"{self.settings.body_timeout:g}"
            raise ServerError("timeout", f"the request body did not arrive within {seconds} s", 408) from None

    def _bad_body(self, scope: Scope, body: bytes) -> ServerError | None:
        if not body:
            return None
        kind = _header(scope, b"content-type")
        if kind is None or not _is_json(kind.decode("latin-1")):
            return ServerError("bad_content", "send the body as JSON, with 'Content-Type: application/json'", 415)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as error:
            return ServerError("bad_json", f"the body is not valid UTF-8 (byte {error.start})")
        try:
            read_json(text, self.settings.max_json_depth)
        except ServerError as error:
            return error
        return None


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value)
    return None


def _is_json(content_type: str) -> bool:
    message = email.message.Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (subtype == "json" or subtype.endswith("+json"))


def _bad_address(scope: Scope) -> ServerError | None:
    """Path and query reach table lookups and the database: the same characters are refused there."""
    try:
        check_text(scope["path"], "the address")
        check_text(unquote_plus(scope.get("query_string", b"").decode("latin-1")), "the query")
    except ServerError as error:
        return error
    return None


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the app the body already read, then whatever comes next (a disconnect)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def error_body(error: ServerError) -> bytes:
    # The same compact, UTF-8 form as the application's own JSONResponse answers.
    return json.dumps({"error": error.to_json()}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


async def respond(error: ServerError, send: Send, close: bool = False) -> None:
    body = error_body(error)
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": error.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


# --- HTTP headers -------------------------------------------------------------------------------

REASONS = {400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large"}


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol, with a deadline on each request's headers.

    uvicorn times out idle keep-alive connections but sets no limit on how long headers may take
    to arrive: a client sending a byte now and then would hold a connection for ever. Here a
    timer starts when a connection opens and again when a request's first byte arrives, and is
    stopped once h11 has the whole head; when it fires, the client gets 408 and is disconnected.
    The size of the head is bounded by h11 itself (`h11_max_incomplete_event_size`). The h11
    protocol is used rather than httptools, which puts no bound on the size of headers.

    `settings` is set on the subclass `http_protocol` makes for one server.
    """

    settings: Settings = Settings()
    header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_header_timer()

    def data_received(self, data: bytes) -> None:
        if self.header_timer is None and self.conn.their_state is h11.IDLE:
            self._start_header_timer()
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._stop_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)

    def _start_header_timer(self) -> None:
        self.header_timer = self.loop.call_later(self.settings.header_timeout, self._headers_too_slow)

    def _stop_header_timer(self) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def _headers_too_slow(self) -> None:
        self.header_timer = None
        seconds = f"{self.settings.header_timeout:g}"
        self._refuse(ServerError("timeout", f"the request's headers did not arrive within {seconds} s", 408))

    def send_400_response(self, msg: str) -> None:
        # h11 refused the request: malformed, or a head over the size limit (still in its buffer).
        self._stop_header_timer()
        limit = self.settings.max_header_bytes
        if len(self.conn.trailing_data[0]) > limit:
            self._refuse(ServerError("too_large", f"request headers are limited to {limit} bytes", 431))
        else:
            self._refuse(ServerError("bad_http", "this is not a valid HTTP/1.1 request", 400))

    def _refuse(self, error: ServerError) -> None:
        """Answer in the documented shape and close: the connection's state is past repair."""
        if self.transport.is_closing():
            return
        body = error_body(error)
        head = (
            f"HTTP/1.1 {error.status} {REASONS[error.status]}\r\n"
            f"content-type: application/json\r\ncontent-length: {len(body)}\r\nconnection: close\r\n\r\n"
        )
        self.transport.write(head.encode("ascii") + body)
        self.transport.close()


def http_protocol(settings: Settings) -> type[GuardedH11]:
    """The HTTP protocol class for a server with these settings (uvicorn's `http` option)."""
    return type("ParlourH11", (GuardedH11,), {"settings": settings})


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn options that carry the settings' limits, for `parlour serve` and the tests."""
    return {
        "http": http_protocol(settings),
        "h11_max_incomplete_event_size": settings.max_header_bytes,
        "timeout_keep_alive": settings.keep_alive_timeout,
        "ws_max_size": 16 * settings.max_message_bytes,
    }
