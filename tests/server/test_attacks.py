"""Attacks on a real `parlour serve`, on loopback, each bounded in bytes and time.

One server process serves the whole file, started with short timeouts so that the slow attacks
end quickly. Every attack checks that the server answered in the documented error shape (or
closed the connection), that nothing changed, and that the server still serves everyone else.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from .conftest import Player, free_socket

GAME = "hatflings"  # the subprocess knows only the real games
HEADER_TIMEOUT = 1.0
BODY_TIMEOUT = 1.0
KEEP_ALIVE = 1
MAX_BODY = 64 * 1024
MAX_HEADERS = 16 * 1024
MAX_DEPTH = 8
# However slow the machine, an answer the server owes comes well within this.
ANSWER_WITHIN = 10.0


class Served:
    """`parlour serve` in its own process on a free 127.0.0.1 port."""

    def __init__(self, folder: Path) -> None:
        sock = free_socket()
        self.port = sock.getsockname()[1]
        sock.close()
        self.log = (folder / "server.log").open("ab")
        command = [sys.executable, "-m", "parlour.cli", "serve", "--port", str(self.port)]
        command += ["--db", str(folder / "parlour.sqlite"), "--bot-delay", "0", "--log-level", "warning"]
        command += ["--header-timeout", str(HEADER_TIMEOUT), "--body-timeout", str(BODY_TIMEOUT)]
        command += ["--keep-alive-timeout", str(KEEP_ALIVE)]
        # Every test here opens tables from the same address: the lobby's quotas are not under test.
        command += ["--tables-per-client", "0", "--table-rate", "0"]
        self.process = subprocess.Popen(command, stdout=self.log, stderr=self.log)
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                text = (folder / "server.log").read_text()[-2000:]
                raise RuntimeError(f"the server exited with {self.process.returncode}: {text}")
            try:
                if httpx.get(f"{self.url}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.1)
        self.http = httpx.Client(base_url=self.url, timeout=ANSWER_WITHIN)

    def stop(self) -> None:
        self.http.close()
        self.process.terminate()
        self.process.wait(30)
        self.log.close()

    def raw(self) -> socket.socket:
        connection = socket.create_connection(("127.0.0.1", self.port), timeout=ANSWER_WITHIN)
        return connection

    def healthy(self) -> None:
        assert self.http.get("/health").json()["status"] == "ok"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    server = Served(tmp_path_factory.mktemp("attacks"))
    yield server
    server.stop()


@dataclass
class Table:
    """A hatflings table where Ann and Bo sit; `mover` is the token of the seat to move."""

    id: str
    tokens: list[str]
    mover: str
    mover_seat: int

    def state(self, served: Served) -> dict[str, Any]:
        return dict(served.http.get(f"/api/tables/{self.id}/state").json())


@pytest.fixture
def table(served: Served) -> Iterator[Table]:
    created = served.http.post("/api/tables", json={"game": GAME, "seats": ["human", "human"]})
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    tokens = []
    for name in ("Ann", "Bo"):
        joined = served.http.post(f"/api/tables/{table_id}/join", json={"name": name})
        assert joined.status_code == 200, joined.text
        tokens.append(joined.json()["token"])
    to_move = served.http.get(f"/api/tables/{table_id}").json()["to_move"]
    seated = Table(table_id, tokens, tokens[to_move], to_move)
    before = seated.state(served)
    yield seated
    # Whatever the attack, the table did not move and the server still serves.
    assert seated.state(served) == before
    served.healthy()


def error_of(response: httpx.Response, status: int, code: str) -> str:
    """The response is an error in the documented shape with this status and code; its message."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["code"] == code, body
    return str(body["error"]["message"])


def read_response(connection: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of one HTTP response read from a raw socket (then closed by the server)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        assert chunk, f"the server closed the connection without answering: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    while len(body) < int(headers.get("content-length", "0")):
        chunk = connection.recv(65536)
        assert chunk, "the server closed the connection in the middle of its answer"
        body += chunk
    return int(lines[0].split()[1]), headers, body


def shaped(body: bytes, code: str) -> str:
    error = json.loads(body)["error"]
    assert error["code"] == code, error
    return str(error["message"])


def closed_by_server(connection: socket.socket) -> bool:
    """Whether the server closes the connection (within ANSWER_WITHIN)."""
    try:
        return connection.recv(65536) == b""
    except ConnectionResetError:
        return True


# --- 1. bodies are counted as they stream ---------------------------------------------------------


def test_a_chunked_body_is_cut_at_the_limit(served: Served) -> None:
    """No Content-Length: the server counts the chunks and answers 413 once past the limit,
    without waiting for a body that would go on for 100 MB."""
    connection = served.raw()
    connection.sendall(
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b" " * 16384
    sent = 0
    connection.setblocking(False)
    try:
        # At most 8 MiB; the final empty chunk is never sent, so only a limit on what is read ends this.
        while sent < 8 * 1024 * 1024:
            try:
                if connection.recv(1, socket.MSG_PEEK):
                    break
            except BlockingIOError:
                pass
            try:
                connection.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except BlockingIOError:
                # The server stopped reading (the kernel's buffers are full): wait for its answer.
                break
            sent += len(chunk)
    except (BrokenPipeError, ConnectionResetError):
        pass
    connection.settimeout(ANSWER_WITHIN)
    status, headers, body = read_response(connection)
    assert status == 413 and headers["connection"] == "close"
    assert shaped(body, "too_large") == f"request bodies are limited to {MAX_BODY} bytes"
    assert closed_by_server(connection)
    served.healthy()


def test_a_body_announced_too_large_is_refused_unread(served: Served) -> None:
    connection = served.raw()
    connection.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n{" % (MAX_BODY + 1))
    status, headers, body = read_response(connection)
    assert status == 413 and headers["connection"] == "close" and shaped(body, "too_large")
    assert closed_by_server(connection)


# --- 2. malformed JSON answers in the documented shape, on the websocket too ---------------------


def test_a_deeply_nested_websocket_message_gets_an_error_and_keeps_the_socket(served: Served, table: Table) -> None:
    player = Player(served, table.id, table.mover, hello=True)
    try:
        player.send_raw("[" * 2000 + "]" * 2000)  # 4,000 bytes: under the 4,096-byte message limit
        error = player.error()
        assert error["code"] == "too_deep" and f"more than {MAX_DEPTH} levels" in error["message"]
        nested: Any = 0
        for _ in range(MAX_DEPTH):
            nested = [nested]
        player.send(type="act", action=nested)  # the message object makes it one level too deep
        assert player.error()["code"] == "too_deep"
        assert player.version() == 0  # the same socket still answers
    finally:
        player.close()


DEEP = b"[" * 5000 + b"]" * 5000


@pytest.mark.parametrize(
    ("body", "content_type", "status", "code"),
    [
        (DEEP, "application/json", 400, "too_deep"),
        (json.dumps({"game": GAME, "seats": [[[[[[[[["human"]]]]]]]]]}).encode(), "application/json", 400, "too_deep"),
        (b'{"game": "hatfl\xffings", "seats": ["human"]}', "application/json", 400, "bad_json"),
        (b'{"game": "hatflings", "seats": ', "application/json", 400, "bad_json"),
        (b'{"game": "hatflings", "seats": ["human"], "seed": NaN}', "application/json", 400, "bad_json"),
        (b'{"game": "hatflings", "seats": ["human"]}', "text/plain", 415, "bad_content"),
        (b"game=hatflings&seats=human", "application/x-www-form-urlencoded", 415, "bad_content"),
        (b'{"game": "hatflings", "seats": ["human"]}', None, 415, "bad_content"),
        (b'"hatflings"', "application/json", 422, "bad_request"),
    ],
    ids=["2000-deep", "one-too-deep", "bad-utf8", "cut-short", "nan", "text-plain", "form", "no-type", "not-an-object"],
)
def test_every_malformed_body_answers_in_the_error_shape(
    served: Served, body: bytes, content_type: str | None, status: int, code: str
) -> None:
    before = len(served.http.get("/api/tables").json())
    headers = {} if content_type is None else {"Content-Type": content_type}
    response = served.http.post("/api/tables", content=body, headers=headers)
    error_of(response, status, code)
    assert len(served.http.get("/api/tables").json()) == before


def test_unknown_addresses_and_methods_answer_in_the_error_shape(served: Served) -> None:
    error_of(served.http.get("/api/nothing-here"), 404, "not_found")
    error_of(served.http.delete("/api/tables"), 405, "bad_method")


# --- 3. HTTP is as strict about types as the websocket -------------------------------------------


@pytest.mark.parametrize(
    ("extra", "code", "words"),
    [
        ({"options": {"players": "2"}}, "invalid_option", 'option players takes a whole number, got "2"'),
        ({"options": {"num_objects": True}}, "invalid_option", "option num_objects takes a whole number, got true"),
        ({"options": {"scene": 7}}, "invalid_option", "option scene takes text, got 7"),
        ({"options": {"scene": ["default"]}}, "bad_request", "options.scene: an option is a whole number"),
        ({"seed": "7"}, "bad_request", 'seed: Input should be a valid integer, got "7"'),
        ({"seed": 7.0}, "bad_request", "seed: Input should be a valid integer, got 7.0"),
    ],
    ids=["players-text", "int-as-bool", "text-as-int", "list", "seed-text", "seed-float"],
)
def test_table_options_take_their_declared_types(served: Served, extra: dict[str, Any], code: str, words: str) -> None:
    response = served.http.post("/api/tables", json={"game": GAME, "seats": ["human", "human"], **extra})
    assert words in error_of(response, 422, code)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"action": True}, "action must be an action id (number) or its label (text), got true"),
        ({"action": 1.0}, "action must be an action id (number) or its label (text), got 1.0"),
        ({"action": 0, "version": "0"}, 'version: Input should be a valid integer, got "0"'),
        ({"action": 0, "seat": "0"}, 'seat: Input should be a valid integer, got "0"'),
    ],
    ids=["action-true", "action-float", "version-text", "seat-text"],
)
def test_actions_over_http_take_exact_types(served: Served, table: Table, body: dict[str, Any], words: str) -> None:
    headers = {"Authorization": f"Bearer {table.mover}"}
    response = served.http.post(f"/api/tables/{table.id}/actions", json=body, headers=headers)
    assert words in error_of(response, 422, "bad_request")
    response = served.http.post(f"/api/tables/{table.id}/why", json={"action": True}, headers=headers)
    assert "action must be an action id" in error_of(response, 422, "bad_request")


def test_joining_takes_a_whole_number_seat(served: Served) -> None:
    table_id = served.http.post("/api/tables", json={"game": GAME, "seats": ["human", "random"]}).json()["id"]
    response = served.http.post(f"/api/tables/{table_id}/join", json={"name": "Ann", "seat": "0"})
    assert 'seat: Input should be a valid integer, got "0"' in error_of(response, 422, "bad_request")
    assert served.http.get(f"/api/tables/{table_id}").json()["seats"][0]["taken"] is False


def test_the_websocket_refuses_a_boolean_reference(served: Served, table: Table) -> None:
    player = Player(served, table.id, table.mover, hello=True)
    try:
        player.send(type="ping", id=True)
        assert player.error()["code"] == "bad_message"
        assert player.version() == 0
    finally:
        player.close()


# --- 4. no control or bidirectional-control characters in names and other text ------------------

FORGED = ["Ann\x00", "\u202eAnn", "A\u2066nn\u2069", "Ann\u200f", "Ann\u061c", "Ann\nBo", "Ann\x1b[31m", "Ann\x85"]


@pytest.mark.parametrize("name", FORGED, ids=[f"U+{ord(next(c for c in n if not c.isalpha())):04X}" for n in FORGED])
def test_names_with_control_or_bidi_characters_are_refused(served: Served, name: str) -> None:
    table_id = served.http.post("/api/tables", json={"game": GAME, "seats": ["human", "random"]}).json()["id"]
    response = served.http.post(f"/api/tables/{table_id}/join", json={"name": name})
    message = error_of(response, 422, "bad_text")
    assert message.startswith("name: the character U+") and "is not allowed" in message
    assert served.http.get(f"/api/tables/{table_id}").json()["seats"][0]["taken"] is False


def test_other_free_text_is_checked_the_same_way(served: Served, table: Table) -> None:
    response = served.http.post("/api/tables", json={"game": GAME, "seats": ["human", "random\u202e"]})
    assert error_of(response, 422, "bad_text").startswith("seats[1]: the character U+202E (RIGHT-TO-LEFT OVERRIDE)")
    response = served.http.post("/api/tables", json={"game": GAME, "seats": ["human", "human"], "\u202eoptions": {}})
    assert "the field name" in error_of(response, 422, "bad_text")
    error_of(served.http.get("/api/tables/abc%00def"), 422, "bad_text")
    error_of(served.http.get("/api/tables?status=open%E2%80%AE"), 422, "bad_text")
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{served.ws_url}/api/tables/abc%00/ws", open_timeout=ANSWER_WITHIN)
    assert refused.value.response.status_code == 403
    player = Player(served, table.id, None, hello=False)
    try:
        player.send(type="hello", token=table.mover + "\u2067")
        assert player.error()["code"] == "bad_text"
        player.send(type="hello", token=table.mover)
        assert player.until(lambda m: m["type"] == "welcome")["role"] == "player"
        player.send(type="act", action="place normal at a1\u202c")
        error = player.error()
        assert error["code"] == "bad_text" and error["message"].startswith("action: the character U+202C")
        assert player.version() == 0
    finally:
        player.close()


# --- 5. connections that never finish a request are closed --------------------------------------


def test_headers_that_never_end_get_408_and_are_closed(served: Served) -> None:
    connection = served.raw()
    started = time.monotonic()
    connection.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    status, headers, body = read_response(connection)
    waited = time.monotonic() - started
    assert status == 408 and headers["connection"] == "close"
    assert shaped(body, "timeout") == f"the request's headers did not arrive within {HEADER_TIMEOUT:g} s"
    assert HEADER_TIMEOUT / 2 <= waited < ANSWER_WITHIN  # it waited for the deadline, then no longer
    assert closed_by_server(connection)
    served.healthy()


def test_headers_trickled_a_byte_at_a_time_still_time_out(served: Served) -> None:
    """Sending keeps nothing alive: the deadline runs from the request's first byte."""
    connection = served.raw()
    started = time.monotonic()
    connection.sendall(b"GET /health HTTP/1.1\r\n")
    connection.settimeout(HEADER_TIMEOUT / 5)
    answer = b""
    for _ in range(60):  # at most 60 bytes, one each time the server has not answered in 0.2 s
        try:
            answer = connection.recv(65536)
            break
        except TimeoutError:
            connection.sendall(b"X")
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    assert time.monotonic() - started < 3 * HEADER_TIMEOUT + ANSWER_WITHIN / 2


def test_a_connection_that_sends_nothing_is_closed(served: Served) -> None:
    connection = served.raw()
    status, _, body = read_response(connection)
    assert status == 408 and shaped(body, "timeout")
    assert closed_by_server(connection)


def test_a_body_that_never_ends_gets_408(served: Served) -> None:
    connection = served.raw()
    connection.sendall(
        b'POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"game"'
    )
    status, headers, body = read_response(connection)
    assert status == 408 and headers["connection"] == "close"
    assert shaped(body, "timeout") == f"the request body did not arrive within {BODY_TIMEOUT:g} s"
    assert closed_by_server(connection)


def test_headers_over_the_limit_get_431(served: Served) -> None:
    connection = served.raw()
    connection.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
    line = b"X-Filler: " + b"a" * 1000 + b"\r\n"
    try:
        for _ in range(4 * MAX_HEADERS // len(line)):  # four times the limit, never the blank line
            connection.sendall(line)
    except (BrokenPipeError, ConnectionResetError):
        pass
    status, _, body = read_response(connection)
    assert status == 431
    assert shaped(body, "too_large") == f"request headers are limited to {MAX_HEADERS} bytes"


def test_an_idle_keep_alive_connection_is_closed(served: Served) -> None:
    connection = served.raw()
    connection.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
    status, _, _ = read_response(connection)
    assert status == 200
    started = time.monotonic()
    assert closed_by_server(connection)
    assert KEEP_ALIVE / 2 <= time.monotonic() - started < ANSWER_WITHIN


def test_a_slow_client_does_not_hold_up_others(served: Served, table: Table) -> None:
    stalled = [served.raw() for _ in range(20)]
    for connection in stalled:
        connection.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
    try:
        player = Player(served, table.id, table.mover, hello=True)
        assert player.version() == 0
        player.close()
        served.healthy()
        for connection in stalled:
            status, _, _ = read_response(connection)
            assert status == 408
    finally:
        for connection in stalled:
            connection.close()


def test_the_websocket_frame_limit_still_closes_only_that_socket(served: Served, table: Table) -> None:
    player = Player(served, table.id, table.mover, hello=True)
    try:
        player.send_raw("x" * 200_000)
        with pytest.raises(ConnectionClosed):
            player.recv(ANSWER_WITHIN)
    finally:
        player.close()
