"""What one server process is configured with: its database, its limits and its pace."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import parlour

DEFAULT_DB = "parlour.sqlite"
WEB_DIR = Path(parlour.__file__).resolve().parent / "web"


def database_url(db: str) -> str:
    """A SQLAlchemy URL for what `--db` gives: a PostgreSQL or SQLite URL, or a plain file path.

    `postgresql://` is sent through psycopg 3 (the driver the `server` extra installs), so the
    usual URL a PostgreSQL admin hands out works as it is.
    """
    if db.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    if "://" in db:
        return db
    return "sqlite:///" + str(Path(db).expanduser().resolve())


@dataclass(frozen=True)
class Settings:
    db: str = DEFAULT_DB
    # Biggest websocket text message the server reads; larger ones get an error and are dropped.
    max_message_bytes: int = 4096
    # Token bucket per websocket connection: `rate` messages a second on average, bursts of `burst`.
    rate: float = 50.0
    burst: int = 100
    # Pause before each bot move so that people can follow the game; 0 for tests and benchmarks.
    bot_delay: float = 0.0
    # Bot moves computed at the same time, each in a worker thread, so the event loop stays free.
    bot_threads: int = 4
    # How long a new websocket may take to send its `hello`.
    hello_timeout: float = 10.0
    # Messages queued for one slow client before it is disconnected (it resyncs on reconnect).
    send_queue: int = 256
    # Base of invite links; taken from each request when not set.
    public_url: str | None = None
    web_dir: Path | None = field(default_factory=lambda: WEB_DIR if WEB_DIR.is_dir() else None)

    @property
    def url(self) -> str:
        return database_url(self.db)
