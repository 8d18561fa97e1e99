"""The hub: every live table, and the one path by which an action reaches a table.

An action is checked (seat, turn, version, legality), applied to a copy of the state, committed to
the database, and only then does the copy become the table's state and the move get broadcast.
A refused or unsaved action leaves the table exactly as it was.

Only the tables being played or watched are kept in memory; the others are rebuilt from the
database when asked for. Bots think in fair turns within a cap per move, hints on threads of
their own; docs/server.md ("Limits on tables, bots and memory") describes every limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
import weakref
from collections import Counter, OrderedDict
from datetime import UTC, datetime, timedelta
from typing import Any

import anyio
import anyio.to_thread
from anyio import CapacityLimiter
from sqlalchemy.exc import IntegrityError

from parlour import deal
from parlour.agents import Agent, AgentSpecError, Budget, make_agent
from parlour.agents import hint as search_hint
from parlour.agents.random_agent import RandomAgent
from parlour.deal import Deal
from parlour.engine.actions import Action, Event
from parlour.engine.conformance import revealing_events
from parlour.engine.errors import IllegalAction, InvalidOption, RecordError
from parlour.engine.game import Game, State
from parlour.engine.registry import game_class, game_classes
from parlour.engine.rng import Rng
from parlour.server.authority.table import FINISHED, OPEN, RUNNING, LiveTable, Move, Seat, Tentative, hash_token
from parlour.server.cluster.cluster import Cluster
from parlour.server.db.runner import Database
from parlour.server.db.store import NewAction, SameAccount, Store, StoredTable
from parlour.server.db.writer import ActionWriter
from parlour.server.edge.errors import ServerError, not_found
from parlour.server.edge.guard import check_display_name
from parlour.server.edge.logs import log
from parlour.server.edge.metrics import Metrics
from parlour.server.edge.quotas import Buckets, GameCache, TurnQueue
from parlour.server.settings import Settings

HUMAN = "human"
# Summaries of finished tables kept for the lobby, which lists the 50 most recently finished.
FINISHED_KEPT = 100
# How often tables are checked for idleness, at most and at least (a quarter of idle_seconds).
SWEEP_LONGEST, SWEEP_SHORTEST = 30.0, 0.05


def _aware(moment: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes; they were written in UTC.
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def _generator(state: State) -> int | None:
    """Where the state's random generator stands (None: it has none); a step that moves it drew
    something by chance, which the seat may not take back."""
    rng = getattr(state, "rng", None)
    return rng.state if isinstance(rng, Rng) else None


def new_table_id() -> str:
    return secrets.token_urlsafe(6)


def _mark_of(table: LiveTable) -> tuple[Any, ...]:
    """What Store.marks reads for this table, from memory."""
    seats = tuple((seat.agent_spec, seat.name, seat.token_hash) for seat in table.seats)
    return (table.version, table.finished_at is not None, *seats)


def _check_chosen_seed(seed: int | None, fixed_deal: bool, people: int) -> None:
    """Refuse a seed chosen by the table's creator where it would mislead somebody.

    Whoever knows the seed knows every hidden card, so a chosen seed is allowed only where no other
    person sits (the other seats are bots) or where the table is a fixed deal that says so to
    everybody before they join."""
    if fixed_deal and seed is None:
        raise ServerError("bad_seed", "a fixed deal is the seed you choose: give 'seed' with 'fixed_deal'", 422)
    if seed is not None and people > 1 and not fixed_deal:
        raise ServerError(
            "chosen_seed",
            f"this table has {people} people's seats: whoever chooses the seed knows every hidden card. "
            "Leave 'seed' out (the server draws it and commits to it) or set 'fixed_deal': true, "
            "which tells everybody before they join that the creator chose the deal",
            422,
        )


class Hub:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = Store(settings.url)
        # The tables in memory: those being played or watched, and those idle for less than idle_seconds.
        self.tables: dict[str, LiveTable] = {}
        # Tables let go of that something (a connection saying hello, a request) still holds: the
        # same object is taken back rather than a second one rebuilt, so a table is never two.
        self.held: weakref.WeakValueDictionary[str, LiveTable] = weakref.WeakValueDictionary()
        # What the lobby shows of tables not in memory: unfinished ones, and recently finished ones.
        self.resting: dict[str, dict[str, Any]] = {}
        self.finished: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.games = GameCache(settings.game_cache)
        # Every statement goes through this runner, handed to whoever needs the database.
        self.db = Database(self.store)
        self.bot_threads = CapacityLimiter(settings.bot_threads)
        self.bot_turns = TurnQueue(settings.bot_threads)
        self.bot_cap = Budget(settings.bot_seconds, settings.bot_iterations)
        self.hint_threads = CapacityLimiter(settings.hint_threads)
        self.hints_asked = 0
        self.hints_by_seat = Buckets(settings.hint_rate, settings.hint_burst)
        self.hints_by_client = Buckets(settings.hint_client_rate, settings.hint_client_burst)
        self.openings = Buckets(settings.table_rate, settings.table_burst)
        self.logs_by_client = Buckets(settings.log_rate, settings.log_burst)
        # Unfinished tables by the client address that opened them (since this process started).
        self.opened_by: dict[str, str] = {}
        self.open_count: Counter[str] = Counter()
        self.sweeps = 0
        self.sweeper: asyncio.Task[None] | None = None
        self.metrics = Metrics()
        self.writer = ActionWriter(self.store, self.db.limiter, self.metrics.commit)
        self.stopping = False
        # On PostgreSQL other server processes may share the database (server/cluster.py); the
        # lobby then reads its unfinished tables from the database, and keeps their summaries
        # here with what they were worked out from (Store.marks).
        self.cluster = None if self.store.is_sqlite else Cluster(self)
        self.marked: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {}

    # --- life cycle ---------------------------------------------------------------------------

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
        await self.writer.stop()
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

    def _take_back(self, table: LiveTable) -> LiveTable:
        """Keep `table` in memory again (rebuilt, or let go of but still held somewhere)."""
        self.tables[table.id] = table
        self.held.pop(table.id, None)
        self.resting.pop(table.id, None)
        table.touched = time.monotonic()
        return table

    # --- the lobby ----------------------------------------------------------------------------

    async def create_table(
        self,
        game: str,
        options: dict[str, Any],
        seats: list[str],
        seed: int | None,
        fixed_deal: bool = False,
        client: str | None = None,
        table_id: str | None = None,
    ) -> LiveTable:
        """Open a table; `client` is the address asking, held to the limits on tables per client;
        `table_id`: the id named for it beforehand (a rematch), else a new one."""
        if client is not None:
            self._may_open(client)
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
                agent = make_agent(spec, 0)
            except AgentSpecError as error:
                raise ServerError("bad_seats", f"seat {index}: {error}", 422) from None
            self._check_budget(index, agent)
            agents.append(spec.strip())
        _check_chosen_seed(seed, fixed_deal, agents.count(None))
        fixed = seed is not None
        seed = deal.new_seed() if seed is None else seed
        committed = Deal.drawn(seed, fixed)
        table_id = table_id or new_table_id()
        state = loaded.new_state(seed=seed)
        created = await self.db.run(
            self.store.create_table, table_id, loaded.name, dict(loaded.options), seed, agents, committed
        )
        seated = [Seat(i, agent) for i, agent in enumerate(agents)]
        table = LiveTable.seated(table_id, state, seated, created, committed)
        self.tables[table_id] = table
        if self.cluster is not None and any(agent is not None for agent in agents):
            await self.cluster.take(table_id)
        if client is not None:
            self.opened_by[table_id] = client
            self.open_count[client] += 1
        # The commitment is public; the seed and the salt never reach a log.
        log.info(
            "table created",
            extra={
                "event": "table_created",
                "table": table_id,
                "game": loaded.name,
                "seats": agents,
                "fixed_deal": fixed,
                "commitment": committed.commitment,
            },
        )
        self.wake_bots(table)
        return table

    def _may_open(self, client: str) -> None:
        """Refuse a table to a client address over its limits: unfinished tables, then the rate."""
        most = self.settings.tables_per_client
        if most > 0 and self.open_count[client] >= most:
            raise ServerError(
                "too_many_tables",
                f"{most} tables opened from your address are not finished yet; this server allows at most {most}. "
                "Finish or play out one of them first",
                429,
            )
        if not self.openings.take(client):
            pace = self.openings.pace()
            raise ServerError("rate_limited", f"too many new tables from your address: {pace}; try again soon", 429)

    def _check_budget(self, index: int, agent: Agent) -> None:
        over = agent.budget().beyond(self.bot_cap)
        if over is not None:
            raise ServerError("bad_seats", f"seat {index}: the bot {agent.spec!r} {over}", 422)

    def _closed(self, table_id: str) -> None:
        """A game is over: its table no longer counts against the client who opened it."""
        client = self.opened_by.pop(table_id, None)
        if client is not None:
            self.open_count[client] -= 1
            if self.open_count[client] <= 0:
                del self.open_count[client]

    async def join(
        self,
        table_id: str,
        seat_index: int | None,
        name: str,
        user_id: int | None = None,
        rated: bool = False,
        session_hash: str | None = None,
    ) -> tuple[LiveTable, Seat, str]:
        """Take a seat for `name`; with `user_id`, for that account in the same transaction (at a
        rated table, one seat per account: `same_account`). `session_hash`: the session the token
        is handed to (a password change or sign-out everywhere retires it)."""
        table = await self.table(table_id)
        name = " ".join(name.split())
        if not name:
            raise ServerError("bad_name", "give a display name to sit at a table", 422)
        check_display_name(name)
        if self.cluster is not None:
            await self.refresh_seats(table)  # a seat taken through another process is not free
        async with table.lock:
            if table.status == FINISHED:
                raise ServerError("game_over", "this game is over; watch it as a spectator", 409)
            seat = self._free_seat(table, seat_index)
            token = secrets.token_urlsafe(24)
            try:
                claimed = await self.db.run(
                    self.store.claim_seat, table.id, seat.index, name, hash_token(token), user_id, rated, session_hash
                )
            except SameAccount:
                refused = "your account already holds a seat at this rated table"
                raise ServerError("same_account", refused, 409) from None
            if not claimed:
                raise ServerError("seat_taken", f"seat {seat.index} was just taken", 409)
            seat.name, seat.token_hash = name, hash_token(token)
        log.info("seat taken", extra={"event": "seat_joined", "table": table.id, "seat": seat.index})
        table.broadcast_sync()
        self.wake_bots(table)
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
        records: list[StoredTable] = await self.db.run(self.store.finished_tables, limit)
        return records

    # --- play ---------------------------------------------------------------------------------

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
        shows = revealing_events(game) | frozenset(getattr(game, "passing_events", ()))
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
            lost = isinstance(error, IntegrityError) and self.cluster is not None
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

    # --- other processes' moves and seats (server/cluster.py) ------------------------------------

    async def catch_up(self, table: LiveTable) -> None:
        """Apply the actions other processes have committed at this table since its version here."""
        async with table.lock:
            stored = await self.db.run(self.store.actions_from, table.id, table.version)
            self._apply_stored(table, stored)
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
            table.broadcast_move(Move(table.version, seat, action, events))
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

    def forget_summary(self, table_id: str) -> None:
        """A table not in memory changed elsewhere: what is kept of it for the lobby is stale."""
        self.resting.pop(table_id, None)
        self.marked.pop(table_id, None)

    def forget_summaries(self) -> None:
        self.resting.clear()
        self.marked.clear()

    def runs(self, table: LiveTable) -> bool:
        """Whether this process runs the table's bots and clock (always, on SQLite)."""
        return self.cluster is None or self.cluster.runs(table.id)

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

    # --- bots ---------------------------------------------------------------------------------

    def wake_bots(self, table: LiveTable) -> None:
        seat = table.seat_to_move()
        if self.stopping or table.status != RUNNING or seat is None or not seat.is_bot or not self.runs(table):
            return
        if table.bot_task is None or table.bot_task.done():
            table.bot_task = asyncio.create_task(self._play_bots(table))

    async def _play_bots(self, table: LiveTable) -> None:
        """Let the bots move while it is a bot's turn; each move is computed in a worker thread."""
        while not self.stopping and table.status == RUNNING and self.runs(table):
            seat = table.seat_to_move()
            if seat is None or seat.agent is None:
                return
            if self.settings.bot_delay:
                await asyncio.sleep(self.settings.bot_delay)
            version, position = table.version, table.state.clone()
            try:
                with self.metrics.timed(self.metrics.bot_think):
                    action = await self.think(seat.agent, position)
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

    async def think(self, agent: Agent, position: State) -> Action:
        """A bot's move, worked out in turns of at most bot_slice seconds on a bot thread.

        After each turn the bot queues again behind every other table waiting for a bot, so that a
        long search cannot starve the others; once it has thought for bot_seconds in all, it must
        decide with what it has.

        The random bot decides at once on the event loop: handing its microseconds of work to a
        thread would cost more than the move. (Only it: another agent asking for no budget may
        still take its time, and must not hold up the loop.)
        """
        if type(agent) is RandomAgent:
            return agent.act(position)
        thought = None
        spent = 0.0
        settings = self.settings
        while True:
            async with self.bot_turns.turn():
                if thought is None:
                    # Starting a search can take work too (keeping the old tree): in the thread.
                    thought = await anyio.to_thread.run_sync(agent.think, position, limiter=self.bot_threads)
                if spent >= settings.bot_seconds:
                    return await anyio.to_thread.run_sync(thought.conclude, limiter=self.bot_threads)
                allowed = min(settings.bot_slice, settings.bot_seconds - spent)
                start = time.perf_counter()
                action = await anyio.to_thread.run_sync(thought.advance, allowed, limiter=self.bot_threads)
                spent += time.perf_counter() - start
            if action is not None:
                return action

    async def drain_bots(self) -> None:
        """Wait until no bot is thinking (tests use this to reach a quiet table)."""
        while tasks := [t.bot_task for t in self.tables.values() if t.bot_task is not None and not t.bot_task.done()]:
            with contextlib.suppress(Exception):
                await asyncio.gather(*tasks)

    @staticmethod
    def _bot_to_move(table: LiveTable) -> bool:
        seat = table.seat_to_move()
        return table.status == RUNNING and seat is not None and seat.is_bot

    # --- hints --------------------------------------------------------------------------------

    async def hint(self, table: LiveTable, seat: int, client: str) -> tuple[int, Action, str]:
        """The search's advice for `seat` (to move), within the hint budget and the hint rates.

        Hints run on threads of their own, so however many are asked for, no bot waits for them.
        """
        settings = self.settings
        if not self.hints_by_seat.take(f"{table.id}/{seat}"):
            pace = self.hints_by_seat.pace()
            raise ServerError("rate_limited", f"too many hints for this seat: {pace}", 429)
        if not self.hints_by_client.take(client):
            pace = self.hints_by_client.pace()
            raise ServerError("rate_limited", f"too many hints from your address: {pace}", 429)
        if self.hints_asked >= settings.hint_threads + settings.hint_queue:
            raise ServerError("busy", "the server is working out other hints; ask again in a moment", 503)
        position = table.state_for(seat).clone()
        version = len(position.history)
        self.hints_asked += 1
        try:
            action, text = await anyio.to_thread.run_sync(
                lambda: search_hint(
                    position, seed=version, iterations=settings.hint_iterations, max_seconds=settings.hint_seconds
                ),
                limiter=self.hint_threads,
            )
        finally:
            self.hints_asked -= 1
        return version, action, text

    # --- the lobby's list and memory ----------------------------------------------------------

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

    # --- tables that end before their game does -------------------------------------------------

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
                continue
            async with table.lock:  # no move is committed while the table ends
                if not await self.db.run(self.store.expire, table_id, cutoff):
                    continue
                self._end(table, "expired")
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
        table.broadcast_sync()
        self.let_go_if_over(table)

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
        log.info(f"seat {how}", extra={"event": how, "table": table.id, "seat": seat, "ended": ended})
        await self.announce_seats(table.id)
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
