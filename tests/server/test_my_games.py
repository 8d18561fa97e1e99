"""My games and profiles: a signed-in player's tables from any device (waiting, your turn, others'
turn, finished), Resume on another device, profiles' games played and won; and another account's
table ids, which give nothing away."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from .conftest import LiveServer
from .test_accounts import FAST_HASH, browser, csrf, sign_in, sign_up

TAKE_TWO = 1  # Nim's action "take 2": from a pile of 2, the mover wins


@pytest.fixture
def server(serve: Callable[..., LiveServer]) -> LiveServer:
    return serve(**FAST_HASH)


def join(client: httpx.Client, account: dict[str, Any], table_id: str, name: str) -> dict[str, Any]:
    response = client.post(f"/api/tables/{table_id}/join", json={"name": name}, headers=csrf(account))
    assert response.status_code == 200, response.text
    return dict(response.json())


def where(client: httpx.Client) -> dict[str, str]:
    answer = client.get("/api/account/games")
    assert answer.status_code == 200, answer.text
    return {entry["id"]: entry["where"] for entry in answer.json()["tables"]}


def test_my_games_lists_waiting_your_turn_their_turn_and_finished(server: LiveServer) -> None:
    with browser(server) as alice, browser(server) as bob:
        alice_account, bob_account = sign_up(alice, "alice"), sign_up(bob, "bob")
        waiting = server.create("nim", ["human", "human"])
        running = server.create("nim", ["human", "human"], options={"stones": 5})
        finished = server.create("nim", ["human", "human"], options={"stones": 2})
        join(alice, alice_account, waiting["id"], "Alice")
        for table in (running, finished):
            join(alice, alice_account, table["id"], "Alice")  # seat 0, to move first
            join(bob, bob_account, table["id"], "Bob")
        won = join(alice, alice_account, server.create("nim", ["human", "human"], options={"stones": 2})["id"], "A")
        server.join(won["table"], "guest")
        assert where(alice) == {
            waiting["id"]: "waiting",
            running["id"]: "your_turn",
            finished["id"]: "your_turn",
            won["table"]: "your_turn",
        }
        assert alice.get("/api/account/games").json()["your_turn"] == 3
        assert where(bob) == {running["id"]: "their_turn", finished["id"]: "their_turn"}
        # Alice wins both games of two stones: one by her token, one from a resumed seat.
        played = server.http.post(
            f"/api/tables/{won['table']}/actions",
            json={"action": TAKE_TWO},
            headers={"Authorization": f"Bearer {won['token']}"},
        )
        assert played.status_code == 200, played.text
        resumed = alice.post(f"/api/account/tables/{finished['id']}/resume", headers=csrf(alice_account)).json()
        server.http.post(
            f"/api/tables/{finished['id']}/actions",
            json={"action": TAKE_TWO},
            headers={"Authorization": f"Bearer {resumed['token']}"},
        )
        assert where(alice)[finished["id"]] == where(bob)[finished["id"]] == "finished"
        assert where(alice)[won["table"]] == "finished"
    profile = server.http.get("/api/players/ALICE").json()
    assert profile["name"] == "alice" and (profile["played"], profile["won"]) == (2, 2)
    assert profile["games"] == {"nim": {"played": 2, "won": 2}}
    assert server.http.get("/api/players/bob").json()["games"] == {"nim": {"played": 1, "won": 0}}
    assert server.http.get("/api/players/nobody").json()["error"]["code"] == "no_player"


def test_resume_on_another_device_takes_the_seat_there(server: LiveServer) -> None:
    table = server.create("nim", ["human", "human"], options={"stones": 9})
    with browser(server) as laptop, browser(server) as phone:
        account = sign_up(laptop, "alice")
        seat = join(laptop, account, table["id"], "Alice")
        server.join(table["id"], "guest")
        old = server.connect(table["id"], seat["token"])
        assert sign_in(phone, "alice").status_code == 200
        phone_account = phone.get("/api/account").json()
        resumed = phone.post(f"/api/account/tables/{table['id']}/resume", headers=csrf(phone_account))
        assert resumed.status_code == 200, resumed.text
        assert resumed.json()["seat"] == seat["seat"] and resumed.json()["token"] != seat["token"]
        # The laptop's connection is let go of, and its token no longer plays.
        with pytest.raises(ConnectionClosed):
            old.until(lambda _message: False, timeout=10)
        old.close()
        refused = server.http.get(
            f"/api/tables/{table['id']}/state", headers={"Authorization": f"Bearer {seat['token']}"}
        )
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "bad_token"
        played = server.http.post(
            f"/api/tables/{table['id']}/actions",
            json={"action": 0},
            headers={"Authorization": f"Bearer {resumed.json()['token']}"},
        )
        assert played.status_code == 200, played.text


def test_another_accounts_table_ids_give_nothing_away(server: LiveServer) -> None:
    table = server.create("nim", ["human", "human"])
    with browser(server) as alice, browser(server) as bob:
        alice_account, bob_account = sign_up(alice, "alice"), sign_up(bob, "bob")
        seat = join(alice, alice_account, table["id"], "Alice")
        theirs = bob.post(f"/api/account/tables/{table['id']}/resume", headers=csrf(bob_account))
        nowhere = bob.post("/api/account/tables/nosuchtable/resume", headers=csrf(bob_account))
        assert theirs.status_code == nowhere.status_code == 404
        assert theirs.json()["error"]["code"] == nowhere.json()["error"]["code"] == "not_your_seat"
        assert "token" not in theirs.text
        assert where(bob) == {}
        # Without the CSRF token or a session, nothing either; and Alice's token still plays.
        assert alice.post(f"/api/account/tables/{table['id']}/resume").json()["error"]["code"] == "bad_csrf"
        assert server.http.get("/api/account/games").json()["error"]["code"] == "not_signed_in"
        mine = server.http.get(f"/api/tables/{table['id']}/state", headers={"Authorization": f"Bearer {seat['token']}"})
        assert mine.status_code == 200


def test_a_claimed_guest_seat_is_in_my_games(server: LiveServer) -> None:
    table = server.create("nim", ["human", "human"])
    guest = server.join(table["id"], "guest")
    with browser(server) as alice:
        account = sign_up(alice, "alice")
        assert where(alice) == {}
        claim = alice.post(
            f"/api/tables/{table['id']}/claim", headers={"Authorization": f"Bearer {guest['token']}", **csrf(account)}
        )
        assert claim.status_code == 200
        assert where(alice) == {table["id"]: "waiting"}
