"""The lobby's summaries and the tables kept in memory: only the tables being played or watched
stay; the others are let go of (their summaries kept for the lobby) and rebuilt when asked for."""

from __future__ import annotations

import asyncio
import contextlib
import time
from datetime import datetime
from typing import Any

import anyio
import anyio.to_thread

from parlour.server.authority.base import HubBase, _mark_of
from parlour.server.authority.table import FINISHED, LiveTable
from parlour.server.db.store import StoredTable
from parlour.server.edge.errors import ServerError
from parlour.server.edge.logs import log

# Summaries of finished tables kept for the lobby, which lists the 50 most recently finished.
FINISHED_KEPT = 100

# How often tables are checked for idleness, at most and at least (a quarter of idle_seconds).
SWEEP_LONGEST, SWEEP_SHORTEST = 30.0, 0.05


class Lobby(HubBase):
    async def lobby(self, wanted: set[str], finished_listed: int) -> list[dict[str, Any]]:
        """Summaries (invite_url empty) of the tables with these statuses, newest first; of the
        finished ones, the `finished_listed` most recently finished."""
        if self.cluster is not None:
            marks = await self.db.run(self.store.marks, None)
            unfinished = await self.summaries(marks)
            self.marked = {table_id: self.marked[table_id] for table_id in marks if table_id in self.marked}
            listed = {summary["id"]: summary for summary in unfinished if summary["status"] in wanted}
        else:
            listed = {table.id: table.summary("") for table in self.tables.values() if table.status in wanted}
            for table_id, summary in self.resting.items():
                if summary["status"] in wanted:
                    listed.setdefault(table_id, summary)
        if FINISHED in wanted:
            for record in await self.finished_tables(finished_listed):
                if record.id not in listed and (finished := await self._finished_summary(record)) is not None:
                    listed[record.id] = finished
        return sorted(listed.values(), key=lambda summary: datetime.fromisoformat(summary["created_at"]), reverse=True)

    async def summaries(self, marks: dict[str, tuple[Any, ...]]) -> list[dict[str, Any]]:
        """The summaries of these tables as the database has them now (`marks`: Store.marks),
        from memory where the table is there, else rebuilt once per change and kept."""
        listed = []
        for table_id, mark in marks.items():
            table = self.tables.get(table_id) or self.held.get(table_id)
            if table is not None:
                if _mark_of(table) != mark:  # a notice on its way: read the change now
                    await self.catch_up(table)
                    await self.refresh_seats(table)
                listed.append(table.summary(""))
                continue
            if mark[1] and (done := self.finished.get(table_id)) is not None:
                listed.append(done)  # a finished table's summary never changes
                continue
            kept = self.marked.get(table_id)
            if kept is None or kept[0] != mark:
                record = await self.db.run(self.store.table, table_id)
                try:
                    rebuilt = await anyio.to_thread.run_sync(self._rebuild, record)
                except Exception as error:
                    log.error("table cannot be rebuilt", extra={"table": table_id, "error": repr(error)})
                    continue
                kept = (mark, rebuilt.summary(""))
                if mark[1]:
                    self._keep_finished(table_id, kept[1])
                else:
                    self.marked[table_id] = kept
            listed.append(kept[1])
        return listed

    async def _finished_summary(self, record: StoredTable) -> dict[str, Any] | None:
        """A finished table's summary (None if its record does not replay), without keeping the
        table in memory: the summary never changes, so it is what is kept."""
        summary = self.finished.get(record.id)
        if summary is not None:
            self.finished.move_to_end(record.id)
            return summary
        held = self._in_memory(record.id)
        if held is not None:
            if held.stale:
                await self.catch_up(held)
            return held.summary("")
        try:
            table = await anyio.to_thread.run_sync(self._rebuild, record)
        except Exception as error:
            log.error("table cannot be rebuilt", extra={"table": record.id, "error": repr(error)})
            return None
        summary = table.summary("")
        self._keep_finished(record.id, summary)
        return summary

    def _keep_finished(self, table_id: str, summary: dict[str, Any]) -> None:
        self.finished[table_id] = summary
        while len(self.finished) > FINISHED_KEPT:
            self.finished.popitem(last=False)

    def _in_use(self, table: LiveTable) -> bool:
        """A table play needs in memory: somebody is connected, a bot is thinking, it is busy, or
        (several processes) its bots and clock run in this one."""
        thinking = table.bot_task is not None and not table.bot_task.done()
        leased = self.cluster is not None and table.status != FINISHED and self.cluster.runs(table.id)
        return bool(table.clients) or thinking or table.lock.locked() or leased

    def let_go_if_over(self, table: LiveTable) -> None:
        """A finished table leaves memory as soon as nothing holds it (no client connected, no
        request at it); a request for it later rebuilds it, its summary stays for the lobby."""
        if table.status == FINISHED and self.tables.get(table.id) is table and not self._in_use(table):
            self._let_go(table)

    def set_aside(self, table: LiveTable) -> None:
        """Another process moved at `table`, which nobody here plays or watches (no client, no
        bot, no lease): rather than replay moves nobody here is shown, it leaves memory, marked
        stale, and is read afresh if it is asked for again (Hub.table, Hub.keep, Hub.submit)."""
        table.stale = True
        if self.tables.get(table.id) is table:
            self._let_go(table)
        self.forget_summary(table.id)

    def sweep(self) -> None:
        """Let go of the finished tables nothing holds, and of the tables idle for idle_seconds:
        no connected client, no bot to move."""
        moment = time.monotonic()
        for table in list(self.tables.values()):
            if self._in_use(table):
                table.touched = moment  # idleness counts from when the table was last in use
            elif table.status == FINISHED or moment - table.touched >= self.settings.idle_seconds:
                self._let_go(table)
        for buckets in (self.openings, self.hints_by_seat, self.hints_by_client, self.logs_by_client):
            buckets.prune()
        self.sweeps += 1

    def _let_go(self, table: LiveTable) -> None:
        del self.tables[table.id]
        self.held[table.id] = table
        summary = table.summary("")
        if table.status == FINISHED:
            self._keep_finished(table.id, summary)
        else:
            self.resting[table.id] = summary

    async def _sweep_now_and_then(self) -> None:
        quickest = min(self.settings.idle_seconds, self.settings.table_expiry_seconds or SWEEP_LONGEST)
        period = min(max(quickest / 4, SWEEP_SHORTEST), SWEEP_LONGEST)
        while True:
            await asyncio.sleep(period)
            self.sweep()
            with contextlib.suppress(ServerError):  # the database is away: the next sweep looks again
                await self.expire_idle()

    async def finished_tables(self, limit: int) -> list[StoredTable]:
        records: list[StoredTable] = await self.db.run(self.store.finished_tables, limit)
        return records

    def forget_summary(self, table_id: str) -> None:
        """A table not in memory changed elsewhere: what is kept of it for the lobby is stale."""
        self.resting.pop(table_id, None)
        self.marked.pop(table_id, None)

    def forget_summaries(self) -> None:
        self.resting.clear()
        self.marked.clear()
