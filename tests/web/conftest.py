"""A real `parlour` server in a subprocess (temp SQLite file, free loopback port) and Debian's
chromium driven by Playwright. Every page a test opens fails the test on any console error."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import playwright.sync_api as playwright_api
import pytest

CHROMIUM = os.environ.get("PARLOUR_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(os.environ.get("PARLOUR_SCREENSHOTS", Path(__file__).parent / "screenshots"))
SERVER = """
import json, sys
from parlour.server import Settings, run
settings = Settings(**{"db": sys.argv[1], "bot_delay": 0.0, **json.loads(sys.argv[3])})
run(settings, port=int(sys.argv[2]), log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """`parlour`'s server on `db`; `port` (a free one if not given) and `settings` (Settings fields)
    let a test restart a server of its own at the same address."""

    def __init__(self, db: Path, port: int | None = None, settings: dict[str, Any] | None = None) -> None:
        self.db, self.settings = db, settings or {}
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = db.with_suffix(".log").open("a")
        command = [sys.executable, "-c", SERVER, str(db), str(self.port), json.dumps(self.settings)]
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)
        self.http = httpx.Client(base_url=self.url, timeout=30)
        deadline = time.monotonic() + 60
        while True:
            try:
                if self.http.get("/health").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start; see {self.log.name}")
            time.sleep(0.1)

    def table(self, table_id: str) -> dict[str, Any]:
        return dict(self.http.get(f"/api/tables/{table_id}").json())

    def stop(self) -> None:
        self.http.close()
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Every page of every test comes from 127.0.0.1, so a session's tables would soon reach the
    # limits on tables per address (their own tests are in tests/server/test_limits.py).
    unlimited = {"tables_per_client": 0, "table_rate": 0}
    running = Server(tmp_path_factory.mktemp("web") / "parlour.sqlite", settings=unlimited)
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Debian's chromium at {CHROMIUM} (scripts/system-deps.sh installs it)")
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def open_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """New pages (each in its own browser context unless one is given) that record console errors."""
    errors: list[str] = []
    contexts: list[Any] = []

    def open_one(url: str, context: Any = None, viewport: dict[str, int] | None = None) -> Any:
        if context is None:
            context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900})
            contexts.append(context)
        page = context.new_page()
        page.on("console", lambda message: message.type == "error" and errors.append(f"{page.url}: {message.text}"))
        page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
        page.set_default_timeout(20_000)
        page.goto(url)
        return page

    yield open_one
    for context in contexts:
        context.close()
    assert not errors, "console errors:\n" + "\n".join(errors)


def screenshot(page: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
