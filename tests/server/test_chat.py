"""Table chat: from a seat to every seat and spectator, stored across a restart, the text kept
exactly as written (clients show it as text), limited in length and rate per seat, refused to
spectators and to wrong tokens, and bounded like every other input."""

from __future__ import annotations

from collections.abc import Callable

from .conftest import LiveServer, Player

HTML = "<b>bold</b> <img src=x onerror=alert(1)> & done"


def seated(server: LiveServer) -> tuple[str, Player, Player, Player]:
    table = server.create("nim", ["human", "human"])
    first, second = server.join(table["id"], "Ann"), server.join(table["id"], "Ben")
    return (
        table["id"],
        server.connect(table["id"], first["token"]),
        server.connect(table["id"], second["token"]),
        server.connect(table["id"]),
    )


def test_a_seat_speaks_to_the_whole_table_and_it_is_kept(serve: Callable[..., LiveServer]) -> None:
    server = serve()
    table_id, ann, ben, watcher = seated(server)
    ann.send(type="chat", text=f"  {HTML}  ")
    for reader in (ann, ben, watcher):
        said = reader.until(lambda m: m["type"] == "chat")
        assert (said["seat"], said["name"], said["text"]) == (0, "Ann", HTML)  # trimmed, otherwise as written
    ben.send(type="chat", text="good luck")
    assert ann.until(lambda m: m["type"] == "chat")["text"] == "good luck"
    for player in (ann, ben, watcher):
        player.close()
    server.stop()
    again = serve()
    history = again.http.get(f"/api/tables/{table_id}/chat").json()["messages"]
    assert [(m["seat"], m["text"]) for m in history] == [(0, HTML), (1, "good luck")]


def test_chat_over_http(server: LiveServer) -> None:
    table = server.create("nim", ["human", "human"])
    seat = server.join(table["id"], "Ann")
    watcher = server.connect(table["id"])
    said = server.http.post(
        f"/api/tables/{table['id']}/chat", json={"text": "hello"}, headers={"Authorization": f"Bearer {seat['token']}"}
    )
    assert said.status_code == 201 and said.json()["text"] == "hello"
    assert watcher.until(lambda m: m["type"] == "chat")["id"] == said.json()["id"]
    no_token = server.http.post(f"/api/tables/{table['id']}/chat", json={"text": "hi"})
    assert no_token.status_code == 401 and no_token.json()["error"]["code"] == "no_token"
    wrong = server.http.post(
        f"/api/tables/{table['id']}/chat", json={"text": "hi"}, headers={"Authorization": "Bearer not-a-token"}
    )
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "bad_token"
    assert len(server.http.get(f"/api/tables/{table['id']}/chat").json()["messages"]) == 1


def test_length_emptiness_characters_and_spectators_are_refused(serve: Callable[..., LiveServer]) -> None:
    server = serve(chat_max_chars=10)
    table_id, ann, ben, watcher = seated(server)
    ann.send(type="chat", text="x" * 11, id="long")
    assert ann.error() == {
        "type": "error",
        "code": "chat_too_long",
        "message": "a chat message has at most 10 characters, this one 11",
        "id": "long",
    }
    ann.send(type="chat", text="   ")
    assert ann.error()["code"] == "empty_chat"
    ann.send(type="chat", text="a\u202eb")
    assert ann.error()["code"] == "bad_text"
    ann.send(type="chat", text=5)
    assert ann.error()["code"] == "bad_message"
    watcher.send(type="chat", text="me too")
    assert watcher.error()["code"] == "spectator"
    ann.send(type="chat", text="x" * 10)
    assert ben.until(lambda m: m["type"] == "chat")["text"] == "x" * 10  # the only one that went through
    assert len(server.http.get(f"/api/tables/{table_id}/chat").json()["messages"]) == 1


def test_chat_rate_per_seat(serve: Callable[..., LiveServer]) -> None:
    server = serve(chat_burst=2, chat_rate=0.001)
    table_id, ann, ben, _watcher = seated(server)
    for text in ("one", "two", "three"):
        ann.send(type="chat", text=text)
    limited = ann.error()
    assert limited["code"] == "rate_limited" and "from your seat" in limited["message"]
    ben.send(type="chat", text="mine")  # another seat has its own allowance
    ben.until(lambda m: m["type"] == "chat" and m["text"] == "mine")  # stored before it is sent
    texts = [m["text"] for m in server.http.get(f"/api/tables/{table_id}/chat").json()["messages"]]
    assert texts == ["one", "two", "mine"]


def test_history_shows_the_latest(serve: Callable[..., LiveServer]) -> None:
    server = serve(chat_history=2, chat_burst=10)
    table_id, ann, _ben, _watcher = seated(server)
    for text in ("a", "b", "c"):
        ann.send(type="chat", text=text)
        ann.until(lambda m: m["type"] == "chat")
    assert [m["text"] for m in server.http.get(f"/api/tables/{table_id}/chat").json()["messages"]] == ["b", "c"]
