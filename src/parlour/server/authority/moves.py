"""The move path: an action is checked (seat, turn, version, legality), applied to a copy of the
state, committed to the database, and only then does the copy become the table's state, the
move get broadcast and MoveCommitted (and GameFinished) be published. A refused or unsaved action
leaves the table exactly as it was. Undo holds a turn's steps tentative until they commit."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import Any

from parlour.engine.actions import Event
from parlour.engine.errors import IllegalAction
from parlour.engine.game import State
from parlour.engine.rng import Rng
from parlour.server.authority.base import HubBase
from parlour.server.authority.events import (
    GameFinished,
    MoveCommitted,
)
from parlour.server.authority.table import FINISHED, OPEN, LiveTable, Move, Tentative
from parlour.server.db.runner import is_duplicate
from parlour.server.db.store import NewAction
from parlour.server.edge.errors import ServerError
from parlour.server.edge.logs import log


def _generator(state: State) -> int | None:
    """Where the state's random generator stands (None: it has none); a step that moves it drew
    something by chance, which the seat may not take back."""
    rng = getattr(state, "rng", None)
    return rng.state if isinstance(rng, Rng) else None


class MovePath(HubBase):
    async def submit(
        self, table: LiveTable, seat: int, ref: Any, expected_version: int | None = None, hold: bool = True
    ) -> Move:
        """Play `ref` (an action id or label) for `seat`; raises ServerError and changes nothing if refused.

        Shielded: once an action is being saved, a client that disconnects cannot cut the save
        short and leave memory and database disagreeing. A seat a bot plays (a forfeited one) takes
        no move from anybody else: its bot moves through `_submit`.
        """
        if 0 <= seat < len(table.seats) and table.seats[seat].is_bot:
            raise ServerError("bot_seat", f"seat {seat} is played by the bot {table.seats[seat].agent_spec!r}", 409)
        return await asyncio.shield(self._submit(table, seat, ref, expected_version, hold))

    async def _submit(
        self, table: LiveTable, seat: int, ref: Any, expected_version: int | None, hold: bool = True
    ) -> Move:
        if self.tables.get(table.id) is not table:
            self._take_back(table)  # let go of while a connection held it: it is being played again
        if table.stale:
            await self.catch_up(table)
        arrived = time.perf_counter()
        async with table.lock:
            position = table.state_for(seat)
            action = self._check(table, seat, ref, expected_version, position)
            successor = position.clone()
            generator = _generator(position)
            events = successor.apply_legal(action)  # _check has just found it legal
            move = Move(len(successor.history), seat, action, events)
            held = table.tentative.steps if table.tentative is not None else []
            if hold and self._may_hold(table, seat, successor, events, generator):
                table.tentative = Tentative(seat, [*held, (move, successor)])
                table.sync_seat(seat)
                return move
            await self._commit_turn(table, seat, [*held, (move, successor)])
            self.metrics.broadcast.observe(time.perf_counter() - arrived)
        if table.state.is_terminal():
            log.info("game over", extra={"event": "game_over", "table": table.id, "winners": table.state.winners()})
            self.let_go_if_over(table)
        self.wake_bots(table)
        return move

    def _may_hold(self, table: LiveTable, seat: int, after: State, events: list[Event], generator: Any) -> bool:
        """Whether a step may stay tentative: undo is on, a person took it, the turn stays theirs,
        and it showed nothing hidden (the generator untouched, no event the game calls revealing)."""
        if not self.settings.undo or table.seats[seat].is_bot or after.is_terminal():
            return False
        if after.current_player() != seat or _generator(after) != generator:
            return False
        game = after.game
        shows = game.revealing_events | game.passing_events
        return not any(event.kind in shows for event in events)

    async def _commit_turn(self, table: LiveTable, seat: int, steps: list[tuple[Move, State]]) -> None:
        """Commit a turn's steps one by one. If one cannot be saved, those before it stay
        committed, the tentative ones after them (all but the new step) stay tentative, and the
        new step is refused."""
        table.tentative = None
        for done, (move, after) in enumerate(steps):
            try:
                await self._commit(table, move, after)
            except ServerError:
                if table.version != move.version - 1:
                    raise  # moved on elsewhere meanwhile (server/cluster.py): the steps are void
                left = steps[done:-1]
                table.tentative = Tentative(seat, left) if left else None
                table.sync_seat(seat)
                raise

    async def _commit(self, table: LiveTable, move: Move, successor: State) -> None:
        saved = NewAction(table.id, table.version, move.action.id, move.seat, successor.is_terminal())
        try:
            await self.writer.write(saved)
        except Exception as error:
            log.error(
                "action not saved",
                extra={"event": "storage_error", "table": table.id, "ply": saved.ply, "error": repr(error)},
            )
            # A duplicate ply (the actions' primary key) is another process's move at this
            # version, even the very same action: this one lost the race and answers 409.
            lost = is_duplicate(error) and self.cluster is not None
            if lost or not await self._saved_anyway(saved):
                if await self._moved_elsewhere(table):
                    raise ServerError(
                        "stale_version",
                        "another move was committed at this table first; your position is now up to date",
                        409,
                    ) from None
                unsaved = "the action could not be saved; nothing changed, try again"
                raise ServerError("storage_error", unsaved, 503) from None
        table.state = successor
        if successor.is_terminal():
            table.finished_at = datetime.now(UTC)
            self._closed(table.id)
        table.broadcast_move(move)
        self.metrics.acted(table.seats[move.seat].is_bot)
        self._committed(table, move)

    def _committed(self, table: LiveTable, move: Move) -> None:
        """Tell the subscribers that `move` is the table's now (and, if so, that the game is over)."""
        self.events.publish(MoveCommitted(table, move))
        if table.state.is_terminal():
            self.events.publish(GameFinished(table))

    async def undo(self, table: LiveTable, seat: int) -> int:
        """Take back the last tentative step of `seat`'s turn; returns the seat's version after it.
        Refused (and nothing changes) once the steps are committed: the turn passed, or a step
        showed something hidden."""
        async with table.lock:
            self._check_turn(table, seat)
            held = table.tentative
            if held is None or held.seat != seat:
                raise ServerError(
                    "nothing_to_undo",
                    "nothing of this turn can be taken back: a step that passes the turn or shows "
                    "something hidden commits the turn's steps, and committed steps stay",
                    409,
                )
            held.steps.pop()
            if not held.steps:
                table.tentative = None
            table.sync_seat(seat)
            return table.version_for(seat)

    async def commit_held(self, table: LiveTable, seat: int) -> None:
        """Commit `seat`'s held steps (several processes: its connection moved away from this one),
        so that they are the table's wherever the seat plays on; nothing to do if it holds none."""
        async with table.lock:
            held = table.tentative
            if held is None or held.seat != seat:
                return
            try:
                await self._commit_turn(table, seat, list(held.steps))
            except ServerError as error:
                log.error("held steps not committed", extra={"table": table.id, "seat": seat, "error": error.message})
                return
        self.wake_bots(table)

    async def seat_connected(self, table: LiveTable, seat: int) -> None:
        """Tell the other processes that `seat` now plays through this one: the one holding its
        held steps commits them (no-op on SQLite)."""
        if self.cluster is not None:
            await self.db.run(self.store.announce_now, [f"h {self.cluster.name} {table.id} {seat}"])

    @staticmethod
    def drop_tentative(table: LiveTable, seat: int) -> None:
        """Forget `seat`'s tentative steps (its turn timed out): the committed position is its again."""
        if table.tentative is not None and table.tentative.seat == seat:
            table.tentative = None
            table.sync_seat(seat)

    async def _saved_anyway(self, saved: NewAction) -> bool:
        """Whether the database holds an action whose commit reported a failure (a connection lost
        just after the commit): then it is played like any saved action, and memory and database
        agree again."""
        try:
            record = await self.db.run(self.store.table, saved.table_id)
        except ServerError:
            return False
        stored = record.actions if record is not None else []
        return len(stored) > saved.ply and stored[saved.ply] == (saved.action_id, saved.seat)

    async def _moved_elsewhere(self, table: LiveTable) -> bool:
        """Whether another process committed this table's next move first (the actions' primary
        key refused ours); if so, its moves are applied here and sent to this process's clients."""
        if self.cluster is None:
            return False
        try:
            stored = await self.db.run(self.store.actions_from, table.id, table.version)
        except ServerError:
            return False
        self._apply_stored(table, stored)
        return bool(stored)

    @staticmethod
    def _check_playing(table: LiveTable) -> None:
        status = table.status
        if status == FINISHED:
            raise ServerError("game_over", "the game is over", 409)
        if status == OPEN:
            free = ", ".join(str(s.index) for s in table.seats if s.is_free)
            raise ServerError("waiting", f"the game starts when every seat is taken (free: {free})", 409)

    @classmethod
    def _check_turn(cls, table: LiveTable, seat: int) -> None:
        cls._check_playing(table)
        cls._check_mover(table, seat)

    @staticmethod
    def _check_mover(table: LiveTable, seat: int) -> None:
        to_move = table.seat_to_move()
        if to_move is None or to_move.index != seat:
            who = "nobody" if to_move is None else f"seat {to_move.index} ({to_move.name or to_move.agent_spec})"
            raise ServerError("not_your_turn", f"it is not your turn: {who} is to move", 409)

    @classmethod
    def _check(cls, table: LiveTable, seat: int, ref: Any, expected_version: int | None, position: State) -> Any:
        """The action `ref` names, if `seat` may play it on `position` (its own, tentative steps included)."""
        cls._check_playing(table)
        version = len(position.history)
        if expected_version is not None and expected_version != version:
            raise ServerError(
                "stale_version",
                f"you acted on version {expected_version} but the table is at version {version}; resync",
                409,
            )
        cls._check_mover(table, seat)
        try:
            action = position.game.action(ref)
        except IllegalAction as error:
            raise ServerError("unknown_action", str(error), 422) from None
        if not position.is_legal(action):
            raise ServerError("illegal_action", position.why_illegal(action), 422)
        return action
