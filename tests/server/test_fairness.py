"""Provable fairness of the deal: the server draws the seed of a table where people sit, commits to
it at creation (SHA-256 of a secret salt and the seed), keeps both secret until the game is over
and then reveals them, so that anybody can check the deal was fixed before the first move."""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Callable
from datetime import UTC, datetime
from importlib import resources
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine
from typer.testing import CliRunner

from parlour.agents import make_agent
from parlour.cli import app as cli
from parlour.deal import bot_seed
from parlour.engine.records import replay, verify
from parlour.server.db.store import Store
from parlour.server.edge.logs import JsonFormatter
from parlour.server.settings import database_url

from .conftest import LiveServer, Player, wait_until

HEX64 = re.compile(r"[0-9a-f]{64}")


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def post_table(server: LiveServer, **body: Any) -> Any:
    """POST /api/tables as it is sent, without the test helper's defaults."""
    return server.http.post("/api/tables", json=body)


def seated(server: LiveServer, table_id: str, count: int = 2) -> dict[int, str]:
    """Fill every person's seat; each seat's token."""
    return {seat: server.join(table_id, f"P{seat}", seat)["token"] for seat in range(count)}


def play_moves(server: LiveServer, table_id: str, tokens: dict[int, str], moves: int = 10_000) -> dict[str, Any]:
    """Play each seat's first legal move over HTTP, `moves` times or to the end; the table's summary."""
    for _ in range(moves):
        summary = server.table(table_id)
        if summary["status"] == "finished":
            return summary
        token = tokens[summary["to_move"]]
        position = server.http.get(f"/api/tables/{table_id}/state", headers=auth(token)).json()
        body = {"action": position["legal"][0]["id"], "version": position["version"]}
        response = server.http.post(f"/api/tables/{table_id}/actions", json=body, headers=auth(token))
        assert response.status_code == 200, response.text
    return server.table(table_id)


def assert_revealed(summary: dict[str, Any]) -> tuple[int, str]:
    """The revealed deal hashes to the commitment; its seed and salt."""
    deal = summary["deal"]
    seed, salt = int(deal["seed"]), deal["salt"]
    assert HEX64.fullmatch(salt)
    assert hashlib.sha256(f"{salt}:{seed}".encode("ascii")).hexdigest() == deal["commitment"]
    assert summary["seed"] == seed
    return seed, salt


# --- who may choose the seed ---------------------------------------------------------------------


@pytest.mark.parametrize("game", ["nim", "peek"])
def test_the_creator_cannot_choose_the_seed_where_another_person_sits(server: LiveServer, game: str) -> None:
    response = post_table(server, game=game, seats=["human", "human"], seed=7)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "chosen_seed" and "fixed_deal" in error["message"]
    # Refused means nothing was created.
    assert server.http.get("/api/tables").json() == []


def test_a_fixed_deal_needs_the_seed_it_fixes(server: LiveServer) -> None:
    response = post_table(server, game="peek", seats=["human", "human"], fixed_deal=True)
    assert response.status_code == 422 and response.json()["error"]["code"] == "bad_seed"
    assert server.http.get("/api/tables").json() == []


@pytest.mark.parametrize(
    ("seats", "extra", "fixed"),
    [
        (["human", "human"], {"seed": 7, "fixed_deal": True}, True),
        # A person playing bots may choose the deal; whoever else opens the link is told so.
        (["human", "random"], {"seed": 7}, True),
        (["random", "random"], {"seed": 7}, True),
        (["human", "human"], {}, False),
    ],
)
def test_every_seat_and_spectator_is_told_whether_the_creator_chose_the_deal(
    server: LiveServer, seats: list[str], extra: dict[str, Any], fixed: bool
) -> None:
    response = post_table(server, game="peek", seats=seats, **extra)
    assert response.status_code == 201, response.text
    created = response.json()
    table_id = created["id"]
    assert created["deal"]["fixed"] is fixed
    assert server.table(table_id)["deal"]["fixed"] is fixed
    status = "finished" if "human" not in seats else "open"
    wait_until(lambda: server.table(table_id)["status"] == status)
    listed = server.http.get("/api/tables", params={"status": status}).json()
    assert [table["deal"]["fixed"] for table in listed if table["id"] == table_id] == [fixed]
    watcher = server.connect(table_id)
    assert watcher.position["deal"]["fixed"] is fixed
    watcher.close()
    if "human" in seats:
        token = server.join(table_id, "Ann", 0)["token"]
        player = server.connect(table_id, token)
        assert player.position["deal"]["fixed"] is fixed
        player.close()


# --- the commitment ------------------------------------------------------------------------------


def test_the_server_commits_to_its_deal_at_creation_and_reveals_it_at_the_end(server: LiveServer) -> None:
    created = server.create("peek", ["human", "human"])
    table_id = created["id"]
    deal = created["deal"]
    assert deal["fixed"] is False and deal["format"] == "sha256(salt:seed)"
    assert HEX64.fullmatch(deal["commitment"]) and deal["seed"] is None and deal["salt"] is None
    other = server.create("peek", ["human", "human"])
    assert other["deal"]["commitment"] != deal["commitment"]

    tokens = seated(server, table_id)
    players = [server.connect(table_id, tokens[seat]) for seat in (0, 1)]
    watcher = server.connect(table_id)
    for client in [*players, watcher]:
        assert client.position["deal"] == deal

    final = play_moves(server, table_id, tokens)
    seed, _ = assert_revealed(final)
    assert final["deal"]["commitment"] == deal["commitment"]
    # The move that ends the game reveals the deal to everybody connected.
    for client in [*players, watcher]:
        last = client.until(lambda m: m["type"] == "update" and m["status"] == "finished")
        assert last["deal"] == final["deal"]
        client.close()
    # The revealed seed is the game's: the record replays from it to the published result.
    record = server.http.get(f"/api/tables/{table_id}/record").json()
    assert record["seed"] == seed
    replayed = verify(record)
    assert replayed.winners() == final["result"]["winners"]
    assert [score.total for score in replayed.scores()] == [score["total"] for score in final["result"]["scores"]]


def test_the_commitment_survives_a_restart(serve: Callable[..., LiveServer]) -> None:
    first = serve()
    created = first.create("peek", ["human", "human"])
    table_id, commitment = created["id"], created["deal"]["commitment"]
    tokens = seated(first, table_id)
    play_moves(first, table_id, tokens, moves=1)
    first.stop()

    second = serve()
    again = second.table(table_id)
    assert again["deal"] == created["deal"] and again["version"] == 1
    watcher = second.connect(table_id)
    assert watcher.position["deal"]["commitment"] == commitment
    watcher.close()
    final = play_moves(second, table_id, tokens)
    assert final["deal"]["commitment"] == commitment
    assert_revealed(final)


def test_neither_seed_nor_salt_is_shown_before_the_end(server: LiveServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="parlour.server")
    table_id = server.create("peek", ["human", "human"])["id"]
    stored = Store(server.settings.url).table(table_id)
    assert stored is not None and stored.salt is not None
    secrets = (str(stored.seed), stored.salt)
    tokens = seated(server, table_id)
    seen: list[str] = []

    def get(path: str, token: str | None = None, **params: str) -> None:
        response = server.http.get(path, params=params, headers=auth(token) if token else {})
        seen.append(response.text)

    clients: list[Player] = [server.connect(table_id, tokens[0]), server.connect(table_id, tokens[1])]
    clients.append(server.connect(table_id))
    play_moves(server, table_id, tokens, moves=2)
    # Refusals, too: a move out of turn, an unknown action, a bad token, what is published only at the end.
    to_move = server.table(table_id)["to_move"]
    for body, token in (({"action": 0}, tokens[1 - to_move]), ({"action": 99}, tokens[to_move]), ({}, "nope")):
        seen.append(server.http.post(f"/api/tables/{table_id}/actions", json=body, headers=auth(token)).text)
    clients[to_move].send(type="act", action="no such move")
    clients[to_move].error()
    for path in ("/record", "/replay/0", "/log", ""):
        get(f"/api/tables/{table_id}{path}")
    for seat in (0, 1):
        get(f"/api/tables/{table_id}/state", tokens[seat])
        get(f"/api/tables/{table_id}/log", tokens[seat])
    for status in ("open", "running", "finished"):
        get("/api/tables", status=status)
    get("/api/tables")
    for client in clients:
        client.send(type="sync")
        client.until(lambda m: m["type"] == "sync")
        seen.extend(json.dumps(message) for message in client.messages)
        client.close()
    seen.extend(JsonFormatter().format(record) for record in caplog.records)

    assert len(seen) > 30
    for shown in seen:
        for secret in secrets:
            assert secret not in shown, shown
    # Once the game is over both are given, where the test looks for them.
    final = play_moves(server, table_id, tokens)
    assert all(secret in json.dumps(final["deal"]) for secret in secrets)


def test_the_bots_moves_do_not_lead_back_to_the_seed(server: LiveServer) -> None:
    """A bot seeded from the table's seed alone lets somebody who watches its moves search for the
    seed; the server's bots are seeded from the secret salt as well (and replay from both once revealed)."""
    table_id = server.create("hatflings", ["random", "random"])["id"]
    wait_until(lambda: server.table(table_id)["status"] == "finished", timeout=120)
    seed, salt = assert_revealed(server.table(table_id))
    record = server.http.get(f"/api/tables/{table_id}/record").json()

    def moves_of(bots: list[Any]) -> list[int]:
        state = replay({**record, "actions": [], "labels": []})
        chosen = []
        for played in record["actions"]:
            chosen.append(bots[state.current_player()].act(state.clone()).id)
            state.apply(state.game.actions[played])
        return chosen

    from_salt = [make_agent("random", bot_seed(seed, salt, seat)) for seat in (0, 1)]
    assert moves_of(from_salt) == record["actions"]
    from_seed_alone = [make_agent("random", seed * 31 + seat + 1) for seat in (0, 1)]
    assert moves_of(from_seed_alone) != record["actions"]


def test_a_table_from_before_commitments_keeps_working(db: str, serve: Callable[..., LiveServer]) -> None:
    """A database at the first schema revision, with a table in play, is migrated and served on."""
    engine = create_engine(database_url(db))
    config = Config()
    config.set_main_option("script_location", str(resources.files("parlour.server.db") / "migrations"))
    old_tables = sa.table(
        "game_tables",
        sa.column("id"),
        sa.column("game"),
        sa.column("options", sa.JSON),
        sa.column("seed"),
        sa.column("created_at", sa.DateTime),
    )
    old_seats = sa.table("seats", sa.column("table_id"), sa.column("seat"))
    old_actions = sa.table(
        "actions",
        sa.column("table_id"),
        sa.column("ply"),
        sa.column("action_id"),
        sa.column("seat"),
        sa.column("played_at", sa.DateTime),
    )
    moment = datetime(2026, 11, 30, 12, tzinfo=UTC)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        options = {"players": 2, "stones": 4}
        connection.execute(
            sa.insert(old_tables).values(id="old", game="nim", options=options, seed=5, created_at=moment)
        )
        connection.execute(sa.insert(old_seats), [{"table_id": "old", "seat": 0}, {"table_id": "old", "seat": 1}])
        row = {"table_id": "old", "ply": 0, "action_id": 0, "seat": 0, "played_at": moment}
        connection.execute(sa.insert(old_actions).values(**row))
    engine.dispose()

    server = serve()
    summary = server.table("old")
    # Migrated with its seats and its move: nothing of the table is lost.
    assert len(summary["seats"]) == 2 and summary["version"] == 1
    assert summary["deal"] == {"fixed": False, "format": None, "commitment": None, "seed": None, "salt": None}
    final = play_moves(server, "old", seated(server, "old"))
    assert final["status"] == "finished" and final["seed"] == 5
    assert final["deal"]["commitment"] is None


# --- checking a finished table from outside --------------------------------------------------------


def test_verify_deal_checks_a_finished_table_and_the_revealed_values(server: LiveServer) -> None:
    runner = CliRunner()
    created = server.create("nim", ["random", "random"])
    table_id, commitment = created["id"], created["deal"]["commitment"]
    unfinished = server.create("peek", ["human", "human"])["id"]
    wait_until(lambda: server.table(table_id)["status"] == "finished")
    seed, salt = assert_revealed(server.table(table_id))

    good = runner.invoke(cli, ["verify-deal", f"{server.url}/invite/{table_id}", "--commitment", commitment])
    assert good.exit_code == 0, good.output
    assert "deal verified" in good.output and commitment in good.output and "replay from this seed" in good.output
    by_values = ["verify-deal", "--seed", str(seed), "--salt", salt, "--commitment", commitment]
    assert runner.invoke(cli, by_values).exit_code == 0

    noted_another = runner.invoke(cli, ["verify-deal", f"{server.url}/?table={table_id}", "--commitment", "0" * 64])
    assert noted_another.exit_code == 1 and "not the" in noted_another.output
    other_seed = ["verify-deal", "--seed", str(seed + 1), "--salt", salt, "--commitment", commitment]
    tampered = runner.invoke(cli, other_seed)
    assert tampered.exit_code == 1 and "does not match" in tampered.output
    early = runner.invoke(cli, ["verify-deal", f"{server.url}/invite/{unfinished}"])
    assert early.exit_code == 1 and "not finished" in early.output
