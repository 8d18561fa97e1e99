"""Accounts: sign up and in, sessions in cookies with CSRF tokens, sign-in limits, sign out (here
and everywhere), change password, and guests' seats claimed into accounts; and what an attacker
cannot do with them (wrong passwords, guessing, another user's cookie, requests without the CSRF
token, another account's seats), with passwords never stored, logged or echoed."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, inspect, select, text

from parlour.server.settings import database_url

from .conftest import LiveServer, wait_until

# Argon2 at a test's cost: the real cost is the settings' default (docs/server.md).
FAST_HASH = {"password_time_cost": 1, "password_memory_kib": 1024}
PASSWORD = "correct horse battery"


@pytest.fixture
def accounts_server(serve: Callable[..., LiveServer]) -> LiveServer:
    return serve(**FAST_HASH)


def browser(server: LiveServer) -> httpx.Client:
    """A client of its own, with its own cookie jar: one browser."""
    return httpx.Client(base_url=server.url, timeout=30)


def sign_up(client: httpx.Client, name: str, password: str = PASSWORD) -> dict[str, Any]:
    response = client.post("/api/account/signup", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    return dict(response.json())


def sign_in(client: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    return client.post("/api/account/signin", json={"name": name, "password": password})


def signed_in(client: httpx.Client) -> bool:
    answer = client.get("/api/account")
    assert answer.status_code == 200, answer.text
    return bool(answer.json()["signed_in"])


def csrf(account: dict[str, Any]) -> dict[str, str]:
    return {"X-CSRF-Token": account["csrf_token"]}


def test_sign_up_sets_a_session_cookie_http_only_same_site(accounts_server: LiveServer) -> None:
    with browser(accounts_server) as alice:
        response = alice.post("/api/account/signup", json={"name": "Alice", "password": PASSWORD})
        assert response.status_code == 201, response.text
        cookie = response.headers["set-cookie"]
        assert cookie.startswith("parlour_session=")
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
        assert "Secure" not in cookie  # plain http here; see the next test
        me = alice.get("/api/account").json()
        assert me["name"] == "Alice" and me["csrf_token"] == response.json()["csrf_token"]
    # A browser without the cookie is nobody.
    assert accounts_server.http.get("/api/account").json() == {"signed_in": False}


def test_cookie_is_secure_behind_https(serve: Callable[..., LiveServer]) -> None:
    server = serve(public_url="https://parlour.example", **FAST_HASH)
    with browser(server) as alice:
        response = alice.post("/api/account/signup", json={"name": "alice", "password": PASSWORD})
        assert "Secure" in response.headers["set-cookie"]


def test_names_are_one_in_any_case_and_follow_the_rule(accounts_server: LiveServer) -> None:
    with browser(accounts_server) as first, browser(accounts_server) as second:
        sign_up(first, "Alice")
        taken = second.post("/api/account/signup", json={"name": "ALICE", "password": PASSWORD})
        assert taken.status_code == 409 and taken.json()["error"]["code"] == "name_taken"
        odd = second.post("/api/account/signup", json={"name": "a<b>", "password": PASSWORD})
        assert odd.status_code == 422 and odd.json()["error"]["code"] == "bad_name"
        assert "bob" not in str(second.cookies)


def test_wrong_password_and_unknown_name_are_refused_alike(accounts_server: LiveServer) -> None:
    with browser(accounts_server) as alice:
        sign_up(alice, "alice")
    with browser(accounts_server) as mallory:
        wrong = sign_in(mallory, "alice", "not the password")
        unknown = sign_in(mallory, "nobody", "not the password")
        assert wrong.status_code == unknown.status_code == 401
        assert wrong.json() == unknown.json()
        assert wrong.json()["error"]["code"] == "bad_credentials"
        assert "set-cookie" not in wrong.headers
        assert not signed_in(mallory)
        right = sign_in(mallory, "ALICE")  # the name in any case
        assert right.status_code == 200 and right.json()["name"] == "alice"


def test_sign_in_attempts_are_limited_per_account(serve: Callable[..., LiveServer]) -> None:
    server = serve(signin_burst=3, signin_rate=0.001, **FAST_HASH)
    with browser(server) as alice:
        sign_up(alice, "alice")
        assert sign_in(alice, "alice").status_code == 200  # a right password is no failure
    with browser(server) as mallory:
        for _ in range(3):
            assert sign_in(mallory, "alice", "guess guess").status_code == 401
        # Over the limit even the right password is refused: guessing gains nothing.
        limited = sign_in(mallory, "alice")
        assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limited"
        assert "failed sign-ins for this account" in limited.json()["error"]["message"]
        # Another account is not held back by alice's.
        sign_up(mallory, "mallory")


def test_sign_in_attempts_are_limited_per_client_address(serve: Callable[..., LiveServer]) -> None:
    server = serve(signin_client_burst=4, signin_client_rate=0.001, **FAST_HASH)
    with browser(server) as mallory:
        for name in ("ann", "ben", "cat", "dan"):
            assert sign_in(mallory, name, "guess guess").status_code == 401
        limited = sign_in(mallory, "eve", "guess guess")
        assert limited.status_code == 429 and "from your address" in limited.json()["error"]["message"]


def test_csrf_token_is_required_on_every_cookie_authorised_change(accounts_server: LiveServer) -> None:
    table = accounts_server.create("nim", ["human", "human"])
    guest = accounts_server.join(table["id"], "guest")
    with browser(accounts_server) as alice:
        account = sign_up(alice, "alice")
        refusals = {
            "signout": alice.post("/api/account/signout"),
            "everywhere": alice.post("/api/account/signout-everywhere", headers={"X-CSRF-Token": "0" * 64}),
            "password": alice.post("/api/account/password", json={"password": PASSWORD, "new_password": "x" * 12}),
            "claim": alice.post(
                f"/api/tables/{table['id']}/claim", headers={"Authorization": f"Bearer {guest['token']}"}
            ),
            "join": alice.post(f"/api/tables/{table['id']}/join", json={"name": "alice"}),
        }
        for what, response in refusals.items():
            assert response.status_code == 403, what
            assert response.json()["error"]["code"] == "bad_csrf", what
        # Nothing changed: still signed in, same password, the seat free, the guest's seat unclaimed.
        assert signed_in(alice)
        assert accounts_server.table(table["id"])["seats"][1]["taken"] is False
        with browser(accounts_server) as again:
            assert sign_in(again, "alice").status_code == 200
        # With the token, the same requests go through.
        claim = alice.post(
            f"/api/tables/{table['id']}/claim",
            headers={"Authorization": f"Bearer {guest['token']}", **csrf(account)},
        )
        assert claim.status_code == 200, claim.text


def test_another_users_cookie_cannot_use_their_csrf_token_or_seats(accounts_server: LiveServer) -> None:
    table = accounts_server.create("nim", ["human", "human"])
    with browser(accounts_server) as alice, browser(accounts_server) as bob:
        alice_account, bob_account = sign_up(alice, "alice"), sign_up(bob, "bob")
        seat = alice.post(f"/api/tables/{table['id']}/join", json={"name": "alice"}, headers=csrf(alice_account))
        assert seat.status_code == 200 and seat.json()["account"] == "alice"
        # Bob's cookie with Alice's CSRF token: refused, Alice's session untouched.
        crossed = bob.post("/api/account/signout", headers=csrf(alice_account))
        assert crossed.status_code == 403 and crossed.json()["error"]["code"] == "bad_csrf"
        assert signed_in(alice)
        # Bob may not claim Alice's seat, even holding its token (it already belongs to an account).
        stolen = bob.post(
            f"/api/tables/{table['id']}/claim",
            headers={"Authorization": f"Bearer {seat.json()['token']}", **csrf(bob_account)},
        )
        assert stolen.status_code == 409 and stolen.json()["error"]["code"] == "seat_claimed"
        # A cookie made up or copied wrong is no session at all.
        forged = httpx.Client(base_url=accounts_server.url, cookies={"parlour_session": "made-up"})
        with forged:
            assert not signed_in(forged)
            refused = forged.post("/api/account/signout", headers=csrf(alice_account))
            assert refused.status_code == 401 and refused.json()["error"]["code"] == "not_signed_in"


def test_claim_needs_a_token_of_that_table(accounts_server: LiveServer) -> None:
    first = accounts_server.create("nim", ["human", "human"])
    second = accounts_server.create("nim", ["human", "human"])
    elsewhere = accounts_server.join(second["id"], "guest")
    with browser(accounts_server) as alice:
        account = sign_up(alice, "alice")
        refused = alice.post(
            f"/api/tables/{first['id']}/claim",
            headers={"Authorization": f"Bearer {elsewhere['token']}", **csrf(account)},
        )
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "bad_token"
        no_token = alice.post(f"/api/tables/{first['id']}/claim", headers=csrf(account))
        assert no_token.status_code == 401 and no_token.json()["error"]["code"] == "no_token"


def test_a_claimed_guest_seat_is_the_accounts_and_its_token_keeps_playing(accounts_server: LiveServer) -> None:
    table = accounts_server.create("nim", ["human", "human"], options={"stones": 5})
    guest = accounts_server.join(table["id"], "guest")
    other = accounts_server.join(table["id"], "other")
    with browser(accounts_server) as alice:
        account = sign_up(alice, "alice")
        claim = alice.post(
            f"/api/tables/{table['id']}/claim",
            headers={"Authorization": f"Bearer {guest['token']}", **csrf(account)},
        )
        assert claim.json() == {"table": table["id"], "seat": guest["seat"], "account": "alice"}
    engine = create_engine(database_url(accounts_server.settings.db))
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT seat, user_id FROM seats WHERE table_id = :t"), {"t": table["id"]})
        owners = {seat: user for seat, user in rows}
    engine.dispose()
    assert owners[guest["seat"]] is not None and owners[other["seat"]] is None
    mover = guest if accounts_server.table(table["id"])["to_move"] == guest["seat"] else other
    played = accounts_server.http.post(
        f"/api/tables/{table['id']}/actions", json={"action": 0}, headers={"Authorization": f"Bearer {mover['token']}"}
    )
    assert played.status_code == 200, played.text


def test_sign_out_ends_this_session_only(accounts_server: LiveServer) -> None:
    with browser(accounts_server) as laptop, browser(accounts_server) as phone:
        account = sign_up(laptop, "alice")
        assert sign_in(phone, "alice").status_code == 200
        stolen_cookie = laptop.cookies["parlour_session"]
        out = laptop.post("/api/account/signout", headers=csrf(account))
        assert out.status_code == 200
        assert 'parlour_session=""' in out.headers["set-cookie"] or "Max-Age=0" in out.headers["set-cookie"]
        assert not signed_in(laptop)
        # The old cookie, kept by somebody, is worth nothing now.
        with httpx.Client(base_url=accounts_server.url, cookies={"parlour_session": stolen_cookie}) as thief:
            assert not signed_in(thief)
        assert signed_in(phone)


def test_sign_out_everywhere_ends_every_session(accounts_server: LiveServer) -> None:
    with browser(accounts_server) as laptop, browser(accounts_server) as phone, browser(accounts_server) as bob:
        account = sign_up(laptop, "alice")
        assert sign_in(phone, "alice").status_code == 200
        sign_up(bob, "bob")
        out = laptop.post("/api/account/signout-everywhere", headers=csrf(account))
        assert out.json() == {"signed_out": 2}
        assert not signed_in(laptop)
        assert not signed_in(phone)
        assert signed_in(bob)  # another account is not touched


def test_change_password(accounts_server: LiveServer) -> None:
    new = "a brand new secret"
    with browser(accounts_server) as laptop, browser(accounts_server) as phone:
        account = sign_up(laptop, "alice")
        assert sign_in(phone, "alice").status_code == 200
        wrong = laptop.post(
            "/api/account/password", json={"password": "not it at all", "new_password": new}, headers=csrf(account)
        )
        assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "bad_credentials"
        short = laptop.post(
            "/api/account/password", json={"password": PASSWORD, "new_password": "short"}, headers=csrf(account)
        )
        assert short.status_code == 422
        changed = laptop.post(
            "/api/account/password", json={"password": PASSWORD, "new_password": new}, headers=csrf(account)
        )
        assert changed.json() == {"changed": True, "signed_out": 1}
        assert signed_in(laptop)  # this browser stays signed in
        assert not signed_in(phone)  # the others are signed out
        assert sign_in(phone, "alice").status_code == 401
        assert sign_in(phone, "alice", new).status_code == 200


def _every_stored_text(url: str) -> str:
    engine = create_engine(database_url(url))
    found = []
    with engine.connect() as connection:
        for table in inspect(connection).get_table_names():
            for row in connection.execute(select(text("*")).select_from(text(table))):
                found.extend(str(value) for value in row)
    engine.dispose()
    return "\n".join(found)


def test_passwords_are_never_stored_logged_or_echoed(
    accounts_server: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    secret, later = "Zebra-Quartz-7781", "Yonder-Plinth-4410"
    caplog.set_level(logging.DEBUG)
    with browser(accounts_server) as alice:
        account = sign_up(alice, "alice", secret)
        assert sign_in(alice, "alice", secret + "x").status_code == 401
        assert sign_in(alice, "alice", secret).status_code == 200
        account = alice.get("/api/account").json()
        changed = alice.post(
            "/api/account/password", json={"password": secret, "new_password": later}, headers=csrf(account)
        )
        assert changed.status_code == 200
        too_short = alice.post("/api/account/signup", json={"name": "bob", "password": "Qz9-ab"})
        assert too_short.status_code == 422 and "Qz9-ab" not in too_short.text
    stored = _every_stored_text(accounts_server.settings.db)
    for password in (secret, later, "Qz9-ab"):
        assert password not in stored
        assert password not in caplog.text
        assert all(password not in str(record.__dict__) for record in caplog.records)
    engine = create_engine(database_url(accounts_server.settings.db))
    with engine.connect() as connection:
        hashes = [row[0] for row in connection.execute(text("SELECT password_hash FROM users"))]
        sessions = [row[0] for row in connection.execute(text("SELECT token_hash FROM user_sessions"))]
    engine.dispose()
    assert len(hashes) == 1 and hashes[0].startswith("$argon2id$")
    # Session tokens are kept as hashes too: the cookie's value is nowhere in the database.
    assert alice.cookies.get("parlour_session") is None or alice.cookies["parlour_session"] not in stored
    assert all(len(token) == 64 for token in sessions)
    assert any(getattr(record, "event", None) == "signed_in" for record in caplog.records)


def test_parlour_serve_passes_the_account_options(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    from typer.testing import CliRunner

    import parlour.server
    from parlour.cli import app

    given: list[Any] = []
    monkeypatch.setattr(parlour.server, "run", lambda settings, **_: given.append(settings))
    options = ["--session-days", "2", "--signin-failures", "3", "--secure-cookies", "--port", "0"]
    result = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "p.sqlite"), *options])
    assert result.exit_code == 0, result.output
    assert (given[0].session_days, given[0].signin_burst, given[0].secure_cookies) == (2.0, 3, True)
    CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "p.sqlite"), "--port", "0"])
    assert given[1].secure_cookies is None  # by default: Secure when served over https


def test_a_session_lasts_session_days(serve: Callable[..., LiveServer]) -> None:
    server = serve(session_days=0.5, **FAST_HASH)
    with browser(server) as alice:
        response = alice.post("/api/account/signup", json={"name": "alice", "password": PASSWORD})
        assert "Max-Age=43200" in response.headers["set-cookie"]
        engine = create_engine(database_url(server.settings.db))
        with engine.begin() as connection:
            past = datetime(2000, 1, 1, tzinfo=UTC)
            connection.execute(text("UPDATE user_sessions SET expires_at = :past"), {"past": past})
        engine.dispose()
        assert not signed_in(alice)  # an expired session signs nobody in, whatever the cookie says


def test_sign_in_buckets_are_forgotten_once_full(serve: Callable[..., LiveServer]) -> None:
    from parlour.server.app import prune_buckets

    server = serve(signin_rate=1000.0, signin_account_rate=1000.0, signin_client_rate=1000.0, **FAST_HASH)
    with browser(server) as mallory:
        for name in ("ann", "ben", "cat"):
            assert sign_in(mallory, name, "guess guess").status_code == 401
    accounts = server.app.state.accounts
    assert set(accounts.by_account.buckets) == {"ann", "ben", "cat"}
    assert len(accounts.by_pair.buckets) == 3
    wait_until(lambda: all(bucket.full for bucket in accounts.by_account.buckets.values()))
    wait_until(lambda: all(bucket.full for bucket in accounts.by_pair.buckets.values()))
    prune_buckets(server.app)
    assert accounts.by_account.buckets == {} and accounts.by_client.buckets == {} and accounts.by_pair.buckets == {}
