"""Other processes' moves and seats (server/cluster): what their notices bring into this process's
tables, and the jobs the cluster runs for them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from parlour.agents import make_agent
from parlour.engine.errors import RecordError
from parlour.server.authority.base import HubBase, _mark_of
from parlour.server.authority.events import (
    LeaseGained,
    NoticeHeard,
    Resynced,
    SeatsChanged,
)
from parlour.server.authority.table import LiveTable, Move, Seat
from parlour.server.cluster.fanout import Notice


@dataclass
class Heard:
    """The actions other processes' move notices brought for one table, not applied yet."""

    actions: dict[int, tuple[int, int]] = field(default_factory=dict)  # ply -> (action id, seat)
    reached: int = 0  # the highest version announced, whether its notice carried its actions or not

    def add(self, notice: Notice) -> None:
        version = notice.number or 0
        self.reached = max(self.reached, version)
        if notice.actions is not None:
            first = version - len(notice.actions)
            self.actions.update(zip(range(first, version), notice.actions, strict=True))

    def run_from(self, ply: int) -> list[tuple[int, int]] | None:
        """The actions from `ply` up to the highest version announced, or None if one of them
        is not known here (its notice carried none, or was missed): then they are read back."""
        run = []
        for at in range(ply, self.reached):
            known = self.actions.get(at)
            if known is None:
                return None
            run.append(known)
        return run


class Sync(HubBase):
    async def catch_up(self, table: LiveTable) -> None:
        """Apply the actions other processes have committed at this table since its version here."""
        async with table.lock:
            table.stale = False  # whatever was committed before this read is in it
            stored = await self.db.run(self.store.actions_from, table.id, table.version)
            self._apply_stored(table, stored)
        self.let_go_if_over(table)
        self.wake_bots(table)

    def _apply_heard_now(self, table: LiveTable) -> bool:
        """Apply the heard actions at once, if they are all known here: nothing holds the table
        (its lock is free), and with no wait in between nothing can come between (no task, no
        lock to take for a move heard, the usual case). False: they need a read, in a job."""
        run = self.heard[table.id].run_from(table.version)
        if run is None:
            return False
        del self.heard[table.id]
        self._apply_stored(table, run)
        self.let_go_if_over(table)
        self.wake_bots(table)
        return True

    async def apply_heard(self, table: LiveTable) -> None:
        """Apply the actions the move notices heard for this table carried, without reading them
        back; read them back instead if one is not known here."""
        async with table.lock:
            heard = self.heard.pop(table.id, None)
            if heard is None:
                return  # applied by a run of this job that saw its notice already
            run = heard.run_from(table.version)
            if run is None:
                run = await self.db.run(self.store.actions_from, table.id, table.version)
            self._apply_stored(table, run)
        self.let_go_if_over(table)
        self.wake_bots(table)

    def _apply_stored(self, table: LiveTable, stored: list[tuple[int, int]]) -> None:
        """Play committed actions on the table in memory and broadcast each, as if played here."""
        if not stored:
            return
        held, table.tentative = table.tentative, None  # the turn was played elsewhere: void here
        for action_id, seat in stored:
            if table.state.current_player() != seat:
                raise RecordError(f"table {table.id}: stored move {table.version + 1} is seat {seat}'s out of turn")
            successor = table.state.clone()
            action = successor.game.action(action_id)
            events = successor.apply(action)
            table.state = successor
            if successor.is_terminal():
                table.finished_at = datetime.now(UTC)
                self._closed(table.id)
            move = Move(table.version, seat, action, events)
            table.broadcast_move(move)
            self._committed(table, move)
        if held is not None:
            table.sync_seat(held.seat)

    async def refresh_seats(self, table: LiveTable) -> None:
        """Read the table's seats again (taken, resumed or forfeited elsewhere) and, if they
        changed, resync its clients."""
        async with table.lock:
            # Read under the lock: a read made before a seat changed here (a join, a Resume) and
            # applied after it would bring back the seat as it was, and refuse its new token.
            stored = await self.db.run(self.store.seats, table.id)
            before = _mark_of(table)
            for record in stored:
                seat = table.seats[record.seat]
                if record.agent is not None and record.agent != seat.agent_spec:
                    seat.agent_spec = record.agent
                    seat.agent = make_agent(record.agent, LiveTable._bot_seed(table.state.seed, table.deal, seat.index))
                    self._let_go_of_seat(table, seat.index, 4004, "this seat was forfeited: its time ran out")
                elif seat.token_hash is not None and record.token_hash != seat.token_hash:
                    self._let_go_of_seat(table, seat.index, 4003, "this seat is now played from another device")
                seat.name, seat.token_hash = record.name, record.token_hash
            if _mark_of(table) == before:
                return
        self.events.publish(SeatsChanged(table))
        table.broadcast_sync()
        self.wake_bots(table)

    @staticmethod
    def _let_go_of_seat(table: LiveTable, seat: int, code: int, reason: str) -> None:
        for client in list(table.clients):
            if client.seat == seat:
                client.close(code, reason)

    async def announce_seats(self, table_id: str) -> None:
        """Tell the other processes that a seat of this table changed (no-op on SQLite)."""
        if self.cluster is not None:
            await self.db.run(self.store.announce_now, [f"s {self.cluster.name} {table_id}"])

    async def seat_for_token(self, table: LiveTable, token: str) -> Seat | None:
        """The seat `token` holds; a seat taken on another process just now is read afresh."""
        seat = table.seat_with_token(token)
        if seat is None and self.cluster is not None:
            await self.refresh_seats(table)
            seat = table.seat_with_token(token)
        return seat

    def _heard(self, event: NoticeHeard) -> None:
        """Another process's notice about a table: bring this process's copy up to date."""
        notice, cluster = event.notice, self.cluster
        if notice.kind == "c" or cluster is None:
            return  # chat: server/features/chat.py hears it
        table = self.tables.get(notice.table_id) or self.held.get(notice.table_id)
        if table is None:
            # Not in memory here: what this process kept of it for the lobby is out of date.
            self.forget_summary(notice.table_id)
            return
        if notice.kind == "h":
            if notice.number is not None:
                seat = notice.number
                cluster.soon("h", f"{notice.table_id}/{seat}", lambda: self.commit_held(table, seat))
            return
        if notice.kind == "m" and notice.number is not None:
            if notice.number <= table.version:
                # Already applied (a conflict on this very move caught up first); a bot may be next.
                self.wake_bots(table)
                return
            if self.tables.get(table.id) is not table or not self._in_use(table):
                self.set_aside(table)  # nobody here plays or watches it: no work for its moves
                return
            self.heard.setdefault(table.id, Heard()).add(notice)
            if table.lock.locked() or cluster.busy("heard", table.id) or not self._apply_heard_now(table):
                # What the notice carries waits here for the job, which applies every notice heard
                # meanwhile in one go (a job reading the database runs under a key of its own).
                cluster.soon("heard", table.id, lambda: self.apply_heard(table))
            return
        jobs = {"m": self.catch_up, "e": self.end_heard}
        job = jobs.get(notice.kind, self.refresh_seats)
        cluster.soon(notice.kind, notice.table_id, lambda: job(table))

    def _resync(self, _event: Resynced) -> None:
        if self.cluster is None:
            return
        for table in list(self.tables.values()):
            self.cluster.soon("s", table.id, lambda table=table: self.refresh_seats(table))  # type: ignore[misc]
            self.cluster.soon("m", table.id, lambda table=table: self.catch_up(table))  # type: ignore[misc]
            self.cluster.soon("e", table.id, lambda table=table: self.end_heard(table))  # type: ignore[misc]
        for held in list(self.held.values()):
            held.stale = True  # let go of, but still held by a request: read afresh when used again
        self.forget_summaries()

    def _lease_gained(self, event: LeaseGained) -> None:
        if self.cluster is not None:
            self.cluster.soon("l", event.table_id, lambda: self._take_over(event.table_id))

    async def _take_over(self, table_id: str) -> None:
        """A table leased here: in memory, up to date, its bots woken."""
        await self.catch_up(await self.table(table_id))

    def runs(self, table: LiveTable) -> bool:
        """Whether this process runs the table's bots and clock (always, on SQLite)."""
        return self.cluster is None or self.cluster.runs(table.id)
