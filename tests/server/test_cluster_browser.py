"""The browser client's table connection goes to another server process when its own dies.

Two `parlour serve` processes share one PostgreSQL schema; the page comes from the first and lists
both in <meta name="parlour-servers">. The first is killed with SIGKILL: the page connects to the
second, and a move played there reaches it.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import POSTGRES_URL, Player, run_sql
from .test_cluster import Node, join, open_table, running

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

CHROMIUM = os.environ.get("PARLOUR_CHROMIUM", "/usr/bin/chromium")


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[Node, Node]]:
    if not POSTGRES_URL:
        pytest.skip("needs PARLOUR_TEST_POSTGRES_URL (make test starts PostgreSQL)")
    schema = f"parlour_browser_{os.getpid()}_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    run_sql(POSTGRES_URL, f"DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}")
    db = POSTGRES_URL + ("&" if "?" in POSTGRES_URL else "?") + f"options=-csearch_path%3D{schema}"
    nodes = [Node(db, tmp_path / "first.log"), Node(db, tmp_path / "second.log")]
    yield nodes[0], nodes[1]
    for node in nodes:
        if node.process.poll() is None:
            node.stop()
    run_sql(POSTGRES_URL, f"DROP SCHEMA IF EXISTS {schema} CASCADE")


@pytest.fixture
def chromium() -> Iterator[Any]:
    import playwright.sync_api as playwright_api

    from ..web.conftest import CHROMIUM_ARGS

    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Debian's chromium at {CHROMIUM} (scripts/system-deps.sh installs it)")
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield launched
        launched.close()


def wait_in(page: Any, condition: Any, timeout: float = 30) -> None:
    """wait_until, but letting Playwright deliver the page's events meanwhile (time.sleep does not)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"the condition did not come true in time ({page.url})"
        page.wait_for_timeout(50)


def test_the_table_page_reconnects_to_another_listed_server(pair: tuple[Node, Node], chromium: Any) -> None:
    first, second = pair
    table_id = open_table(first, ["human", "human"])
    ann = Player(second, table_id, join(first, table_id, "Ann"), hello=True)
    join(first, table_id, "Bob")
    legal = running(ann)["legal"]
    assert legal  # seat 0 plays first
    hosts = f"127.0.0.1:{first.port} 127.0.0.1:{second.port}"
    page = chromium.new_page()
    page.set_default_timeout(30_000)

    # The deployment's own index.html would carry the tag; here it is added as the page loads.
    page.add_init_script(
        "new MutationObserver((_, watch) => { if (!document.head) return; watch.disconnect();"
        " const tag = document.createElement('meta'); tag.name = 'parlour-servers';"
        f" tag.content = '{hosts}'; document.head.prepend(tag); }})"
        ".observe(document, { childList: true, subtree: true });"
    )
    frames: dict[str, list[dict[str, Any]]] = {}

    def opened(socket: Any) -> None:
        received = frames.setdefault(socket.url, [])
        socket.on("framereceived", lambda frame: received.append(json.loads(frame)))

    page.on("websocket", opened)
    page.goto(f"{first.url}/?table={table_id}")
    to_first = f"ws://127.0.0.1:{first.port}/api/tables/{table_id}/ws"
    wait_in(page, lambda: any(m["type"] == "sync" for m in frames.get(to_first, [])))
    first.kill()
    # The page's next try goes to the second server, which sends it the position and then the move.
    to_second = f"ws://127.0.0.1:{second.port}/api/tables/{table_id}/ws"
    wait_in(page, lambda: any(m["type"] == "sync" for m in frames.get(to_second, [])), timeout=60)
    ann.send(type="act", action=legal[0]["id"], version=0)
    moved = ann.until(lambda m: m["type"] == "update")
    wait_in(page, lambda: any(m["type"] == "update" and m["version"] == moved["version"] for m in frames[to_second]))
    page.close()
