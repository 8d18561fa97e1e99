"""The players' panel (each seat's score as it stands, with its breakdown, and the resources the game
counts), Hatflings! seen from the viewer's side, and the words of the table: bots by readable
names, the hint's pace as a countdown, a detail line that never outlives its drawing, Yamataï's
fleet power and building tiles without codes, the rules for players, a profile and leaderboards in
a player's words."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .clicking import MY_TURN_OR_OVER, click_one, play_clicks
from .conftest import Server
from .test_clickable import seated_page
from .test_play import create_from_lobby
from .wording import faults, page_faults

GAMES = ["hatflings", "hanbok_runway", "hatairo", "yamatai"]


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """A server of this module's own: the tables it leaves running do not count against the
    session server's limit of unfinished tables per address."""
    running = Server(Path(tempfile.mkdtemp()) / "panel.sqlite")
    yield running
    running.stop()


@pytest.mark.parametrize("game", GAMES)
def test_every_seat_has_a_panel_with_its_resources_and_a_score_with_its_breakdown(
    server: Server, browser: Any, open_page: Callable[..., Any], game: str
) -> None:
    options = {"players": 3} if game in ("hatairo", "yamatai") else {}
    page = seated_page(browser, open_page, server, game, options)
    page.wait_for_function(MY_TURN_OR_OVER)
    # Hatairo's scores count the kept cards, hidden until every set-up is revealed: play past it.
    play_clicks(page, decisions=12 if game == "hatairo" else 2)
    page.wait_for_function(MY_TURN_OR_OVER)
    rows = page.locator("#players li.player")
    assert rows.count() == options.get("players", 2)
    if game == "hatairo":
        # One's own mat at full size, the rivals' side by side and smaller: a page one can take in
        # (one mat a row made a 3-player table about 3,000 px tall).
        assert page.evaluate("document.documentElement.scrollHeight") < 2500
    for index in range(rows.count()):
        assert rows.nth(index).locator(".resources").inner_text().strip()
    if game == "hanbok_runway":
        # Face-down tokens are their owners' secret: no score until the end.
        assert page.locator("#players button.score").count() == 0
        return
    assert page.locator("#players button.score").count() == rows.count()
    button = page.locator("#players button.score").first
    assert re.fullmatch(r"-?\d+(\.\d)? points?", button.inner_text())
    assert ":" in str(button.get_attribute("title"))  # the breakdown on hover
    button.click()  # and on a tap
    assert page.locator("#breakdown-0").is_visible()
    assert page.locator("#breakdown-0 li").count() >= 2
    click_one(page, 0)
    page.wait_for_function(MY_TURN_OR_OVER)
    assert page.locator("#breakdown-0").is_visible(), "an opened breakdown stays open across moves"


FLOOR = """async (seat) => {
  const module = (await import("/games/hatflings/board.js")).default;
  const view = { phase: "dance", to_move: 0, captain: 0, turns_played: 0, colours: ["yellow", "purple"], squares: {},
    pig: null, general_pool: 24, special_pools: [[], []], puddle_supply: 4, first_turn_done: [false, false],
    start_zones: [["a1"], ["a6"]], hats: [0, 0], in_rival_start_zone: [0, 0] };
  const drawn = module.draw(view, { seat, names: ["Ann", "Ben"], colours: [], toMove: 0 });
  document.body.append(drawn);
  const y = (square) => drawn.querySelector(`[data-key="sq:${square}"] .hit`).getBoundingClientRect().y;
  const x = (square) => drawn.querySelector(`[data-key="sq:${square}"] .hit`).getBoundingClientRect().x;
  const result = { homeBelow: seat === 0 ? y("a1") > y("a6") : y("a6") > y("a1"), aLeft: x("a1") < x("f1") };
  drawn.remove();
  return result;
}"""


def test_hatflings_is_drawn_from_the_viewers_side(server: Server, open_page: Callable[..., Any]) -> None:
    page = open_page(server.url + "/")
    assert page.evaluate(FLOOR, 0) == {"homeBelow": True, "aLeft": True}
    # The second captain sees her home rank at the bottom, and so the a-file on her right.
    assert page.evaluate(FLOOR, 1) == {"homeBelow": True, "aLeft": False}


NAMES = """async (agents) => {
  const { seatNames } = await import("/js/explain.js");
  return seatNames(agents.map((agent, seat) => ({ seat, kind: "bot", agent, taken: true })));
}"""


def test_bots_are_called_by_readable_names(server: Server, open_page: Callable[..., Any]) -> None:
    page = open_page(server.url + "/")
    agents = ["random", "greedy", "mcts:iterations=200", "mcts:iterations=1000"]
    assert page.evaluate(NAMES, agents) == ["Random bot", "Greedy bot", "MCTS bot", "MCTS bot (1000 simulations)"]
    assert page.evaluate(NAMES, ["greedy", "greedy"]) == ["Greedy bot 1", "Greedy bot 2"]
    assert page.evaluate(NAMES, ["level:club", "level:master"]) == ["Club bot", "Master bot"]


@pytest.fixture(scope="module")
def slow_hints() -> Iterator[Server]:
    """A server allowing one hint at once, then one every 30 s."""
    running = Server(Path(tempfile.mkdtemp()) / "hints.sqlite", settings={"hint_burst": 1, "hint_rate": 1 / 30})
    yield running
    running.stop()


def test_the_hint_limit_reads_as_a_countdown_and_the_button_waits(slow_hints: Server, browser: Any) -> None:
    # A page of its own: the browser reports the refused request (429) on the console, as it should.
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(slow_hints.url + "/")
    create_from_lobby(page, "hatflings", ["random"])
    page.wait_for_function(MY_TURN_OR_OVER)
    page.click("#hint")
    page.wait_for_selector("#hint-text:has-text('The bot would play')")
    page.wait_for_function("!document.querySelector('#hint').disabled")
    page.click("#hint")
    page.wait_for_selector("#hint-text:has-text('next hint in')")
    assert re.search(r"next hint in \d+ s", page.inner_text("#hint-text"))
    assert "429" not in page.inner_text("#hint-text") and "too many" not in page.inner_text("#hint-text")
    assert page.locator("#hint").is_disabled()
    assert re.fullmatch(r"Hint \(\d+ s\)", page.inner_text("#hint"))
    context.close()


def test_the_detail_line_speaks_of_the_drawing_on_screen(server: Server, open_page: Callable[..., Any]) -> None:
    page = open_page(server.url + "/")
    create_from_lobby(page, "hatflings", ["random"])
    page.wait_for_function(MY_TURN_OR_OVER)
    page.hover("#board [data-key='kind:joker']")
    assert page.inner_text("#detail").strip()
    # The move played from the list of legal moves: the pointer is on no component when the board is redrawn.
    page.click("#play-move")
    page.wait_for_function(MY_TURN_OR_OVER)
    page.wait_for_function("document.querySelectorAll('#log > li').length >= 2")
    assert page.inner_text("#detail").strip() == "", "the last component's words outlived the move"


YAMATAI_PREVIEW = """async ([view, tiles]) => {
  const module = (await import("/games/yamatai/board.js")).default;
  await module.prepare({ game: "yamatai" });
  view.turn = { ...view.turn, seat: 0, phase: "preview buildings: exchange", fleet_tile: 3,
    power_available: false, preview: tiles };
  const drawn = module.draw(view, { seat: 0, names: ["Ann", "Ben"], colours: [], toMove: 0 });
  const action = { kind: "preview_swap", tile: tiles[0], row_tile: view.building_row[0] };
  const label = `put ${tiles[0]} in the row instead of ${view.building_row[0]}`;
  return { banner: drawn.querySelector("#fleet-power").textContent,
    peeks: drawn.querySelectorAll("[data-key^='peek:']").length, keys: module.keys(action), text: drawn.textContent,
    label: module.label({ kind: "preview_swap", label }),
    titles: [...drawn.querySelectorAll("title")].map((t) => t.textContent).join("\\n") };
}"""


def test_yamatai_names_building_tiles_and_shows_the_preview_as_tiles(
    server: Server, browser: Any, open_page: Callable[..., Any]
) -> None:
    page = seated_page(browser, open_page, server, "yamatai", {"players": 2})
    page.wait_for_function(MY_TURN_OR_OVER)
    table_id = re.search(r"table=([^&]+)", page.url).group(1)  # type: ignore[union-attr]
    token = page.evaluate(f"JSON.parse(localStorage.getItem('parlour.seat.{table_id}')).token")
    view = server.http.get(f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {token}"}).json()["view"]
    tiles = ["B01", "B02", "P01"]
    drawn = page.evaluate(YAMATAI_PREVIEW, [view, tiles])
    # The power's own steps: the power is in use, not "not used yet".
    assert "in use now" in drawn["banner"] and "not used yet" not in drawn["banner"]
    # The tiles looked at are tiles to click (one, then the row tile it replaces), not 16 buttons.
    assert drawn["peeks"] == 3 and drawn["keys"] == ["peek:B01", f"bldg:{view['building_row'][0]}"]
    for words in (drawn["text"], drawn["titles"], drawn["label"]):
        assert not re.search(r"\b[BP]\d\d\b", words), words
    assert drawn["label"].startswith("put the standard building (")


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_dialog_is_written_for_players(server: Server, open_page: Callable[..., Any], game: str) -> None:
    rules = server.http.get(f"/api/games/{game}/rules").text
    assert not faults(rules), faults(rules)
    assert not re.search(r"\*designed\*|specification|loader|test_", rules)
    page = open_page(server.url + "/")
    page.evaluate(f"import('/js/rules.js').then((m) => m.openRules('{game}'))")
    page.wait_for_selector("#rules-body h2")
    assert not page_faults(page), page_faults(page)


def test_a_profile_and_the_leaderboards_speak_in_players_words(server: Server, open_page: Callable[..., Any]) -> None:
    page = open_page(server.url + "/")
    profile = {"name": "Ann", "played": 1, "won": 0, "games": {"hatflings": {"played": 1, "won": 0}}}
    page.route("**/api/players/Ann", lambda route: route.fulfill(json=profile))
    page.goto(server.url + "/?player=Ann")
    page.wait_for_selector("#profile-games td")
    assert "Hatflings!" in page.inner_text("#profile-games") and "hatflings" not in page.inner_text("#profile-games")
    page.goto(server.url + "/?ratings=hatairo")
    page.wait_for_selector("#ratings-1 h2")
    assert page.inner_text("#ratings-1 h2") == "1 player"
    assert not page_faults(page), page_faults(page)


def test_counts_take_the_singular_for_one(server: Server, open_page: Callable[..., Any]) -> None:
    page = open_page(server.url + "/")
    words = "import('/js/dom.js').then(({ plural: p }) => [p(1, 'coin'), p(2, 'coin'), p(1, 'trophy', 'trophies')])"
    assert page.evaluate(words) == ["1 coin", "2 coins", "1 trophy"]

    assert page.evaluate(words) == ["1 coin", "2 coins", "1 trophy"]


HATFLINGS_WORDS = """async (texts) => {
  const module = (await import("/games/hatflings/board.js")).default;
  return texts.map((text) => module.phrase(text, ["Ann", "Ben"]));
}"""


def test_the_hatflings_log_names_the_captains_not_their_hats(server: Server, open_page: Callable[..., Any]) -> None:
    page = open_page(server.url + "/")
    said = page.evaluate(
        HATFLINGS_WORDS,
        [
            "yellow places a normal halfling at b1",
            "purple spent joker jumps from c3 over c2 to c1",
            "yellow's greedy halfling pushes in at a3, moving 1 halfling",
            "c2 now wears a purple hat",
            "game over: purple wins",
        ],
    )
    assert said == [
        "Ann places a normal halfling at b1",
        "Ben's spent joker halfling jumps from c3 over c2 to c1",
        "Ann's greedy halfling pushes in at a3, moving 1 halfling",
        "c2 now wears a purple hat",
        "game over: Ben wins",
    ]


LOG_LINE = """async (events) => {
  const { logEntry } = await import("/js/table.js");
  const seats = [{ seat: 0, kind: "human", name: "Ann", taken: true },
    { seat: 1, kind: "bot", agent: "greedy", taken: true }];
  const entry = logEntry(seats, { actor: 1, label: null, events: events.map((text) => ({ text })) });
  return [entry.firstChild.textContent, ...[...entry.querySelectorAll("ul li")].map((line) => line.textContent)];
}"""


def test_a_log_line_is_the_moves_sentence_and_a_square_keeps_its_name(
    server: Server, open_page: Callable[..., Any]
) -> None:
    page = open_page(server.url + "/")
    line = page.evaluate(LOG_LINE, ["seat 1 (purple) places a normal halfling at e3", "e4 now wears a purple hat"])
    assert line == ["Greedy bot (purple) places a normal halfling at e3", "e4 now wears a purple hat"]


IN_FRAME = """() => [...document.querySelectorAll('#board .target.hinted')].every((node) => {
  const frame = node.closest('.mat, .board-area');
  const [r, box] = [node.getBoundingClientRect(), frame.getBoundingClientRect()];
  return r.left + r.width / 2 >= box.left && r.left + r.width / 2 <= box.right;
})"""


def test_a_frame_wider_than_the_phone_says_so_and_shows_the_hinted_target(
    server: Server, browser: Any, open_page: Callable[..., Any]
) -> None:
    page = seated_page(browser, open_page, server, "yamatai", {"players": 2})
    page.wait_for_function(MY_TURN_OR_OVER)
    assert page.locator(".scroll-note").count() == 0  # 1280 px: nothing scrolls sideways
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_selector("#board > .scroll-note")
    assert "scroll sideways" in page.inner_text("#board > .scroll-note")
    page.click("#hint")
    page.wait_for_selector("#board .target.hinted")
    page.wait_for_function(IN_FRAME)
