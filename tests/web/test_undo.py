"""The Undo button: a step the server holds tentative is taken back from the table page."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server
from .test_play import create_from_lobby


@pytest.fixture
def undo_server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "parlour.sqlite", settings={"undo": True})
    yield running
    running.stop()


def test_a_step_of_ones_own_turn_is_taken_back_with_undo(undo_server: Server, open_page: Callable[..., Any]) -> None:
    page = open_page(undo_server.url + "/")
    table_id = create_from_lobby(page, "yamatai", ["random"], seed=3)
    page.wait_for_function("document.querySelector('#moves option') !== null")
    assert page.locator("#undo").is_hidden()
    before = page.locator("#moves option").all_inner_texts()
    # Taking a fleet tile keeps the turn and shows nothing hidden: the step stays tentative.
    page.select_option("#moves", index=before.index(next(t for t in before if t.startswith("Take fleet tile"))))
    page.click("#play-move")
    page.wait_for_selector("#undo:not([hidden])")
    assert page.locator("#moves option").all_inner_texts() != before
    assert undo_server.table(table_id)["version"] == 0  # nobody else sees it, nothing is committed
    page.click("#undo")
    page.wait_for_selector("#undo", state="hidden")
    assert page.locator("#moves option").all_inner_texts() == before
    assert undo_server.table(table_id)["version"] == 0
