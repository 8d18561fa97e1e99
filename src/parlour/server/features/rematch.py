"""Rematch: at the end of a game, one click offers the same players a new table.

The first seat to ask opens the new table, with the same game, options, seats (people and the
same bots, each one seat on, so that the first player alternates), mode, time per move and
rated-ness, on a new deal the server draws, and takes its seat there. The finished table
remembers its rematch (stored, so a reload or a restart shows it) and tells every connected
client (`{"type": "rematch", ...}`); each other player takes their seat by asking the same.
A table is offered one rematch.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, replace
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from sqlalchemy import select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from parlour.server.authority.opening import ClockSetup, Opening, new_table_id
from parlour.server.authority.table import FINISHED, LiveTable
from parlour.server.db.models import TableRow
from parlour.server.db.timer_store import BOT, TURN_BASED
from parlour.server.edge.errors import ServerError
from parlour.server.edge.logs import log
from parlour.server.edge.quotas import client_address
from parlour.server.edge.requests import bearer, hub_of, invite
from parlour.server.features.accounts import CsrfHeader
from parlour.server.features.joining import joining_account, seat_owner
from parlour.server.features.ratings import ratings_of

router = APIRouter()
# One rematch opened at a time in this process; across processes, the rematch is named in the
# database before it is opened (RematchStore.claim_rematch), so two players asking at once on two
# processes get the same new table too.
OPENING = asyncio.Lock()
# Seconds a player asking on another process waits for the rematch named there to be opened.
REMATCH_WAIT = 10.0


@dataclass(frozen=True)
class Setup:
    mode: str
    move_seconds: float | None
    on_timeout: str | None
    rated: bool
    rematch_id: str | None


class RematchStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def setup(self, table_id: str) -> Setup | None:
        columns = (TableRow.mode, TableRow.move_seconds, TableRow.on_timeout, TableRow.rated, TableRow.rematch_id)
        with Session(self.engine) as session:
            found = session.execute(select(*columns).where(TableRow.id == table_id)).first()
            if found is None:
                return None
            mode, seconds, on_timeout, rated, rematch_id = found
            return Setup(mode or "live", seconds, on_timeout, bool(rated), rematch_id)

    def rematches(self, table_ids: list[str]) -> dict[str, str]:
        """The rematch of each of these tables that has one."""
        if not table_ids:
            return {}
        chosen = select(TableRow.id, TableRow.rematch_id).where(
            TableRow.id.in_(table_ids), TableRow.rematch_id.is_not(None)
        )
        with Session(self.engine) as session:
            return {table_id: rematch_id for table_id, rematch_id in session.execute(chosen) if rematch_id}

    def claim_rematch(self, table_id: str, rematch_id: str) -> str | None:
        """Name `rematch_id` this table's rematch unless it has one already; the rematch's id
        either way (one statement: whichever process asks first, a table has one rematch)."""
        with Session(self.engine) as session, session.begin():
            result = session.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.rematch_id.is_(None))
                .values(rematch_id=rematch_id)
            )
            if getattr(result, "rowcount", 0) == 1:
                return rematch_id
            found = session.scalar(select(TableRow.rematch_id).where(TableRow.id == table_id))
            return None if found is None else str(found)

    def unclaim_rematch(self, table_id: str, rematch_id: str) -> None:
        """The rematch named could not be opened: the next to ask opens one."""
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.rematch_id == rematch_id)
                .values(rematch_id=None)
            )


def store_of(request: Request) -> RematchStore:
    return RematchStore(hub_of(request).store.engine)


async def rematches_of(request: Request, summaries: list[dict[str, Any]]) -> dict[str, str]:
    """The rematches of the finished tables among these summaries."""
    finished = [summary["id"] for summary in summaries if summary["status"] == FINISHED]
    if not finished:
        return {}  # nothing to ask the database (a new table's summary, every time)
    found: dict[str, str] = await hub_of(request).db.run(store_of(request).rematches, finished)
    return found


def _seats(table: LiveTable) -> list[str]:
    """The rematch's seats, each player one seat on (seat i's player sits at i + 1, the last at
    0), so that who plays first alternates from one game to the next. A seat a person sat at is
    a person's again (even one forfeited to a bot); a bot's is that bot."""
    kinds = ["human" if seat.name is not None or seat.agent_spec is None else seat.agent_spec for seat in table.seats]
    return kinds[-1:] + kinds[:-1]


def moved_on(seat: int, seats: int) -> int:
    """Where the player of `seat` sits at the rematch (see _seats)."""
    return (seat + 1) % seats


async def _open(request: Request, table: LiveTable, setup: Setup, new_id: str) -> LiveTable:
    hub = hub_of(request)
    seats = _seats(table)
    game = table.state.game
    if setup.rated:
        ratings_of(request).check(True, seats, None, False)
    clock = None
    if setup.move_seconds is not None:
        # Turn-based: the time per move; live: each seat's time bank, full again.
        clock = ClockSetup(setup.move_seconds, setup.on_timeout or BOT, banked=setup.mode != TURN_BASED)
    opening = Opening(game.name, dict(game.options), seats, None, False, client_address(request), new_id, clock)
    new = await hub.open_table(replace(opening, rated=setup.rated))
    offer = json.dumps({"type": "rematch", "table": table.id, "rematch": new.id})
    for client in list(table.clients):
        client.send_text(offer)
    log.info("rematch opened", extra={"event": "rematch", "table": table.id, "rematch": new.id})
    return new


async def _claim_and_open(request: Request, table: LiveTable, setup: Setup) -> str:
    """The table's rematch: named in the database first (one per table, whichever process asks),
    then opened by the asker whose name was taken."""
    hub, store = hub_of(request), store_of(request)
    fresh = new_table_id()
    named = await hub.db.run(store.claim_rematch, table.id, fresh)
    if named is None:
        raise ServerError("no_table", f"there is no table {table.id!r}", 404)
    if named == fresh:
        try:
            await _open(request, table, setup, fresh)
        except BaseException:
            await hub.db.run(store.unclaim_rematch, table.id, fresh)
            raise
    return named


async def _rematch_table(request: Request, new_id: str) -> LiveTable:
    """The rematch table, once the process that named it has opened it (a moment, at most)."""
    hub = hub_of(request)
    waited = 0.0
    while True:
        try:
            return await hub.table(new_id)
        except ServerError as error:
            if error.code != "no_table" or waited >= REMATCH_WAIT:
                raise
        await asyncio.sleep(0.05)
        waited += 0.05


@router.post("/api/tables/{table_id}/rematch", tags=["lobby"])
async def rematch(
    request: Request,
    table_id: str,
    authorization: Annotated[str | None, Header()] = None,
    csrf: CsrfHeader = None,
) -> dict[str, Any]:
    """For a seat of a finished table (its Bearer token): the rematch table, opened if it is the
    first to ask, and this seat's place at it. The answer is a join's: keep the token."""
    hub = hub_of(request)
    table = await hub.table(table_id)
    holder = table.seat_with_token(bearer(authorization))
    if holder is None:
        raise ServerError("bad_token", "this token holds no seat at this table", 403)
    if table.status != FINISHED:
        raise ServerError("not_finished", "a rematch is offered once the game is over", 409)
    account = await joining_account(request, csrf)
    async with OPENING:
        setup = await hub.db.run(store_of(request).setup, table.id)
        if setup is None:
            raise ServerError("no_table", f"there is no table {table_id!r}", 404)
        if setup.rated and account is None:
            # Refused before anything is opened: a refusal changes nothing.
            raise ServerError("account_needed", "a rated table seats signed-in players only; sign in first", 403)
        new_id = setup.rematch_id or await _claim_and_open(request, table, setup)
    new = await _rematch_table(request, new_id)
    rated = await ratings_of(request).may_join(new, account)
    name = holder.name or f"seat {holder.index}"
    there = moved_on(holder.index, len(table.seats))
    new, seat, token = await hub.join(new.id, there, name, *seat_owner(account, rated))
    return {
        "table": new.id,
        "seat": seat.index,
        "name": seat.name,
        "token": token,
        "invite_url": invite(request, new),
        "account": account.user.name if account is not None else None,
    }
