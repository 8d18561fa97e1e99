"""The limits on open websockets: per client address and per process, refused before accepting
(HTTP 429 with the usual error body), and a slot freed however a connection ends."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from typing import Any

import pytest
from typer.testing import CliRunner
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

import parlour.server
from parlour.cli import app, main
from parlour.server.edge.quotas import SocketSlots
from parlour.server.settings import Settings

from .conftest import LiveServer, wait_until

# Loopback is the whole of 127.0.0.0/8 on Linux: a client bound to 127.0.0.2 is another address.
OTHER = "127.0.0.2"


def open_socket(server: LiveServer, table_id: str, source: str = "127.0.0.1") -> ClientConnection:
    url = f"{server.ws_url}/api/tables/{table_id}/ws"
    return connect(url, open_timeout=10, source_address=(source, 0))


def refusal(server: LiveServer, table_id: str, source: str = "127.0.0.1") -> dict[str, Any]:
    with pytest.raises(InvalidStatus) as refused:
        open_socket(server, table_id, source).close()
    response = refused.value.response
    assert response.status_code == 429
    return dict(json.loads(response.body or b"")["error"])


def slots_of(server: LiveServer) -> SocketSlots:
    slots: SocketSlots = server.app.state.sockets
    return slots


def test_one_address_may_open_only_so_many_websockets(serve: Callable[..., LiveServer]) -> None:
    server = serve(websockets_per_client=2)
    table = server.create("nim", ["human", "human"])
    first, second = server.connect(table["id"]), server.connect(table["id"], hello=False)
    error = refusal(server, table["id"])
    assert error == {
        "code": "too_many_websockets",
        "message": "this address has 2 websockets open; this server allows at most 2",
    }
    # The open ones play on, untouched by the refusal.
    assert first.version() == 0
    second.send(type="hello")
    assert second.until(lambda m: m["type"] in ("welcome", "error"))["type"] == "welcome"
    with open_socket(server, table["id"], OTHER) as other:
        other.send(json.dumps({"type": "hello"}))
        assert json.loads(other.recv(10))["type"] == "welcome"
        assert slots_of(server).open == {"127.0.0.1": 2, OTHER: 1}
    first.close()
    second.close()


def test_closing_a_websocket_frees_its_slot(serve: Callable[..., LiveServer]) -> None:
    server = serve(websockets_per_client=1)
    table = server.create("nim", ["human", "human"])
    player = server.connect(table["id"])
    assert refusal(server, table["id"])["code"] == "too_many_websockets"
    player.close()
    wait_until(lambda: slots_of(server).open == {})
    again = server.connect(table["id"])
    assert again.version() == 0
    again.close()


def test_a_dropped_websocket_frees_its_slot(serve: Callable[..., LiveServer]) -> None:
    server = serve(websockets_per_client=1)
    table = server.create("nim", ["human", "human"])
    player = server.connect(table["id"])
    # Gone without a closing handshake, as when a network or a browser dies.
    player.ws.socket.shutdown(socket.SHUT_RDWR)
    player.ws.socket.close()
    wait_until(lambda: slots_of(server).open == {})
    again = server.connect(table["id"])
    assert again.version() == 0
    again.close()
    player.close()


def test_a_websocket_to_no_table_frees_its_slot_too(serve: Callable[..., LiveServer]) -> None:
    server = serve(websockets_per_client=1)
    with open_socket(server, "NoSuchTb") as lost:
        assert json.loads(lost.recv(10))["code"] == "no_table"
    wait_until(lambda: slots_of(server).open == {})
    table = server.create("nim", ["human", "human"])
    server.connect(table["id"]).close()


def test_a_process_opens_only_so_many_websockets_in_all(serve: Callable[..., LiveServer]) -> None:
    server = serve(websockets_per_client=5, max_websockets=2)
    table = server.create("nim", ["human", "human"])
    first, second = server.connect(table["id"]), server.connect(table["id"])
    error = refusal(server, table["id"], OTHER)
    assert error["message"] == "this server process has 2 websockets open, the most it allows"
    first.close()
    wait_until(lambda: slots_of(server).count == 1)
    with open_socket(server, table["id"], OTHER) as other:
        other.send(json.dumps({"type": "hello"}))
        assert json.loads(other.recv(10))["type"] == "welcome"
    second.close()


@pytest.mark.parametrize("name", ["websockets_per_client", "max_websockets", "send_queue"])
@pytest.mark.parametrize("value", [0, -3])
def test_settings_refuse_a_websocket_limit_below_one(name: str, value: int) -> None:
    with pytest.raises(ValueError, match=f"{name} must be a whole number of at least 1, got {value}"):
        Settings(**{name: value})  # type: ignore[arg-type]


runner = CliRunner()


def test_serve_takes_the_websocket_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[Settings] = []
    monkeypatch.setattr(parlour.server, "run", lambda settings, **_: started.append(settings))
    result = runner.invoke(app, ["serve", "--port", "0", "--websockets-per-client", "5", "--max-websockets", "70"])
    assert result.exit_code == 0, result.output
    assert (started[0].websockets_per_client, started[0].max_websockets) == (5, 70)
    result = runner.invoke(app, ["serve", "--port", "0"])
    assert (started[1].websockets_per_client, started[1].max_websockets) == (32, 2000)


@pytest.mark.parametrize("option", ["--websockets-per-client", "--max-websockets"])
@pytest.mark.parametrize("value", ["0", "-1"])
def test_serve_refuses_a_websocket_limit_below_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    started: list[Settings] = []
    monkeypatch.setattr(parlour.server, "run", lambda settings, **_: started.append(settings))
    with pytest.raises(SystemExit) as refused:
        main(["serve", "--port", "0", option, value])
    assert refused.value.code == 2
    said = capsys.readouterr().err
    assert f"Invalid value for '{option}': Input should be greater than or equal to 1" in said
    assert started == []


def test_behind_a_proxy_on_this_machine_each_forwarded_address_counts_alone(serve: Callable[..., LiveServer]) -> None:
    # uvicorn trusts X-Forwarded-For from 127.0.0.1 and ::1 (its FORWARDED_ALLOW_IPS), for every limit per address.
    server = serve(websockets_per_client=1)
    table = server.create("nim", ["human", "human"])
    url = f"{server.ws_url}/api/tables/{table['id']}/ws"
    with connect(url, additional_headers={"X-Forwarded-For": "203.0.113.7"}):
        with connect(url, additional_headers={"X-Forwarded-For": "203.0.113.8"}):
            assert slots_of(server).open == {"203.0.113.7": 1, "203.0.113.8": 1}
        with pytest.raises(InvalidStatus):
            connect(url, additional_headers={"X-Forwarded-For": "203.0.113.7"})


def test_the_table_socket_is_routed_before_any_http_route() -> None:
    """FastAPI walks its routes in order: the websocket of every table comes before the HTTP API's
    routers (docs/performance.md, 'The cost of a move')."""
    from starlette.routing import Match

    from parlour.server.app import create_app

    app = create_app(Settings(db=":memory:"))
    scope = {"type": "websocket", "path": "/api/tables/abc/ws", "root_path": "", "headers": [], "query_string": b""}
    matched = [index for index, route in enumerate(app.router.routes) if route.matches(scope)[0] == Match.FULL]
    http_routers = [index for index, route in enumerate(app.router.routes) if getattr(route, "path", None) is None]
    assert matched and matched[0] <= http_routers[0]
