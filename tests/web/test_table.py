"""Playing online through an invite link, resuming after a reload, the replay viewer, and the table's
helpers: wrong clicks explained, stepping back, keyboard play, hints, rules, a phone-sized screen."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .clicking import MY_TURN_OR_OVER, click_one, finished, play_clicks
from .conftest import Server, screenshot
from .test_play import create_from_lobby


def test_two_people_play_one_game_through_an_invite_link(
    server: Server, open_page: Callable[..., Any], browser: Any
) -> None:
    ann = open_page(server.url + "/")
    ann.select_option("#game", "hanbok_runway")
    ann.select_option("#players", "2")
    ann.select_option("#seat-0", "human")
    ann.select_option("#seat-1", "human")
    ann.click("details > summary")
    ann.fill("#seed", "3")
    ann.fill("#your-name", "Ann")
    # A seed of one's own where another person plays is refused unless the table says so to everybody.
    ann.click("#create")
    ann.wait_for_function("document.querySelector('.create .status').textContent.includes('fixed deal')")
    ann.check("#fixed-deal")
    ann.click("#create")
    invite = ann.input_value("#invite-link")
    ann.click("#go-table")
    ann.wait_for_selector("#board svg")
    assert "Waiting for every seat" in ann.inner_text("#turn")

    bob = open_page(invite)  # a second browser context: another person, elsewhere
    assert "the table's creator chose the deal" in bob.inner_text(".join .fixed-deal-warning")
    bob.fill("#join-name", "Bob")
    bob.click("#join")
    bob.wait_for_selector("#board svg")
    table_id = invite.rsplit("/", 1)[1]
    watcher = open_page(server.url + "/")
    # The lobby's list tells a fixed deal apart.
    assert watcher.wait_for_selector(f"[data-table='{table_id}'] .fixed-deal").inner_text() == "fixed deal"
    watcher.click(f"[data-table='{table_id}'] >> text=Watch")
    watcher.wait_for_selector("#board svg")
    assert watcher.locator("#moves").is_hidden()
    assert "You are watching" not in watcher.inner_text("#turn")  # asked to watch: no advice
    # Ann's seat opened in another browser (no key to it there): the page says how to take it back.
    elsewhere = open_page(server.url + f"/?table={table_id}")
    elsewhere.wait_for_selector("#board svg")
    assert elsewhere.locator("#moves").is_hidden()
    advice = elsewhere.inner_text("#turn")
    assert "You are watching. If a seat here is yours, sign in" in advice and "Resume in My games" in advice

    # Whoever waits is told whose turn it is when clicking the board.
    ann.wait_for_function(
        MY_TURN_OR_OVER + " || document.querySelector('#turn').textContent.startsWith('Waiting for Bob')"
    )
    waiting = bob if ann.locator("#turn.mine").count() else ann
    waiting.locator("#board [data-key]").first.click()
    waiting.wait_for_function("document.querySelector('#explain').textContent.includes('not your turn')")

    clicks = 0
    deadline = time.monotonic() + 120
    while not finished(ann):
        assert time.monotonic() < deadline, "the online game did not end in time"
        mover = next((page for page in (ann, bob) if page.locator("#turn.mine").count()), None)
        if mover is None:
            ann.wait_for_timeout(15)
            continue
        click_one(mover, clicks)
        clicks += 1
        if clicks == 20:
            screenshot(ann, "hanbok_runway-online-ann")
            screenshot(bob, "hanbok_runway-online-bob")
    bob.wait_for_selector("#scores")
    watcher.wait_for_selector("#scores")
    assert (
        ann.inner_text("#scores tr.total")
        == bob.inner_text("#scores tr.total")
        == watcher.inner_text("#scores tr.total")
    )
    seats = server.table(table_id)["seats"]
    assert [seat["name"] for seat in seats] == ["Ann", "Bob"]


def test_a_reload_mid_game_resumes_and_the_replay_steps_through_it(
    server: Server, open_page: Callable[..., Any]
) -> None:
    page = open_page(server.url + "/")
    table_id = create_from_lobby(page, "hatflings", ["random"], seed=None)
    # The server drew the deal: its commitment is on the table from the start, seed and salt are not.
    commitment = server.table(table_id)["deal"]["commitment"]
    assert page.inner_text("#deal .deal-commitment") == commitment
    assert "Deal committed" in page.inner_text("#deal") and page.locator("#deal .deal-seed").count() == 0
    play_clicks(page, decisions=8)
    page.wait_for_function(MY_TURN_OR_OVER)
    logged = page.locator("#log > li").count()
    assert logged > 0
    page.reload()
    page.wait_for_selector("#board svg")
    page.wait_for_function(MY_TURN_OR_OVER)
    # Same seat, same game: the log comes back from the server (fetched beside the socket, so it
    # may land just after the position), and play goes on from here.
    page.wait_for_function(f"document.querySelectorAll('#log > li').length === {logged}")
    assert "you" in page.inner_text("#players")
    play_clicks(page)
    total = server.table(table_id)["version"]
    page.wait_for_selector("#deal.verified")
    assert "seen by this browser during the game" in page.inner_text("#deal")
    assert page.inner_text("#deal .deal-seed") == str(server.table(table_id)["seed"])

    page.click("#open-replay")
    page.wait_for_selector("#ply-slider")
    page.wait_for_function("document.querySelector('#ply').textContent.startsWith('Start')")
    page.click("#next")
    page.click("#next")
    page.wait_for_function("document.querySelector('#ply').textContent.startsWith('Move 2 of')")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelector('#ply').textContent.startsWith('Move 1 of')")
    page.click("#last")
    page.wait_for_function(f"document.querySelector('#ply').textContent.startsWith('Move {total} of {total}')")
    assert page.locator("#log > li.current").count() == 1
    screenshot(page, "hatflings-replay")


def test_wrong_clicks_back_keyboard_hint_and_rules(server: Server, open_page: Callable[..., Any]) -> None:
    page = open_page(server.url + "/")
    create_from_lobby(page, "hatflings", ["random"])
    page.wait_for_function(MY_TURN_OR_OVER)

    # A square no move can use gets an explanation, and nothing is played.
    before = page.locator("#log > li").count()
    page.locator("#board [data-key^='sq:']:not(.legal)").first.click()
    page.wait_for_function("document.querySelector('#explain').textContent.startsWith('Not allowed')")
    assert page.locator("#log > li").count() == before

    # First step of a placement, then back: the choice is undone before anything is played.
    pool = page.locator("#board [data-key='kind:normal'].legal")
    pool.click()
    assert page.locator("#board [data-key='kind:normal'].chosen").count() == 1
    assert page.is_enabled("#back")
    page.click("#back")
    assert page.locator("#board .chosen").count() == 0 and page.is_disabled("#back")

    # The same move by keyboard alone: focus the halfling, Enter, focus a square, Enter.
    pool.focus()
    page.keyboard.press("Enter")
    square = page.locator("#board [data-key^='sq:'].legal").first
    square.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelectorAll('#log > li').length > {before}")
    page.wait_for_function(MY_TURN_OR_OVER)

    # And from the list of every legal move.
    count = page.locator("#log > li").count()
    page.focus("#moves")
    page.keyboard.press("ArrowDown")
    page.focus("#play-move")
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelectorAll('#log > li').length > {count}")
    page.wait_for_function(MY_TURN_OR_OVER)

    page.click("#hint")
    page.wait_for_function(
        "/bot would play|only move/.test(document.querySelector('#hint-text').textContent)", timeout=60_000
    )

    page.click("#rules")
    page.wait_for_selector("#rules-body h2, #rules-body h3")
    assert page.locator("#rules-dialog").is_visible()
    page.keyboard.press("Escape")
    assert not page.locator("#rules-dialog").is_visible()


def test_a_phone_sized_screen(server: Server, open_page: Callable[..., Any]) -> None:
    for game in ("hanbok_runway", "hatairo", "yamatai", "hatflings"):
        page = open_page(server.url + "/", viewport={"width": 390, "height": 844})
        page.select_option("#game", game)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"the lobby with {game} chosen is {overflow}px wider than a phone"
        create_from_lobby(page, game, ["random"])
        page.wait_for_function(MY_TURN_OR_OVER)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"{game}: the page is {overflow}px wider than a phone"
        screenshot(page, f"{game}-phone")
        page.context.close()


def test_the_rules_of_every_game_open(server: Server, open_page: Callable[..., Any]) -> None:
    """The Rules button of the lobby shows each game's rules doc (a 404 would be a console error)."""
    page = open_page(server.url + "/")
    for game in ("hatflings", "hanbok_runway", "hatairo", "yamatai"):
        page.select_option("#game", game)
        page.click("#rules")
        page.wait_for_selector("#rules-body h1, #rules-body h2, #rules-body h3, #rules-body .error")
        assert "Loading" not in page.inner_text("#rules-body")
        assert not page.locator("#rules-body .error").count(), page.inner_text("#rules-body")
        page.keyboard.press("Escape")


DRAW_WITH = """async ([game, extra]) => {
  const module = (await import(`/games/${game}/board.js`)).default;
  const table = new URLSearchParams(location.search).get("table");
  const summary = await (await fetch(`/api/tables/${table}`)).json();
  if (module.prepare) await module.prepare(summary);
  const message = await (await fetch(`/api/tables/${table}/state`)).json();
  const names = summary.seats.map((_, i) => `seat ${i}`);
  const view = {...message.view, ...extra};
  const drawn = module.draw(view, {seat: 0, seats: summary.seats, names, colours: [], toMove: view.to_move});
  return {text: drawn.textContent, discarding: drawn.querySelectorAll(".discarding").length};
}"""


def test_repetition_and_cards_being_discarded_are_shown(server: Server, open_page: Callable[..., Any]) -> None:
    page = open_page(server.url + "/")
    create_from_lobby(page, "hatflings", ["random"])
    plain = page.evaluate(DRAW_WITH, ["hatflings", {}])
    assert "has come up" not in plain["text"]
    twice = page.evaluate(DRAW_WITH, ["hatflings", {"position_seen": 2}])
    assert "has come up 2 times: once more and the dance ends" in twice["text"]

    page = open_page(server.url + "/")
    create_from_lobby(page, "hanbok_runway", ["random"])
    named = {"to_move": 0, "discarding": {"style": {"oval": 1}, "fabric": {"green/red": 2}}}
    drawn = page.evaluate(DRAW_WITH, ["hanbok_runway", named])
    assert drawn["discarding"] == 2
    assert page.evaluate(DRAW_WITH, ["hanbok_runway", {"to_move": 0}])["discarding"] == 0


FOCUS_ON_MOVE = "document.activeElement && document.activeElement.matches('#board .target.legal, #choices button')"


def test_keyboard_focus_follows_the_play(server: Server, open_page: Callable[..., Any]) -> None:
    """Once on the board, Enter alone plays on: focus moves to what can be chosen next, turn after turn."""
    page = open_page(server.url + "/")
    create_from_lobby(page, "hatflings", ["random"])
    page.wait_for_function(MY_TURN_OR_OVER)
    page.locator("#board .target.legal").first.focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    before = page.locator("#log > li").count()
    for _ in range(8):
        page.wait_for_function(MY_TURN_OR_OVER)
        if page.locator("#scores").count():
            break
        page.wait_for_function(FOCUS_ON_MOVE)
        page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelectorAll('#log > li').length >= {before + 6}")
