"""Tables that end before their game does: conceded, left, or idle for too long (expired)."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime, timedelta

from parlour.agents import make_agent
from parlour.server.authority.base import HubBase
from parlour.server.authority.events import (
    GameFinished,
    SeatsChanged,
)
from parlour.server.authority.table import OPEN, LiveTable, Seat
from parlour.server.edge.errors import ServerError
from parlour.server.edge.logs import log


class Endings(HubBase):
    async def expire_idle(self) -> list[str]:
        """End the tables idle for table_expiry_seconds (no move, no seat taken; tables with a
        clock are never idle) as expired; returns their ids. 0 seconds: tables never expire."""
        most = self.settings.table_expiry_seconds
        if most <= 0:
            return []
        cutoff = datetime.now(UTC) - timedelta(seconds=most)
        expired = []
        for table_id in await self.db.run(self.store.idle_tables, cutoff):
            table = self.tables.get(table_id) or self.held.get(table_id)
            if table is None:
                if await self.db.run(self.store.expire, table_id, cutoff):
                    self.forget_summary(table_id)
                    self._closed(table_id)
                    expired.append(table_id)
                    await self.announce_ended(table_id)  # another process may hold it in memory
                    with contextlib.suppress(ServerError):  # told once it is read back (rebuilt, as ended)
                        self.events.publish(GameFinished(await self.table(table_id)))
                continue
            async with table.lock:  # no move is committed while the table ends
                if not await self.db.run(self.store.expire, table_id, cutoff):
                    continue
                self._end(table, "expired")
            await self.announce_ended(table_id)
            expired.append(table_id)
        if expired:
            log.info("tables expired", extra={"event": "tables_expired", "tables": expired})
        return expired

    def _end(self, table: LiveTable, ended: str) -> None:
        """The table in memory ends (stored already): its clients are told, its bots stop."""
        table.ended = ended
        table.finished_at = datetime.now(UTC)
        table.tentative = None
        self._closed(table.id)
        if table.bot_task is not None:
            table.bot_task.cancel()
        self.events.publish(GameFinished(table))
        table.broadcast_sync()
        self.let_go_if_over(table)

    async def announce_ended(self, table_id: str) -> None:
        """Tell the other processes that the table ended before its game did (no-op on SQLite):
        those holding it in memory end it there too and tell their clients (Sync.end_heard)."""
        if self.cluster is not None:
            await self.db.run(self.store.announce_now, [f"e {self.cluster.name} {table_id}"])

    async def end_heard(self, table: LiveTable) -> None:
        """Another process ended this table before its game did: it ends here as stored."""
        async with table.lock:
            if table.ended is not None:
                return
            record = await self.db.run(self.store.table, table.id)
            if record is None or record.ended is None:
                return
            self._end(table, record.ended)

    async def concede(self, table: LiveTable, seat: int) -> None:
        """`seat` gives up: it loses. With one other person's seat still playing (or none), the
        table ends at once; with more, the timeout bot plays the seat out and the others play on.
        At a rated table the seat ranks last either way (server/ratings.py)."""
        await self._stop_playing(table, seat, "conceded", forfeited=True)

    async def leave(self, table: LiveTable, seat: int, rated: bool) -> None:
        """`seat`'s person leaves. Before the game starts the seat is free again; at a rated
        table leaving is conceding; else the timeout bot takes the seat and the others play on,
        or, with no other person playing, the table ends."""
        if table.status == OPEN:
            await self._free(table, seat)
        elif rated:
            await self.concede(table, seat)
        else:
            await self._stop_playing(table, seat, "left", forfeited=False)

    async def _free(self, table: LiveTable, seat: int) -> None:
        async with table.lock:
            held = table.seats[seat]
            if table.status != OPEN or held.token_hash is None:
                raise ServerError("game_started", "the game has started: concede or leave it to a bot", 409)
            if not await self.db.run(self.store.free_seat, table.id, seat, held.token_hash):
                raise ServerError("seat_taken", "this seat is played from another device now", 409)
            held.name = held.token_hash = None
        self.events.publish(SeatsChanged(table))
        log.info("seat left", extra={"event": "seat_left", "table": table.id, "seat": seat})
        await self.announce_seats(table.id)
        self._let_go_of_seat(table, seat, 4005, "this seat was left")
        table.broadcast_sync()

    async def _stop_playing(self, table: LiveTable, seat: int, how: str, forfeited: bool) -> None:
        """`seat` stops playing (`how`: 'conceded' or 'left'): the table ends if at most one other
        person plays at it (none, for a seat that left), else the timeout bot takes the seat."""
        async with table.lock:
            self._check_playing(table)
            people = [s for s in table.seats if not s.is_bot and s.index != seat]
            if len(people) <= (1 if forfeited else 0):
                ended = f"{how} {seat}"
                if not await self.db.run(self.store.give_up, table.id, seat, None, ended, forfeited):
                    raise ServerError("game_over", "the game is over", 409)
                self._end(table, ended)
            else:
                ended = None
                spec = self.settings.timeout_agent
                await self.db.run(self.store.give_up, table.id, seat, spec, None, forfeited)
                self._hand_to_bot(table, table.seats[seat], spec)
                self.events.publish(SeatsChanged(table))
        log.info(f"seat {how}", extra={"event": how, "table": table.id, "seat": seat, "ended": ended})
        await self.announce_seats(table.id)
        if ended is not None:
            await self.announce_ended(table.id)
        if ended is None:
            self._let_go_of_seat(table, seat, 4005, f"this seat {how}")
            table.broadcast_sync()
            self.wake_bots(table)

    @staticmethod
    def _hand_to_bot(table: LiveTable, seat: Seat, spec: str) -> None:
        """The bot `spec` plays `seat` from now on; seeded as a rebuild would seed it."""
        if table.tentative is not None and table.tentative.seat == seat.index:
            table.tentative = None
        seat.agent_spec, seat.token_hash = spec, None
        seat.agent = make_agent(spec, LiveTable._bot_seed(table.state.seed, table.deal, seat.index))
