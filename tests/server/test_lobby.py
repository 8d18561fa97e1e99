"""The HTTP lobby: games, tables, seats, tokens, invite links, health and the OpenAPI description."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from parlour.engine.registry import game_classes
from parlour.server.db.models import SeatRow
from parlour.server.settings import database_url

from .conftest import LiveServer, wait_until


def test_health_names_the_database(server: LiveServer) -> None:
    body = server.http.get("/health").json()
    assert body["status"] == "ok" and body["database"] == "ok"
    assert body["backend"] in ("sqlite", "postgresql")


def test_openapi_describes_the_lobby_and_play(server: LiveServer) -> None:
    paths = server.http.get("/openapi.json").json()["paths"]
    for path in ("/api/games", "/api/tables", "/api/tables/{table_id}/join", "/api/tables/{table_id}/actions"):
        assert path in paths


def test_games_lists_every_registered_game_with_options_and_agents(server: LiveServer) -> None:
    games = {game["name"]: game for game in server.http.get("/api/games").json()}
    assert set(games) == set(game_classes())
    assert games["nim"]["players"] == [2]
    stones = next(option for option in games["nim"]["options"] if option["name"] == "stones")
    assert stones == {
        "name": "stones",
        "title": "Stones",
        "type": "int",
        "default": 0,
        "help": "starting pile (0: drawn from the seed, 10-20)",
        "choices": None,
        "minimum": 0,
        "maximum": 99,
    }
    assert "random" in games["nim"]["agents"]


def test_create_table_shows_seats_and_hides_the_seed(server: LiveServer) -> None:
    table = server.create("nim", ["human", "random"], options={"stones": 12}, seed=5)
    assert table["status"] == "open" and table["version"] == 0 and table["to_move"] == 0
    assert table["options"] == {"players": 2, "stones": 12}
    assert table["seats"] == [
        {"seat": 0, "kind": "human", "agent": None, "name": None, "taken": False},
        {"seat": 1, "kind": "bot", "agent": "random", "name": "random", "taken": True},
    ]
    assert table["seed"] is None and table["result"] is None
    assert table["invite_url"] == f"{server.url}/invite/{table['id']}"
    assert server.table(table["id"]) == table


def test_create_table_refuses_bad_requests_clearly(server: LiveServer) -> None:
    cases = [
        ({"game": "chess", "seats": ["human", "human"]}, "unknown_game", "no game called 'chess'"),
        ({"game": "nim", "seats": ["human", "human"], "options": {"colour": "red"}}, "invalid_option", "no option"),
        ({"game": "nim", "seats": ["human", "human"], "options": {"stones": 500}}, "invalid_option", "between 0"),
        ({"game": "nim", "seats": ["human", "human", "human"]}, "invalid_option", "takes 2 players, got 3"),
        ({"game": "nim", "seats": ["human"], "options": {"players": 2}}, "bad_seats", "2 players but 1 seats"),
        ({"game": "nim", "seats": ["human", "wizard"]}, "bad_seats", "seat 1: no agent called 'wizard'"),
        ({"game": "nim", "seats": ["human", "random"], "colour": "red"}, "bad_request", "colour: Extra inputs"),
        ({"game": "nim", "seats": []}, "bad_request", "seats"),
        ({"game": "nim", "seats": ["human", "random"], "seed": -1}, "bad_request", "seed"),
    ]
    for body, code, words in cases:
        response = server.http.post("/api/tables", json=body)
        assert response.status_code == 422, body
        error = response.json()["error"]
        assert error["code"] == code and words in error["message"], (body, error)
    assert server.http.get("/api/tables").json() == []


def test_bodies_that_are_too_large_or_not_json_are_refused(server: LiveServer) -> None:
    as_json = {"content-type": "application/json"}
    huge = server.http.post("/api/tables", content=b"{" + b" " * 70_000 + b"}", headers=as_json)
    assert huge.status_code == 413 and huge.json()["error"]["code"] == "too_large"
    broken = server.http.post("/api/tables", content=b"{not json", headers=as_json)
    assert broken.status_code == 400 and broken.json()["error"]["code"] == "bad_json"


def test_lobby_lists_open_running_and_finished_tables(server: LiveServer) -> None:
    open_table = server.create("nim", ["human", "random"])
    running = server.create("nim", ["human", "human"])
    server.join(running["id"], "Ann")
    server.join(running["id"], "Bo")
    done = server.create("nim", ["random", "random"], seed=3)
    ids = lambda status: {t["id"] for t in server.http.get("/api/tables", params={"status": status}).json()}  # noqa: E731
    assert open_table["id"] in ids("open") and running["id"] in ids("running")
    wait_until(lambda: server.table(done["id"])["status"] == "finished")
    assert done["id"] in ids("finished")
    listed = {t["id"] for t in server.http.get("/api/tables").json()}
    assert listed == {open_table["id"], running["id"]}
    bad = server.http.get("/api/tables", params={"status": "closed"})
    assert bad.status_code == 422 and "open, running, finished" in bad.json()["error"]["message"]


def test_join_gives_a_secret_token_stored_only_as_a_hash(server: LiveServer) -> None:
    table = server.create("nim", ["human", "human"])
    ann = server.join(table["id"], "  Ann   Lee ")
    assert ann["seat"] == 0 and ann["name"] == "Ann Lee" and len(ann["token"]) >= 32
    bo = server.join(table["id"], "Bo")
    assert bo["seat"] == 1 and bo["token"] != ann["token"]
    engine = create_engine(database_url(server.settings.db))
    with Session(engine) as session:
        stored = {row.seat: row for row in session.scalars(select(SeatRow).where(SeatRow.table_id == table["id"]))}
    engine.dispose()
    assert stored[0].token_hash == hashlib.sha256(ann["token"].encode()).hexdigest()
    assert all(ann["token"] not in str(value) for value in vars(stored[0]).values())
    summary = server.table(table["id"])
    assert summary["status"] == "running" and ann["token"] not in str(summary)
    assert [seat["name"] for seat in summary["seats"]] == ["Ann Lee", "Bo"]


def test_join_refuses_taken_bot_missing_and_full_seats(server: LiveServer) -> None:
    table = server.create("nim", ["human", "random"])
    server.join(table["id"], "Ann", seat=0)
    cases = [
        ({"name": "Bo", "seat": 0}, 409, "seat_taken", "already taken by Ann"),
        ({"name": "Bo", "seat": 1}, 409, "seat_taken", "played by the bot 'random'"),
        ({"name": "Bo", "seat": 5}, 422, "no_seat", "seats 0..1, not 5"),
        ({"name": "Bo"}, 409, "table_full", "every seat"),
        ({"name": "   "}, 422, "bad_name", "display name"),
        ({"name": "x" * 41}, 422, "bad_request", "name"),
        ({"name": "Bo", "colour": "red"}, 422, "bad_request", "colour"),
    ]
    for body, status, code, words in cases:
        response = server.http.post(f"/api/tables/{table['id']}/join", json=body)
        assert response.status_code == status, body
        error = response.json()["error"]
        assert error["code"] == code and words in error["message"], (body, error)
    assert server.table(table["id"])["seats"][0]["name"] == "Ann"


def test_unknown_table_is_a_clear_404(server: LiveServer) -> None:
    for path in ("/api/tables/nope", "/api/tables/nope/state", "/invite/nope"):
        response = server.http.get(path)
        assert response.status_code == 404 and response.json()["error"]["message"] == "there is no table 'nope'"
    response = server.http.post("/api/tables/nope/join", json={"name": "Ann"})
    assert response.status_code == 404


def test_invite_link_opens_the_web_client_at_the_table(server: LiveServer) -> None:
    table = server.create("nim", ["human", "random"])
    response = server.http.get(f"/invite/{table['id']}")
    assert response.status_code == 307 and response.headers["location"] == f"/?table={table['id']}"


def test_record_is_published_only_when_the_game_is_over(server: LiveServer) -> None:
    table = server.create("nim", ["human", "random"], seed=9)
    response = server.http.get(f"/api/tables/{table['id']}/record")
    assert response.status_code == 409 and response.json()["error"]["code"] == "not_finished"


def test_the_web_client_is_served_at_the_root(serve: Callable[..., LiveServer], tmp_path: Path) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<title>parlour</title>", encoding="utf-8")
    server = serve(web_dir=web)
    page = server.http.get("/", params={"table": "abc"})
    assert page.status_code == 200 and page.text == "<title>parlour</title>"
    assert server.http.get("/health").json()["status"] == "ok"
    assert server.http.get("/api/games").status_code == 200


def test_without_a_web_client_the_root_points_to_the_api(server: LiveServer) -> None:
    assert server.http.get("/").json() == {"name": "parlour", "api": "/docs", "openapi": "/openapi.json"}
