"""Seats and accounts that hold against their misuse: a forfeit stays a forfeit, guessing cannot
lock the owner out, hashing cannot take the server's memory, a password change retires the seat
tokens handed to the sessions it ends (docs/server.md, "Accounts" and "Turn-based tables")."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from parlour.server.edge.errors import ServerError

from .conftest import LiveServer, wait_until
from .test_accounts import FAST_HASH, PASSWORD, browser, csrf, sign_in, sign_up


def on_server_loop(server: LiveServer, job: Any) -> Any:
    """Run a coroutine on the server's own event loop and return its result."""
    loop = server.app.state.hub.sweeper.get_loop()
    return asyncio.run_coroutine_threadsafe(job, loop).result(30)


def forfeited_table(server: LiveServer) -> tuple[str, httpx.Client, dict[str, Any], dict[str, Any]]:
    """A Nim table whose seat 0 (Alice's account) forfeited on time; Bob holds seat 1."""
    body = {"game": "nim", "seats": ["human", "human"], "mode": "turn_based", "move_seconds": 0.3}
    table_id = server.http.post("/api/tables", json={**body, "on_timeout": "forfeit"}).json()["id"]
    alice = browser(server)
    account = sign_up(alice, "alice")
    seat = alice.post(f"/api/tables/{table_id}/join", json={"name": "alice"}, headers=csrf(account)).json()
    server.join(table_id, "Bob")
    wait_until(lambda: server.table(table_id)["seats"][0]["kind"] == "bot")
    return table_id, alice, account, seat


def test_a_forfeited_seat_cannot_be_resumed_claimed_or_played(serve: Callable[..., LiveServer]) -> None:
    # The bot that takes the seat over waits a long while before each move: the seat stays the
    # bot's to move while a person tries it.
    server = serve(**FAST_HASH, min_move_seconds=0.05, timeout_agent="random", bot_delay=30.0, timer_poll=0.02)
    table_id, alice, account, seat = forfeited_table(server)
    try:
        resumed = alice.post(f"/api/account/tables/{table_id}/resume", headers=csrf(account))
        assert resumed.status_code == 409 and resumed.json()["error"]["code"] == "forfeited", resumed.text
        claimed = alice.post(
            f"/api/tables/{table_id}/claim", headers={**csrf(account), "Authorization": f"Bearer {seat['token']}"}
        )
        assert claimed.status_code == 403
    finally:
        alice.close()
    chat = server.http.post(
        f"/api/tables/{table_id}/chat",
        json={"text": "still here"},
        headers={"Authorization": f"Bearer {seat['token']}"},
    )
    assert chat.status_code == 403
    # Whatever holds a token of it, a person's move on a seat a bot plays is refused.
    hub = server.app.state.hub
    table = hub.tables[table_id]
    assert table.state.current_player() == 0
    with pytest.raises(ServerError) as refused:
        on_server_loop(server, hub.submit(table, 0, "take 1"))
    assert refused.value.code == "bot_seat"
    assert server.table(table_id)["version"] == 0


def test_guessing_from_one_address_does_not_lock_the_owner_out(serve: Callable[..., LiveServer]) -> None:
    server = serve(**FAST_HASH, signin_burst=3, signin_rate=0.001, signin_account_burst=6, signin_account_rate=0.001)
    with browser(server) as owner:
        sign_up(owner, "alice")
    attacker = {"X-Forwarded-For": "203.0.113.66"}
    with browser(server) as mallory:
        for _ in range(3):
            guess = mallory.post(
                "/api/account/signin", json={"name": "alice", "password": "guess guess"}, headers=attacker
            )
            assert guess.status_code == 401
        limited = mallory.post("/api/account/signin", json={"name": "alice", "password": PASSWORD}, headers=attacker)
        assert limited.status_code == 429 and "from your address" in limited.json()["error"]["message"]
    # The owner, elsewhere, signs in (and changes the password) as ever.
    with browser(server) as phone:
        home = {"X-Forwarded-For": "198.51.100.7"}
        answer = phone.post("/api/account/signin", json={"name": "alice", "password": PASSWORD}, headers=home)
        assert answer.status_code == 200, answer.text
        changed = phone.post(
            "/api/account/password",
            json={"password": PASSWORD, "new_password": "a new password"},
            headers={**home, **csrf(answer.json())},
        )
        assert changed.status_code == 200, changed.text


def test_guessing_from_many_addresses_meets_the_account_limit_that_a_known_device_passes(
    serve: Callable[..., LiveServer],
) -> None:
    server = serve(**FAST_HASH, signin_burst=3, signin_rate=0.001, signin_account_burst=4, signin_account_rate=0.001)
    known = browser(server)
    sign_up(known, "alice")  # this browser is a device of the account from now on
    with browser(server) as mallory:
        for address in range(4):
            spread = {"X-Forwarded-For": f"203.0.113.{address}"}
            guess = mallory.post(
                "/api/account/signin", json={"name": "alice", "password": "guess guess"}, headers=spread
            )
            assert guess.status_code == 401
        fresh = {"X-Forwarded-For": "203.0.113.99"}
        limited = mallory.post("/api/account/signin", json={"name": "alice", "password": PASSWORD}, headers=fresh)
        assert limited.status_code == 429 and "signed in to it before" in limited.json()["error"]["message"]
    try:
        home = {"X-Forwarded-For": "198.51.100.7"}
        assert sign_in(known, "alice", "not the password").status_code == 401  # still checked, still counted
        answer = known.post("/api/account/signin", json={"name": "alice", "password": PASSWORD}, headers=home)
        assert answer.status_code == 200, answer.text
    finally:
        known.close()


def test_password_hashings_at_once_are_bounded(serve: Callable[..., LiveServer]) -> None:
    server = serve(**FAST_HASH, password_hashings=2, signin_client_burst=100)
    accounts = server.app.state.accounts
    real = accounts.hasher
    running, most = 0, 0
    lock = threading.Lock()

    class Counting:
        """The hasher, counting how many hashings run at once."""

        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def _counted(self, work: Callable[[], Any]) -> Any:
            nonlocal running, most
            with lock:
                running += 1
                most = max(most, running)
            try:
                time.sleep(0.05)  # long enough for the others to pile up
                return work()
            finally:
                with lock:
                    running -= 1

        def hash(self, password: str) -> str:
            return str(self._counted(lambda: real.hash(password)))

        def verify(self, stored: str, password: str) -> bool:
            return bool(self._counted(lambda: real.verify(stored, password)))

    accounts.hasher = Counting()
    answers: list[int] = []

    def sign_up_one(index: int) -> None:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            body = {"name": f"player{index}", "password": PASSWORD}
            answers.append(client.post("/api/account/signup", json=body).status_code)

    threads = [threading.Thread(target=sign_up_one, args=(index,)) for index in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert answers == [201] * 10
    assert most == 2


def test_too_many_waiting_hashings_are_refused_with_503(serve: Callable[..., LiveServer]) -> None:
    server = serve(**FAST_HASH, password_hashings=1, password_queue=0, signin_client_burst=100)
    accounts = server.app.state.accounts
    accounts.hashing = 1  # one hashing running, and no room to wait
    refused = server.http.post("/api/account/signup", json={"name": "alice", "password": PASSWORD})
    assert refused.status_code == 503 and refused.json()["error"]["code"] == "busy"
    accounts.hashing = 0
    assert server.http.post("/api/account/signup", json={"name": "alice", "password": PASSWORD}).status_code == 201


def held(server: LiveServer, table_id: str, token: str) -> int:
    return server.http.get(f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {token}"}).status_code


@pytest.mark.parametrize("ending", ["password", "signout-everywhere"])
def test_ending_sessions_retires_the_seat_tokens_handed_to_them(serve: Callable[..., LiveServer], ending: str) -> None:
    server = serve(**FAST_HASH)
    table_id = server.create("nim", ["human", "human"])["id"]
    with browser(server) as laptop, browser(server) as stolen:
        account = sign_up(laptop, "alice")
        joined = laptop.post(f"/api/tables/{table_id}/join", json={"name": "alice"}, headers=csrf(account)).json()
        # Somebody with the password signs in elsewhere and resumes the seat there.
        other = sign_in(stolen, "alice").json()
        resumed = stolen.post(f"/api/account/tables/{table_id}/resume", headers=csrf(other)).json()
        assert held(server, table_id, resumed["token"]) == 200
        watching = server.connect(table_id, resumed["token"])
        if ending == "password":
            body = {"password": PASSWORD, "new_password": "a new password"}
            assert laptop.post("/api/account/password", json=body, headers=csrf(account)).status_code == 200
        else:
            assert laptop.post("/api/account/signout-everywhere", headers=csrf(account)).status_code == 200
        assert held(server, table_id, resumed["token"]) == 403
        wait_until(lambda: watching.ws.close_code == 4003 or _closed(watching))
        # The owner resumes from a signed-in device and plays on.
        assert held(server, table_id, joined["token"]) == 403  # the resume had retired it already
        if ending == "signout-everywhere":
            account = sign_in(laptop, "alice").json()
        again = laptop.post(f"/api/account/tables/{table_id}/resume", headers=csrf(account))
        assert again.status_code == 200 and held(server, table_id, again.json()["token"]) == 200
    assert server.table(table_id)["seats"][0]["taken"] is True  # never a free seat for anybody


def _closed(player: Any) -> bool:
    try:
        player.recv(0.05)
    except TimeoutError:
        return False
    except Exception:
        return True
    return False
