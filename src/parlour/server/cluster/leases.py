"""Leases: on a PostgreSQL database shared by several server processes, each table with bots or
a clock is run by exactly one of them, the holder of its lease.

A lease is a row (table, owner, expiry) whose expiry is set from the database's own clock. The
holder renews its leases every third of `lease_seconds`. Another process takes a lease over in its
next round (`INSERT ... ON CONFLICT ... WHERE ...`: the row lock decides which one) once it has
expired, or at once when its owner has no connection to the database any more: each process
listens for notices on a connection named after it (`application_name`, server/fanout.py), and
PostgreSQL ends that session as soon as the process dies, kill -9 included.

A holder that could not renew in time stops running those tables by itself, before their expiry;
one whose listening session dropped while it lived learns at its next round that the lease moved,
and stops then. For that short while two processes might run one table's bots: a move is still
committed once (the actions' primary key) and the loser's is refused, so the lease saves work and
keeps bots from racing; it is not what keeps the record straight.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from sqlalchemy import Engine, text

# The tables that need a holder: unfinished, with a bot seat or a clock.
_NEEDING = """
    SELECT t.id FROM game_tables t
    WHERE t.finished_at IS NULL
      AND (t.mode = 'turn_based' OR t.time_banks IS NOT NULL
           OR EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.agent IS NOT NULL))
"""
# A lease whose owner is gone: expired, or its owner's listening session has ended.
_LAPSED = """
    ({lease}.expires_at < now()
     OR NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.application_name = {lease}.owner))
"""
_TAKE = (
    """
    INSERT INTO table_leases (table_id, owner, expires_at)
    SELECT id, :owner, now() + make_interval(secs => :seconds) FROM ({tables}) AS wanted
    ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
    WHERE table_leases.owner = excluded.owner OR """
    + _LAPSED.format(lease="table_leases")
    + """
    RETURNING table_id
"""
)


class LeaseStore:
    """The lease rows (PostgreSQL only: the statements use its upsert and interval arithmetic)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def round(self, owner: str, seconds: float, most: int) -> set[str]:
        """Renew this owner's leases, take over at most `most` free or expired ones, drop those of
        finished tables; returns every table the owner now holds."""
        with self.engine.begin() as connection:
            connection.execute(
                text(
                    "DELETE FROM table_leases l USING game_tables t "
                    "WHERE l.table_id = t.id AND t.finished_at IS NOT NULL AND l.owner = :owner"
                ),
                {"owner": owner},
            )
            renewed = connection.execute(
                text(
                    "UPDATE table_leases SET expires_at = now() + make_interval(secs => :seconds) "
                    "WHERE owner = :owner RETURNING table_id"
                ),
                {"owner": owner, "seconds": seconds},
            )
            held = {row[0] for row in renewed}
            lapsed = _LAPSED.format(lease="l")
            free = (
                f"{_NEEDING} AND NOT EXISTS (SELECT 1 FROM table_leases l "
                f"WHERE l.table_id = t.id AND NOT {lapsed}) ORDER BY t.created_at LIMIT :most"
            )
            taken = connection.execute(
                text(_TAKE.format(tables=free)), {"owner": owner, "seconds": seconds, "most": most}
            )
            return held | {row[0] for row in taken}

    def take(self, owner: str, table_id: str, seconds: float) -> bool:
        """Lease one table (just opened here) unless another process holds it."""
        with self.engine.begin() as connection:
            taken = connection.execute(
                text(_TAKE.format(tables="SELECT CAST(:table_id AS varchar) AS id")),
                {"owner": owner, "seconds": seconds, "table_id": table_id},
            )
            return taken.first() is not None

    def release(self, owner: str) -> None:
        """Give every lease up at once (a clean stop), so the others need not wait for the expiry."""
        with self.engine.begin() as connection:
            connection.execute(text("DELETE FROM table_leases WHERE owner = :owner"), {"owner": owner})


@dataclass
class Leases:
    """What this process holds, and until when it may trust that (its own clock, measured from
    before the renewal was sent, so it errs on the side of letting go early)."""

    seconds: float
    held: set[str] = field(default_factory=set)
    valid_until: float = 0.0

    def holds(self, table_id: str) -> bool:
        return table_id in self.held and time.monotonic() < self.valid_until

    def renewed(self, held: set[str], sent_at: float) -> tuple[set[str], set[str]]:
        """Record a round's outcome; returns (tables newly held, tables no longer held)."""
        gained, lost = held - self.held, self.held - held
        self.held, self.valid_until = held, sent_at + self.seconds
        return gained, lost
