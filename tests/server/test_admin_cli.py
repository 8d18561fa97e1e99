"""`parlour admin`: the first admin granted on the database, then the admin API driven from the
command line as a signed-in admin, with the server's refusals as one error line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

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
