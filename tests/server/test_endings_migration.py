"""Migration 0013 adds exactly the columns the models describe for how a table ended and what a
rated game changed the ratings by, on SQLite and PostgreSQL; and it is undone cleanly."""

from __future__ import annotations

from importlib import resources

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from parlour.server.db.models import Base
from parlour.server.db.store import Store
from parlour.server.settings import database_url

ADDED = {("game_tables", "ended"), ("seats", "rating_change"), ("ratings", "last_change")}


def _columns(engine: object) -> set[tuple[str, str]]:
    inspector = inspect(engine)
    return {(table, column["name"]) for table, _ in ADDED for column in inspector.get_columns(table)}


def test_the_migration_matches_the_models_and_is_undone(db: str) -> None:
    url = database_url(db)
    Store(url).migrate()
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        about = [d for d in differences if any(name in repr(d) for _, name in ADDED)]
        assert about == []
        assert _columns(engine) >= ADDED
        config = Config()
        config.set_main_option("script_location", str(resources.files("parlour.server.db") / "migrations"))
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0011")
        assert not _columns(engine) & ADDED
    finally:
        engine.dispose()
