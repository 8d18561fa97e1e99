"""Rated tables play the rated game: every game's default options (but those a game lists as
rated), two or more seats, one seat per account whatever races, each table rated in its own guard,
and a live rated table that cannot be left to escape a loss (docs/server.md, "Ratings")."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from parlour.engine.game import Game
from parlour.engine.options import Option
from parlour.engine.registry import game_class
from parlour.server.db.store import SameAccount, Store
from parlour.server.features.ratings import rated_options
from parlour.server.settings import database_url

from .conftest import TEST_GAMES, LiveServer, all_games, wait_until
from .test_accounts import FAST_HASH, browser, csrf, sign_up
from .test_ratings import alice_leaves_and_bob_plays_on, board, join, play_out, rated_table

QUICK = {**FAST_HASH, "timer_poll": 0.02}


def other_value(option: Option) -> Any:
    """A value of `option` other than its default, within its declared bounds."""
    if option.choices is not None:
        return next(choice for choice in option.choices if choice != option.default)
    if option.type is bool:
        return not option.default
    if option.type is int:
        return option.default + 1 if option.maximum is None or option.default < option.maximum else option.default - 1
    return f"{option.default}x"


def cls_of(game: str) -> type[Game]:
    return TEST_GAMES.get(game) or game_class(game)


def changeable() -> list[tuple[str, str]]:
    """Every (game, option) a rated table must leave at its default."""
    found = []
    for game in all_games():
        cls = cls_of(game)
        allowed = rated_options(cls)
        found += [(game, o.name) for o in cls.options_spec if not o.host_only and o.name not in allowed]
    return found


def rated_body(game: str, options: dict[str, Any]) -> dict[str, Any]:
    players = options.get("players", cls_of(game).options_spec[0].default)
    return {"game": game, "seats": ["human"] * players, "options": options, "rated": True}


@pytest.mark.parametrize(("game", "option"), changeable())
def test_a_rated_table_keeps_every_option_of_every_game_at_its_default(
    server: LiveServer, game: str, option: str
) -> None:
    declared = {o.name: o for o in cls_of(game).options_spec}[option]
    refused = server.http.post("/api/tables", json=rated_body(game, {option: other_value(declared)}))
    assert refused.status_code == 422, refused.text
    assert refused.json()["error"]["code"] == "bad_rated" and f"option {option}" in refused.json()["error"]["message"]
    # The same option at its default is the rated game, said out loud.
    same = server.http.post("/api/tables", json=rated_body(game, {option: declared.default}))
    assert same.status_code == 201, same.text


def test_the_reported_short_games_are_refused(server: LiveServer) -> None:
    for game, options in (
        ("hatflings", {"max_turns": 1}),
        ("hanbok_runway", {"safety_turn_cap": 1}),
        ("yamatai", {"max_rounds": 1}),
    ):
        refused = server.http.post("/api/tables", json=rated_body(game, options))
        assert refused.status_code == 422 and refused.json()["error"]["code"] == "bad_rated", refused.text
        # Unrated, the same options are anybody's choice.
        unrated = server.http.post("/api/tables", json={**rated_body(game, options), "rated": False})
        assert unrated.status_code == 201, unrated.text


def test_a_rated_table_needs_two_or_more_seats(server: LiveServer) -> None:
    solo = server.http.post("/api/tables", json={"game": "hatairo", "seats": ["human"], "rated": True})
    assert solo.status_code == 422 and solo.json()["error"]["code"] == "bad_rated"
    assert "two or more seats" in solo.json()["error"]["message"]
    players = server.http.post(
        "/api/tables", json={"game": "hatairo", "seats": ["human"], "options": {"players": 1}, "rated": True}
    )
    assert players.status_code == 422 and players.json()["error"]["code"] == "bad_rated"


def rating_applied(db: str, table_id: str) -> bool:
    engine = create_engine(database_url(db))
    with engine.connect() as connection:
        found = connection.execute(text("SELECT rating_applied FROM game_tables WHERE id = :t"), {"t": table_id})
        applied = bool(found.scalar())
    engine.dispose()
    return applied


def test_a_table_that_cannot_be_rated_is_given_up_once_and_the_others_are_rated(
    serve: Callable[..., LiveServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    server = serve(**QUICK)
    ratings = server.app.state.ratings
    tries: dict[str, int] = {}
    working = ratings.store.apply

    with browser(server) as alice, browser(server) as bob:
        accounts = sign_up(alice, "alice"), sign_up(bob, "bob")
        tables = [rated_table(server) for _ in range(3)]
        broken = tables[1]

        def apply(table_id: str, game: str, ranked: list[tuple[int, int]]) -> bool:
            tries[table_id] = tries.get(table_id, 0) + 1
            if table_id == broken:
                raise ValueError("openskill refuses these teams")
            return bool(working(table_id, game, ranked))

        monkeypatch.setattr(ratings.store, "apply", apply)
        for table_id in tables:
            seats = [join(client, account, table_id) for client, account in zip((alice, bob), accounts, strict=True)]
            play_out(server.http, table_id, [seat["token"] for seat in seats], winner=0)
    # The tables on either side of the broken one are rated; the broken one is marked done.
    wait_until(lambda: [entry["games"] for entry in board(server)] == [2, 2])
    wait_until(lambda: rating_applied(server.settings.db, broken))
    time.sleep(20 * server.settings.timer_poll)  # many more looks at the rated tables
    assert tries[broken] == 1
    assert all(rating_applied(server.settings.db, table_id) for table_id in tables)


def test_one_account_never_holds_two_seats_of_a_rated_table_even_joining_both_at_once(
    serve: Callable[..., LiveServer],
) -> None:
    server = serve(**FAST_HASH)
    with browser(server) as alice:
        account = sign_up(alice, "alice")
        for _ in range(5):
            table_id = rated_table(server)
            answers: list[httpx.Response] = []

            def take(seat: int, table_id: str = table_id, answers: list[httpx.Response] = answers) -> None:
                with httpx.Client(base_url=server.url, cookies=alice.cookies, timeout=30) as same_browser:
                    body = {"name": "alice", "seat": seat}
                    answers.append(same_browser.post(f"/api/tables/{table_id}/join", json=body, headers=csrf(account)))

            threads = [threading.Thread(target=take, args=(seat,)) for seat in (0, 1)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(30)
            assert sorted(answer.status_code for answer in answers) == [200, 409], [a.text for a in answers]
            refused = next(answer for answer in answers if answer.status_code == 409)
            assert refused.json()["error"]["code"] in ("same_account", "seat_taken")
            assert [seat["taken"] for seat in server.table(table_id)["seats"]].count(True) == 1


def test_the_seats_index_refuses_a_second_rated_seat_to_one_account(serve: Callable[..., LiveServer]) -> None:
    server = serve(**FAST_HASH)
    with browser(server) as alice:
        sign_up(alice, "alice")
    user_id = 1
    rated, unrated = rated_table(server), server.create("nim", ["human", "human"])["id"]
    store = Store(database_url(server.settings.db))
    try:
        assert store.claim_seat(rated, 0, "alice", "a" * 64, user_id, rated=True)
        with pytest.raises(SameAccount):
            store.claim_seat(rated, 1, "alice", "b" * 64, user_id, rated=True)
        # An unrated table lets one account sit twice (hot-seat on one device).
        assert store.claim_seat(unrated, 0, "alice", "c" * 64, user_id)
        assert store.claim_seat(unrated, 1, "alice", "d" * 64, user_id)
    finally:
        store.close()
    assert server.table(rated)["seats"][1]["taken"] is False


def test_a_live_rated_table_gets_a_time_bank_and_leaving_it_loses(serve: Callable[..., LiveServer]) -> None:
    server = serve(**QUICK, rated_time_bank_seconds=2.0, timeout_agent="random")
    table_id = rated_table(server)
    clock = server.table(table_id)["clock"]
    assert (clock["mode"], clock["time_bank_seconds"], clock["on_timeout"]) == ("live", 2.0, "forfeit")
    alice_leaves_and_bob_plays_on(server, table_id)  # her time bank runs out: she forfeits
    wait_until(lambda: len(board(server)) == 2)
    assert [entry["name"] for entry in board(server)] == ["bob", "alice"]
    # A clock the creator chose is kept as chosen.
    chosen = server.create("nim", ["human", "human"], rated=True, time_bank_seconds=600)["clock"]
    assert (chosen["time_bank_seconds"], chosen["on_timeout"]) == (600, "bot")
