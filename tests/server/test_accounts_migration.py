"""Migrations 0003-0007 (accounts, chat, turn-based tables, ratings, rematch) on a database made at
0002 holding a table being played: nothing is lost, the seats' tokens keep playing, the table is a
live unrated one with an empty chat, and a guest's seat can then be claimed into an account."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text

from parlour.server.authority.table import hash_token
from parlour.server.settings import database_url

from .conftest import LiveServer
from .test_accounts import FAST_HASH, browser, csrf, sign_up


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(resources.files("parlour.server.db") / "migrations"))
    return config


def _database_at_0002(db: str) -> None:
    """Today's schema before accounts, with a Nim table at move 1 (seat 1 to move), as 0002 stores it."""
    engine = create_engine(database_url(db))
    config = _config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0002")
        connection.execute(
            text(
                "INSERT INTO game_tables (id, game, options, seed, created_at, salt, commitment, fixed_deal) "
                "VALUES ('old', 'nim', :options, 1, CURRENT_TIMESTAMP, NULL, NULL, :fixed)"
            ),
            {"options": '{"players": 2, "stones": 5}', "fixed": False},
        )
        for seat, name in enumerate(("ann", "ben")):
            connection.execute(
                text("INSERT INTO seats (table_id, seat, name, token_hash) VALUES ('old', :seat, :name, :hash)"),
                {"seat": seat, "name": name, "hash": hash_token(f"token-{seat}")},
            )
        connection.execute(
            text(
                "INSERT INTO actions (table_id, ply, action_id, seat, played_at) "
                "VALUES ('old', 0, 0, 0, CURRENT_TIMESTAMP)"
            )
        )
    engine.dispose()


def test_upgrade_from_0002_keeps_a_live_table(db: str, serve: Callable[..., LiveServer]) -> None:
    _database_at_0002(db)
    server = serve(**FAST_HASH)
    table = server.table("old")
    assert table["status"] == "running" and table["version"] == 1 and table["to_move"] == 1
    assert [seat["name"] for seat in table["seats"]] == ["ann", "ben"]
    played = server.http.post(
        "/api/tables/old/actions", json={"action": 0, "version": 1}, headers={"Authorization": "Bearer token-1"}
    )
    assert played.status_code == 200, played.text
    # The later revisions leave the old table as it was: live, unrated, no rematch, an empty chat.
    assert (table["clock"], table["rated"], table["rematch"]) == (None, False, None)
    assert server.http.get("/api/tables/old/clock").json() == {"table": "old", "mode": "live", "expellable": []}
    said = server.http.post(
        "/api/tables/old/chat", json={"text": "still here"}, headers={"Authorization": "Bearer token-0"}
    )
    assert said.status_code == 201
    with browser(server) as ann:
        account = sign_up(ann, "ann")
        claim = ann.post("/api/tables/old/claim", headers={"Authorization": "Bearer token-0", **csrf(account)})
        assert claim.status_code == 200, claim.text
    engine = create_engine(database_url(db))
    with engine.connect() as connection:
        head = ScriptDirectory.from_config(_config()).get_current_head()
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == head
        assert connection.execute(text("SELECT COUNT(*) FROM actions WHERE table_id = 'old'")).scalar() == 2
        owners = [row[0] for row in connection.execute(text("SELECT user_id FROM seats ORDER BY seat"))]
    engine.dispose()
    assert owners[0] is not None and owners[1] is None
