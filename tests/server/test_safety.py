"""Players' safety: blocking a player (their chat hidden from you, live and in the history; they
cannot join a table you open), reporting a player or a chat message (with its context, in the
admins' queue), and the refused words in account names, display names and chat."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from sqlalchemy import create_engine

from parlour.server.db.community_store import CommunityStore
from parlour.server.features.safety import refused_in

from . import test_admin
from .conftest import LiveServer
from .test_admin import Person, error_code

# The fixtures of the admin tests: a server with cheap password hashing, people, an admin.
server, people, boss = test_admin.server, test_admin.people, test_admin.boss

STONES = {"stones": 9}


def create_as(server: LiveServer, person: Person) -> str:
    """A table opened by a signed-in person (its CSRF token sent, as the browser does)."""
    answer = person.http.post(
        "/api/tables", json={"game": "nim", "seats": ["human", "human"], "options": STONES}, headers=person.headers
    )
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def test_a_blocked_players_chat_is_hidden_from_the_blocker(server: LiveServer, people: Callable[[str], Person]) -> None:
    alice, troll = people("alice"), people("troll")
    assert alice.post("/api/account/blocks", {"name": "TROLL"}).status_code == 201
    assert alice.get("/api/account/blocks").json() == {"blocked": ["troll"]}
    table = server.create("nim", ["human", "human"], options=STONES)
    alices, trolls = alice.join(table["id"]), troll.join(table["id"])
    alice_screen = server.connect(table["id"], alices["token"])
    troll_screen = server.connect(table["id"], trolls["token"])
    watcher = server.connect(table["id"])
    troll_screen.send(type="chat", text="you are bad")
    assert watcher.until(lambda m: m["type"] == "chat")["text"] == "you are bad"
    troll_screen.send(type="chat", text="again")
    assert watcher.until(lambda m: m["type"] == "chat")["text"] == "again"
    alice_screen.send(type="chat", text="hello all")
    # Alice's screen gets her own message but neither of the troll's, which came before it.
    first = alice_screen.until(lambda m: m["type"] == "chat")
    assert first["text"] == "hello all"
    assert troll_screen.until(lambda m: m["type"] == "chat" and m["text"] == "hello all")
    history = alice.get(f"/api/tables/{table['id']}/chat").json()["messages"]
    assert [m["text"] for m in history] == ["hello all"]
    everyone = server.http.get(f"/api/tables/{table['id']}/chat").json()["messages"]
    assert [m["text"] for m in everyone] == ["you are bad", "again", "hello all"]
    assert alice.delete("/api/account/blocks/troll").status_code == 200
    unblocked = alice.get(f"/api/tables/{table['id']}/chat").json()["messages"]
    assert len(unblocked) == 3
    assert error_code(alice.delete("/api/account/blocks/troll")) == "not_blocked"


def test_a_blocked_player_cannot_join_a_table_the_blocker_opened(
    server: LiveServer, people: Callable[[str], Person]
) -> None:
    alice, troll, carol = people("alice"), people("troll"), people("carol")
    alice.post("/api/account/blocks", {"name": "troll"})
    table_id = create_as(server, alice)
    refused = troll.post(f"/api/tables/{table_id}/join", {"name": "troll"})
    assert refused.status_code == 403 and error_code(refused) == "blocked"
    assert server.table(table_id)["seats"][0]["taken"] is False  # nothing changed
    carol.join(table_id)
    # A table somebody else opened is open to the troll.
    assert troll.post(f"/api/tables/{create_as(server, carol)}/join", {"name": "troll"}).status_code == 200


def test_a_wrong_csrf_token_opens_no_table(server: LiveServer, people: Callable[[str], Person]) -> None:
    alice = people("alice")
    body = {"game": "nim", "seats": ["human", "human"], "options": STONES}
    refused = alice.http.post("/api/tables", json=body, headers={"X-CSRF-Token": "forged"})
    assert refused.status_code == 403 and error_code(refused) == "bad_csrf"
    assert alice.get("/api/tables").json() == []
    assert alice.http.post("/api/tables", json=body).status_code == 201  # without the token: nobody's table


def test_bad_blocks_are_refused(server: LiveServer, people: Callable[[str], Person]) -> None:
    alice = people("alice")
    assert error_code(alice.post("/api/account/blocks", {"name": "alice"})) == "bad_block"
    assert error_code(alice.post("/api/account/blocks", {"name": "nobody"})) == "no_account"
    assert alice.http.post("/api/account/blocks", json={"name": "alice"}).json()["error"]["code"] == "bad_csrf"
    assert server.http.get("/api/account/blocks").status_code == 401
    assert alice.get("/api/account/blocks").json() == {"blocked": []}


def test_a_reported_message_reaches_the_admins_with_its_context(
    server: LiveServer, boss: Person, people: Callable[[str], Person]
) -> None:
    alice = people("alice")
    table = server.create("nim", ["human", "human"], options=STONES)
    seat = server.join(table["id"], "Rude")
    ids = []
    for text in ("hi", "you are awful", "bye"):
        said = server.http.post(
            f"/api/tables/{table['id']}/chat", json={"text": text}, headers={"Authorization": f"Bearer {seat['token']}"}
        )
        ids.append(said.json()["id"])
    made = alice.post("/api/reports", {"table": table["id"], "message": ids[1], "reason": "insult"})
    assert made.status_code == 201, made.text
    alice.post("/api/reports", {"player": "boss", "reason": "unfair"})
    queue = boss.get("/api/admin/reports").json()["reports"]
    assert [(r["reporter"], r["player"], r["reason"]) for r in queue] == [
        ("alice", None, "insult"),
        ("alice", "boss", "unfair"),
    ]
    assert [m["text"] for m in queue[0]["context"]] == ["hi", "you are awful", "bye"]
    # The evidence stays when the message is removed.
    boss.delete(f"/api/admin/tables/{table['id']}/chat/{ids[1]}")
    assert boss.post(f"/api/admin/reports/{queue[0]['id']}/resolve", {"resolution": "removed"}).status_code == 200
    left = boss.get("/api/admin/reports").json()["reports"]
    assert [r["reason"] for r in left] == ["unfair"]
    every = boss.get("/api/admin/reports", resolved=True).json()["reports"]
    assert every[0]["resolved_by"] == "boss" and "you are awful" in str(every[0]["context"])
    again = boss.post(f"/api/admin/reports/{queue[0]['id']}/resolve", {"resolution": "x"})
    assert again.status_code == 409 and error_code(again) == "already_resolved"
    assert error_code(boss.post("/api/admin/reports/999/resolve", {"resolution": "x"})) == "no_report"


def test_bad_reports_are_refused(server: LiveServer, people: Callable[[str], Person]) -> None:
    alice = people("alice")
    table = server.create("nim", ["human", "human"], options=STONES)
    for body, code in (
        ({"reason": "x"}, "bad_report"),
        ({"message": 1, "reason": "x"}, "bad_report"),
        ({"table": table["id"], "message": 77, "reason": "x"}, "no_message"),
        ({"player": "nobody", "reason": "x"}, "no_account"),
        ({"player": "alice", "reason": ""}, "bad_request"),
    ):
        assert error_code(alice.post("/api/reports", body)) == code, body
    assert server.http.post("/api/reports", json={"player": "alice", "reason": "x"}).status_code == 401


def test_report_rate_is_limited(serve: Callable[..., LiveServer]) -> None:
    server = serve(report_burst=2, password_time_cost=1, password_memory_kib=1024)
    alice = Person(server, "alice")
    made = [alice.post("/api/reports", {"player": "alice", "reason": "x"}).status_code for _ in range(3)]
    assert made == [201, 201, 429]
    alice.http.close()


def test_refused_words_keep_names_and_chat_clean(
    server: LiveServer, boss: Person, people: Callable[[str], Person]
) -> None:
    assert boss.post("/api/admin/refused-words", {"word": "  Zonk "}).json() == {"added": "zonk"}
    assert error_code(boss.post("/api/admin/refused-words", {"word": "zonk"})) == "word_listed"
    assert error_code(boss.post("/api/admin/refused-words", {"word": "two  words!"})) == "bad_word"
    assert boss.get("/api/admin/refused-words").json() == {"words": ["zonk"]}
    signup = server.http.post("/api/account/signup", json={"name": "bigZONK99", "password": "long enough pw"})
    assert signup.status_code == 422 and error_code(signup) == "refused_word"
    table = server.create("nim", ["human", "human"], options=STONES)
    joined = server.http.post(f"/api/tables/{table['id']}/join", json={"name": "Mr Zonk"})
    assert error_code(joined) == "refused_word" and server.table(table["id"])["seats"][0]["taken"] is False
    seat = server.join(table["id"], "Ann")
    chat = f"/api/tables/{table['id']}/chat"
    said = server.http.post(
        chat, json={"text": "what a ZONK move"}, headers={"Authorization": f"Bearer {seat['token']}"}
    )
    assert said.status_code == 422 and error_code(said) == "refused_word"
    inside = server.http.post(chat, json={"text": "zonkers!"}, headers={"Authorization": f"Bearer {seat['token']}"})
    assert inside.status_code == 201  # in chat only a whole word is refused
    assert boss.delete("/api/admin/refused-words/ZONK").status_code == 200
    assert error_code(boss.delete("/api/admin/refused-words/zonk")) == "no_word"
    assert (
        server.http.post(chat, json={"text": "zonk"}, headers={"Authorization": f"Bearer {seat['token']}"}).status_code
        == 201
    )


@pytest.mark.parametrize(
    ("text", "whole", "refused"),
    [
        ("Zonk", False, True),
        ("xzonkx", False, True),
        ("xzonkx", True, False),
        ("a zonk!", True, True),
        ("über zonk", True, True),
        ("nothing", True, False),
    ],
)
def test_refused_in(text: str, whole: bool, refused: bool) -> None:
    assert refused_in(text, ["zonk"], whole_words=whole) is refused


def test_an_edit_elsewhere_is_seen_within_refused_words_seconds(serve: Callable[..., LiveServer]) -> None:
    """Another process's edit (here straight in the database) reaches this one once its list is
    older than refused_words_seconds; an edit made here is seen at once (test above)."""
    server = serve(refused_words_seconds=5.0)
    table = server.create("nim", ["human", "human"], options=STONES)
    seat = server.join(table["id"], "Ann")

    def say(text: str) -> int:
        path, token = f"/api/tables/{table['id']}/chat", {"Authorization": f"Bearer {seat['token']}"}
        return server.http.post(path, json={"text": text}, headers=token).status_code

    assert say("zonk one") == 201  # the list is read (empty) and kept
    store = CommunityStore(create_engine(server.settings.url))
    assert store.add_word("zonk")
    assert say("zonk two") == 201  # still the kept list
    time.sleep(5.2)
    assert say("zonk three") == 422
    store.engine.dispose()
