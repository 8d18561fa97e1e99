"""Two people, Ann and Ben, each in a browser page of their own, joined at a new Hatflings! table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .conftest import Server


def ann_and_ben(server: Server, open_page: Callable[..., Any]) -> tuple[str, Any, Any]:
    """A table of two people's seats, joined by Ann then Ben: its id and their two pages."""
    table_id = server.http.post("/api/tables", json={"game": "hatflings", "seats": ["human", "human"]}).json()["id"]
    pages = []
    for name in ("Ann", "Ben"):
        page = open_page(f"{server.url}/?table={table_id}")
        page.fill("#join-name", name)
        page.click("#join")
        pages.append(page)
    return str(table_id), pages[0], pages[1]
