"""Display names and chat that show what they are, a limit on game logs, and finished tables that
leave memory as soon as nothing holds them (docs/server.md)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .conftest import LiveServer, wait_until


@pytest.mark.parametrize(
    ("name", "named"),
    [
        ("\u200b", "U+200B"),  # a zero-width space alone
        ("\u3164\u3164", "U+3164"),  # Hangul fillers: blank, yet not white space
        ("\u2800", "U+2800"),  # the blank Braille pattern
        ("An\u200bn", "U+200B"),  # "Ann" to the eye
        ("\u0410lice", "U+006C"),  # a Cyrillic A before Latin letters
        ("Bob\u043e", "U+043E"),  # a Cyrillic o after Latin letters
        ("\u0391lex", "U+006C"),  # a Greek capital alpha
    ],
)
def test_names_that_show_nothing_or_pass_for_another_are_refused(server: LiveServer, name: str, named: str) -> None:
    table = server.create("nim", ["human", "human"])
    refused = server.http.post(f"/api/tables/{table['id']}/join", json={"name": name})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "bad_text", refused.text
    assert named in refused.json()["error"]["message"]
    assert server.table(table["id"])["seats"][0]["taken"] is False


@pytest.mark.parametrize("name", ["Zoë", "José García", "山田 たろう", "Мария", "Ελένη", "Ann 🙂", "👩\u200d🚀 Sam"])
def test_names_in_one_script_are_welcome(server: LiveServer, name: str) -> None:
    table = server.create("nim", ["human", "human"])
    assert server.join(table["id"], name)["name"] == name


def test_chat_made_only_of_invisible_characters_is_refused(server: LiveServer) -> None:
    table = server.create("nim", ["human", "human"])
    token = server.join(table["id"], "Ann")["token"]
    headers = {"Authorization": f"Bearer {token}"}
    for text in ("\u200b\u200b", "\u3164", "\u2060"):
        refused = server.http.post(f"/api/tables/{table['id']}/chat", json={"text": text}, headers=headers)
        assert refused.status_code == 422 and refused.json()["error"]["code"] == "bad_text", refused.text
        assert f"U+{ord(text[0]):04X}" in refused.json()["error"]["message"]
    # Mixed scripts are a chat's own business: only names must not pass for another.
    said = server.http.post(f"/api/tables/{table['id']}/chat", json={"text": "привет, hello"}, headers=headers)
    assert said.status_code == 201
    assert [m["text"] for m in server.http.get(f"/api/tables/{table['id']}/chat").json()["messages"]] == [
        "привет, hello"
    ]


def test_game_logs_are_limited_per_client_address(serve: Callable[..., LiveServer]) -> None:
    server = serve(log_burst=3, log_rate=0.001)
    table = server.create("nim", ["human", "human"])
    for _ in range(3):
        assert server.http.get(f"/api/tables/{table['id']}/log").status_code == 200
    limited = server.http.get(f"/api/tables/{table['id']}/log")
    assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limited"
    assert "game logs" in limited.json()["error"]["message"]
    elsewhere = server.http.get(f"/api/tables/{table['id']}/log", headers={"X-Forwarded-For": "198.51.100.7"})
    assert elsewhere.status_code == 200


def test_a_finished_table_leaves_memory_as_soon_as_nothing_holds_it(serve: Callable[..., LiveServer]) -> None:
    server = serve(idle_seconds=3600)
    hub = server.app.state.hub
    table = server.create("nim", ["human", "human"], options={"stones": 2})
    ann = server.join(table["id"], "Ann")
    server.join(table["id"], "Bo")
    watcher = server.connect(table["id"])
    played = server.http.post(
        f"/api/tables/{table['id']}/actions",
        json={"action": "take 2"},
        headers={"Authorization": f"Bearer {ann['token']}"},
    )
    assert played.status_code == 200
    watcher.until(lambda m: m["type"] == "update" and m["status"] == "finished")
    assert table["id"] in hub.tables  # a client still holds it
    watcher.close()
    wait_until(lambda: table["id"] not in hub.tables)
    # Not held at all: gone once its last move is played.
    other = server.create("nim", ["human", "human"], options={"stones": 2})
    first = server.join(other["id"], "Ann")
    server.join(other["id"], "Bo")
    server.http.post(
        f"/api/tables/{other['id']}/actions",
        json={"action": "take 2"},
        headers={"Authorization": f"Bearer {first['token']}"},
    )
    wait_until(lambda: other["id"] not in hub.tables)
    # Asked for again, it is rebuilt, and the lobby still lists both.
    assert server.table(other["id"])["status"] == "finished"
    finished = {t["id"] for t in server.http.get("/api/tables?status=finished").json()}
    assert {table["id"], other["id"]} <= finished
