"""Migration 0011 makes exactly the tables, columns, keys and indexes that the models of running a
community describe, on SQLite and PostgreSQL; and it is undone cleanly."""

from __future__ import annotations

from importlib import resources
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from parlour.server.db.models import Base
from parlour.server.db.store import Store
from parlour.server.settings import database_url

COMMUNITY = {
    "admins",
    "disabled_accounts",
    "reset_codes",
    "audit_log",
    "blocks",
    "reports",
    "refused_words",
    "table_owners",
}


def _table_of(difference: Any) -> str | None:
    """The table a difference reported by alembic's comparison is about."""
    change = difference[0] if isinstance(difference, list) else difference
    for part in change[1:]:
        name = getattr(part, "name", None) if not isinstance(part, str) else None
        table = getattr(part, "table", None)
        if table is not None and getattr(table, "name", None):
            return str(table.name)
        if name is not None and hasattr(part, "columns") and hasattr(part, "metadata"):
            return str(name)
        if isinstance(part, str):
            return part
    return None


def test_the_migration_matches_the_models(db: str) -> None:
    url = database_url(db)
    Store(url).migrate()
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        ours = [d for d in differences if _table_of(d) in COMMUNITY]
        assert ours == []
        assert set(inspect(engine).get_table_names()) >= COMMUNITY
    finally:
        engine.dispose()


def test_the_migration_is_undone(db: str) -> None:
    url = database_url(db)
    Store(url).migrate()
    config = Config()
    config.set_main_option("script_location", str(resources.files("parlour.server.db") / "migrations"))
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0009")
        assert not COMMUNITY & set(inspect(engine).get_table_names())
        assert "game_tables" in inspect(engine).get_table_names()
    finally:
        engine.dispose()
