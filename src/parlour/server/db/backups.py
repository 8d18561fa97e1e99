"""The database's care: a SQLite backup taken while the server runs (SQLite's online backup),
restoring one, bringing the schema to the newest migration, and checking that every stored table
replays. PostgreSQL is backed up with its own tools (pg_dump, pg_restore), as docs/server.md
shows; the upgrade and the check work on both.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alembic.migration import MigrationContext
from sqlalchemy import inspect, make_url, select
from sqlalchemy.orm import Session

from parlour import deal
from parlour.engine.errors import ParlourError
from parlour.engine.game import Game
from parlour.engine.registry import game_class
from parlour.server.db.models import TableRow
from parlour.server.db.store import Store, StoredTable

POSTGRES_BACKUP = (
    "back PostgreSQL up with its own tools while the server runs: pg_dump --format=custom --file=FILE URL; "
    "restore into an empty database with: pg_restore --no-owner --dbname=URL FILE (docs/server.md, Backups)"
)


class BackupError(ParlourError):
    """A backup, restore, upgrade or check that cannot be done, with the reason."""


def sqlite_path(url: str) -> Path:
    """The file of a SQLite database URL; BackupError for any other database."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        raise BackupError(POSTGRES_BACKUP)
    if not parsed.database or parsed.database == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up")
    return Path(parsed.database)


def _copy(source: Path, target: Path) -> None:
    """SQLite's online backup: a consistent copy page by page, while others keep writing."""
    with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as reading, sqlite3.connect(target) as writing:
        reading.backup(writing)
    writing.close()
    reading.close()


def backup(url: str, target: Path) -> int:
    """Copy the database to a new file `target`; the number of tables (games) it holds."""
    source = sqlite_path(url)
    if not source.is_file():
        raise BackupError(f"there is no database at {source}")
    if target.exists():
        raise BackupError(f"{target} exists already; give a new file (a backup never overwrites)")
    _copy(source, target)
    return _games_in(target)


def _games_in(path: Path) -> int:
    """How many game tables a parlour database file holds; BackupError if it is not one."""
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
            names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not {"alembic_version", "game_tables"} <= names:
                raise BackupError(f"{path} is not a parlour database (it has no game tables)")
            return int(connection.execute("SELECT count(*) FROM game_tables").fetchone()[0])
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is not a SQLite database: {error}") from None


def restore(url: str, source: Path, replace: bool) -> int:
    """Replace the database with the backup `source` (the server must be stopped); the number of
    tables (games) restored. Without `replace`, a database that exists is left alone."""
    target = sqlite_path(url)
    if not source.is_file():
        raise BackupError(f"there is no backup at {source}")
    games = _games_in(source)
    if target.exists() and not replace:
        raise BackupError(f"{target} exists; stop the server and add --replace to overwrite it with the backup")
    target.parent.mkdir(parents=True, exist_ok=True)
    for leftover in (Path(f"{target}-wal"), Path(f"{target}-shm")):
        leftover.unlink(missing_ok=True)  # pages of the replaced database must not be replayed into the backup
    _copy(source, target)
    return games


def revision(url: str) -> str | None:
    """The schema's migration revision (None on an empty database)."""
    store = Store(url)
    try:
        with store.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        store.close()


def upgrade(url: str) -> tuple[str | None, str | None]:
    """Bring the schema to the newest migration; the revisions before and after."""
    before = revision(url)
    store = Store(url)
    try:
        store.migrate()
    finally:
        store.close()
    return before, revision(url)


@dataclass
class Checked:
    tables: int = 0
    finished: int = 0
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"tables": self.tables, "finished": self.finished, "problems": self.problems}


def _problem(record: StoredTable, games: dict[str, Game]) -> str | None:
    """What is wrong with a stored table, or None: it must replay to its stored state (over or
    not), its seats must match its players, and a revealed deal its commitment."""
    key = json.dumps([record.game, record.options], sort_keys=True, default=str)
    try:
        game = games.get(key) or game_class(record.game)(**record.options)
        games[key] = game
        state = game.new_state(seed=record.seed)
        for step, (action_id, _) in enumerate(record.actions):
            try:
                state.apply(game.action(action_id))
            except Exception as error:  # a corrupt record may fail in any way: it is reported
                return f"step {step} (move {step + 1}) does not replay: {error}"
    except Exception as error:
        return f"the game cannot be loaded: {error}"
    if len(record.seats) != game.num_players:
        return f"{len(record.seats)} seats for {game.num_players} players"
    over = state.is_terminal()
    if over != (record.finished_at is not None):
        return "the game is over but not marked finished" if over else "marked finished but the game is not over"
    revealed = record.salt is not None and record.commitment is not None
    if revealed and not deal.matches(record.seed, record.salt or "", record.commitment or ""):
        return "its seed and salt do not match its published commitment"
    return None


def check(url: str) -> Checked:
    """Replay every stored table; the count and the problems found (one line per broken table)."""
    store = Store(url)
    checked = Checked()
    games: dict[str, Game] = {}
    try:
        if "game_tables" not in inspect(store.engine).get_table_names():
            raise BackupError("this database has no parlour tables (run parlour db upgrade, or serve it once)")
        with Session(store.engine) as session:
            ids = list(session.scalars(select(TableRow.id).order_by(TableRow.created_at)))
        for table_id in ids:
            record = store.table(table_id)
            if record is None:
                continue  # deleted meanwhile
            checked.tables += 1
            checked.finished += record.finished_at is not None
            problem = _problem(record, games)
            if problem is not None:
                checked.problems.append(f"table {record.id} ({record.game}): {problem}")
    finally:
        store.close()
    return checked
