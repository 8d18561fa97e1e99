"""Rematch: at the end, a seat asks and the same players are offered a new table (same game,
options, seats, mode and rated-ness, a new deal); the others are told and take their own seats."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .conftest import LiveServer
from .test_accounts import FAST_HASH, browser, csrf, sign_up
from .test_ratings import play_out

TAKE_TWO = 1


def finish(server: LiveServer, table_id: str, token: str) -> None:
    played = server.http.post(
        f"/api/tables/{table_id}/actions", json={"action": TAKE_TWO}, headers={"Authorization": f"Bearer {token}"}
    )
    assert played.status_code == 200 and server.table(table_id)["status"] == "finished"


def ask(server: LiveServer, table_id: str, token: str, **extra: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}", **extra.pop("headers", {})}
    client = extra.pop("client", server.http)
    return client.post(f"/api/tables/{table_id}/rematch", headers=headers)


def test_the_same_players_get_a_new_table(server: LiveServer) -> None:
    old = server.create("nim", ["human", "human"], options={"stones": 2})
    ann, ben = server.join(old["id"], "Ann"), server.join(old["id"], "Ben")
    early = ask(server, old["id"], ann["token"])
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_finished"
    ben_watching = server.connect(old["id"], ben["token"])
    finish(server, old["id"], ann["token"])
    first = ask(server, old["id"], ann["token"])
    assert first.status_code == 200, first.text
    new_id = first.json()["table"]
    # Each player sits one seat on: Ann played first, Ben plays first now.
    assert (first.json()["seat"], first.json()["name"]) == (1, "Ann")
    offer = ben_watching.until(lambda m: m["type"] == "rematch")
    assert offer == {"type": "rematch", "table": old["id"], "rematch": new_id}
    assert server.table(old["id"])["rematch"] == new_id
    second = ask(server, old["id"], ben["token"])
    assert second.json()["table"] == new_id and second.json()["seat"] == 0
    new = server.table(new_id)
    assert new["status"] == "running" and new["options"] == server.table(old["id"])["options"]
    assert [s["name"] for s in new["seats"]] == ["Ben", "Ann"] and new["to_move"] == 0
    assert new["deal"]["commitment"] != server.table(old["id"])["deal"]["commitment"]  # a new deal
    again = ask(server, old["id"], ben["token"])
    assert again.status_code == 409 and again.json()["error"]["code"] == "seat_taken"
    wrong = ask(server, old["id"], "not-a-token")
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "bad_token"


def test_bots_mode_and_rating_carry_over(serve: Callable[..., LiveServer]) -> None:
    server = serve(**FAST_HASH, min_move_seconds=1)
    with_bot = server.create("nim", ["human", "random"], options={"stones": 2})
    ann = server.join(with_bot["id"], "Ann")
    finish(server, with_bot["id"], ann["token"])
    rematch = server.table(ask(server, with_bot["id"], ann["token"]).json()["table"])
    assert [(s["kind"], s["agent"]) for s in rematch["seats"]] == [("bot", "random"), ("human", None)]
    with browser(server) as alice, browser(server) as bob:
        accounts = sign_up(alice, "alice"), sign_up(bob, "bob")
        body = {"game": "nim", "seats": ["human", "human"], "rated": True}
        rated = server.http.post("/api/tables", json={**body, "mode": "turn_based", "move_seconds": 3600}).json()
        seats = [
            client.post(f"/api/tables/{rated['id']}/join", json={"name": a["name"]}, headers=csrf(a)).json()
            for client, a in zip((alice, bob), accounts, strict=True)
        ]
        play_out(server.http, rated["id"], [seat["token"] for seat in seats], winner=0)
        guest_try = ask(server, rated["id"], seats[1]["token"])  # without Bob's session: a guest
        assert guest_try.status_code == 403 and guest_try.json()["error"]["code"] == "account_needed"
        assert server.table(rated["id"])["rematch"] is None  # nothing was opened
        mine = ask(server, rated["id"], seats[0]["token"], client=alice, headers=csrf(accounts[0]))
        assert mine.status_code == 200 and mine.json()["account"] == "alice"
        new = server.table(mine.json()["table"])
        assert new["rated"] is True and new["clock"]["mode"] == "turn_based"
        assert new["clock"]["move_seconds"] == 3600
