"""Tables that end before their game does: expired after their idle time, or conceded
(docs/server.md, "Leaving and ending")."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

import parlour.server
from parlour.cli import main
from parlour.server.authority.hub import Hub
from parlour.server.settings import Settings

from .conftest import LiveServer, wait_until
from .test_accounts import browser, sign_up
from .test_ratings import QUICK, board, join, rated_table


def hub_of(server: LiveServer) -> Hub:
    hub: Hub = server.app.state.hub
    return hub


def listed(server: LiveServer, status: str) -> dict[str, dict[str, Any]]:
    return {t["id"]: t for t in server.http.get(f"/api/tables?status={status}").json()}


def act(server: LiveServer, table_id: str, token: str, action: str) -> Any:
    headers = {"Authorization": f"Bearer {token}"}
    return server.http.post(f"/api/tables/{table_id}/actions", json={"action": action}, headers=headers)


def concede(server: LiveServer, table_id: str, token: str) -> Any:
    return server.http.post(f"/api/tables/{table_id}/concede", headers={"Authorization": f"Bearer {token}"})


# --- expiry ----------------------------------------------------------------------------------------


def test_a_guests_table_against_a_bot_expires_when_left(serve: Callable[..., LiveServer]) -> None:
    server = serve(table_expiry_seconds=1.0)
    # A guest's table against a bot, the guest to move: the bot waits for ever unless it expires.
    table = server.create("nim", ["human", "random"], options={"stones": 12})
    token = server.join(table["id"], "Ann", 0)["token"]
    watcher = server.connect(table["id"])
    ended = watcher.until(lambda m: m["type"] == "sync" and m["status"] == "finished", timeout=20)
    assert ended["ended"] == {"reason": "expired"} and ended["result"] is None
    # The lobby lists it with the finished tables, saying it expired; no longer as running.
    wait_until(lambda: table["id"] in listed(server, "finished"))
    assert listed(server, "finished")[table["id"]]["ended"] == {"reason": "expired"}
    assert table["id"] not in listed(server, "running")
    refused = act(server, table["id"], token, "take 1")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_over"
    # Its opener may open another in its place: it no longer counts against the address.
    assert hub_of(server).open_count.total() == 0


def test_a_table_out_of_memory_expires_too_and_stays_expired(serve: Callable[..., LiveServer]) -> None:
    server = serve(table_expiry_seconds=1.0, idle_seconds=0)
    table = server.create("nim", ["human", "human"], options={"stones": 12})  # nobody ever sits down
    wait_until(lambda: table["id"] in listed(server, "finished"))
    assert listed(server, "finished")[table["id"]]["ended"] == {"reason": "expired"}
    assert table["id"] not in listed(server, "open")
    refused = server.http.post(f"/api/tables/{table['id']}/join", json={"name": "Ann"})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_over"
    server.stop()
    again = serve(table_expiry_seconds=1.0)
    assert again.table(table["id"])["ended"] == {"reason": "expired"}
    assert table["id"] not in listed(again, "open")


def test_tables_in_play_or_with_a_clock_do_not_expire(serve: Callable[..., LiveServer]) -> None:
    server = serve(table_expiry_seconds=3600.0, min_move_seconds=1.0, idle_seconds=2.0)
    hub = hub_of(server)
    played = server.create("nim", ["human", "random"], options={"stones": 12})
    token = server.join(played["id"], "Ann", 0)["token"]
    assert act(server, played["id"], token, "take 1").status_code == 200
    timed = server.create("nim", ["human", "human"], options={"stones": 12}, mode="turn_based", move_seconds=5.0)
    # An hour on: the moved table is idle by then, the timed one never is (its clock plays on).
    hub.settings = replace(hub.settings, table_expiry_seconds=0.5)
    wait_until(lambda: played["id"] in listed(server, "finished"))
    assert server.table(timed["id"])["status"] == "open"
    assert server.table(timed["id"])["ended"] is None


# --- concede -------------------------------------------------------------------------------------


def test_conceding_a_two_player_game_ends_it_as_a_loss(serve: Callable[..., LiveServer]) -> None:
    server = serve()
    table = server.create("nim", ["human", "human"], options={"stones": 12})
    ann = server.join(table["id"], "Ann", 0)["token"]
    ben = server.join(table["id"], "Ben", 1)["token"]
    watching = server.connect(table["id"], ben)
    answer = concede(server, table["id"], ann)
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "finished" and answer.json()["ended"] == {"reason": "conceded", "seat": 0}
    told = watching.until(lambda m: m["type"] == "sync" and m["status"] == "finished")
    assert told["ended"] == {"reason": "conceded", "seat": 0}
    assert listed(server, "finished")[table["id"]]["ended"] == {"reason": "conceded", "seat": 0}
    refused = act(server, table["id"], ben, "take 1")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_over"
    again = concede(server, table["id"], ben)
    assert again.status_code == 409 and again.json()["error"]["code"] == "game_over"
    # It stays conceded after a restart.
    server.stop()
    assert serve().table(table["id"])["ended"] == {"reason": "conceded", "seat": 0}


def test_conceding_needs_the_seats_token(server: LiveServer) -> None:
    table = server.create("nim", ["human", "human"], options={"stones": 12})
    server.join(table["id"], "Ann", 0)
    for headers in ({"Authorization": "Bearer nonsense"}, {}):
        refused = server.http.post(f"/api/tables/{table['id']}/concede", headers=headers)
        assert refused.status_code in (401, 403), refused.text
    assert server.table(table["id"])["status"] == "open"


def test_a_concession_with_more_people_hands_the_seat_to_the_bot(serve: Callable[..., LiveServer]) -> None:
    server = serve()
    table = server.create("hatairo", ["human", "human", "human"], options={"players": 3})
    tokens = [server.join(table["id"], name, seat)["token"] for seat, name in enumerate(("Ann", "Ben", "Cy"))]
    ann = server.connect(table["id"], tokens[0])
    answer = concede(server, table["id"], tokens[0])
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "running" and answer.json()["seats"][0]["kind"] == "bot"
    with pytest.raises(ConnectionClosed) as closed:
        ann.until(lambda _message: False, timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4005
    refused = server.http.get(f"/api/tables/{table['id']}/state", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert refused.status_code == 403


# --- the setting -----------------------------------------------------------------------------------


def test_serve_takes_the_expiry_time_and_refuses_a_negative_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    started: list[Settings] = []
    monkeypatch.setattr(parlour.server, "run", lambda settings, **_: started.append(settings))
    with pytest.raises(SystemExit) as done:
        main(["serve", "--port", "0", "--table-expiry-seconds", "600"])
    assert done.value.code in (0, None)
    with pytest.raises(SystemExit) as done:
        main(["serve", "--port", "0"])
    assert [settings.table_expiry_seconds for settings in started] == [600.0, 86400.0]
    with pytest.raises(SystemExit) as refused:
        main(["serve", "--port", "0", "--table-expiry-seconds", "-1"])
    assert refused.value.code == 2 and "--table-expiry-seconds" in capsys.readouterr().err
    assert len(started) == 2


# --- leave ---------------------------------------------------------------------------------------


def leave(server: LiveServer, table_id: str, token: str) -> Any:
    return server.http.post(f"/api/tables/{table_id}/leave", headers={"Authorization": f"Bearer {token}"})


def test_leaving_before_the_game_starts_frees_the_seat(server: LiveServer) -> None:
    table = server.create("nim", ["human", "human"], options={"stones": 12})
    ann = server.join(table["id"], "Ann", 0)["token"]
    answer = leave(server, table["id"], ann)
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "open" and answer.json()["seats"][0]["taken"] is False
    refused = leave(server, table["id"], ann)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "bad_token"
    server.join(table["id"], "Ben", 0)  # the seat is free for anybody
    assert server.table(table["id"])["seats"][0]["name"] == "Ben"


def test_leaving_a_running_game_hands_the_seat_to_a_bot(serve: Callable[..., LiveServer]) -> None:
    server = serve()
    table = server.create("nim", ["human", "human"], options={"stones": 12})
    ann = server.join(table["id"], "Ann", 0)["token"]
    ben = server.join(table["id"], "Ben", 1)["token"]
    answer = leave(server, table["id"], ann)
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "running" and answer.json()["seats"][0]["kind"] == "bot"
    # The bot plays Ann's seat; Ben plays on to the end, nobody's loss recorded.
    player = server.connect(table["id"], ben)
    message = player.position
    while message["status"] != "finished":
        if message["legal"]:
            player.send(type="act", action=message["legal"][0]["id"], version=message["version"])
        message = player.until(lambda m: m["type"] in ("sync", "update"), timeout=10)
    assert message["result"] is not None and message["ended"] is None
    # Ben was the last person there: his leaving a game against bots ends the table.
    again = server.create("nim", ["human", "random"], options={"stones": 12})
    cy = server.join(again["id"], "Cy", 0)["token"]
    gone = leave(server, again["id"], cy)
    assert gone.json()["status"] == "finished" and gone.json()["ended"] == {"reason": "left", "seat": 0}
    assert listed(server, "finished")[again["id"]]["ended"] == {"reason": "left", "seat": 0}


def test_a_rated_concession_ranks_the_conceding_seat_last(serve: Callable[..., LiveServer]) -> None:
    server = serve(**QUICK)
    table_id = rated_table(server)
    with browser(server) as alice, browser(server) as bob:
        alice_account, bob_account = sign_up(alice, "alice"), sign_up(bob, "bob")
        join(alice, alice_account, table_id)
        bobs = join(bob, bob_account, table_id)
        # Leaving a running rated game is conceding it.
        gone = leave(server, table_id, bobs["token"])
        assert gone.json()["ended"] == {"reason": "conceded", "seat": 1}
    wait_until(lambda: len(board(server)) == 2)
    assert [entry["name"] for entry in board(server)] == ["alice", "bob"]
    shown = server.table(table_id)["ratings"]
    assert shown["0"]["change"] > 0 > shown["1"]["change"]


# --- joining as one's account --------------------------------------------------------------------


def test_a_signed_in_player_joins_without_giving_a_name(serve: Callable[..., LiveServer]) -> None:
    server = serve(**QUICK)
    table = server.create("nim", ["human", "human"], options={"stones": 12})
    with browser(server) as alice:
        account = sign_up(alice, "alice")
        joined = alice.post(f"/api/tables/{table['id']}/join", json={}, headers={"X-CSRF-Token": account["csrf_token"]})
        assert joined.status_code == 200, joined.text
        assert (joined.json()["name"], joined.json()["account"]) == ("alice", "alice")
    # A guest must still give one, and nothing changes when refused.
    refused = server.http.post(f"/api/tables/{table['id']}/join", json={})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "bad_name"
    assert server.table(table["id"])["seats"][1]["taken"] is False


# --- sign-up rules ---------------------------------------------------------------------------------


def test_the_sign_up_rules_are_the_ones_the_server_holds_to(serve: Callable[..., LiveServer]) -> None:
    server = serve(**QUICK)
    rules = server.http.get("/api/account/rules").json()
    assert rules["password"] == f"{rules['password_min']} to {rules['password_max']} characters"
    pattern = re.compile(rules["name_pattern"])
    for name in ("ab", "-abc", "a b c", "x" * 41, "ok_name", "Ann.B-2"):
        with browser(server) as client:
            answer = client.post("/api/account/signup", json={"name": name, "password": "long enough pass"})
        said_ok = pattern.fullmatch(name) is not None and len(name) <= rules["name_max"]
        assert (answer.status_code == 201) == said_ok, (name, answer.text)
        if not said_ok and answer.status_code == 422 and answer.json()["error"]["code"] == "bad_name":
            assert rules["name"] in answer.json()["error"]["message"]
    with browser(server) as client:
        too_short = "x" * (rules["password_min"] - 1)
        short = client.post("/api/account/signup", json={"name": "shorty", "password": too_short})
    assert short.status_code == 422


# --- expel -----------------------------------------------------------------------------------------

SHORT_CLOCKS = {"min_move_seconds": 0.05, "timer_poll": 0.02, "timeout_agent": "random"}


def expel(server: LiveServer, table_id: str, token: str, seat: int) -> Any:
    headers = {"Authorization": f"Bearer {token}"}
    return server.http.post(f"/api/tables/{table_id}/expel", json={"seat": seat}, headers=headers)


def expellable(server: LiveServer, table_id: str) -> list[int]:
    answer: list[int] = server.http.get(f"/api/tables/{table_id}/clock").json()["expellable"]
    return answer


def timed_table(server: LiveServer, move_seconds: float) -> tuple[str, list[str]]:
    body = {"mode": "turn_based", "move_seconds": move_seconds, "on_timeout": "bot"}
    table = server.create("nim", ["human", "human"], options={"stones": 15}, **body)
    return table["id"], [server.join(table["id"], name)["token"] for name in ("Ann", "Ben")]


def test_a_seat_out_of_time_may_be_expelled_by_the_others(serve: Callable[..., LiveServer]) -> None:
    server = serve(**SHORT_CLOCKS)
    table_id, (ann, ben) = timed_table(server, 0.5)
    early = expel(server, table_id, ben, 0)  # Ann's time has not run out
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_out_of_time"
    assert expel(server, table_id, ben, 1).json()["error"]["code"] == "no_seat"  # not oneself
    wait_until(lambda: server.table(table_id)["version"] == 1)  # the timeout played Ann's turn
    # The clock says who may be expelled now, before anybody tries: the same check as expel's.
    assert 0 in expellable(server, table_id)
    answer = expel(server, table_id, ben, 0)
    assert answer.status_code == 200, answer.text
    assert 0 not in expellable(server, table_id)
    assert answer.json()["seats"][0]["kind"] == "bot" and answer.json()["status"] == "running"
    refused = server.http.get(f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {ann}"})
    assert refused.status_code == 403


def test_the_table_is_told_at_once_who_may_be_expelled(serve: Callable[..., LiveServer]) -> None:
    server = serve(**SHORT_CLOCKS)
    table_id, (_ann, ben) = timed_table(server, 3.0)
    watching = server.connect(table_id, ben)
    # Ann's turn times out: Ben's page hears at once that Ann may be expelled, without asking.
    told = watching.until(lambda m: m["type"] == "expellable")
    assert told == {"type": "expellable", "table": table_id, "seats": [0]}
    watching.close()


def test_a_seat_that_moved_again_may_not_be_expelled(serve: Callable[..., LiveServer]) -> None:
    server = serve(**SHORT_CLOCKS)
    table_id, (ann, ben) = timed_table(server, 1.0)
    wait_until(lambda: server.table(table_id)["version"] == 1)  # Ann's turn timed out
    assert act(server, table_id, ben, "take 1").status_code == 200
    assert act(server, table_id, ann, "take 1").status_code == 200  # Ann is back in time
    assert 0 not in expellable(server, table_id)
    refused = expel(server, table_id, ben, 0)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_out_of_time"
    assert server.table(table_id)["seats"][0]["kind"] == "human"
