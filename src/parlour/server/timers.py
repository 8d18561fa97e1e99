"""Turn-based tables: a time per move, and what happens when it runs out.

A table is opened `live` (the default: no clock) or `turn_based` with `move_seconds` and
`on_timeout`. While a person is to move at a running turn-based table, the turn has a deadline,
stored in the database with the table's version when it was set, so that a restart keeps the
same deadline (a deadline passed while the server was down expires as soon as it is back).
When the deadline passes and that person still has not moved:

- `bot`: the timeout bot (`timeout_agent`) plays that one turn for the seat, through the same
  path and checks as any move; the person keeps the seat and plays the next turn.
- `forfeit`: the seat is forfeited: its token stops working and the timeout bot plays the seat
  to the end of the game, so the others' game goes on.

The clock is watched by one task every `timer_poll` seconds: it notices tables whose version or
status changed (a move, a seat taken), sets or clears their deadline, and expires those due.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from fastapi import APIRouter, Request
from sqlalchemy import select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from parlour.agents import make_agent
from parlour.server.errors import ServerError
from parlour.server.hub import Hub
from parlour.server.logs import log
from parlour.server.models import SeatRow, TableRow, now
from parlour.server.requests import hub_of
from parlour.server.settings import Settings
from parlour.server.table import FINISHED, RUNNING, LiveTable

LIVE, TURN_BASED = "live", "turn_based"
BOT, FORFEIT = "bot", "forfeit"
Mode = Literal["live", "turn_based"]
OnTimeout = Literal["bot", "forfeit"]

router = APIRouter()


def _aware(moment: datetime | None) -> datetime | None:
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


@dataclass
class Clock:
    table_id: str
    move_seconds: float
    on_timeout: str
    deadline: datetime | None = None
    version: int | None = None  # the table's version when the deadline was set
    seen: tuple[int, str] | None = None  # the (version, status) the deadline was worked out for

    def to_json(self, version: int, to_move: int) -> dict[str, Any]:
        # A deadline belongs to the turn it was set for: just after a move, until the watch sets
        # the next one, no clock runs.
        deadline = self.deadline if self.version == version else None
        left = None if deadline is None else max(0.0, (deadline - now()).total_seconds())
        return {
            "mode": TURN_BASED,
            "move_seconds": self.move_seconds,
            "on_timeout": self.on_timeout,
            "deadline": deadline.isoformat() if deadline else None,
            "seconds_left": left,
            "to_move": to_move if deadline else None,
        }


class TimerStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def set_mode(self, table_id: str, move_seconds: float, on_timeout: str) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(mode=TURN_BASED, move_seconds=move_seconds, on_timeout=on_timeout)
            )

    def clocks(self) -> list[Clock]:
        """The clocks of every unfinished turn-based table, with their stored deadlines."""
        columns = (TableRow.id, TableRow.move_seconds, TableRow.on_timeout, TableRow.turn_deadline)
        chosen = select(*columns, TableRow.deadline_version).where(
            TableRow.mode == TURN_BASED, TableRow.finished_at.is_(None)
        )
        with Session(self.engine) as session:
            return [
                Clock(table_id, float(seconds or 0), on_timeout or BOT, _aware(deadline), version)
                for table_id, seconds, on_timeout, deadline, version in session.execute(chosen)
            ]

    def set_deadline(self, table_id: str, deadline: datetime | None, version: int | None) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(TableRow).where(TableRow.id == table_id).values(turn_deadline=deadline, deadline_version=version)
            )

    def forfeit(self, table_id: str, seat: int, agent: str) -> None:
        """The seat is the bot's from now on, and its token holds nothing any more."""
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(agent=agent, token_hash=None, forfeited=True)
            )


class Timers:
    def __init__(self, settings: Settings, hub: Hub) -> None:
        self.settings = settings
        self.hub = hub
        self.store = TimerStore(hub.store.engine)
        self.clocks: dict[str, Clock] = {}
        self.task: asyncio.Task[None] | None = None
        self.expired = 0

    async def start(self) -> None:
        for clock in await self.hub._db(self.store.clocks):
            self.clocks[clock.table_id] = clock
        self.task = asyncio.create_task(self._watch())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    def check(self, mode: str, move_seconds: float | None, on_timeout: str | None) -> None:
        """Refuse a mode whose settings are missing, out of bounds or meaningless."""
        settings = self.settings
        if mode == LIVE:
            if move_seconds is not None or on_timeout is not None:
                raise ServerError("bad_mode", "move_seconds and on_timeout belong to turn_based tables", 422)
            return
        if move_seconds is None:
            raise ServerError("bad_mode", "a turn_based table needs move_seconds, the time per move", 422)
        if not settings.min_move_seconds <= move_seconds <= settings.max_move_seconds:
            raise ServerError(
                "bad_mode",
                f"move_seconds must be from {settings.min_move_seconds:g} to {settings.max_move_seconds:g}, "
                f"got {move_seconds:g}",
                422,
            )

    async def open(self, table: LiveTable, move_seconds: float, on_timeout: str) -> None:
        await self.hub._db(self.store.set_mode, table.id, move_seconds, on_timeout)
        self.clocks[table.id] = Clock(table.id, move_seconds, on_timeout)
        await self._rearm(self.clocks[table.id], table)

    def clock_json(self, table: LiveTable) -> dict[str, Any] | None:
        clock = self.clocks.get(table.id)
        return None if clock is None else clock.to_json(table.version, table.state.current_player())

    def summary_clock(self, summary: dict[str, Any]) -> dict[str, Any] | None:
        """The clock of a table from its lobby summary (the table itself may be out of memory)."""
        clock = self.clocks.get(summary["id"])
        return None if clock is None else clock.to_json(summary["version"], summary["to_move"])

    # --- the watch ----------------------------------------------------------------------------

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.settings.timer_poll)
            try:
                await self.tick()
            except Exception:
                log.exception("timers failed", extra={"event": "server_fault"})

    def _in_memory(self, table_id: str) -> LiveTable | None:
        # A table not in memory has not changed since it left it: only these need a look.
        return self.hub.tables.get(table_id) or self.hub.held.get(table_id)

    async def tick(self) -> None:
        moment = now()
        for clock in list(self.clocks.values()):
            table = self._in_memory(clock.table_id)
            if table is not None and (table.version, table.status) != clock.seen:
                await self._rearm(clock, table)
            if clock.deadline is not None and clock.deadline <= moment:
                await self._expire(clock)

    async def _rearm(self, clock: Clock, table: LiveTable) -> None:
        """Work out the deadline of the turn now being played (or none), and store it."""
        clock.seen = (table.version, table.status)
        if table.status == FINISHED:
            del self.clocks[clock.table_id]
            await self.hub._db(self.store.set_deadline, table.id, None, None)
            return
        seat = table.seat_to_move()
        if table.status != RUNNING or seat is None or seat.is_bot:
            deadline, version = None, None
        elif clock.deadline is not None and clock.version == table.version:
            return  # the same turn (after a restart, say): its deadline stands
        else:
            deadline, version = now() + timedelta(seconds=clock.move_seconds), table.version
        if (deadline, version) != (clock.deadline, clock.version):
            await self.hub._db(self.store.set_deadline, table.id, deadline, version)
            clock.deadline, clock.version = deadline, version

    async def _expire(self, clock: Clock) -> None:
        try:
            table = await self.hub.table(clock.table_id)
        except ServerError as error:
            log.error("timed table cannot be loaded", extra={"table": clock.table_id, "error": error.message})
            del self.clocks[clock.table_id]
            return
        seat = table.seat_to_move()
        if table.version != clock.version or table.status != RUNNING or seat is None or seat.is_bot:
            await self._rearm(clock, table)
            return
        self.expired += 1
        log.info(
            "turn timed out",
            extra={"event": "turn_timeout", "table": table.id, "seat": seat.index, "on_timeout": clock.on_timeout},
        )
        spec = self.settings.timeout_agent
        if clock.on_timeout == FORFEIT:
            await self.hub._db(self.store.forfeit, table.id, seat.index, spec)
            seat.agent_spec, seat.token_hash = spec, None
            # Seeded as a rebuild would seed the seat's bot: from the secret salt on a drawn deal.
            seat.agent = make_agent(spec, LiveTable._bot_seed(table.state.seed, table.deal, seat.index))
            for client in list(table.clients):
                if client.seat == seat.index:
                    client.close(4004, "this seat was forfeited: its time ran out")
            clock.seen = None
            table.broadcast_sync()
            self.hub._wake_bots(table)
            return
        # Never seeded from the seed alone: the bot's moves must not lead back to a drawn deal.
        agent = make_agent(spec, LiveTable._bot_seed(table.state.seed, table.deal, seat.index) + table.version)
        try:
            action = await self.hub._think(agent, table.state.clone())
            await self.hub.submit(table, seat.index, action.id, clock.version)
        except ServerError as error:
            # The person moved meanwhile (stale_version): the next look sets the next deadline.
            log.info("timeout move not played", extra={"table": table.id, "error": error.message})
        clock.seen = None


def timers_of(request: Any) -> Timers:
    timers: Timers = request.app.state.timers
    return timers


@router.get("/api/tables/{table_id}/clock", tags=["play"])
async def clock(request: Request, table_id: str) -> dict[str, Any]:
    """The table's clock: live, or turn_based with the time per move, what a timeout does, and
    the deadline and seconds left of the turn being played (null while nobody's clock runs)."""
    table = await hub_of(request).table(table_id)
    shown = timers_of(request).clock_json(table)
    return {"table": table.id, **(shown or {"mode": LIVE})}
