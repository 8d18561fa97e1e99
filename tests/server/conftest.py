"""A real server on a free loopback port for each test, on SQLite and, when
PARLOUR_TEST_POSTGRES_URL is set (CI sets it), on PostgreSQL too; and clients to talk to it."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from sqlalchemy import create_engine, text
from websockets.sync.client import ClientConnection, connect

from parlour.engine import registry
from parlour.engine.game import Game
from parlour.engine.registry import game_classes, register
from parlour.server import Settings, create_app
from parlour.server.edge.guard import uvicorn_options
from parlour.server.settings import database_url

from ..engine.nim import Nim
from .peek import Peek

# Two small games of the tests' own, registered only while a server test runs, so that tests
# elsewhere that list every game never see them.
TEST_GAMES: dict[str, type[Game]] = {"nim": Nim, "peek": Peek}


def all_games() -> list[str]:
    """The real games and the test games, by name (for parametrizing)."""
    return sorted(set(game_classes()) | set(TEST_GAMES))


@pytest.fixture(autouse=True)
def test_games() -> Iterator[None]:
    added = [game for name, game in TEST_GAMES.items() if name not in game_classes()]
    for game in added:
        register(game)
    yield
    for game in added:
        registry._GAMES.pop(game.name, None)


warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)

POSTGRES_URL = os.environ.get("PARLOUR_TEST_POSTGRES_URL", "")
BACKENDS = ["sqlite"] + (["postgresql"] if POSTGRES_URL else [])


def run_sql(base: str, statement: str) -> None:
    engine = create_engine(database_url(base))
    with engine.begin() as connection:
        connection.execute(text(statement))
    engine.dispose()


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The `--db` value of a new, empty database: a SQLite file, or a PostgreSQL schema of this
    test's own (named after the process, so that test runs sharing the server never collide)."""
    if request.param == "sqlite":
        yield str(tmp_path / "parlour.sqlite")
        return
    schema = f"parlour_{os.getpid()}_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    run_sql(POSTGRES_URL, f"DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}")
    yield POSTGRES_URL + ("&" if "?" in POSTGRES_URL else "?") + f"options=-csearch_path%3D{schema}"
    run_sql(POSTGRES_URL, f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def free_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


class LiveServer:
    """The app served by uvicorn in a thread of the test process."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.sock = free_socket()
        port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"
        self.app = create_app(settings)
        config = uvicorn.Config(self.app, log_config=None, access_log=False, lifespan="on", **uvicorn_options(settings))
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        self.http = httpx.Client(base_url=self.url, timeout=30)

    def stop(self) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(30)
        self.sock.close()

    # --- lobby helpers ---------------------------------------------------------------------------

    def create(self, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
        """Open a table. A test that gives a seed wants that very deal, so its table is a fixed deal
        (the server refuses a chosen seed where two people sit otherwise; test_fairness shows it)."""
        if "seed" in extra:
            extra.setdefault("fixed_deal", True)
        response = self.http.post("/api/tables", json={"game": game, "seats": seats, **extra})
        assert response.status_code == 201, response.text
        return dict(response.json())

    def join(self, table_id: str, name: str, seat: int | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"name": name} if seat is None else {"name": name, "seat": seat}
        response = self.http.post(f"/api/tables/{table_id}/join", json=body)
        assert response.status_code == 200, response.text
        return dict(response.json())

    def table(self, table_id: str) -> dict[str, Any]:
        return dict(self.http.get(f"/api/tables/{table_id}").json())

    def connect(self, table_id: str, token: str | None = None, hello: bool = True) -> Player:
        return Player(self, table_id, token, hello)


class Player:
    """A websocket client that keeps every message it receives."""

    def __init__(self, server: Any, table_id: str, token: str | None, hello: bool) -> None:
        self.exits = contextlib.ExitStack()
        url = f"{server.ws_url}/api/tables/{table_id}/ws"
        self.ws: ClientConnection = self.exits.enter_context(connect(url, open_timeout=10, max_size=None))
        self.messages: list[dict[str, Any]] = []
        self.seat: int | None = None
        if hello:
            self.send(type="hello", token=token)
            welcome = self.until(lambda m: m["type"] in ("welcome", "error"))
            assert welcome["type"] == "welcome", welcome
            self.seat = welcome["seat"]
            self.position = self.until(lambda m: m["type"] == "sync")

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def send_raw(self, data: str | bytes) -> None:
        self.ws.send(data)

    def recv(self, timeout: float = 20) -> dict[str, Any]:
        message = json.loads(self.ws.recv(timeout))
        self.messages.append(message)
        return dict(message)

    def until(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if wanted(message):
                return message

    def error(self) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "error")

    def version(self) -> int:
        """The table's version, asked afresh (answers arrive in order, so this also drains)."""
        self.send(type="ping", id="v")
        return int(self.until(lambda m: m["type"] == "pong")["version"])

    def close(self) -> None:
        self.exits.close()


@pytest.fixture
def serve(db: str) -> Iterator[Callable[..., LiveServer]]:
    """Start servers on the test's database (a second start after a stop is a restart)."""
    started: list[LiveServer] = []

    def start(**overrides: Any) -> LiveServer:
        settings = Settings(**{"db": db, "bot_delay": 0.0, "web_dir": None, **overrides})
        server = LiveServer(settings)
        started.append(server)
        return server

    yield start
    for server in started:
        if server.thread.is_alive():
            server.stop()


@pytest.fixture
def server(serve: Callable[..., LiveServer]) -> LiveServer:
    return serve()


def wait_until(condition: Callable[[], bool], timeout: float = 30) -> None:
    """Poll `condition` until it holds (bots play in the background); fail after `timeout`."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the condition did not come true in time")
        time.sleep(0.02)


def play_to_end(player: Player, seed: int, limit: int = 5000) -> dict[str, Any]:
    """Play the player's seat with seeded random legal moves until the game ends; the last message."""
    from parlour.engine.rng import Rng

    rng = Rng(seed)
    message = player.position
    acted: set[int] = set()
    for _ in range(limit):
        if message.get("status") == "finished":
            return message
        if message["type"] in ("sync", "update") and message["legal"] and message["version"] not in acted:
            acted.add(message["version"])
            choice = rng.choice(message["legal"])
            player.send(type="act", action=choice["id"], version=message["version"])
        message = player.until(lambda m: m["type"] in ("sync", "update", "error"))
        assert message["type"] != "error", message
    raise AssertionError(f"the game did not end within {limit} messages")
