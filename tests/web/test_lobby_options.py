"""The lobby names every game's options as a person reads them: a title and a one-line help,
never the name the command line takes (`num_objects`, `start_zone_0`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .conftest import Server

GAMES = ("hatflings", "hanbok_runway", "hatairo", "yamatai")


def test_every_option_has_a_title_a_person_can_read(server: Server, open_page: Callable[..., Any]) -> None:
    page = open_page(f"{server.url}/")
    page.wait_for_selector("#game option[value=hatflings]", state="attached")
    page.click("details > summary:text('Options')")
    for game in GAMES:
        page.select_option("#game", game)
        labels = page.locator(".options label").all_inner_texts()
        assert labels, f"{game} shows no options"
        for label in labels:
            assert "_" not in label and label[:1].isupper(), f"{game}: option shown as {label!r}"
        helps = page.locator(".options small").all_inner_texts()
        assert not [text for text in helps if "seat 0" in text or "seat 1" in text], helps
    page.select_option("#game", "hatflings")
    assert "Starting captain" in page.locator(".options label").all_inner_texts()
