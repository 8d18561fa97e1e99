"""Ratings: rated tables (people only, signed in, one seat per account, a server-drawn deal)
update openskill ratings per game and player count exactly once, even across a restart; the
leaderboard; ratings beside the names in table summaries and the lobby."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from sqlalchemy.exc import OperationalError

from parlour.server.features.ratings import ranks_of

from .conftest import LiveServer, wait_until
from .test_accounts import FAST_HASH, browser, csrf, sign_up

QUICK = {**FAST_HASH, "timer_poll": 0.02}


def rated_table(server: LiveServer, **extra: Any) -> str:
    """A rated Nim table as rated tables are: default options (a pile of 10-20 drawn by the server)."""
    table = server.create("nim", ["human", "human"], rated=True, **extra)
    assert table["rated"] is True
    return str(table["id"])


def play_out(http: httpx.Client, table_id: str, tokens: list[str], winner: int) -> None:
    """Play a Nim table to its end over HTTP so that `winner` takes the last stone: the winner
    leaves a multiple of four when it can, the loser takes one."""
    while True:
        state = http.get(f"/api/tables/{table_id}/state").json()
        if state["status"] == "finished":
            return
        pile, seat = state["view"]["pile"], state["to_move"]
        take = (pile % 4 or 1) if seat == winner else 1
        played = http.post(
            f"/api/tables/{table_id}/actions",
            json={"action": f"take {take}"},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert played.status_code == 200, played.text


def join(client: httpx.Client, account: dict[str, Any], table_id: str) -> dict[str, Any]:
    response = client.post(f"/api/tables/{table_id}/join", json={"name": account["name"]}, headers=csrf(account))
    assert response.status_code == 200, response.text
    return dict(response.json())


def board(server: LiveServer, players: int | None = 2) -> list[dict[str, Any]]:
    query = "" if players is None else f"?players={players}"
    return list(server.http.get(f"/api/ratings/nim{query}").json()["ratings"])


def test_ranks_share_ties() -> None:
    assert ranks_of([1.0, 0.0, 1.0, -1.0]) == [1, 3, 1, 4]


@pytest.mark.parametrize(
    ("extra", "refusal"),
    [
        ({"seats": ["human", "random"]}, "people only"),
        ({"seed": 7}, "dealt by the server"),
        ({"seed": 7, "fixed_deal": True}, "dealt by the server"),
    ],
)
def test_a_rated_table_is_people_on_a_drawn_deal(server: LiveServer, extra: dict[str, Any], refusal: str) -> None:
    body = {"game": "nim", "seats": ["human", "human"], "rated": True, **extra}
    response = server.http.post("/api/tables", json=body)
    assert response.status_code == 422 and response.json()["error"]["code"] == "bad_rated"
    assert refusal in response.json()["error"]["message"]


def test_a_rated_seat_needs_an_account_of_its_own(serve: Callable[..., LiveServer]) -> None:
    server = serve(**QUICK)
    table_id = rated_table(server)
    guest = server.http.post(f"/api/tables/{table_id}/join", json={"name": "guest"})
    assert guest.status_code == 403 and guest.json()["error"]["code"] == "account_needed"
    with browser(server) as alice:
        account = sign_up(alice, "alice")
        join(alice, account, table_id)
        twice = alice.post(f"/api/tables/{table_id}/join", json={"name": "again"}, headers=csrf(account))
        assert twice.status_code == 409 and twice.json()["error"]["code"] == "same_account"
    assert server.table(table_id)["seats"][1]["taken"] is False


def test_a_rated_game_updates_ratings_once_even_across_a_restart(
    serve: Callable[..., LiveServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first server cannot write the ratings when the game ends (its database is away for
    # that), and would try again only a minute later: it stops before rating the game.
    server = serve(**{**QUICK, "timer_poll": 60})

    def away(*_: Any) -> bool:
        raise OperationalError("UPDATE ratings", {}, Exception("the database is away"))

    monkeypatch.setattr(server.app.state.ratings.store, "apply", away)
    unrated = server.create("nim", ["human", "human"], options={"stones": 2})
    with browser(server) as alice, browser(server) as bob:
        alice_account, bob_account = sign_up(alice, "alice"), sign_up(bob, "bob")
        table_id = rated_table(server)
        winner = join(alice, alice_account, table_id)  # seat 0 plays to take the last stone
        bobs_seat = join(bob, bob_account, table_id)
        for client, account in ((alice, alice_account), (bob, bob_account)):
            join(client, account, unrated["id"])
        shown = server.table(table_id)["ratings"]
        assert shown == {
            "0": {"account": "alice", "rating": None, "games": 0, "change": None},
            "1": {"account": "bob", "rating": None, "games": 0, "change": None},
        }
        play_out(server.http, table_id, [winner["token"], bobs_seat["token"]], winner=0)
    assert server.table(table_id)["status"] == "finished" and board(server) == []
    server.stop()
    server = serve(**QUICK)  # back: the finished, unrated game is rated now
    wait_until(lambda: len(board(server)) == 2)
    ranked = board(server)
    assert [entry["name"] for entry in ranked] == ["alice", "bob"]
    assert ranked[0]["rating"] > ranked[1]["rating"] and all(entry["games"] == 1 for entry in ranked)
    assert board(server, players=3) == []
    shown = server.table(table_id)["ratings"]
    assert shown["0"]["rating"] == ranked[0]["rating"] and shown["1"]["rating"] == ranked[1]["rating"]
    # What the game changed each rating by, beside it and on the leaderboard: a first game starts
    # from openskill's 25 - 3 x 8.33 = 0.
    assert shown["0"]["change"] == ranked[0]["rating"] and shown["1"]["change"] == ranked[1]["rating"]
    assert shown["0"]["change"] > 0 > shown["1"]["change"]
    assert [entry["last_change"] for entry in ranked] == [shown["0"]["change"], shown["1"]["change"]]
    assert server.table(unrated["id"])["ratings"]["0"]["change"] is None  # only the rated game's table
    # A rated table stays rated once its result is applied, in the table and in the list.
    assert server.table(table_id)["rated"] is True
    listed = {t["id"]: t for t in server.http.get("/api/tables?status=finished").json()}
    assert listed[table_id]["ratings"]["0"]["account"] == "alice" and listed[table_id]["rated"] is True
    # The unrated table beside it shows the same ratings (same game and player count) but rates nothing.
    assert server.table(unrated["id"])["rated"] is False
    assert server.table(unrated["id"])["ratings"]["0"]["rating"] == ranked[0]["rating"]
    server.stop()
    again = serve(**QUICK)
    wait_until(lambda: again.http.get("/health").status_code == 200)
    assert [entry["games"] for entry in board(again)] == [1, 1]


def test_leaderboard_refusals(server: LiveServer) -> None:
    assert server.http.get("/api/ratings/nosuchgame").json()["error"]["code"] == "unknown_game"
    assert server.http.get("/api/ratings/nim?players=0").status_code == 422


def test_a_seat_forfeited_on_time_ranks_last(serve: Callable[..., LiveServer]) -> None:
    server = serve(**QUICK, min_move_seconds=0.05, timeout_agent="random")
    body = {"game": "nim", "seats": ["human", "human"], "rated": True}
    body |= {"mode": "turn_based", "move_seconds": 2.0, "on_timeout": "forfeit"}  # time enough for Bob
    table_id = server.http.post("/api/tables", json=body).json()["id"]
    alice_leaves_and_bob_plays_on(server, table_id)
    wait_until(lambda: len(board(server)) == 2)
    assert [entry["name"] for entry in board(server)] == ["bob", "alice"]


def alice_leaves_and_bob_plays_on(server: LiveServer, table_id: str) -> None:
    """Alice takes seat 0 (to move) and never moves; Bob takes seat 1 and plays to the end."""
    with browser(server) as alice, browser(server) as bob:
        alice_account, bob_account = sign_up(alice, "alice"), sign_up(bob, "bob")
        join(alice, alice_account, table_id)
        ben = join(bob, bob_account, table_id)
        player = server.connect(table_id, ben["token"])
        message = player.position
        while message.get("status") != "finished":
            if message["legal"]:
                player.send(type="act", action=message["legal"][0]["id"], version=message["version"])
            message = player.until(lambda m: m["type"] in ("sync", "update"), timeout=20)
        player.close()
