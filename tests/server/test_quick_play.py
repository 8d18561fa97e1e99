"""Quick play: people waiting for the same game and player count are seated together, the nearest
in rating first; once a player's wait is over bots of a level near their rating take the seats
left; live and turn-based; on two server processes of one PostgreSQL database; bad requests refused."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from parlour.agents.levels import calibrations
from parlour.server.db.models import QuickWaitRow
from parlour.server.features.quick_play import LEVELS, NO_RATING_BOT, bot_for_rating

from .conftest import POSTGRES_URL, LiveServer, run_sql, wait_until
from .test_restart import ServerProcess


def play_now(server: Any, name: str, **extra: Any) -> dict[str, Any]:
    body = {"game": "hatflings", "players": 2, "name": name, **extra}
    answer = server.http.post("/api/quick", json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def seated(server: Any, ticket: str) -> dict[str, Any]:
    """Look at the ticket until it is seated (as the page does every 2 s)."""
    found: dict[str, Any] = {}

    def look() -> bool:
        found.update(server.http.get(f"/api/quick/{ticket}").json())
        return found["status"] == "seated"

    wait_until(look)
    return found


def test_two_people_waiting_for_the_same_game_are_seated_together(server: LiveServer) -> None:
    ann = play_now(server, "Ann", wait_seconds=60)
    assert ann["status"] == "waiting" and ann["people_waiting"] == 1 and ann["bots_in_seconds"] > 50
    other_game = play_now(server, "Kim", game="hanbok_runway", wait_seconds=60)
    assert other_game["status"] == "waiting"  # another game: not matched with Ann
    bob = play_now(server, "Bob", wait_seconds=60)
    assert bob["status"] == "seated"
    ann_seat = seated(server, ann["ticket"])
    assert ann_seat["table"] == bob["table"] and {ann_seat["seat"], bob["seat"]} == {0, 1}
    table = server.table(bob["table"])
    assert [seat["kind"] for seat in table["seats"]] == ["human", "human"] and table["status"] == "running"
    assert {seat["name"] for seat in table["seats"]} == {"Ann", "Bob"}
    # The token works at the table, and the ticket is forgotten once handed over.
    player = server.connect(bob["table"], bob["token"])
    assert player.seat == bob["seat"]
    player.close()
    assert server.http.get(f"/api/quick/{ann['ticket']}").json()["error"]["code"] == "no_ticket"
    assert server.http.delete(f"/api/quick/{other_game['ticket']}").status_code == 204
    assert server.http.get(f"/api/quick/{other_game['ticket']}").status_code == 404


def test_at_once_the_free_seats_go_to_bots(server: LiveServer) -> None:
    now = play_now(server, "Cleo", game="yamatai", players=3, wait_seconds=0)
    assert now["status"] == "seated"
    seats = server.table(now["table"])["seats"]
    assert seats[0]["name"] == "Cleo" and [s["agent"] for s in seats[1:]] == [NO_RATING_BOT] * 2


def test_after_the_wait_bots_fill_in_and_a_turn_based_table_has_its_clock(serve: Callable[..., LiveServer]) -> None:
    server = serve(quick_max_wait_seconds=5.0, min_move_seconds=60.0)
    dan = play_now(server, "Dan", mode="turn_based", wait_seconds=1)
    assert dan["status"] == "waiting"
    # A live player does not meet a turn-based one.
    eve = play_now(server, "Eve", wait_seconds=0)
    assert eve["status"] == "seated" and server.table(eve["table"])["seats"][1]["kind"] == "bot"
    found = seated(server, dan["ticket"])
    table = server.table(found["table"])
    assert table["clock"]["mode"] == "turn_based", table["clock"]
    too_long = server.http.post("/api/quick", json={"game": "hatflings", "players": 2, "name": "F", "wait_seconds": 6})
    assert too_long.status_code == 422 and "at most 5 s" in too_long.json()["error"]["message"]


@pytest.mark.parametrize(
    "body, code",
    [
        ({"game": "chess", "players": 2, "name": "A"}, "unknown_game"),
        ({"game": "hatflings", "players": 3, "name": "A"}, "invalid_option"),
        ({"game": "hatflings", "players": 2, "name": ""}, "bad_request"),
        ({"game": "hatflings", "players": 2, "name": "A", "mode": "blitz"}, "bad_request"),
        ({"game": "hatflings", "players": 2, "name": "A", "wait_seconds": -1}, "bad_request"),
        # A name a join would refuse is refused at once, not when the table is ready for it.
        ({"game": "hatflings", "players": 2, "name": "\u200b\u200b"}, "bad_text"),
        ({"game": "hatflings", "players": 2, "name": "An\u0430"}, "bad_text"),
    ],
)
def test_bad_requests_are_refused(server: LiveServer, body: dict[str, Any], code: str) -> None:
    answer = server.http.post("/api/quick", json=body)
    assert answer.status_code in (404, 422) and answer.json()["error"]["code"] == code
    assert server.http.get("/api/tables").json() == []


def test_the_bot_level_follows_the_rating() -> None:
    # A game without a calibration: the fixed bounds.
    assert bot_for_rating(None) == NO_RATING_BOT
    assert bot_for_rating(10.0) == "level:novice"
    assert bot_for_rating(25.0) == "level:casual"  # a new account's rating
    assert bot_for_rating(30.0) == "level:club"
    assert bot_for_rating(40.0) == LEVELS[-1][1]


@pytest.mark.parametrize("game", sorted(calibrations()))
def test_a_calibrated_game_seats_the_level_whose_rating_is_nearest(game: str) -> None:
    rated = calibrations()[game].ratings
    offered = [spec for _, spec in LEVELS]
    for spec in offered:
        # A player rated exactly as a level meets that level (unless two share the rating).
        chosen = bot_for_rating(rated[spec].mu, game)
        assert rated[chosen].mu == rated[spec].mu
    assert bot_for_rating(None, game) == NO_RATING_BOT
    weakest = min(offered, key=lambda spec: rated[spec].mu)
    assert bot_for_rating(-100.0, game) == weakest
    assert bot_for_rating(1000.0, game) == max(offered, key=lambda spec: rated[spec].mu)
    assert "level:master" not in offered  # quick play keeps the most costly level out


@pytest.mark.skipif(not POSTGRES_URL, reason="needs PARLOUR_TEST_POSTGRES_URL: two processes share PostgreSQL")
def test_players_on_two_server_processes_meet(tmp_path: Path) -> None:
    schema = f"parlour_quick_{os.getpid()}"
    run_sql(POSTGRES_URL, f"DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}")
    db = POSTGRES_URL + ("&" if "?" in POSTGRES_URL else "?") + f"options=-csearch_path%3D{schema}"
    nodes: list[ServerProcess] = []
    try:
        nodes = [ServerProcess(db, tmp_path / f"node{i}.log") for i in range(2)]
        ann = play_now(nodes[0], "Ann", wait_seconds=60)
        bob = play_now(nodes[1], "Bob", wait_seconds=60)
        assert bob["status"] == "seated"
        ann_seat = seated(nodes[0], ann["ticket"])
        assert ann_seat["table"] == bob["table"]
        # Each plays through its own process.
        for node, seat in ((nodes[0], ann_seat), (nodes[1], bob)):
            table = node.http.get(f"/api/tables/{seat['table']}").json()
            assert table["status"] == "running"
    finally:
        for node in nodes:
            node.stop()
        run_sql(POSTGRES_URL, f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def test_the_nearest_ratings_are_seated_together(server: LiveServer) -> None:
    """Four wait for a three-player game: the one who looks is seated with the two nearest in rating."""
    store = server.app.state.quick.store
    moment = datetime.now(UTC)
    for ticket, rating in (("me", 30.0), ("near", 31.0), ("far", 12.0), ("close", 28.5)):
        store.add(
            QuickWaitRow(
                ticket=ticket, game="hatairo", players=3, mode="live", name=ticket.title(), rating=rating,
                created_at=moment, bots_at=moment + timedelta(seconds=60), seen_at=moment,
            )
        )  # fmt: skip
    mine = server.http.get("/api/quick/me").json()
    assert mine["status"] == "seated"
    names = {seat["name"] for seat in server.table(mine["table"])["seats"]}
    assert names == {"Me", "Near", "Close"}
    far = server.http.get("/api/quick/far").json()
    assert far["status"] == "waiting" and far["people_waiting"] == 1


def test_quick_tables_count_towards_the_tables_per_client(serve: Callable[..., LiveServer]) -> None:
    server = serve(tables_per_client=1)
    assert play_now(server, "Gil", wait_seconds=0)["status"] == "seated"
    refused = server.http.post("/api/quick", json={"game": "hatflings", "players": 2, "name": "Gil", "wait_seconds": 0})
    assert refused.status_code == 429, refused.text
    assert len(server.http.get("/api/tables").json()) == 1
    # The refused player is not left on the list for others to meet.
    assert play_now(server, "Hal", game="hatflings", wait_seconds=60)["people_waiting"] == 1
