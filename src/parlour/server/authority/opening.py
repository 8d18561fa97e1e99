"""Opening a table: the one workflow every opener goes through (the lobby, a rematch, quick play,
and whatever opens tables later).

An opener says what it wants as an `Opening`; `Hub.open_table` creates the table (checks, seats,
the drawn or chosen deal, stored), then runs each feature's opening step in the order they were
registered (the timers start the clock it asks for, the ratings mark it rated), and only then
tells everybody through a TableOpened event. A step that refuses leaves the table opened without
the steps after it, as before this workflow existed.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from parlour import deal
from parlour.agents import Agent, AgentSpecError, make_agent
from parlour.deal import Deal
from parlour.engine.errors import InvalidOption
from parlour.engine.registry import game_class
from parlour.server.authority.base import HubBase
from parlour.server.authority.events import (
    SeatsChanged,
    TableOpened,
)
from parlour.server.authority.table import FINISHED, LiveTable, Seat, hash_token
from parlour.server.db.store import SameAccount
from parlour.server.edge.errors import ServerError
from parlour.server.edge.logs import log
from parlour.server.edge.text import check_display_name


@dataclass(frozen=True)
class ClockSetup:
    """The clock a table opens with: `seconds` per move (turn-based) or in each seat's bank."""

    seconds: float
    on_timeout: str
    banked: bool = False


@dataclass(frozen=True)
class Opening:
    game: str
    options: dict[str, Any]
    seats: list[str]
    seed: int | None = None
    fixed_deal: bool = False
    # The address asking, held to the limits on tables per client (None: not held).
    client: str | None = None
    # The id named for it beforehand (a rematch), else a new one.
    table_id: str | None = None
    clock: ClockSetup | None = None
    rated: bool = False


OpeningStep = Callable[[LiveTable, Opening], Awaitable[None]]


HUMAN = "human"


def new_table_id() -> str:
    return secrets.token_urlsafe(6)


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


class Openers(HubBase):
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

    async def open_table(self, opening: Opening) -> LiveTable:
        """Open a table as `opening` says (authority/opening.py): created, then each feature's
        opening step (its clock, its rating), then announced."""
        table = await self.create_table(
            opening.game,
            opening.options,
            opening.seats,
            opening.seed,
            opening.fixed_deal,
            opening.client,
            opening.table_id,
        )
        for step in self.opening_steps:
            await step(table, opening)
        self.events.publish(TableOpened(table))
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
        self.events.publish(SeatsChanged(table))
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
