"""Administration: the admin role (granted first from the command line), every admin route refused
to anybody else, accounts (find, disable with seats to the bot or kept, enable, export, delete,
password-reset codes), tables (list, close, export), chat messages removed, and the audit log of
all of it; with bad input refused and nothing changed."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute

from parlour.server.features import admin as admin_module
from parlour.server.features.admin_recovery import grant_from_command_line

from .conftest import LiveServer, wait_until
from .test_accounts import FAST_HASH, PASSWORD, browser, csrf, sign_in, sign_up

STONES = {"stones": 9}


@pytest.fixture
def server(serve: Callable[..., LiveServer]) -> LiveServer:
    return serve(**FAST_HASH)


class Person:
    """A browser signed in to an account, with its CSRF header."""

    def __init__(self, server: LiveServer, name: str) -> None:
        self.name = name
        self.http = browser(server)
        self.account = sign_up(self.http, name)

    @property
    def headers(self) -> dict[str, str]:
        return csrf(self.account)

    def get(self, path: str, **params: Any) -> httpx.Response:
        return self.http.get(path, params=params)

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self.http.post(path, json=body or {}, headers=self.headers)

    def delete(self, path: str) -> httpx.Response:
        return self.http.delete(path, headers=self.headers)

    def join(self, table_id: str) -> dict[str, Any]:
        answer = self.post(f"/api/tables/{table_id}/join", {"name": self.name})
        assert answer.status_code == 200, answer.text
        return dict(answer.json())


@pytest.fixture
def people(server: LiveServer) -> Iterator[Callable[[str], Person]]:
    opened: list[Person] = []

    def person(name: str) -> Person:
        opened.append(Person(server, name))
        return opened[-1]

    yield person
    for one in opened:
        one.http.close()


@pytest.fixture
def boss(server: LiveServer, people: Callable[[str], Person]) -> Person:
    """An account granted the admin role from the command line."""
    made = people("boss")
    assert grant_from_command_line(server.settings.url, "boss", True)
    return made


def error_code(response: httpx.Response) -> str:
    return str(response.json()["error"]["code"])


def admin_routes() -> list[tuple[str, str]]:
    return sorted(
        (method, route.path)
        for route in admin_module.router.routes
        if isinstance(route, APIRoute)
        for method in route.methods
    )


def test_the_admin_router_has_routes_for_every_action() -> None:
    paths = {path for _, path in admin_routes()}
    assert {"/api/admin/accounts", "/api/admin/audit", "/api/admin/tables", "/api/admin/reports"} <= paths


@pytest.mark.parametrize(("method", "path"), admin_routes())
def test_every_admin_route_refuses_a_non_admin(
    server: LiveServer, people: Callable[[str], Person], method: str, path: str
) -> None:
    """Any route of the admin router (one added later included) answers 403 to a signed-in
    account without the role, with its CSRF token and a well-formed body, and 401 to nobody."""
    player = people("player")
    filled = re.sub(r"\{[^}]+\}", "1", path)
    body = {"reason": "x", "resolution": "x", "word": "x", "admin": True}
    answer = player.http.request(method, filled, headers=player.headers, json=body if method != "GET" else None)
    assert answer.status_code == 403 and error_code(answer) == "not_admin", answer.text
    nobody = server.http.request(method, filled, json=body if method != "GET" else None)
    assert nobody.status_code == 401 and error_code(nobody) == "not_signed_in", nobody.text


def test_the_role_is_granted_from_the_command_line_and_by_another_admin(
    server: LiveServer, boss: Person, people: Callable[[str], Person]
) -> None:
    helper = people("helper")
    assert helper.get("/api/admin/accounts").status_code == 403
    assert boss.post("/api/admin/accounts/helper/role", {"admin": True}).json()["changed"] is True
    assert helper.get("/api/admin/accounts").status_code == 200
    refused = boss.post("/api/admin/accounts/boss/role", {"admin": False})
    assert refused.status_code == 422
    with pytest.raises(LookupError, match="no account named 'nobody'"):
        grant_from_command_line(server.settings.url, "nobody", True)
    # A change needs the CSRF token even from an admin.
    assert boss.http.post("/api/admin/accounts/helper/role", json={"admin": False}).json()["error"]["code"] == (
        "bad_csrf"
    )


def test_accounts_are_listed_and_found(boss: Person, people: Callable[[str], Person]) -> None:
    people("alice"), people("Alicia"), people("bob")
    listed = boss.get("/api/admin/accounts").json()["accounts"]
    assert [entry["name"] for entry in listed] == ["alice", "Alicia", "bob", "boss"]
    assert [entry["admin"] for entry in listed] == [False, False, False, True]
    found = boss.get("/api/admin/accounts", find="ALI").json()["accounts"]
    assert [entry["name"] for entry in found] == ["alice", "Alicia"]
    assert boss.get("/api/admin/accounts", find="%").json()["accounts"] == []  # no wildcard
    assert len(boss.get("/api/admin/accounts", limit=1).json()["accounts"]) == 1
    assert boss.get("/api/admin/accounts", limit=0).status_code == 422


def test_disabling_ends_sessions_refuses_sign_in_and_gives_seats_to_the_bot(
    server: LiveServer, boss: Person, people: Callable[[str], Person]
) -> None:
    alice, bob = people("alice"), people("bob")
    table = server.create("nim", ["human", "human"], options=STONES)
    alices = alice.join(table["id"])
    seat = bob.join(table["id"])
    watcher = server.connect(table["id"])
    bobs_socket = server.connect(table["id"], seat["token"])
    answer = boss.post("/api/admin/accounts/bob/disable", {"reason": "abuse", "seats": "bot"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["tables"] == [{"table": table["id"], "seat": 1}]
    assert bob.get("/api/account").json() == {"signed_in": False}
    refused = sign_in(bob.http, "bob")
    assert refused.status_code == 403 and error_code(refused) == "account_disabled"
    assert error_code(sign_in(bob.http, "bob", "wrong password")) == "bad_credentials"  # tells nothing
    with pytest.raises(Exception):  # noqa: B017 - the socket of the seat is closed
        bobs_socket.until(lambda m: False, timeout=10)
    assert server.table(table["id"])["seats"][1]["kind"] == "bot"
    # The bot plays the seat: Alice moves and the bot answers.
    played = server.http.post(
        f"/api/tables/{table['id']}/actions", json={"action": 0}, headers={"Authorization": "Bearer x"}
    )
    assert played.status_code == 403
    server.http.post(
        f"/api/tables/{table['id']}/actions",
        json={"action": 0},
        headers={"Authorization": f"Bearer {alices['token']}"},
    )
    wait_until(lambda: watcher.version() >= 2)
    again = boss.post("/api/admin/accounts/bob/disable", {"reason": "abuse"})
    assert again.status_code == 409 and error_code(again) == "already_disabled"
    assert boss.post("/api/admin/accounts/bob/enable").status_code == 200
    assert sign_in(bob.http, "bob").status_code == 200
    assert error_code(boss.post("/api/admin/accounts/bob/enable")) == "not_disabled"


def test_a_disabled_account_keeps_its_seats_locked_until_it_resumes(
    server: LiveServer, boss: Person, people: Callable[[str], Person]
) -> None:
    bob = people("bob")
    table = server.create("nim", ["human", "human"], options=STONES)
    seat = bob.join(table["id"])
    assert boss.post("/api/admin/accounts/bob/disable", {"reason": "a break", "seats": "keep"}).status_code == 200
    summary = server.table(table["id"])
    assert summary["seats"][0]["kind"] == "human" and summary["seats"][0]["taken"]
    old = server.http.post(
        f"/api/tables/{table['id']}/actions", json={"action": 0}, headers={"Authorization": f"Bearer {seat['token']}"}
    )
    assert old.status_code == 403 and error_code(old) == "bad_token"
    boss.post("/api/admin/accounts/bob/enable")
    bob.account = sign_in(bob.http, "bob").json()
    resumed = bob.post(f"/api/account/tables/{table['id']}/resume")
    assert resumed.status_code == 200 and resumed.json()["seat"] == 0


def test_bad_disable_requests_change_nothing(boss: Person, people: Callable[[str], Person]) -> None:
    people("bob")
    unknown = boss.post("/api/admin/accounts/nobody/disable", {"reason": "x"})
    assert unknown.status_code == 404 and error_code(unknown) == "no_account"
    bad_choice = boss.post("/api/admin/accounts/bob/disable", {"reason": "x", "seats": "maybe"})
    assert bad_choice.status_code == 422 and "seats" in bad_choice.json()["error"]["message"]
    no_reason = boss.post("/api/admin/accounts/bob/disable", {"reason": ""})
    assert no_reason.status_code == 422 and "reason" in no_reason.json()["error"]["message"]
    own = boss.post("/api/admin/accounts/boss/disable", {"reason": "x"})
    assert own.status_code == 422
    assert not any(entry["disabled"] for entry in boss.get("/api/admin/accounts").json()["accounts"])


def test_deleting_an_account_answers_its_data_first(
    server: LiveServer, boss: Person, people: Callable[[str], Person]
) -> None:
    bob = people("bob")
    table = server.create("nim", ["human", "human"], options=STONES)
    seat = bob.join(table["id"])
    said = server.http.post(
        f"/api/tables/{table['id']}/chat", json={"text": "hello"}, headers={"Authorization": f"Bearer {seat['token']}"}
    )
    assert said.status_code == 201
    exported = boss.get("/api/admin/accounts/bob/export").json()
    assert exported["account"]["name"] == "bob"
    assert [(s["table"], s["seat"]) for s in exported["seats"]] == [(table["id"], 0)]
    assert [m["text"] for m in exported["chat"]] == ["hello"]
    deleted = boss.delete("/api/admin/accounts/bob")
    assert deleted.status_code == 200, deleted.text
    assert deleted.json()["export"]["chat"] == exported["chat"]
    assert sign_in(bob.http, "bob").status_code == 401
    assert server.table(table["id"])["seats"][0]["kind"] == "bot"  # the game goes on without bob
    assert boss.get("/api/admin/accounts", find="bob").json()["accounts"] == []
    assert error_code(boss.delete("/api/admin/accounts/bob")) == "no_account"


def test_a_reset_code_sets_a_new_password_once(
    server: LiveServer, boss: Person, people: Callable[[str], Person]
) -> None:
    bob = people("bob")
    code = boss.post("/api/admin/accounts/bob/reset-code").json()["code"]
    reset = {"name": "bob", "code": code, "new_password": "a brand new secret"}
    wrong = server.http.post("/api/account/reset", json={**reset, "code": "guess"})
    assert wrong.status_code == 401 and error_code(wrong) == "bad_code"
    done = server.http.post("/api/account/reset", json=reset)
    assert done.status_code == 200, done.text
    assert bob.get("/api/account").json() == {"signed_in": False}  # every session ended
    assert sign_in(bob.http, "bob").status_code == 401
    assert sign_in(bob.http, "bob", "a brand new secret").status_code == 200
    assert error_code(server.http.post("/api/account/reset", json=reset)) == "bad_code"  # spent
    short = server.http.post("/api/account/reset", json={**reset, "new_password": "short"})
    assert short.status_code == 422 and "new_password" in short.json()["error"]["message"]


def test_a_reset_code_expires(serve: Callable[..., LiveServer]) -> None:
    server = serve(reset_code_hours=0.0, **FAST_HASH)
    with browser(server) as client, browser(server) as other:
        sign_up(client, "chief")
        grant_from_command_line(server.settings.url, "chief", True)
        chief = sign_in(client, "chief").json()
        sign_up(other, "bob")
        code = client.post("/api/admin/accounts/bob/reset-code", headers=csrf(chief)).json()["code"]
    answer = server.http.post("/api/account/reset", json={"name": "bob", "code": code, "new_password": "x" * 10})
    assert error_code(answer) == "bad_code"
    assert sign_in(server.http, "bob", PASSWORD).status_code == 200


def test_tables_are_listed_closed_and_exported(server: LiveServer, boss: Person) -> None:
    running = server.create("nim", ["human", "human"], options=STONES)
    ann = server.join(running["id"], "Ann")
    annie = server.connect(running["id"], ann["token"])
    done = server.create("nim", ["random", "random"], options={"stones": 4})
    wait_until(lambda: server.table(done["id"])["status"] == "finished")
    listed = boss.get("/api/admin/tables", status="unfinished").json()["tables"]
    assert [entry["id"] for entry in listed] == [running["id"]]
    assert boss.get("/api/admin/tables", status="everything").status_code == 422
    secret = boss.get(f"/api/admin/tables/{running['id']}/export").json()
    assert secret["seed"] is None and secret["commitment"] and secret["actions"] == []
    closed = boss.post(f"/api/admin/tables/{running['id']}/close", {"reason": "stuck"})
    assert closed.status_code == 200 and closed.json()["seats_to_bot"] == [0, 1]
    with pytest.raises(Exception):  # noqa: B017
        annie.until(lambda m: False, timeout=10)
    assert annie.ws.close_code == 4004 and "stuck" in (annie.ws.close_reason or "")
    wait_until(lambda: server.table(running["id"])["status"] == "finished")
    record = boss.get(f"/api/admin/tables/{running['id']}/export").json()
    assert record["finished"] and isinstance(record["seed"], int) and record["actions"]
    assert error_code(boss.post(f"/api/admin/tables/{running['id']}/close", {"reason": "x"})) == "game_over"
    assert error_code(boss.get("/api/admin/tables/nosuchtable/export")) == "no_table"


def test_a_removed_message_leaves_the_history_and_the_screens(server: LiveServer, boss: Person) -> None:
    table = server.create("nim", ["human", "human"], options=STONES)
    seat = server.join(table["id"], "Ann")
    watcher = server.connect(table["id"])
    said = server.http.post(
        f"/api/tables/{table['id']}/chat", json={"text": "rude"}, headers={"Authorization": f"Bearer {seat['token']}"}
    ).json()
    removed = boss.delete(f"/api/admin/tables/{table['id']}/chat/{said['id']}")
    assert removed.status_code == 200 and removed.json()["removed"]["text"] == "rude"
    assert watcher.until(lambda m: m["type"] == "chat_removed")["id"] == said["id"]
    assert server.http.get(f"/api/tables/{table['id']}/chat").json()["messages"] == []
    again = boss.delete(f"/api/admin/tables/{table['id']}/chat/{said['id']}")
    assert again.status_code == 404 and error_code(again) == "no_message"
    assert boss.delete(f"/api/admin/tables/{table['id']}/chat/abc").status_code == 422


def test_every_admin_action_is_in_the_audit_log(
    server: LiveServer, boss: Person, people: Callable[[str], Person]
) -> None:
    people("bob")
    boss.post("/api/admin/accounts/bob/disable", {"reason": "spam"})
    boss.post("/api/admin/accounts/bob/enable")
    code = boss.post("/api/admin/accounts/bob/reset-code").json()["code"]
    boss.post("/api/admin/refused-words", {"word": "zonk"})
    boss.get("/api/admin/accounts/bob/export")
    boss.delete("/api/admin/accounts/bob")
    log = boss.get("/api/admin/audit").json()["actions"]
    assert [(entry["admin"], entry["action"], entry["target"]) for entry in log] == [
        ("boss", "delete_account", "bob"),
        ("boss", "export_account", "bob"),
        ("boss", "add_word", "zonk"),
        ("boss", "reset_code", "bob"),
        ("boss", "enable", "bob"),
        ("boss", "disable", "bob"),
        ("command line", "grant", "boss"),
    ]
    assert log[-2]["detail"]["reason"] == "spam"
    only = boss.get("/api/admin/audit", action="enable").json()["actions"]
    assert [entry["action"] for entry in only] == ["enable"]
    assert code not in str(log)  # the reset code itself is never written down


def test_listings_and_report_context_keep_to_their_limits(serve: Callable[..., LiveServer]) -> None:
    server = serve(admin_list_limit=2, report_context=1, **FAST_HASH)
    boss, others = Person(server, "boss"), [Person(server, name) for name in ("ann", "ben", "cid")]
    grant_from_command_line(server.settings.url, "boss", True)
    assert len(boss.get("/api/admin/accounts", limit=50).json()["accounts"]) == 2
    table = server.create("nim", ["human", "human"], options=STONES)
    seat = server.join(table["id"], "Ann")
    said = [
        server.http.post(
            f"/api/tables/{table['id']}/chat", json={"text": text}, headers={"Authorization": f"Bearer {seat['token']}"}
        ).json()
        for text in ("one", "two", "three", "four")
    ]
    others[0].post("/api/reports", {"table": table["id"], "message": said[1]["id"], "reason": "x"})
    context = boss.get("/api/admin/reports").json()["reports"][0]["context"]
    assert [m["text"] for m in context] == ["one", "two", "three"]
    for person in (boss, *others):
        person.http.close()
