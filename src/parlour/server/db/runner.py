"""The one way the server reaches its database from the event loop: a store's method run on one of
the database's threads, at most a few at once (one on SQLite, which writes one at a time), a
failure of the database turned into a clear 503 that changed nothing.

Whoever needs the database is handed this runner; nobody opens a thread to the database on
their own (the action writer shares its threads)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from parlour.server.db.store import Store
from parlour.server.db.threads import Threads
from parlour.server.edge.errors import ServerError
from parlour.server.edge.logs import log

# How many statements run at once on PostgreSQL (SQLite: one).
POSTGRES_THREADS = 4


class Database:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.threads = Threads(1 if store.is_sqlite else POSTGRES_THREADS, "parlour-db")

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run `function(*args)` (a store's method) on a database thread; a database failure
        becomes a 503 `storage_error`."""
        try:
            return await self.threads.run(function, *args)
        except SQLAlchemyError as error:
            log.error("database error", extra={"event": "storage_error", "error": repr(error)})
            raise ServerError(
                "storage_error", "the database cannot be reached; nothing changed, try again", 503
            ) from None

    async def stop(self) -> None:
        await self.threads.stop()


def is_duplicate(error: BaseException) -> bool:
    """Whether a write was refused for a key already there (another process's action at this
    version, say): the caller lost a race rather than the database."""
    return isinstance(error, IntegrityError)
