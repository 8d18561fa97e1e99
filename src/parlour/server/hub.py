"""The hub: every live table, and the one path by which an action reaches a table.

An action is checked (seat, turn, version, legality), applied to a copy of the state, committed to
the database, and only then does the copy become the table's state and the move get broadcast.
A refused or unsaved action leaves the table exactly as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from datetime import UTC, datetime
from typing import Any

import anyio
import anyio.to_thread
from anyio import CapacityLimiter
from sqlalchemy.exc import SQLAlchemyError

from parlour.agents import AgentSpecError, make_agent
from parlour.engine.errors import IllegalAction, InvalidOption
from parlour.engine.game import Game
from parlour.engine.records import replay
from parlour.engine.registry import game_class
from parlour.server.errors import ServerError, not_found
from parlour.server.logs import log
from parlour.server.settings import Settings
from parlour.server.store import NewAction, Store, StoredTable
from parlour.server.table import FINISHED, OPEN, RUNNING, LiveTable, Move, Seat, hash_token
from parlour.server.writer import ActionWriter

HUMAN = "human"
MAX_SEED = 2**62


def _aware(moment: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes; they were written in UTC.
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


class Hub:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = Store(settings.url)
        self.tables: dict[str, LiveTable] = {}
        self.games: dict[tuple[str, str], Game] = {}
        self.db_limiter = CapacityLimiter(1 if self.store.is_sqlite else 4)
        self.bot_limiter = CapacityLimiter(settings.bot_threads)
        self.writer = ActionWriter(self.store, self.db_limiter)
        self.stopping = False

    # --- life cycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        await anyio.to_thread.run_sync(self.store.migrate)
        stored = await self._db(self.store.unfinished_tables)
        for record in stored:
            try:
                table = self._rebuild(record)
            except Exception as error:
                # One table that cannot be rebuilt (a corrupt record, a game that fails to load)
                # must not keep every other table offline; it answers `broken_table` instead.
                log.error("table cannot be rebuilt", extra={"table": record.id, "error": repr(error)})
                continue
            self.tables[table.id] = table
        self.writer.start()
        for table in self.tables.values():
            self._wake_bots(table)
        log.info(
            "server started",
            extra={"event": "started", "database": self.store.backend, "tables_rebuilt": len(self.tables)},
        )

    async def stop(self) -> None:
        self.stopping = True
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
            for client in list(table.clients):
                client.close(1001, "server shutting down")
        await self.writer.stop()
        self.store.close()

    def _game(self, cls: type[Game], options: dict[str, Any]) -> Game:
        """The game with these options; kept, because building an action space takes milliseconds
        and a Game is shared by all its states."""
        key = (cls.name, json.dumps(options, sort_keys=True, default=str))
        game = self.games.get(key)
        if game is None:
            game = self.games[key] = cls(**options)
        return game

    async def _db(self, function: Any, *args: Any) -> Any:
        """Run a Store method in a worker thread; a database failure becomes a clear 503."""
        try:
            return await anyio.to_thread.run_sync(function, *args, limiter=self.db_limiter)
        except SQLAlchemyError as error:
            log.error("database error", extra={"event": "storage_error", "error": repr(error)})
            raise ServerError(
                "storage_error", "the database cannot be reached; nothing changed, try again", 503
            ) from None

    def _rebuild(self, record: StoredTable) -> LiveTable:
        """A table as the database describes it: its seed and actions replayed through the engine."""
        actions = [action_id for action_id, _ in record.actions]
        state = replay({"game": record.game, "options": record.options, "seed": record.seed, "actions": actions})
        seats = [Seat(s.seat, s.agent, s.name, s.token_hash) for s in record.seats]
        created = _aware(record.created_at) or datetime.now(UTC)
        table = LiveTable.seated(record.id, state, seats, created)
        table.finished_at = _aware(record.finished_at)
        return table

    async def table(self, table_id: str) -> LiveTable:
        """A table by id; a finished one not in memory is rebuilt from the database on demand."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if len(table_id) > 32:
            raise not_found(table_id)
        record = await self._db(self.store.table, table_id)
        if record is None:
            raise not_found(table_id)
        try:
            # Replaying a long game takes a while: off the event loop, like every other long task.
            rebuilt = await anyio.to_thread.run_sync(self._rebuild, record)
        except Exception as error:
            raise ServerError(
                "broken_table", f"table {table_id} cannot be rebuilt from its record: {error}", 409
            ) from None
        return self.tables.setdefault(table_id, rebuilt)

    # --- the lobby ----------------------------------------------------------------------------

    async def create_table(self, game: str, options: dict[str, Any], seats: list[str], seed: int | None) -> LiveTable:
        try:
            cls = game_class(game)
        except InvalidOption as error:
            raise ServerError("unknown_game", str(error), 422) from None
        if not seats:
            raise ServerError("bad_seats", "give one entry per seat: 'human' or an agent spec such as 'random'", 422)
        options = dict(options)
        if "players" not in options:
            options["players"] = len(seats)
        try:
            loaded = self._game(cls, options)
        except InvalidOption as error:
            raise ServerError("invalid_option", str(error), 422) from None
        if loaded.num_players != len(seats):
            given = f"{loaded.name} is set for {loaded.num_players} players but {len(seats)} seats were given"
            raise ServerError("bad_seats", given, 422)
        agents: list[str | None] = []
        for index, spec in enumerate(seats):
            if spec.strip().lower() == HUMAN:
                agents.append(None)
                continue
            try:
                make_agent(spec, 0)
            except AgentSpecError as error:
                raise ServerError("bad_seats", f"seat {index}: {error}", 422) from None
            agents.append(spec.strip())
        if seed is None:
            seed = secrets.randbelow(MAX_SEED)
        table_id = secrets.token_urlsafe(6)
        state = loaded.new_state(seed=seed)
        created = await self._db(self.store.create_table, table_id, loaded.name, dict(loaded.options), seed, agents)
        table = LiveTable.seated(table_id, state, [Seat(i, agent) for i, agent in enumerate(agents)], created)
        self.tables[table_id] = table
        log.info(
            "table created",
            extra={"event": "table_created", "table": table_id, "game": loaded.name, "seats": agents},
        )
        self._wake_bots(table)
        return table

    async def join(self, table_id: str, seat_index: int | None, name: str) -> tuple[LiveTable, Seat, str]:
        table = await self.table(table_id)
        name = " ".join(name.split())
        if not name:
            raise ServerError("bad_name", "give a display name to sit at a table", 422)
        async with table.lock:
            if table.status == FINISHED:
                raise ServerError("game_over", "this game is over; watch it as a spectator", 409)
            seat = self._free_seat(table, seat_index)
            token = secrets.token_urlsafe(24)
            claimed = await self._db(self.store.claim_seat, table.id, seat.index, name, hash_token(token))
            if not claimed:
                raise ServerError("seat_taken", f"seat {seat.index} was just taken", 409)
            seat.name, seat.token_hash = name, hash_token(token)
        log.info("seat taken", extra={"event": "seat_joined", "table": table.id, "seat": seat.index})
        table.broadcast_sync()
        self._wake_bots(table)
        return table, seat, token

    @staticmethod
    def _free_seat(table: LiveTable, seat_index: int | None) -> Seat:
        if seat_index is None:
            free = [seat for seat in table.seats if seat.is_free]
            if not free:
                raise ServerError("table_full", "every seat at this table is taken; watch it as a spectator", 409)
            return free[0]
        if not 0 <= seat_index < len(table.seats):
            raise ServerError("no_seat", f"this table has seats 0..{len(table.seats) - 1}, not {seat_index}", 422)
        seat = table.seats[seat_index]
        if seat.is_bot:
            raise ServerError("seat_taken", f"seat {seat_index} is played by the bot {seat.agent_spec!r}", 409)
        if not seat.is_free:
            raise ServerError("seat_taken", f"seat {seat_index} is already taken by {seat.name}", 409)
        return seat

    async def finished_tables(self, limit: int) -> list[StoredTable]:
        records: list[StoredTable] = await self._db(self.store.finished_tables, limit)
        return records

    # --- play ---------------------------------------------------------------------------------

    async def submit(self, table: LiveTable, seat: int, ref: Any, expected_version: int | None = None) -> Move:
        """Play `ref` (an action id or label) for `seat`; raises ServerError and changes nothing if refused.

        Shielded: once an action is being saved, a client that disconnects cannot cut the save
        short and leave memory and database disagreeing.
        """
        return await asyncio.shield(self._submit(table, seat, ref, expected_version))

    async def _submit(self, table: LiveTable, seat: int, ref: Any, expected_version: int | None) -> Move:
        async with table.lock:
            action = self._check(table, seat, ref, expected_version)
            successor = table.state.clone()
            events = successor.apply_legal(action)  # _check has just found it legal
            saved = NewAction(table.id, table.version, action.id, seat, successor.is_terminal())
            try:
                await self.writer.write(saved)
            except Exception as error:
                log.error(
                    "action not saved",
                    extra={"event": "storage_error", "table": table.id, "ply": saved.ply, "error": repr(error)},
                )
                if not await self._saved_anyway(saved):
                    unsaved = "the action could not be saved; nothing changed, try again"
                    raise ServerError("storage_error", unsaved, 503) from None
            table.state = successor
            if successor.is_terminal():
                table.finished_at = datetime.now(UTC)
            move = Move(table.version, seat, action, events)
            table.broadcast_move(move)
        if table.state.is_terminal():
            log.info("game over", extra={"event": "game_over", "table": table.id, "winners": table.state.winners()})
        self._wake_bots(table)
        return move

    async def _saved_anyway(self, saved: NewAction) -> bool:
        """Whether the database holds an action whose commit reported a failure (a connection lost
        just after the commit): then it is played like any saved action, and memory and database
        agree again."""
        try:
            record = await self._db(self.store.table, saved.table_id)
        except ServerError:
            return False
        stored = record.actions if record is not None else []
        return len(stored) > saved.ply and stored[saved.ply] == (saved.action_id, saved.seat)

    @staticmethod
    def _check(table: LiveTable, seat: int, ref: Any, expected_version: int | None) -> Any:
        status = table.status
        if status == FINISHED:
            raise ServerError("game_over", "the game is over", 409)
        if status == OPEN:
            free = ", ".join(str(s.index) for s in table.seats if s.is_free)
            raise ServerError("waiting", f"the game starts when every seat is taken (free: {free})", 409)
        if expected_version is not None and expected_version != table.version:
            raise ServerError(
                "stale_version",
                f"you acted on version {expected_version} but the table is at version {table.version}; resync",
                409,
            )
        to_move = table.seat_to_move()
        if to_move is None or to_move.index != seat:
            who = "nobody" if to_move is None else f"seat {to_move.index} ({to_move.name or to_move.agent_spec})"
            raise ServerError("not_your_turn", f"it is not your turn: {who} is to move", 409)
        try:
            action = table.state.game.action(ref)
        except IllegalAction as error:
            raise ServerError("unknown_action", str(error), 422) from None
        if not table.state.is_legal(action):
            raise ServerError("illegal_action", table.state.why_illegal(action), 422)
        return action

    # --- bots ---------------------------------------------------------------------------------

    def _wake_bots(self, table: LiveTable) -> None:
        seat = table.seat_to_move()
        if self.stopping or table.status != RUNNING or seat is None or not seat.is_bot:
            return
        if table.bot_task is None or table.bot_task.done():
            table.bot_task = asyncio.create_task(self._play_bots(table))

    async def _play_bots(self, table: LiveTable) -> None:
        """Let the bots move while it is a bot's turn; each move is computed in a worker thread."""
        while not self.stopping and table.status == RUNNING:
            seat = table.seat_to_move()
            if seat is None or seat.agent is None:
                return
            if self.settings.bot_delay:
                await asyncio.sleep(self.settings.bot_delay)
            version, position = table.version, table.state.clone()
            try:
                action = await anyio.to_thread.run_sync(seat.agent.act, position, limiter=self.bot_limiter)
                # The bot passes through the same checks as a person: same seat, same version.
                await self._submit(table, seat.index, action.id, version)
            except ServerError as error:
                if error.code == "storage_error":
                    await asyncio.sleep(1.0)
                    continue
                log.error("bot move refused", extra={"table": table.id, "seat": seat.index, "error": error.message})
                return
            except Exception:
                log.exception("bot failed", extra={"table": table.id, "seat": seat.index})
                return

    async def drain_bots(self) -> None:
        """Wait until no bot is thinking (tests use this to reach a quiet table)."""
        while tasks := [t.bot_task for t in self.tables.values() if t.bot_task is not None and not t.bot_task.done()]:
            with contextlib.suppress(Exception):
                await asyncio.gather(*tasks)
