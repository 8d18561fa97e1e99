"""Every page other than a game in play passes an axe-core audit with no serious or critical
violation, on a desktop (1280×900) and a phone (390×844): the lobby (with the invite box and the
rules dialog), the join screen, the account pages signed out and signed in, my games, a player's
profile, a leaderboard, a table's end and its replay. (Each game's table is audited at its start,
middle and end by the whole-game tests, tests/web/screens.py.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import Server
from .screens import SIZES, audit
from .test_play import create_from_lobby
from .test_ratings import play_out, signed_up, token_of


def audited(page: Any, what: str) -> list[str]:
    """The page's serious and critical violations at both sizes, each named by page and size."""
    found = []
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        found += [f"{what} on a {size}: {violation}" for violation in audit(page)]
    page.set_viewport_size(SIZES["desktop"])
    return found


def test_the_guests_pages_pass_the_audit(server: Server, open_page: Callable[..., Any]) -> None:
    violations = []
    page = open_page(server.url + "/")
    page.wait_for_selector("#create")
    page.wait_for_selector("h2:text('Open and running tables')")
    violations += audited(page, "the lobby")
    for game in ("hatflings", "hanbok_runway", "hatairo", "yamatai"):
        page.select_option("#game", game)
        page.click("#rules")
        page.wait_for_selector("#rules-dialog[open] #rules-body :is(h1, h2)")
        violations += audited(page, f"the rules dialog of {game}")
        page.keyboard.press("Escape")
        page.wait_for_selector("#rules-dialog:not([open])", state="attached")
    page.goto(server.url + "/?account")
    page.wait_for_selector("#signup-form")
    violations += audited(page, "sign in / sign up")
    created = server.http.post("/api/tables", json={"game": "hanbok_runway", "seats": ["human", "human"]}).json()
    page.goto(created["invite_url"])
    page.wait_for_selector("#join")
    violations += audited(page, "the join screen")
    assert not violations, "\n".join(violations)


@pytest.mark.parametrize("game", ["hatflings", "yamatai"])
def test_a_players_pages_pass_the_audit(server: Server, open_page: Callable[..., Any], game: str) -> None:
    name = f"audit{game[:3]}"
    page = signed_up(open_page, server, name)
    violations = audited(page, "the signed-in account page")
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    table_id = create_from_lobby(page, game, ["random"], name=name)
    # Played out over HTTP: the page follows the game to its end screen.
    play_out(server, table_id, [token_of(page, table_id)])
    page.wait_for_selector("#scores")
    page.wait_for_selector("#deal.verified")
    violations += audited(page, f"the end of {game}")
    page.goto(f"{server.url}/?replay={table_id}")
    page.wait_for_selector("#board svg")
    violations += audited(page, f"the replay of {game}")
    page.goto(server.url + "/")
    create_from_lobby(page, game, ["random"], name=name)  # a table still running, listed as "your turn"
    page.goto(server.url + "/?games")
    page.wait_for_selector(f"a[href*='{table_id}']")
    violations += audited(page, "my games")
    page.goto(f"{server.url}/?player={name}")
    page.wait_for_selector("#profile-totals")
    violations += audited(page, "a player's profile")
    page.goto(f"{server.url}/?ratings={game}")
    page.wait_for_selector("main h1")
    violations += audited(page, "a leaderboard")
    assert not violations, "\n".join(violations)
