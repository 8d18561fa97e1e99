"""Fan-out between server processes sharing one PostgreSQL database: LISTEN/NOTIFY.

Whatever one process commits that the others' clients must see is announced on the database's
notification channel, in the very transaction that commits it (PostgreSQL delivers a NOTIFY only
when, and once, its transaction commits, in commit order). Each process listens on a connection
of its own and hands every notice from another process to the hub. A notice is server-internal
(it never reaches a client) and says which table and what kind of change:

    m <origin> <table> <version> <actions>   actions were committed; the table is at <version>
    s <origin> <table>                       a seat changed (taken, resumed on another device, forfeited)
    c <origin> <table> <chat id>             a chat message was written
    h <origin> <table> <seat>                the seat now plays through <origin>: commit its held steps
    e <origin> <table>                       the table ended before its game did (conceded, left, expired)

A move notice carries the committed actions themselves, `<action id>.<seat>` comma-separated in
ply order, the last at ply <version> - 1, so that a process holding the table applies them
without reading them back. When they would make the payload longer than `notice_bytes`
(PostgreSQL refuses 8000 bytes and more) they are left out, and so is `<actions>`: the process
then reads the actions from the database, as it does for every other kind of notice.

The channel is named after the database schema, so that servers on other schemas of the same
database (tests, staging) never hear each other. When the listening connection drops, it is
opened again and the hub catches up every table it holds: nothing missed meanwhile stays missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import psycopg
from sqlalchemy import Connection, Engine, make_url, text

from parlour.server.edge.logs import log
from parlour.server.settings import PAYLOAD_LIMIT

# Seconds between attempts to open the listening connection again after it dropped.
RELISTEN_SECONDS = 1.0


def process_name() -> str:
    """This process as a lease owner and a notice's origin: unique even across restarts."""
    # At most 63 characters: the listening session's application_name, which leases look for.
    return f"parlour:{socket.gethostname()[:32]}:{os.getpid()}:{secrets.token_hex(4)}"


def channel_of(engine: Engine) -> str:
    """The notification channel of the database schema the engine works in."""
    with engine.connect() as connection:
        schema = str(connection.execute(text("SELECT current_schema()")).scalar_one())
    # A channel is an identifier of at most 63 bytes: a digest keeps any schema name within it.
    return "parlour_" + hashlib.sha256(schema.encode("utf-8")).hexdigest()[:16]


def notify(connection: Connection, channel: str, notices: list[str]) -> None:
    """Queue notices in the connection's transaction: sent when (and only if) it commits."""
    if notices:
        connection.execute(
            text("SELECT pg_notify(:channel, notice) FROM unnest(CAST(:notices AS text[])) AS notice"),
            {"channel": channel, "notices": notices},
        )


Played = tuple[tuple[int, int], ...]  # (action id, seat) of consecutive plies


def move_notice(origin: str, table_id: str, version: int, actions: Played | None, limit: int) -> str:
    """The notice of a table's actions committed up to `version`: with the actions themselves if
    they are given and the payload stays within `limit` bytes, else without (read them back)."""
    bare = f"m {origin} {table_id} {version}"
    if not actions:
        return bare
    limit = min(limit, PAYLOAD_LIMIT)
    carried = f"{bare} {','.join(f'{action}.{seat}' for action, seat in actions)}"
    return carried if len(carried.encode("utf-8")) <= limit else bare


def move_notices(origin: str, committed: list[tuple[str, int, int, int]], limit: int) -> list[str]:
    """One notice per table of a batch of committed actions (table, ply, action id, seat), each
    carrying its table's actions if they fit in `limit` bytes."""
    played: dict[str, list[tuple[str, int, int, int]]] = {}
    for row in committed:  # a batch holds a table's plies in order
        played.setdefault(row[0], []).append(row)
    notices = []
    for table_id, rows in played.items():
        first, last = rows[0][1], rows[-1][1]
        carried = tuple((action, seat) for _, _, action, seat in rows) if last - first == len(rows) - 1 else None
        notices.append(move_notice(origin, table_id, last + 1, carried, limit))
    return notices


def _played(text: str) -> Played | None:
    played = []
    for pair in text.split(","):
        action, dot, seat = pair.partition(".")
        if not (dot and action.isdigit() and seat.isdigit()):
            return None
        played.append((int(action), int(seat)))
    return tuple(played)


@dataclass(frozen=True)
class Notice:
    kind: str
    origin: str
    table_id: str
    number: int | None
    # A move notice's committed actions, the last at ply number - 1 (None: read them back).
    actions: Played | None = None

    @classmethod
    def parse(cls, payload: str) -> Notice | None:
        parts = payload.split(" ")
        if len(parts) not in (3, 4, 5) or parts[0] not in ("m", "s", "c", "h", "e"):
            return None
        number = int(parts[3]) if len(parts) >= 4 and parts[3].isdigit() else None
        actions = _played(parts[4]) if len(parts) == 5 and parts[0] == "m" else None
        if actions is not None and (number is None or len(actions) > number):
            actions = None  # not a run of plies ending at the version: read them back
        return cls(parts[0], parts[1], parts[2], number, actions)


class Listener:
    """Listens on the channel and hands each notice from another process to `handle`; after a
    dropped connection, `resync` is called once listening again."""

    def __init__(
        self,
        engine: Engine,
        channel: str,
        origin: str,
        handle: Callable[[Notice], None],
        resync: Callable[[], Awaitable[None]],
    ) -> None:
        url = make_url(engine.url).set(drivername="postgresql")
        self.conninfo = url.render_as_string(hide_password=False)
        self.channel, self.origin = channel, origin
        self.handle, self.resync = handle, resync
        self.task: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()

    async def start(self) -> None:
        self.task = asyncio.create_task(self._run())
        # Listening before the process serves: a move committed elsewhere from now on is heard.
        await asyncio.wait_for(self.listening.wait(), 30)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _run(self) -> None:
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True, application_name=self.origin
                ) as connection:
                    await connection.execute(f'LISTEN "{self.channel}"')
                    self.listening.set()
                    if not first:
                        await self.resync()
                    first = False
                    async for message in connection.notifies():
                        self._heard(message.payload)
            except (psycopg.Error, OSError) as error:
                log.error("notifications lost, listening again", extra={"event": "storage_error", "error": repr(error)})
                first = False
            await asyncio.sleep(RELISTEN_SECONDS)

    def _heard(self, payload: str) -> None:
        notice = Notice.parse(payload)
        if notice is None or notice.origin == self.origin:
            return
        try:
            self.handle(notice)
        except Exception:
            log.exception("notice not handled", extra={"event": "server_fault", "notice": payload})
