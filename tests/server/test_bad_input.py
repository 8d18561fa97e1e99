"""Every kind of bad input gets a clear error for the client that sent it, and changes nothing.

Each test runs against a table where Ann (seat 0, to move) and Bo (seat 1) sit and a spectator
watches; after the bad input, the table's version and position are unchanged, the other clients
received no error, and the server still answers.
"""

from __future__ import annotations

import json
import socket
import time
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from websockets.exceptions import ConnectionClosed

from parlour.server.edge.errors import ServerError
from parlour.server.edge.text import check_text
from parlour.server.features.ws import FLOOD_CLOSE

from .conftest import LiveServer, Player


@dataclass
class Seated:
    server: LiveServer
    table: str
    tokens: dict[int, str]
    ann: Player
    bo: Player
    watcher: Player
    offenders: list[Player] = field(default_factory=list)

    def position(self) -> dict[str, Any]:
        return dict(self.server.http.get(f"/api/tables/{self.table}/state").json())


@pytest.fixture
def seated(server: LiveServer) -> Iterator[Seated]:
    table = server.create("nim", ["human", "human"], options={"stones": 20}, seed=1)["id"]
    ann, bo = server.join(table, "Ann"), server.join(table, "Bo")
    players = Seated(
        server,
        table,
        {0: ann["token"], 1: bo["token"]},
        server.connect(table, ann["token"]),
        server.connect(table, bo["token"]),
        server.connect(table),
    )
    before = players.position()
    yield players
    # Whatever a test sent, the clients that sent nothing wrong received no error, and the table
    # did not move.
    for bystander in (players.ann, players.bo, players.watcher):
        if all(bystander is not offender for offender in players.offenders):
            bystander.version()
            assert [m for m in bystander.messages if m["type"] == "error"] == []
    assert server.http.get("/health").json()["status"] == "ok"
    assert players.position() == before


def refused(player: Player, seated: Seated, code: str, words: str) -> dict[str, Any]:
    """The player's next error has this code and words, and the table did not move."""
    seated.offenders.append(player)
    before = seated.position()
    error = player.error()
    assert error["code"] == code and words in error["message"], error
    assert player.version() == before["version"] and seated.position() == before
    return error


def test_malformed_json(seated: Seated) -> None:
    seated.ann.send_raw("{not json")
    refused(seated.ann, seated, "bad_json", "not valid JSON")
    seated.ann.send_raw("[1, 2]")
    refused(seated.ann, seated, "bad_message", "JSON object")
    seated.ann.send_raw(b"\x00\x01binary")
    refused(seated.ann, seated, "bad_frame", "text frames")


def test_unknown_types_and_fields(seated: Seated) -> None:
    seated.ann.send(type="cheat")
    refused(seated.ann, seated, "bad_message", "unknown message type 'cheat'")
    seated.ann.send(type="act", action=0, colour="red")
    refused(seated.ann, seated, "unknown_field", "act messages have no field 'colour'")
    seated.ann.send(type="act", action=0, version="0")
    refused(seated.ann, seated, "bad_message", "version must be a whole number")
    seated.ann.send(type="act", action=True)
    refused(seated.ann, seated, "bad_message", "action must be an action id")
    seated.ann.send(type="ping", id={"deep": 1})
    refused(seated.ann, seated, "bad_message", "id must be")


def test_errors_echo_the_client_reference(seated: Seated) -> None:
    seated.bo.send(type="act", action=0, id="move-7")
    assert refused(seated.bo, seated, "not_your_turn", "seat 0 (Ann)")["id"] == "move-7"


def test_oversized_messages(seated: Seated) -> None:
    seated.ann.send(type="act", action="take " + "1" * 5000)
    refused(seated.ann, seated, "too_large", "the limit is 4096")


def test_a_message_beyond_the_frame_limit_closes_only_that_connection(seated: Seated) -> None:
    seated.offenders.append(seated.ann)
    seated.ann.send_raw("x" * 200_000)
    with pytest.raises(ConnectionClosed) as closed:
        seated.ann.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    again = seated.server.connect(seated.table, seated.tokens[0])
    assert again.position["version"] == 0 and again.position["legal"]


def test_out_of_turn_and_someone_elses_seat(seated: Seated) -> None:
    seated.bo.send(type="act", action=0)
    refused(seated.bo, seated, "not_your_turn", "it is not your turn: seat 0 (Ann) is to move")
    seated.ann.send(type="act", action=0, seat=1)
    refused(seated.ann, seated, "wrong_seat", "you hold seat 0, not seat 1")


def test_unknown_illegal_and_stale_actions(seated: Seated) -> None:
    seated.ann.send(type="act", action=99)
    refused(seated.ann, seated, "unknown_action", "nim has no action 99")
    seated.ann.send(type="act", action="take 9")
    refused(seated.ann, seated, "unknown_action", "no action called 'take 9'")
    seated.ann.send(type="act", action=0, version=5)
    refused(seated.ann, seated, "stale_version", "you acted on version 5 but the table is at version 0")


def test_an_illegal_move_gets_the_rule_that_forbids_it(server: LiveServer) -> None:
    table = server.create("nim", ["human", "human"], options={"stones": 2}, seed=1)["id"]
    token = server.join(table, "Ann")["token"]
    server.join(table, "Bo")
    ann = server.connect(table, token)
    ann.send(type="act", action="take 3")
    error = ann.error()
    assert error == {"type": "error", "code": "illegal_action", "message": "only 2 stones are left"}
    assert ann.version() == 0


def test_spectators_cannot_act(seated: Seated) -> None:
    seated.watcher.send(type="act", action=0)
    refused(seated.watcher, seated, "spectator", "spectators cannot act; join a free seat")


def test_wrong_or_missing_tokens_on_the_websocket(seated: Seated) -> None:
    stranger = seated.server.connect(seated.table, hello=False)
    stranger.send(type="act", action=0)
    assert stranger.error()["code"] == "no_hello"
    stranger.send(type="hello", token="not-a-token")
    assert stranger.error()["message"] == "this token holds no seat at this table"
    stranger.send(type="hello", token=12)
    assert stranger.error()["code"] == "bad_token"
    # The connection is still there; a hello without a token makes it a spectator.
    stranger.send(type="hello")
    assert stranger.until(lambda m: m["type"] == "welcome")["role"] == "spectator"
    stranger.send(type="hello", token=seated.tokens[0])
    assert stranger.error()["code"] == "already_greeted"
    assert seated.position()["version"] == 0


def test_a_token_from_another_table_holds_no_seat(seated: Seated) -> None:
    other = seated.server.create("nim", ["human", "random"])["id"]
    intruder = seated.server.connect(other, hello=False)
    intruder.send(type="hello", token=seated.tokens[0])
    assert intruder.error()["code"] == "bad_token"


def test_wrong_or_missing_tokens_over_http(seated: Seated) -> None:
    url = f"/api/tables/{seated.table}/actions"
    http = seated.server.http
    cases = [
        ({}, 401, "no_token", "Authorization: Bearer"),
        ({"Authorization": "Basic abc"}, 401, "no_token", "Bearer"),
        ({"Authorization": "Bearer wrong"}, 403, "bad_token", "holds no seat"),
        ({"Authorization": f"Bearer {seated.tokens[1]}"}, 409, "not_your_turn", "seat 0 (Ann)"),
    ]
    for headers, status, code, words in cases:
        response = http.post(url, json={"action": 0}, headers=headers)
        assert response.status_code == status, (headers, response.text)
        assert response.json()["error"]["code"] == code and words in response.json()["error"]["message"]
    as_ann = {"Authorization": f"Bearer {seated.tokens[0]}"}
    response = http.post(url, json={"action": 0, "seat": 1}, headers=as_ann)
    assert response.status_code == 403 and response.json()["error"]["code"] == "wrong_seat"
    response = http.post(url, json={"action": 0, "sneaky": 1}, headers=as_ann)
    assert response.status_code == 422 and "sneaky" in response.json()["error"]["message"]
    response = http.get(f"/api/tables/{seated.table}/state", headers={"Authorization": "Bearer wrong"})
    assert response.status_code == 403
    assert seated.position()["version"] == 0


def test_acting_before_the_table_is_full_or_after_the_game(server: LiveServer) -> None:
    table = server.create("nim", ["human", "human"], options={"stones": 1}, seed=1)["id"]
    token = server.join(table, "Ann")["token"]
    ann = server.connect(table, token)
    ann.send(type="act", action=0)
    error = ann.error()
    assert error["code"] == "waiting" and "free: 1" in error["message"]
    server.join(table, "Bo")
    ann.until(lambda m: m["type"] == "sync" and m["status"] == "running")
    ann.send(type="act", action=0)
    assert ann.until(lambda m: m["type"] == "update")["status"] == "finished"
    ann.send(type="act", action=0)
    assert ann.error()["code"] == "game_over"
    response = server.http.post(f"/api/tables/{table}/join", json={"name": "Cy"})
    assert response.status_code == 409 and response.json()["error"]["code"] == "game_over"


def test_a_flood_is_rate_limited_for_that_client_only(serve: Any) -> None:
    # A slow refill, so that what this test sends is over the rate however slowly it is sent.
    server = serve(rate=2.0, burst=5)
    table = server.create("nim", ["human", "human"], options={"stones": 20}, seed=1)["id"]
    tokens = [server.join(table, name)["token"] for name in ("Ann", "Bo")]
    ann, bo = server.connect(table, tokens[0]), server.connect(table, tokens[1])
    for number in range(25):
        ann.send(type="ping", id=number)
    error = ann.error()
    assert error["code"] == "rate_limited" and "at most 2 a second" in error["message"]
    # The bucket refills: after a pause the same connection is served again.
    time.sleep(1.5)
    assert ann.version() == 0
    assert [m["code"] for m in ann.messages if m["type"] == "error"] == ["rate_limited"]
    assert bo.version() == 0 and [m for m in bo.messages if m["type"] == "error"] == []


def test_a_sustained_flood_is_disconnected(serve: Any) -> None:
    # A slow refill, so that what this test sends is a flood however slowly the machine sends it.
    server = serve(rate=1.0, burst=5)
    table = server.create("nim", ["human", "human"], options={"stones": 20}, seed=1)["id"]
    tokens = [server.join(table, name)["token"] for name in ("Ann", "Bo")]
    ann, bo = server.connect(table, tokens[0]), server.connect(table, tokens[1])
    for number in range(FLOOD_CLOSE + 30):
        try:
            ann.send_raw(json.dumps({"type": "ping", "id": number}))
        except ConnectionClosed:
            break
    codes = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            message = ann.recv()
            if message["type"] == "error":
                codes.append(message["code"])
    assert codes[0] == "rate_limited" and codes[-1] == "flooding"
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    # Bo was not disturbed, and Ann may come back.
    assert bo.version() == 0 and [m for m in bo.messages if m["type"] == "error"] == []
    again = server.connect(table, tokens[0])
    assert again.position["version"] == 0 and again.position["legal"]


def test_a_client_that_never_says_hello_is_dropped(serve: Any) -> None:
    server = serve(hello_timeout=0.3)
    table = server.create("nim", ["human", "random"])["id"]
    silent = server.connect(table, hello=False)
    assert silent.error()["code"] == "no_hello"
    with pytest.raises(ConnectionClosed):
        silent.recv()


def test_a_database_failure_refuses_the_move_and_changes_nothing(server: LiveServer, monkeypatch: Any) -> None:
    table = server.create("nim", ["human", "human"], options={"stones": 20}, seed=1)["id"]
    tokens = [server.join(table, name)["token"] for name in ("Ann", "Bo")]
    ann, bo = server.connect(table, tokens[0]), server.connect(table, tokens[1])
    store = server.app.state.hub.store
    working = store.append_actions

    def broken(*_args: Any) -> None:
        raise OperationalError("INSERT", {}, Exception("disk I/O error"))

    monkeypatch.setattr(store, "append_actions", broken)
    monkeypatch.setattr(store, "claim_seat", broken)
    ann.send(type="act", action="take 2", version=0)
    error = ann.error()
    assert error["code"] == "storage_error" and "nothing changed" in error["message"]
    assert ann.version() == 0 and bo.version() == 0
    assert [m for m in bo.messages if m["type"] in ("update", "error")] == []
    other = server.create("nim", ["human", "random"])["id"]
    refused = server.http.post(f"/api/tables/{other}/join", json={"name": "Cy"})
    assert refused.status_code == 503 and refused.json()["error"]["code"] == "storage_error"
    assert server.table(other)["seats"][0]["taken"] is False
    # Once the database is back, the same move goes through.
    monkeypatch.setattr(store, "append_actions", working)
    ann.send(type="act", action="take 2", version=0)
    assert ann.until(lambda m: m["type"] == "update")["view"]["pile"] == 18


def test_a_commit_that_reports_failure_but_saved_is_played(server: LiveServer, monkeypatch: Any) -> None:
    table = server.create("nim", ["human", "human"], options={"stones": 20}, seed=1)["id"]
    tokens = [server.join(table, name)["token"] for name in ("Ann", "Bo")]
    ann, bo = server.connect(table, tokens[0]), server.connect(table, tokens[1])
    store = server.app.state.hub.store
    working = store.append_actions

    def saved_then_lost(batch: Any) -> None:
        working(batch)
        raise OperationalError("COMMIT", {}, Exception("connection lost"))

    monkeypatch.setattr(store, "append_actions", saved_then_lost)
    ann.send(type="act", action="take 2", version=0)
    assert ann.until(lambda m: m["type"] in ("update", "error"))["type"] == "update"
    monkeypatch.setattr(store, "append_actions", working)
    bo.send(type="act", action="take 1", version=1)
    assert bo.until(lambda m: m["type"] == "update" and m["version"] == 2)["view"]["pile"] == 17


def test_the_limits_on_requests_follow_the_settings(serve: Any) -> None:
    server = serve(max_body_bytes=1024, max_json_depth=2, header_timeout=0.5, body_timeout=0.5)
    table = server.create("nim", ["human", "human"], options={"stones": 20})["id"]
    token = server.join(table, "Ann")["token"]
    server.join(table, "Bo")

    def chunks(size: int) -> Iterator[bytes]:  # an iterator: httpx sends it chunked, with no length
        yield b'{"name": "Cy"' + b" " * (size - 15) + b"}"

    as_json = {"Content-Type": "application/json"}
    refused = server.http.post(f"/api/tables/{table}/join", content=chunks(2000), headers=as_json)
    assert refused.status_code == 413
    assert refused.json()["error"] == {"code": "too_large", "message": "request bodies are limited to 1024 bytes"}
    within = server.http.post(f"/api/tables/{table}/join", content=chunks(1000), headers=as_json)
    assert within.status_code == 409 and within.json()["error"]["code"] == "table_full", within.text
    deep = server.http.post("/api/tables", json={"game": "nim", "seats": [["human"]]})
    assert deep.status_code == 400 and deep.json()["error"]["code"] == "too_deep"
    ann = server.connect(table, token)
    ann.send(type="act", action=[0])  # two levels: the message, the list
    assert ann.error()["code"] == "bad_message"
    ann.send(type="act", action=[[0]])
    assert ann.error() == {
        "type": "error",
        "code": "too_deep",
        "message": "JSON nested more than 2 levels deep is refused",
    }
    assert ann.version() == 0
    with socket.create_connection(("127.0.0.1", int(server.url.rsplit(":", 1)[1])), timeout=10) as slow:
        slow.sendall(b"GET /health HTTP/1.1\r\n")
        started = time.monotonic()
        answer = slow.recv(4096)
        assert answer.startswith(b"HTTP/1.1 408 ") and b"within 0.5 s" in answer
        assert 0.4 < time.monotonic() - started < 5


def test_a_text_field_in_a_websocket_message_is_checked_for_control_characters(seated: Seated) -> None:
    seated.ann.send(type="act", action="take\u00002")
    refused(seated.ann, seated, "bad_text", "action: the character U+0000")
    seated.ann.send(type="ping", id="\u202eevil")
    refused(seated.ann, seated, "bad_text", "id: the character U+202E (RIGHT-TO-LEFT OVERRIDE)")
    seated.ann.send_raw('{"type": "ping", "\\u2066id": 1}')
    # The message names the field without repeating the character itself.
    refused(seated.ann, seated, "bad_text", "the field name '\\u2066id': the character U+2066")


# Bidirectional classes of the characters that embed, override or isolate a run of text.
BIDI_CONTROLS = {"LRE", "RLE", "PDF", "LRO", "RLO", "LRI", "RLI", "FSI", "PDI"}


def test_every_control_and_bidi_control_character_is_refused_and_names_of_the_world_are_not() -> None:
    forged = [
        chr(code)
        for code in range(0x10000)
        if unicodedata.category(chr(code)) == "Cc" or unicodedata.bidirectional(chr(code)) in BIDI_CONTROLS
    ]
    forged += ["\u200e", "\u200f", "\u061c"]  # the marks: left-to-right, right-to-left, Arabic letter
    assert len(forged) == 65 + 9 + 3
    for char in forged:
        with pytest.raises(ServerError) as refused:
            check_text(f"Ann{char}", "name")
        assert refused.value.code == "bad_text" and f"U+{ord(char):04X}" in refused.value.message
        assert char not in refused.value.message
    for name in ("Zoë", "李小龍", "Ann-Marie O'Neil", "نور", "👩‍👩‍👧", "Ünal 🎲"):
        check_text(name, "name")


def test_a_fault_of_the_server_answers_in_the_error_shape(server: LiveServer, monkeypatch: Any) -> None:
    table = server.create("nim", ["human", "random"])["id"]

    def broken(*_args: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(server.app.state.hub, "table", broken)
    response = server.http.get(f"/api/tables/{table}")
    assert response.status_code == 500
    assert response.json() == {
        "error": {"code": "internal_error", "message": "the server failed to answer this request"}
    }


def test_a_fault_answering_a_message_keeps_the_socket(seated: Seated, monkeypatch: Any) -> None:
    table = seated.server.app.state.hub.tables[seated.table]

    def broken(*_args: Any) -> None:
        raise RuntimeError("a bug")

    seated.offenders.append(seated.ann)
    monkeypatch.setattr(table, "sync_message", broken)
    seated.ann.send(type="sync", id="s1")
    error = seated.ann.error()
    monkeypatch.undo()
    assert error == {
        "type": "error",
        "code": "internal_error",
        "message": "the server failed to answer this message",
        "id": "s1",
    }
    assert seated.ann.version() == 0  # the same connection goes on


@pytest.mark.parametrize(
    "text",
    [
        '{"type":"act","action":12,"version":5}',
        '{"type":"act","action":"place general at c4","version":5}',
        '{"type":"chat","text":"\\u0000"}',  # escapes decode to refused characters
        '{"type":"chat","text":"\\u202e"}',
        '{"type":"chat","text":"a\\nb"}',
        '{"type":"chat","text":"a\\\\b"}',
        '{"type":"chat","text":"\u202e"}',
        '{"type":\n"act"}',  # whitespace the walk accepts, which the text's own look does not
        '{"\\u0007":1}',
        "[" * 40 + "1" + "]" * 40,
        '{"a":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}',  # brackets in a string
        '{"a":[{"b":[{"c":[1]}]}]}',
    ],
)
def test_a_message_read_without_walking_it_is_judged_as_the_walk_judges_it(text: str) -> None:
    """A message whose text shows it is fine is not walked (server/edge/text.py): every text is
    accepted or refused exactly as the full walk of its value does, with the same error."""
    from parlour.server.edge.text import _check_value, read_json

    for depth in (3, 8, 32):
        try:
            walked: Any = json.loads(text)
            _check_value(walked, depth)
        except ServerError as error:
            walked = (error.code, error.message)
        try:
            read: Any = read_json(text, depth)
        except ServerError as error:
            read = (error.code, error.message)
        assert read == walked, (text, depth)


@pytest.mark.parametrize(
    "text",
    [
        '{"type":"act","action":"take 2","version":3}',
        '{"a":1,"a":2}',
        '{"big":123456789012345678901234567890}',
        '{"n":9223372036854775807,"m":-9223372036854775809,"u":18446744073709551616}',
        '{"f":3.14159265358979323846,"g":123456789012345678.5}',
        '{"x":-0.0,"y":1e400,"z":[1.5e-300,2E3]}',
        '{"s":"caf\\u00e9 \\ud83d\\ude00","t":"\\ud800"}',
        ' \n{"spaced" : [ 1 , 2 ] }\t',
        '{"a": NaN}',
        "[Infinity]",
        '{"a":1,}',
        '\ufeff{"bom":1}',
        '"just text"',
        "",
        "[" * 600 + "]" * 600,
        "[" * 5000 + "]" * 5000,
    ],
)
def test_json_is_read_as_the_standard_library_reads_it(text: str) -> None:
    """read_json tries orjson first; whatever the text, it gives the standard library's value, or
    the very error the standard library's reading gave before."""
    from parlour.server.edge.text import _DECODER, _check_value, read_json, too_deep

    def standard(depth: int) -> Any:
        try:
            value = _DECODER.decode(text)
        except json.JSONDecodeError as error:
            return ("bad_json", f"not valid JSON: {error.msg} at character {error.pos}")
        except RecursionError:
            return (too_deep(depth).code, too_deep(depth).message)
        except ValueError as error:
            return ("bad_json", f"not valid JSON: {error}")
        try:
            _check_value(value, depth)
        except ServerError as error:
            return (error.code, error.message)
        return ("value", repr(value))

    for depth in (8, 1000):
        try:
            read: Any = ("value", repr(read_json(text, depth)))
        except ServerError as error:
            read = (error.code, error.message)
        assert read == standard(depth), (text[:40], depth)
