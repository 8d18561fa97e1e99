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

A turn's deadline is set when the move before it commits (the timers subscribe to the authority's
MoveCommitted, SeatsChanged and GameFinished events, server/authority/events.py), and an alarm on
the event loop expires it when due: nothing looks at the tables in between. Where several
processes share a PostgreSQL database, a table's clock runs only in the process holding its lease
(server/cluster/leases.py); every process reads the stored clocks every CLOCKS_READ_SECONDS (or
`timer_poll`, if longer), to show the others' clocks and to take up those it has just leased.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import replace
from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from pydantic import Field

from parlour.agents import make_agent
from parlour.server.authority.events import GameFinished, LeaseGained, MoveCommitted, SeatsChanged
from parlour.server.authority.hub import Hub
from parlour.server.authority.opening import Opening
from parlour.server.authority.table import FINISHED, RUNNING, LiveTable
from parlour.server.db.models import now
from parlour.server.db.timer_store import FORFEIT, LIVE, Clock, TimerStore
from parlour.server.edge.errors import ServerError
from parlour.server.edge.logs import log
from parlour.server.edge.requests import Strict, bearer, hub_of
from parlour.server.settings import Settings

router = APIRouter()
# Several processes: how often a process reads the stored clocks (the others', to show them, and
# those it has just taken over), at the least; timer_poll if that is longer.
CLOCKS_READ_SECONDS = 1.0


class Timers:
    def __init__(self, settings: Settings, hub: Hub) -> None:
        self.settings = settings
        self.hub = hub
        self.db = hub.db  # the database runner (server/db/runner.py)
        self.store = TimerStore(hub.store.engine)
        self.clocks: dict[str, Clock] = {}
        # The clocks this process ran at its last read (several processes: the others' are shown only).
        self.watched: set[str] = set()
        self.task: asyncio.Task[None] | None = None
        self.expired = 0
        # Per table, the seats whose last turn the timeout played, with the table's version just
        # after it (in this process, since it started): the others may expel such a seat.
        self.lapsed: dict[str, dict[int, int]] = {}
        # Each running deadline's alarm, and the deadlines still to be stored (newest only).
        self.alarms: dict[str, asyncio.TimerHandle] = {}
        self.unsaved: dict[str, Clock] = {}
        self.saving: set[str] = set()
        events = hub.events
        events.subscribe(MoveCommitted, lambda event: self._changed(event.table, seats=False))
        events.subscribe(GameFinished, lambda event: self._changed(event.table, seats=False))
        events.subscribe(SeatsChanged, lambda event: self._changed(event.table, seats=True))
        hub.opening_steps.append(self._opening)
        events.subscribe(LeaseGained, lambda _event: events.later(self._refresh(), "reading the clocks"))

    async def start(self) -> None:
        for clock in await self.db.run(self.store.clocks):
            self.clocks[clock.table_id] = clock
        # Back after a restart: each stored deadline goes on (one passed meanwhile expires now).
        for clock in list(self.clocks.values()):
            if self._runs(clock.table_id):
                table = self._in_memory(clock.table_id)
                if table is not None:
                    self._arm(clock, table)
                else:
                    self._alarm(clock)
        self.watched = {table_id for table_id in self.clocks if self._runs(table_id)}
        if self.hub.cluster is not None:
            self.task = asyncio.create_task(self._read_now_and_then())

    async def stop(self) -> None:
        for alarm in self.alarms.values():
            alarm.cancel()
        self.alarms.clear()
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
        clock = self.clocks[table.id] = Clock(table.id, seconds, on_timeout, banks=banks)
        self.watched.add(table.id)
        self._arm(clock, table)
        await self._save(table.id)

    async def _opening(self, table: LiveTable, opening: Opening) -> None:
        if opening.clock is not None:
            await self.open(table, opening.clock.seconds, opening.clock.on_timeout, opening.clock.banked)

    def clock_json(self, table: LiveTable) -> dict[str, Any] | None:
        clock = self.clocks.get(table.id)
        return None if clock is None else clock.to_json(table.version, table.state.current_player())

    def summary_clock(self, summary: dict[str, Any]) -> dict[str, Any] | None:
        """The clock of a table from its lobby summary (the table itself may be out of memory)."""
        clock = self.clocks.get(summary["id"])
        return None if clock is None else clock.to_json(summary["version"], summary["to_move"])

    # --- deadlines, set as the table changes -------------------------------------------------

    def _changed(self, table: LiveTable, seats: bool) -> None:
        """A move committed, the game over, or seats changed (a seat handed to a bot changes who
        is to move but neither the version nor the status): the clock's turn is worked out again."""
        clock = self.clocks.get(table.id)
        if clock is None or not self._runs(table.id):
            return
        if seats:
            clock.seen = None
        if (table.version, table.status) != clock.seen:
            self._arm(clock, table)

    def _in_memory(self, table_id: str) -> LiveTable | None:
        # A table not in memory has not changed since it left it: only these need a look.
        return self.hub.tables.get(table_id) or self.hub.held.get(table_id)

    def _runs(self, table_id: str) -> bool:
        cluster = self.hub.cluster
        return cluster is None or cluster.runs(table_id)

    def _arm(self, clock: Clock, table: LiveTable) -> None:
        """Work out the deadline of the turn now being played (or none); its alarm is set at once,
        and it is stored (what a restart takes up again) right after."""
        clock.seen = (table.version, table.status)
        seat = table.seat_to_move()
        person = table.status == RUNNING and seat is not None and not seat.is_bot
        if person and clock.deadline is not None and clock.version == table.version:
            self._alarm(clock)
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
            self.clocks.pop(clock.table_id, None)
        self._alarm(clock)
        self.unsaved[table.id] = replace(clock, banks=None if clock.banks is None else list(clock.banks))
        if table.id not in self.saving:
            self.hub.events.later(self._save(table.id), "storing a deadline")

    async def _save(self, table_id: str) -> None:
        """Store the table's newest deadline; one store at a time per table, so that an older one
        never lands after a newer one."""
        if table_id in self.saving:
            return
        self.saving.add(table_id)
        try:
            while (clock := self.unsaved.pop(table_id, None)) is not None:
                await self.db.run(self.store.set_deadline, table_id, clock)
        finally:
            self.saving.discard(table_id)

    def _alarm(self, clock: Clock) -> None:
        """Ring when the clock's deadline passes (none: no alarm)."""
        old = self.alarms.pop(clock.table_id, None)
        if old is not None:
            old.cancel()
        if clock.deadline is None or self.clocks.get(clock.table_id) is not clock:
            return
        delay = max(0.0, (clock.deadline - now()).total_seconds())
        loop = asyncio.get_running_loop()
        self.alarms[clock.table_id] = loop.call_later(delay, self._ring, clock)

    def _ring(self, clock: Clock) -> None:
        self.alarms.pop(clock.table_id, None)
        if self.clocks.get(clock.table_id) is not clock or not self._runs(clock.table_id):
            return
        if clock.deadline is not None and clock.deadline > now():
            self._alarm(clock)  # the loop's clock ran ahead of the wall clock: not yet
            return
        self.hub.events.later(self._expire(clock), "timers")

    async def _read_now_and_then(self) -> None:
        """Several processes: the stored clocks, read now and then (to show the others' clocks)."""
        period = max(CLOCKS_READ_SECONDS, self.settings.timer_poll)
        while True:
            await asyncio.sleep(period)
            try:
                await self._refresh()
            except Exception:
                log.exception("timers failed", extra={"event": "server_fault"})

    async def _refresh(self) -> None:
        """The clocks as stored: those another process runs, and those newly leased here, which
        go on from what their last holder stored."""
        stored = {clock.table_id: clock for clock in await self.db.run(self.store.clocks)}
        for table_id, clock in stored.items():
            if not self._runs(table_id) or table_id not in self.watched:
                self.clocks[table_id] = clock
        for table_id in list(self.clocks):
            if table_id not in stored and not self._runs(table_id):
                del self.clocks[table_id]
        running = {table_id for table_id in self.clocks if self._runs(table_id)}
        for table_id in running - self.watched:
            table = self._in_memory(table_id)
            if table is not None:
                self._arm(self.clocks[table_id], table)
            else:
                self._alarm(self.clocks[table_id])
        self.watched = running

    async def _expire(self, clock: Clock) -> None:
        try:
            table = await self.hub.table(clock.table_id)
        except ServerError as error:
            log.error("timed table cannot be loaded", extra={"table": clock.table_id, "error": error.message})
            self.clocks.pop(clock.table_id, None)
            return
        seat = table.seat_to_move()
        if table.version != clock.version or table.status != RUNNING or seat is None or seat.is_bot:
            self._arm(clock, table)
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
            return
        # Never seeded from the seed alone: the bot's moves must not lead back to a drawn deal.
        agent = make_agent(spec, LiveTable._bot_seed(table.state.seed, table.deal, seat.index) + table.version)
        try:
            action = await self.hub.think(agent, table.state.clone())
            # Committed at once, never held tentative: nobody is there to take it back.
            move = await self.hub.submit(table, seat.index, action.id, clock.version, hold=False)
            self.lapsed.setdefault(table.id, {})[seat.index] = move.version
            await self._tell_expellable(table)
        except ServerError as error:
            # The person moved meanwhile (stale_version): the next look sets the next deadline.
            log.info("timeout move not played", extra={"table": table.id, "error": error.message})
            if error.code == "storage_error" and self.clocks.get(table.id) is clock:
                # The database was away: the same turn times out again a moment later.
                retry = max(self.settings.timer_poll, CLOCKS_READ_SECONDS)
                asyncio.get_running_loop().call_later(retry, self._ring, clock)

    async def _tell_expellable(self, table: LiveTable) -> None:
        """Tell the table's clients at once which seats may be expelled now (the clock's
        `expellable` says the same to whoever asks later)."""
        told = json.dumps({"type": "expellable", "table": table.id, "seats": await self.expellable(table)})
        for client in list(table.clients):
            client.send_text(told)

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
        self.hub.events.publish(SeatsChanged(table))
        table.broadcast_sync()
        self.hub.wake_bots(table)

    async def expellable(self, table: LiveTable) -> list[int]:
        """The seats the others may expel now (what `expel` accepts): people whose last turn the
        timeout played, as this process saw, and who have not moved since. Seats that moved again,
        went to a bot or whose game ended are forgotten here."""
        lapsed = self.lapsed.get(table.id)
        if not lapsed or table.status != RUNNING:
            self.lapsed.pop(table.id, None)
            return []
        first = min(lapsed.values())
        # The moves since the earliest timeout, from the database: a move played through another
        # process counts as well.
        played = await self.db.run(self.hub.store.actions_from, table.id, first)
        for seat, since in list(lapsed.items()):
            moved = any(mover == seat for _, mover in played[since - first :])
            if moved or table.seats[seat].is_bot:
                del lapsed[seat]
        return sorted(lapsed)

    async def expel(self, table: LiveTable, by: int, seat: int) -> None:
        """`by` expels `seat`, a person whose last turn ran out of time (the timeout bot played
        it) and who has not moved since: the seat is forfeited to the timeout bot."""
        if not 0 <= seat < len(table.seats) or seat == by:
            raise ServerError("no_seat", f"name another seat of this table (0..{len(table.seats) - 1})", 422)
        if table.status != RUNNING or table.seats[seat].is_bot:
            raise ServerError("not_out_of_time", f"seat {seat} is not a person playing at a running table", 409)
        # Checked and taken with no wait between: of two expels at once, one is refused.
        if seat not in await self.expellable(table) or self.lapsed.get(table.id, {}).pop(seat, None) is None:
            raise ServerError(
                "not_out_of_time",
                f"seat {seat} may be expelled only once its time ran out and before it moves again",
                409,
            )
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
    the deadline and seconds left of the turn being played (null while nobody's clock runs); and
    the seats that ran out of time and may be expelled now."""
    table = await hub_of(request).table(table_id)
    timers = timers_of(request)
    shown = timers.clock_json(table)
    if shown is None and timers.hub.cluster is not None:
        # A clock another process runs and this one has not read yet: as stored, never "live".
        stored = await timers.db.run(timers.store.clocks, [table.id])
        shown = stored[0].to_json(table.version, table.state.current_player()) if stored else None
    return {"table": table.id, **(shown or {"mode": LIVE}), "expellable": await timers.expellable(table)}
