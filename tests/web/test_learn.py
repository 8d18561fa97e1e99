"""Learn to play: each game's guided first game played through in the browser by following the
coach (the ringed place or button), a wrong click explained and refused, and the game going on
against the gentle bot once the lesson is over."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from parlour.engine.registry import game_classes
from parlour.engine.tutorial import LEARNER, tutorial_of

from .clicking import MY_TURN_OR_OVER, play_clicks
from .conftest import Server, screenshot

NEXT_OR_DONE = (
    "() => document.querySelector('#coach-done')"
    " || (document.querySelector('#turn.mine') && document.querySelector('.coach-next'))"
)
GAMES = ["hanbok_runway", "hatairo", "hatflings", "yamatai"]
WRONG = ", ".join(
    f"{where}:not(.coach-next)" for where in ("#board .target.legal", "#choices button.choice", "#choices button.step")
)


def follow_the_lesson(page: Any, learner_steps: int) -> int:
    """Click what the coach rings until the lesson is over; how many of the learner's moves it took."""
    moves = 0
    while True:
        page.wait_for_function(NEXT_OR_DONE)
        if page.locator("#coach-done").count():
            return moves
        step = page.inner_text("#coach-step")
        assert f"of {learner_steps}" in step, step
        page.locator(".coach-next").first.click()
        # A move of several clicks rings each in turn; the step text changes once the move is played.
        page.wait_for_function(
            "(old) => !document.querySelector('#coach-step') || document.querySelector('#coach-step').innerText !== old"
            " || document.querySelector('.coach-next') !== null",
            arg=step,
        )
        if not page.locator("#coach-step").count() or page.inner_text("#coach-step") != step:
            moves += 1


@pytest.mark.parametrize("game", GAMES)
def test_each_lesson_plays_through_to_a_real_game(server: Server, open_page: Callable[..., Any], game: str) -> None:
    tutorial = tutorial_of(game_classes()[game])
    learner_steps = sum(1 for step in tutorial.steps if step.seat == LEARNER)
    page = open_page(server.url + f"/?learn={game}")
    page.wait_for_selector("#coach")
    page.wait_for_function(NEXT_OR_DONE)
    assert tutorial.welcome[:40] in page.inner_text("#coach")
    # A click elsewhere than the ring is explained and plays nothing.
    first = page.inner_text("#coach-step")
    wrong = page.locator(WRONG)
    if wrong.count():
        wrong.first.click()
        assert "This step:" in page.inner_text("#explain")
        assert page.inner_text("#coach-step") == first
    screenshot(page, f"learn-{game}-desktop")
    assert follow_the_lesson(page, learner_steps) == learner_steps
    assert "gentle bot" in page.inner_text("#coach-done")
    table_id = page.evaluate("new URLSearchParams(location.search).get('table')")
    seats = server.table(table_id)["seats"]
    assert [seat["agent"] for seat in seats[1:]] == ["tutorial"] * (tutorial.players - 1)
    # The game goes on: the learner's clicks are no longer checked against a script.
    page.wait_for_function(MY_TURN_OR_OVER)
    play_clicks(page, decisions=2)


def test_a_lesson_on_a_phone(server: Server, open_page: Callable[..., Any]) -> None:
    page = open_page(server.url + "/?learn=hatflings", viewport={"width": 390, "height": 844})
    page.wait_for_function(NEXT_OR_DONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "learn-hatflings-phone")
    follow_the_lesson(page, 5)
    screenshot(page, "learn-hatflings-done-phone")
