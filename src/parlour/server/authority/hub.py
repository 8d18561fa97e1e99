"""The hub: every live table, and the one path by which an action reaches a table (moves.py).

An action is checked (seat, turn, version, legality), applied to a copy of the state, committed to
the database, and only then does the copy become the table's state and the move get broadcast.
A refused or unsaved action leaves the table exactly as it was.

Only the tables being played or watched are kept in memory; the others are rebuilt from the
database when asked for. Bots think in fair turns within a cap per move, hints on threads of
their own; docs/server.md ("Limits on tables, bots and memory") describes every limit.

The Hub is made of parts, one module each (authority/base.py lists them); this module holds
its life cycle and how a table is found or rebuilt."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import UTC, datetime
from typing import Any

import anyio
import anyio.to_thread

from parlour.deal import Deal
from parlour.engine.errors import IllegalAction, RecordError
from parlour.engine.game import Game, State
from parlour.engine.registry import game_class, game_classes
from parlour.server.authority.base import _aware, _mark_of
from parlour.server.authority.bots import Bots
from parlour.server.authority.endings import Endings
from parlour.server.authority.lobby import Lobby
from parlour.server.authority.moves import MovePath
from parlour.server.authority.opening import Openers
from parlour.server.authority.sync import Sync
from parlour.server.authority.table import LiveTable, Seat
from parlour.server.db.store import StoredTable
from parlour.server.edge.errors import ServerError, not_found
from parlour.server.edge.logs import log


class Hub(MovePath, Openers, Bots, Lobby, Endings, Sync):
    async def start(self) -> None:
        # Every game found once, here: the registry fills itself on first use, and two worker
        # threads rebuilding tables at once must not find it half filled.
        game_classes()
        await anyio.to_thread.run_sync(self.store.migrate)
        if self.cluster is not None:
            await self.cluster.listen()
        stored = await self.db.run(self.store.unfinished_tables)
        # Tables of the same game and options one after another: each Game is built once, however
        # many option sets there are beyond what the cache keeps.
        stored.sort(key=lambda record: (record.game, json.dumps(record.options, sort_keys=True, default=str)))
        rebuilt = 0
        for record in stored:
            try:
                table = self._rebuild(record)
                rebuilt += 1
            except Exception as error:
                # One table that cannot be rebuilt (a corrupt record, a game that fails to load)
                # must not keep every other table offline; it answers `broken_table` instead.
                log.error("table cannot be rebuilt", extra={"table": record.id, "error": repr(error)})
                continue
            # Only a table whose bot is to move needs to be in memory now; the others wait in the
            # lobby as summaries until somebody comes back to them.
            if self._bot_to_move(table):
                self.tables[table.id] = table
            else:
                self.resting[table.id] = table.summary("")
                self.marked[table.id] = (_mark_of(table), self.resting[table.id])
        self.writer.start()
        if self.cluster is not None:
            await self.cluster.start_leases()
        for table in list(self.tables.values()):
            self.wake_bots(table)
        self.sweeper = asyncio.create_task(self._sweep_now_and_then())
        log.info(
            "server started",
            extra={"event": "started", "database": self.store.backend, "tables_rebuilt": rebuilt},
        )

    async def stop(self) -> None:
        self.stopping = True
        if self.sweeper is not None:
            self.sweeper.cancel()
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
            for client in list(table.clients):
                client.close(1001, "server shutting down")
        if self.cluster is not None:
            await self.cluster.stop()
        await self.events.stop()
        await self.writer.stop()
        await self.db.stop()
        self.store.close()

    def _game(self, cls: type[Game], options: dict[str, Any]) -> Game:
        """The game with these options, from the cache: building an action space takes up to a few
        hundred milliseconds, and a Game is shared by all its states."""
        return self.games.get(cls, options)

    def _rebuild(self, record: StoredTable) -> LiveTable:
        """A table as the database describes it: its seed and actions replayed through the engine."""
        state = self._replay(record)
        seats = [Seat(s.seat, s.agent, s.name, s.token_hash) for s in record.seats]
        created = _aware(record.created_at) or datetime.now(UTC)
        committed = Deal(record.salt, record.commitment, record.fixed_deal)
        table = LiveTable.seated(record.id, state, seats, created, committed)
        table.finished_at = _aware(record.finished_at)
        table.ended = record.ended
        return table

    def _replay(self, record: StoredTable) -> State:
        """The table's position: its seed and actions replayed on the cached Game of its options."""
        game = self._game(game_class(record.game), record.options)
        state = game.new_state(seed=record.seed)
        for step, (action_id, _) in enumerate(record.actions):
            try:
                state.apply(game.action(action_id))
            except IllegalAction as error:
                raise RecordError(f"step {step} (move {step + 1}): {error}", step) from None
        return state

    async def table(self, table_id: str) -> LiveTable:
        """A table by id; one not in memory (finished, or idle for a while) is rebuilt from the database."""
        table = self._in_memory(table_id)
        if table is not None:
            if table.stale:
                await self.catch_up(table)
            return table
        if len(table_id) > 32:
            raise not_found(table_id)
        record = await self.db.run(self.store.table, table_id)
        if record is None:
            raise not_found(table_id)
        try:
            # Replaying a long game takes a while: off the event loop, like every other long task.
            rebuilt = await anyio.to_thread.run_sync(self._rebuild, record)
        except Exception as error:
            raise ServerError(
                "broken_table", f"table {table_id} cannot be rebuilt from its record: {error}", 409
            ) from None
        # Another request may have brought the table back meanwhile: then that one is the table.
        table = self._in_memory(table_id) or self._take_back(rebuilt)
        if self.cluster is not None and table is rebuilt:
            # A move committed elsewhere between the read and now was announced to nobody here.
            self.cluster.soon("m", table.id, lambda: self.catch_up(table))
        self.wake_bots(table)
        return table

    def _in_memory(self, table_id: str) -> LiveTable | None:
        table = self.tables.get(table_id)
        if table is None and (table := self.held.get(table_id)) is not None:
            self._take_back(table)
        if table is not None:
            table.touched = time.monotonic()
        return table

    def keep(self, table: LiveTable) -> None:
        """A client has just attached to `table`: keep it in memory. Between a connection finding
        a table and its hello, an idle sweep may have let go of it; the sweep looks only at the
        tables in memory, so without this the table would never be seen in use again."""
        if table.id not in self.tables:
            self._take_back(table)
        if table.stale and self.cluster is not None:  # set aside while the connection said hello
            self.cluster.soon("m", table.id, lambda: self.catch_up(table))

    def _take_back(self, table: LiveTable) -> LiveTable:
        """Keep `table` in memory again (rebuilt, or let go of but still held somewhere)."""
        self.tables[table.id] = table
        self.held.pop(table.id, None)
        self.resting.pop(table.id, None)
        table.touched = time.monotonic()
        return table
