"""The page checks a finished table's deal itself: verified when the revealed salt and seed hash to
the commitment, a loud failure when they do not (or when the commitment changed), and plain words
on how to verify elsewhere when the browser cannot compute SHA-256."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from .conftest import Server, screenshot


def finished_bot_table(server: Server) -> dict[str, Any]:
    """A table of two bots, played to its end by the server; its summary."""
    created = server.http.post("/api/tables", json={"game": "hatflings", "seats": ["random", "random"]})
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    deadline = time.monotonic() + 60
    while (summary := server.table(table_id))["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    return summary


@pytest.fixture(scope="module")
def finished(server: Server) -> dict[str, Any]:
    return finished_bot_table(server)


def test_the_replay_of_a_finished_table_shows_deal_verified(
    server: Server, open_page: Callable[..., Any], finished: dict[str, Any]
) -> None:
    page = open_page(f"{server.url}/?replay={finished['id']}")
    page.wait_for_selector("#deal.verified")
    text = page.inner_text("#deal")
    assert "Deal verified" in text and "The server drew this deal" in text
    # Seen only after the end, the page says what it compared with.
    assert "first saw it after the end" in text
    assert page.inner_text("#deal .deal-commitment") == finished["deal"]["commitment"]
    assert page.inner_text("#deal .deal-salt") == finished["deal"]["salt"]


def test_a_reveal_that_does_not_match_fails_loudly(
    server: Server, open_page: Callable[..., Any], browser: Any, finished: dict[str, Any]
) -> None:
    table_id = finished["id"]
    context = browser.new_context()
    tampered = dict(finished, deal={**finished["deal"], "seed": str(int(finished["deal"]["seed"]) + 1)})

    def answer(route: Any) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(tampered))

    context.route(f"{server.url}/api/tables/{table_id}", answer)
    page = open_page(f"{server.url}/?replay={table_id}", context=context)
    page.wait_for_selector("#deal.failed")
    assert "DEAL NOT VERIFIED" in page.inner_text("#deal") and page.get_attribute("#deal", "role") == "alert"
    screenshot(page, "deal-not-verified")
    context.close()


def test_a_commitment_changed_since_the_game_fails_loudly(
    server: Server, open_page: Callable[..., Any], browser: Any, finished: dict[str, Any]
) -> None:
    table_id = finished["id"]
    context = browser.new_context()
    noted = json.dumps({"commitment": "0" * 64, "during": True})
    context.add_init_script(f"localStorage.setItem('parlour.deal.{table_id}', {json.dumps(noted)})")
    page = open_page(f"{server.url}/?replay={table_id}", context=context)
    page.wait_for_selector("#deal.failed")
    assert "saw during the game" in page.inner_text("#deal")
    context.close()


def test_without_webcrypto_the_page_says_how_to_verify(
    server: Server, open_page: Callable[..., Any], browser: Any, finished: dict[str, Any]
) -> None:
    """Browsers offer crypto.subtle only on https:// and localhost pages; elsewhere the page says so."""
    context = browser.new_context()
    context.add_init_script("Object.defineProperty(globalThis.crypto, 'subtle', {value: undefined})")
    page = open_page(f"{server.url}/?replay={finished['id']}", context=context)
    page.wait_for_selector("#deal.unverifiable")
    text = page.inner_text("#deal")
    assert "Could not verify the deal here" in text
    assert f"parlour verify-deal {server.url}/invite/{finished['id']}" in text
    context.close()
