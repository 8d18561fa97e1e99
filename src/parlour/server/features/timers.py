"""Turn-based tables: a time per move, and what happens when it runs out.

A table is opened `live` (the default: no clock, or with `time_bank_seconds` a time bank per seat
like a chess clock, spent while that seat is to move) or `turn_based` with `move_seconds` and
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
Where several processes share a PostgreSQL database, a table's clock is watched only by the
process holding its lease (server/leases.py); the others read the stored deadlines once a
second (CLOCKS_READ_SECONDS) to show them.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Request
from pydantic import Field
from sqlalchemy import or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from parlour.agents import make_agent
from parlour.server.authority.hub import Hub
from parlour.server.authority.table import FINISHED, RUNNING, LiveTable
from parlour.server.db.models import SeatRow, TableRow, now
from parlour.server.edge.errors import ServerError
from parlour.server.edge.logs import log
from parlour.server.edge.requests import Strict, bearer, hub_of
from parlour.server.settings import Settings

LIVE, TURN_BASED = "live", "turn_based"
BOT, FORFEIT = "bot", "forfeit"
Mode = Literal["live", "turn_based"]
OnTimeout = Literal["bot", "forfeit"]

router = APIRouter()
# Several processes: how often a process reads the stored clocks (the others', to show them, and
# those it has just taken over), at the least; timer_poll if that is longer.
CLOCKS_READ_SECONDS = 1.0


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
    # A live table's time banks: each seat's seconds left (move_seconds is then each bank's start),
    # and the seat whose bank the deadline spends.
    banks: list[float] | None = None
    seat: int | None = None

    def to_json(self, version: int, to_move: int) -> dict[str, Any]:
        # A deadline belongs to the turn it was set for: just after a move, until the watch sets
        # the next one, no clock runs.
        deadline = self.deadline if self.version == version else None
        left = None if deadline is None else max(0.0, (deadline - now()).total_seconds())
        banked = self.banks is not None
        return {
            "mode": LIVE if banked else TURN_BASED,
            "move_seconds": None if banked else self.move_seconds,
            "time_bank_seconds": self.move_seconds if banked else None,
            "time_banks": [round(bank, 3) for bank in self.banks] if self.banks is not None else None,
            "on_timeout": self.on_timeout,
            "deadline": deadline.isoformat() if deadline else None,
            "seconds_left": left,
            "to_move": to_move if deadline else None,
        }


class TimerStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def set_mode(self, table_id: str, move_seconds: float, on_timeout: str, banks: list[float] | None) -> None:
        mode = TURN_BASED if banks is None else LIVE
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(mode=mode, move_seconds=move_seconds, on_timeout=on_timeout, time_banks=banks)
            )

    def clocks(self) -> list[Clock]:
        """The clocks of every unfinished turn-based table, with their stored deadlines."""
        columns = (TableRow.id, TableRow.move_seconds, TableRow.on_timeout, TableRow.turn_deadline)
        more = (TableRow.deadline_version, TableRow.time_banks, TableRow.deadline_seat)
        timed = or_(TableRow.mode == TURN_BASED, TableRow.time_banks.is_not(None))
        chosen = select(*columns, *more).where(timed, TableRow.finished_at.is_(None))
        with Session(self.engine) as session:
            return [
                Clock(table_id, float(seconds or 0), on_timeout or BOT, _aware(deadline), version, None, banks, seat)
                for table_id, seconds, on_timeout, deadline, version, banks, seat in session.execute(chosen)
            ]

    def set_deadline(self, table_id: str, clock: Clock) -> None:
        """Store the clock's deadline (and its time banks): what a restart takes up again."""
        values: dict[str, Any] = {
            "turn_deadline": clock.deadline,
            "deadline_version": clock.version,
            "deadline_seat": clock.seat,
        }
        if clock.banks is not None:
            values["time_banks"] = list(clock.banks)
        with Session(self.engine) as session, session.begin():
            session.execute(update(TableRow).where(TableRow.id == table_id).values(**values))

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
        self.db = hub.db  # the database runner (server/db/runner.py)
        self.store = TimerStore(hub.store.engine)
        self.clocks: dict[str, Clock] = {}
        # The clocks this process watched at its last look (several processes: the others' are shown only).
        self.watched: set[str] = set()
        self.refreshed = 0.0
        self.task: asyncio.Task[None] | None = None
        self.expired = 0
        # Per table, the seats whose last turn the timeout played, with the table's version just
        # after it (in this process, since it started): the others may expel such a seat.
        self.lapsed: dict[str, dict[int, int]] = {}

    async def start(self) -> None:
        for clock in await self.db.run(self.store.clocks):
            self.clocks[clock.table_id] = clock
        self.task = asyncio.create_task(self._watch())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    def check(self, mode: str, move_seconds: float | None, on_timeout: str | None, bank: float | None = None) -> None:
        """Refuse a mode whose settings are missing, out of bounds or meaningless."""
        if mode == LIVE:
            if move_seconds is not None:
                raise ServerError("bad_mode", "move_seconds belongs to turn_based tables", 422)
            if on_timeout is not None and bank is None:
                raise ServerError("bad_mode", "on_timeout belongs to turn_based tables and time banks", 422)
            if bank is not None:
                self._within("time_bank_seconds", bank)
            return
        if bank is not None:
            raise ServerError("bad_mode", "time_bank_seconds belongs to live tables", 422)
        if move_seconds is None:
            raise ServerError("bad_mode", "a turn_based table needs move_seconds, the time per move", 422)
        self._within("move_seconds", move_seconds)

    def _within(self, name: str, seconds: float) -> None:
        least, most = self.settings.min_move_seconds, self.settings.max_move_seconds
        if not least <= seconds <= most:
            raise ServerError("bad_mode", f"{name} must be from {least:g} to {most:g}, got {seconds:g}", 422)

    async def open(self, table: LiveTable, seconds: float, on_timeout: str, banked: bool = False) -> None:
        """Start a table's clock: `seconds` per move (turn-based) or in each seat's bank (banked)."""
        banks = [seconds] * len(table.seats) if banked else None
        await self.db.run(self.store.set_mode, table.id, seconds, on_timeout, banks)
        if self.hub.cluster is not None:
            await self.hub.cluster.take(table.id)
        self.clocks[table.id] = Clock(table.id, seconds, on_timeout, banks=banks)
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

    def _runs(self, table_id: str) -> bool:
        cluster = self.hub.cluster
        return cluster is None or cluster.runs(table_id)

    async def _refresh(self) -> None:
        """The clocks as stored: those another process watches, and those newly leased here."""
        stored = {clock.table_id: clock for clock in await self.db.run(self.store.clocks)}
        for table_id, clock in stored.items():
            # A clock taken over goes on from what its last holder stored, not from what was
            # read for showing before.
            if not self._runs(table_id) or table_id not in self.watched:
                self.clocks[table_id] = clock
        for table_id in list(self.clocks):
            if table_id not in stored and not self._runs(table_id):
                del self.clocks[table_id]
        self.watched = {table_id for table_id in self.clocks if self._runs(table_id)}

    async def tick(self) -> None:
        if self.hub.cluster is not None and any(self._runs(t) and t not in self.watched for t in self.clocks):
            await self._refresh()  # a clock just taken over goes on from what its last holder stored
        moment = now()
        for clock in list(self.clocks.values()):
            if not self._runs(clock.table_id):
                continue
            table = self._in_memory(clock.table_id)
            if table is not None and (table.version, table.status) != clock.seen:
                await self._rearm(clock, table)
            if clock.deadline is not None and clock.deadline <= moment:
                await self._expire(clock)
        # Read after this process's own clocks are seen to, and at most once a second: it must
        # not delay them (a time bank is spent until the move is noticed).
        if self.hub.cluster is not None and time.monotonic() - self.refreshed >= CLOCKS_READ_SECONDS:
            self.refreshed = time.monotonic()
            await self._refresh()

    async def _rearm(self, clock: Clock, table: LiveTable) -> None:
        """Work out the deadline of the turn now being played (or none), and store it."""
        clock.seen = (table.version, table.status)
        seat = table.seat_to_move()
        person = table.status == RUNNING and seat is not None and not seat.is_bot
        if person and clock.deadline is not None and clock.version == table.version:
            return  # the same turn (after a restart, say): its deadline stands
        moment = now()
        if clock.banks is not None and clock.deadline is not None and clock.seat is not None:
            # The turn just played spent its seat's bank down to what the deadline had left.
            clock.banks[clock.seat] = max(0.0, (clock.deadline - moment).total_seconds())
        if not person or seat is None:
            clock.deadline = clock.version = clock.seat = None
        else:
            seconds = clock.move_seconds if clock.banks is None else clock.banks[seat.index]
            clock.deadline, clock.version, clock.seat = moment + timedelta(seconds=seconds), table.version, seat.index
        if table.status == FINISHED:
            del self.clocks[clock.table_id]
        await self.db.run(self.store.set_deadline, table.id, clock)

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
        # The turn's tentative steps were never committed: the timeout plays the whole turn.
        self.hub.drop_tentative(table, seat.index)
        log.info(
            "turn timed out",
            extra={"event": "turn_timeout", "table": table.id, "seat": seat.index, "on_timeout": clock.on_timeout},
        )
        spec = self.settings.timeout_agent
        if clock.on_timeout == FORFEIT:
            await self._forfeit(table, seat.index, "this seat was forfeited: its time ran out")
            clock.seen = None
            return
        # Never seeded from the seed alone: the bot's moves must not lead back to a drawn deal.
        agent = make_agent(spec, LiveTable._bot_seed(table.state.seed, table.deal, seat.index) + table.version)
        try:
            action = await self.hub.think(agent, table.state.clone())
            # Committed at once, never held tentative: nobody is there to take it back.
            move = await self.hub.submit(table, seat.index, action.id, clock.version, hold=False)
            self.lapsed.setdefault(table.id, {})[seat.index] = move.version
        except ServerError as error:
            # The person moved meanwhile (stale_version): the next look sets the next deadline.
            log.info("timeout move not played", extra={"table": table.id, "error": error.message})
        clock.seen = None

    async def _forfeit(self, table: LiveTable, seat: int, reason: str) -> None:
        """The seat is the timeout bot's to the end of the game; its token holds nothing."""
        spec = self.settings.timeout_agent
        await self.db.run(self.store.forfeit, table.id, seat, spec)
        await self.hub.announce_seats(table.id)
        held = table.seats[seat]
        held.agent_spec, held.token_hash = spec, None
        # Seeded as a rebuild would seed the seat's bot: from the secret salt on a drawn deal.
        held.agent = make_agent(spec, LiveTable._bot_seed(table.state.seed, table.deal, seat))
        for client in list(table.clients):
            if client.seat == seat:
                client.close(4004, reason)
        table.broadcast_sync()
        self.hub.wake_bots(table)

    async def expel(self, table: LiveTable, by: int, seat: int) -> None:
        """`by` expels `seat`, a person whose last turn ran out of time (the timeout bot played
        it) and who has not moved since: the seat is forfeited to the timeout bot."""
        if not 0 <= seat < len(table.seats) or seat == by:
            raise ServerError("no_seat", f"name another seat of this table (0..{len(table.seats) - 1})", 422)
        if table.status != RUNNING or table.seats[seat].is_bot:
            raise ServerError("not_out_of_time", f"seat {seat} is not a person playing at a running table", 409)
        since = self.lapsed.get(table.id, {}).get(seat)
        played = [] if since is None else await self.db.run(self.hub.store.actions_from, table.id, since)
        if since is None or any(mover == seat for _, mover in played):
            raise ServerError(
                "not_out_of_time",
                f"seat {seat} may be expelled only once its time ran out and before it moves again",
                409,
            )
        self.lapsed[table.id].pop(seat, None)
        log.info("seat expelled", extra={"event": "expelled", "table": table.id, "seat": seat, "by": by})
        await self._forfeit(table, seat, "this seat was expelled: its time ran out")


class ExpelSeat(Strict):
    seat: int = Field(description="the seat to expel: a person whose last turn ran out of time")


def timers_of(request: Any) -> Timers:
    timers: Timers = request.app.state.timers
    return timers


@router.post("/api/tables/{table_id}/expel", tags=["play"])
async def expel(
    request: Request, table_id: str, body: ExpelSeat, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """With a seat's token: expel another seat whose turn ran out of time (docs/server.md,
    "Leaving and ending"); the timeout bot plays it to the end."""
    table = await hub_of(request).table(table_id)
    holder = table.seat_with_token(bearer(authorization))
    if holder is None:
        raise ServerError("bad_token", "this token holds no seat at this table", 403)
    await timers_of(request).expel(table, holder.index, body.seat)
    return table.summary("")


@router.get("/api/tables/{table_id}/clock", tags=["play"])
async def clock(request: Request, table_id: str) -> dict[str, Any]:
    """The table's clock: live, or turn_based with the time per move, what a timeout does, and
    the deadline and seconds left of the turn being played (null while nobody's clock runs)."""
    table = await hub_of(request).table(table_id)
    shown = timers_of(request).clock_json(table)
    return {"table": table.id, **(shown or {"mode": LIVE})}
