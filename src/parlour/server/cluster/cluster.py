"""Several server processes on one PostgreSQL database: what each does so that they play as one.

- Moves: a move is committed by whichever process received it, through the same checks and the
  actions' primary key as ever; its NOTIFY (server/fanout.py) carries the actions, and every
  other process holding the table applies them to its table in memory (reading them from the
  database only when the notice could not carry them or one was missed) and sends each of its
  clients the update its seat may see.
- Seats and chat: the same, for a seat taken, resumed or forfeited, and for a chat message; and
  for a table that ended before its game did (conceded, left, expired), which every process
  holding it ends as stored and tells its clients.
- Held (undo) steps live in the memory of the process the seat plays through: when the seat
  connects (says hello) to another process, an `h` notice makes the holder commit them, so that
  the seat finds them there.
- Bots and clocks run where the table's lease is held (server/leases.py); a process that takes a
  lease over loads the table and goes on with its bots and its clock.

On SQLite none of this exists: SQLite means one process, exactly as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable

from parlour.server.authority.events import Bus, LeaseGained, NoticeHeard, Resynced
from parlour.server.cluster.fanout import Listener, Notice, channel_of, process_name
from parlour.server.cluster.leases import Leases, LeaseStore
from parlour.server.db.runner import Database
from parlour.server.db.store import Store
from parlour.server.edge.errors import ServerError
from parlour.server.edge.logs import log
from parlour.server.settings import Settings

Job = Callable[[], Awaitable[None]]


class Cluster:
    """This process among the others: it tells the rest of the server what it hears through the
    event bus (NoticeHeard, Resynced, LeaseGained) and runs the jobs handed to it (`soon`); it
    knows nothing of the tables themselves."""

    def __init__(self, settings: Settings, store: Store, db: Database, events: Bus) -> None:
        self.settings = settings
        self.store = store
        self.db = db
        self.events = events
        self.name = process_name()
        self.leases = Leases(settings.lease_seconds)
        self.lease_store = LeaseStore(store.engine)
        self.listener: Listener | None = None
        self.renewer: asyncio.Task[None] | None = None
        # One job per (kind, table) at a time; a notice arriving meanwhile runs it once more.
        self.running: dict[tuple[str, str], asyncio.Task[None]] = {}
        self.again: set[tuple[str, str]] = set()

    async def listen(self) -> None:
        """Start hearing the other processes (before this one serves anything)."""
        store = self.store
        store.origin = self.name
        store.channel = await self.db.run(channel_of, store.engine)
        store.notice_bytes = self.settings.notice_bytes
        self.listener = Listener(store.engine, store.channel, self.name, self._heard, self._resync)
        await self.listener.start()

    async def start_leases(self) -> None:
        await self.lease_round()
        self.renewer = asyncio.create_task(self._renew_now_and_then())

    async def stop(self) -> None:
        if self.renewer is not None:
            self.renewer.cancel()
        for task in list(self.running.values()):
            task.cancel()
        if self.listener is not None:
            await self.listener.stop()
        # Given up at once, so that the others take these tables over without waiting.
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.lease_store.release, self.name)

    # --- notices ------------------------------------------------------------------------------

    def _heard(self, notice: Notice) -> None:
        self.events.publish(NoticeHeard(notice))

    async def _resync(self) -> None:
        """Listening again after a drop: whatever was missed meanwhile is read afresh."""
        self.events.publish(Resynced())

    def soon(self, kind: str, table_id: str, job: Job) -> None:
        key = (kind, table_id)
        if key in self.running:
            self.again.add(key)
            return
        self.running[key] = asyncio.create_task(self._repeat(key, job))

    def busy(self, kind: str, table_id: str) -> bool:
        """Whether a job of this kind for this table is running or waiting to (see `soon`)."""
        return (kind, table_id) in self.running

    async def _repeat(self, key: tuple[str, str], job: Job) -> None:
        try:
            while True:
                self.again.discard(key)
                try:
                    await job()
                except ServerError as error:
                    log.error("table not brought up to date", extra={"table": key[1], "error": error.message})
                except Exception:
                    log.exception("table not brought up to date", extra={"event": "server_fault", "table": key[1]})
                if key not in self.again:
                    return
        finally:
            del self.running[key]

    # --- leases -------------------------------------------------------------------------------

    def runs(self, table_id: str) -> bool:
        """Whether this process runs the table's bots and clock now."""
        return self.leases.holds(table_id)

    async def take(self, table_id: str) -> None:
        """Lease a table just opened here (it has bots or a clock): its bots run here."""
        sent = time.monotonic()
        if await self.db.run(self.lease_store.take, self.name, table_id, self.leases.seconds):
            self.leases.held.add(table_id)
            self.leases.valid_until = max(self.leases.valid_until, sent + self.leases.seconds)

    async def lease_round(self) -> None:
        sent = time.monotonic()
        settings = self.settings
        try:
            held = await self.db.run(self.lease_store.round, self.name, settings.lease_seconds, settings.lease_take)
        except ServerError:
            return  # nothing renewed: the leases lapse here on their own before anybody else takes them
        gained, lost = self.leases.renewed(held, sent)
        if lost:
            log.warning("leases lost", extra={"event": "leases_lost", "tables": sorted(lost)})
        if gained:
            log.info("leases taken", extra={"event": "leases_taken", "tables": sorted(gained)})
            for table_id in gained:
                self.events.publish(LeaseGained(table_id))

    async def _renew_now_and_then(self) -> None:
        period = self.settings.lease_seconds / 3
        while True:
            await asyncio.sleep(period)
            try:
                await self.lease_round()
            except Exception:
                log.exception("lease round failed", extra={"event": "server_fault"})
