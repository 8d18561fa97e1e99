"""The review of a finished game in the browser (end screen and replay, desktop and phone), and the
levels' ratings where people pick an opponent and on the ratings page."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from parlour.agents.levels import calibrations

from .clicking import play_clicks
from .conftest import Server, screenshot
from .screens import audit
from .test_play import create_from_lobby

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def reviewing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose reviews search briefly (the default bound is for real games)."""
    running = Server(
        tmp_path_factory.mktemp("review") / "parlour.sqlite", settings={"review_iterations": 20, "review_seconds": 20.0}
    )
    yield running
    running.stop()


def played_out(open_page: Callable[..., Any], server: Server, game: str, bot: str, seed: int) -> tuple[Any, str]:
    """A page whose person played a whole game against `bot` from the lobby, at its end screen."""
    page = open_page(server.url + "/")
    table_id = create_from_lobby(page, game, [bot], seed=seed)
    play_clicks(page)
    page.wait_for_selector("#scores")
    return page, table_id


def open_review(page: Any) -> None:
    """Ask for the review and wait for its chart."""
    page.click("#review-game")
    page.wait_for_selector("#review .review-chart", timeout=120_000)


def test_a_finished_game_is_reviewed_on_the_end_screen_and_in_the_replay(
    reviewing: Server, open_page: Callable[..., Any]
) -> None:
    page, table_id = played_out(open_page, reviewing, "hatflings", "level:club", 4)
    page.click("#review-game")
    # The first ask starts the review (202): the page says how far it got, with a progress bar.
    page.wait_for_function("document.querySelector('#review .review-status').textContent.startsWith('Reviewing: move')")
    assert page.locator("#review progress").is_visible()
    page.wait_for_selector("#review .review-chart", timeout=120_000)
    assert page.locator("#review .review-line").count() == 2  # one line per seat: Hatflings! hides nothing
    lines = page.locator("#review .review-mistake-line").all_inner_texts()
    assert lines and all("the strongest bot prefers" in line for line in lines)
    assert "Ann" in page.inner_text("#review .review-legend")
    assert not audit(page)
    screenshot(page, "hatflings-review-end")

    page.goto(reviewing.url + f"/?replay={table_id}")
    page.wait_for_selector("#ply-slider")
    open_review(page)  # the same review, from the server's cache
    first = page.locator("#review .review-mistake-line").first
    step = first.get_attribute("data-step")
    first.locator("button").click()
    page.wait_for_function(f"document.querySelector('#ply').textContent.startsWith('Move {step} of')")
    screenshot(page, "hatflings-review-replay")

    phone = open_page(reviewing.url + f"/?replay={table_id}", viewport=PHONE)
    phone.wait_for_selector("#ply-slider")
    open_review(phone)
    width = phone.evaluate("document.querySelector('#review .review-chart').getBoundingClientRect().width")
    assert 0 < width <= PHONE["width"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not audit(phone)
    screenshot(phone, "hatflings-review-phone")


def test_a_spectator_of_a_hidden_information_game_sees_nobody_s_secrets(
    reviewing: Server, open_page: Callable[..., Any]
) -> None:
    page, table_id = played_out(open_page, reviewing, "hanbok_runway", "level:casual", 6)
    open_review(page)
    mine = page.locator("#review .review-mistake-line").all_inner_texts()
    assert all(line.split(",")[1].strip().startswith("Ann played") for line in mine)
    spectator = open_page(reviewing.url + f"/?replay={table_id}")  # another browser: no seat here
    spectator.wait_for_selector("#ply-slider")
    open_review(spectator)
    shown = spectator.inner_text("#review")
    assert spectator.locator("#review .review-mistake-line").count() == 0
    assert "shown to their player only" in shown and "of the chart's points are left out" in shown
    assert not any(line.split("prefers")[1] in shown for line in mine)
    screenshot(spectator, "hanbok_runway-review-spectator")


def test_levels_are_shown_with_their_ratings_where_an_opponent_is_picked(
    reviewing: Server, open_page: Callable[..., Any]
) -> None:
    club = calibrations()["hatflings"].ratings["level:club"].ordinal
    page = open_page(reviewing.url + "/")
    page.select_option("#game", "hatflings")
    page.wait_for_function(
        "document.querySelector('#seat-1 option[value=\"level:club\"]').textContent.includes('rating')"
    )
    assert f"rating {club:.1f}" in page.inner_text("#seat-1 option[value='level:club']")
    assert "mu - 3 sigma" in page.inner_text(".create .levels-scale")
    card = page.locator(".game-card[data-game='hatflings']")
    card.locator("button.play-now").click()
    quick = card.locator(".quick-levels")
    page.wait_for_function(
        "[...document.querySelectorAll('.quick-levels')]"
        ".every((n) => n.textContent.includes('two players') || n.textContent.includes('not rated'))"
    )
    assert "Free seats go to a bot level near your rating" in quick.inner_text()
    assert f"Club {club:.1f}" in quick.inner_text()
    screenshot(page, "lobby-level-ratings")

    ratings = open_page(reviewing.url + "/?ratings=hatflings")
    ratings.wait_for_selector("#ratings-2 [data-level='level:club']")
    assert ratings.inner_text("#ratings-2 [data-level='level:club'] .rating") == f"{club:.1f}"
    assert "no rated game has set bots against people" in ratings.inner_text("#ratings-2")
    screenshot(ratings, "ratings-with-levels")
    phone = open_page(reviewing.url + "/?ratings=hatflings", viewport=PHONE)
    phone.wait_for_selector("#ratings-2 [data-level='level:master']")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "ratings-with-levels-phone")
