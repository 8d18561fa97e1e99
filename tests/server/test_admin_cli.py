"""`parlour admin`: the first admin granted on the database, then the admin API driven from the
command line as a signed-in admin, with the server's refusals as one error line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ..cli.test_main import run
from .conftest import LiveServer
from .test_accounts import FAST_HASH, PASSWORD, browser, sign_up


def test_the_command_line_grants_and_administers(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    serve: Callable[..., LiveServer],
    db: str,
    tmp_path: Path,
) -> None:
    server = serve(**FAST_HASH)
    with browser(server) as boss, browser(server) as bob:
        sign_up(boss, "boss")
        sign_up(bob, "bob")
    monkeypatch.setenv("PARLOUR_ADMIN_PASSWORD", PASSWORD)
    monkeypatch.setenv("PARLOUR_SERVER", server.url)
    code, output = run(capsys, "admin", "accounts", "--user", "bob")
    assert code == 2 and "error: not_admin: this needs an account with the admin role" in output
    code, output = run(capsys, "admin", "grant", "boss", "--db", db)
    assert code == 0 and "boss is an admin" in output
    assert "already so" in run(capsys, "admin", "grant", "boss", "--db", db)[1]
    code, output = run(capsys, "admin", "grant", "nobody", "--db", db)
    assert code == 2 and "error: there is no account named 'nobody'" in output
    code, output = run(capsys, "admin", "accounts", "--user", "boss", "--find", "bo")
    assert code == 0 and [a["name"] for a in json.loads(output)["accounts"]] == ["bob", "boss"]
    code, output = run(capsys, "admin", "words", "--user", "boss", "--add", "zonk")
    assert code == 0 and json.loads(output) == {"words": ["zonk"]}
    code, output = run(capsys, "admin", "disable", "bob", "--user", "boss", "--reason", "spam", "--seats", "maybe")
    assert code == 2 and "--seats is 'bot' or 'keep'" in output
    assert run(capsys, "admin", "disable", "bob", "--user", "boss", "--reason", "spam")[0] == 0
    exported = tmp_path / "bob.json"
    code, output = run(capsys, "admin", "delete", "bob", "--user", "boss", "--export", str(exported))
    assert code == 0 and json.loads(exported.read_text())["account"]["name"] == "bob"
    code, output = run(capsys, "admin", "delete", "bob", "--user", "boss", "--export", str(tmp_path / "again.json"))
    assert code == 2 and "error: no_account" in output
    code, output = run(capsys, "admin", "audit", "--user", "boss")
    actions = [entry["action"] for entry in json.loads(output)["actions"]]
    assert actions == ["delete_account", "disable", "add_word", "grant"]
    monkeypatch.setenv("PARLOUR_ADMIN_PASSWORD", "wrong password")
    code, output = run(capsys, "admin", "audit", "--user", "boss")
    assert code == 2 and "error: bad_credentials" in output


def test_every_admin_command_reaches_its_route(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    serve: Callable[..., LiveServer],
    db: str,
    tmp_path: Path,
) -> None:
    server = serve(**FAST_HASH)
    with browser(server) as boss, browser(server) as bob:
        sign_up(boss, "boss")
        reporter = sign_up(bob, "bob")
        table = server.create("nim", ["human", "human"], options={"stones": 9})
        seat = server.join(table["id"], "Ann")
        said = server.http.post(
            f"/api/tables/{table['id']}/chat", json={"text": "hi"}, headers={"Authorization": f"Bearer {seat['token']}"}
        ).json()
        reported = bob.post(
            "/api/reports", json={"player": "boss", "reason": "x"}, headers={"X-CSRF-Token": reporter["csrf_token"]}
        )
        assert reported.status_code == 201
    run(capsys, "admin", "grant", "boss", "--db", db)
    monkeypatch.setenv("PARLOUR_ADMIN_PASSWORD", PASSWORD)
    monkeypatch.setenv("PARLOUR_SERVER", server.url)
    admin = ("--user", "boss")

    def answer(*args: str) -> Any:
        code, output = run(capsys, "admin", *args, *admin)
        assert code == 0, output
        return json.loads(output) if output.lstrip().startswith("{") else output

    assert answer("disable", "bob", "--reason", "a pause", "--seats", "keep")["seats"] == "keep"
    assert answer("enable", "bob") == {"enabled": "bob"}
    assert len(answer("reset-code", "bob")["code"]) >= 16
    assert [t["id"] for t in answer("tables", "--status", "unfinished")["tables"]] == [table["id"]]
    code, output = run(capsys, "admin", "tables", "--status", "stuck", *admin)
    assert code == 2 and "--status is 'finished' or 'unfinished'" in output
    assert "wrote table" in answer("export-table", table["id"], str(tmp_path / "table.json"))
    assert json.loads((tmp_path / "table.json").read_text())["seed"] is None  # the game is not over
    code, output = run(capsys, "admin", "export-table", table["id"], str(tmp_path / "table.json"), *admin)
    assert code == 2 and "exists already" in output
    assert answer("remove-message", table["id"], str(said["id"]))["removed"]["text"] == "hi"
    assert answer("close-table", table["id"], "--reason", "stuck")["closed"] == table["id"]
    queue = answer("reports")["reports"]
    assert [r["reason"] for r in queue] == ["x"]
    assert answer("resolve", str(queue[0]["id"]), "--resolution", "nothing to do")["resolved"] == queue[0]["id"]
    assert answer("reports", "--resolved")["reports"][0]["resolved_by"] == "boss"
    assert "wrote the data of bob" in answer("export", "bob", str(tmp_path / "bob.json"))
    assert json.loads((tmp_path / "bob.json").read_text())["account"]["name"] == "bob"
    assert [a["action"] for a in answer("audit", "--action", "close_table")["actions"]] == ["close_table"]
