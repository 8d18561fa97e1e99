"""Rematch: at the end of a game, one click offers the same players a new table.

The first seat to ask opens the new table, with the same game, options, seats (people and the
same bots), mode, time per move and rated-ness, on a new deal the server draws, and takes its
own seat there. The finished table remembers its rematch (stored, so a reload or a restart
shows it) and tells every connected client (`{"type": "rematch", ...}`); each other player takes
their own seat by asking the same. A table is offered one rematch.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from sqlalchemy import select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from parlour.server.accounts import CsrfHeader, give_seat, joining_account
from parlour.server.errors import ServerError
from parlour.server.logs import log
from parlour.server.models import TableRow
from parlour.server.quotas import client_address
from parlour.server.ratings import ratings_of
from parlour.server.requests import bearer, hub_of, invite
from parlour.server.table import FINISHED, LiveTable
from parlour.server.timers import BOT, TURN_BASED, timers_of

router = APIRouter()
# One rematch opened at a time, so two players asking at once get the same new table.
OPENING = asyncio.Lock()


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

    def set_rematch(self, table_id: str, rematch_id: str) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(update(TableRow).where(TableRow.id == table_id).values(rematch_id=rematch_id))


def store_of(request: Request) -> RematchStore:
    return RematchStore(hub_of(request).store.engine)


async def rematches_of(request: Request, summaries: list[dict[str, Any]]) -> dict[str, str]:
    """The rematches of the finished tables among these summaries."""
    finished = [summary["id"] for summary in summaries if summary["status"] == FINISHED]
    found: dict[str, str] = await hub_of(request)._db(store_of(request).rematches, finished)
    return found


def _seats(table: LiveTable) -> list[str]:
    # A seat a person sat at is a person's again (even one forfeited to a bot); a bot's is that bot.
    return ["human" if seat.name is not None or seat.agent_spec is None else seat.agent_spec for seat in table.seats]


async def _open(request: Request, table: LiveTable, setup: Setup) -> LiveTable:
    hub = hub_of(request)
    seats = _seats(table)
    game = table.state.game
    if setup.rated:
        ratings_of(request).check(True, seats, None, False)
    new = await hub.create_table(game.name, dict(game.options), seats, None, False, client_address(request))
    if setup.move_seconds is not None:
        # Turn-based: the time per move; live: each seat's time bank, full again.
        banked = setup.mode != TURN_BASED
        await timers_of(request).open(new, setup.move_seconds, setup.on_timeout or BOT, banked=banked)
    if setup.rated:
        await ratings_of(request).open(new)
    await hub._db(store_of(request).set_rematch, table.id, new.id)
    offer = json.dumps({"type": "rematch", "table": table.id, "rematch": new.id})
    for client in list(table.clients):
        client.send_text(offer)
    log.info("rematch opened", extra={"event": "rematch", "table": table.id, "rematch": new.id})
    return new


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
        setup = await hub._db(store_of(request).setup, table.id)
        if setup is None:
            raise ServerError("no_table", f"there is no table {table_id!r}", 404)
        if setup.rated and account is None:
            # Refused before anything is opened: a refusal changes nothing.
            raise ServerError("account_needed", "a rated table seats signed-in players only; sign in first", 403)
        new_id = setup.rematch_id or (await _open(request, table, setup)).id
    new = await hub.table(new_id)
    await ratings_of(request).may_join(new, account)
    new, seat, token = await hub.join(new.id, holder.index, holder.name or f"seat {holder.index}")
    if account is not None:
        await give_seat(request, account, new.id, seat.index, token)
    return {
        "table": new.id,
        "seat": seat.index,
        "name": seat.name,
        "token": token,
        "invite_url": invite(request, new),
        "account": account.user.name if account is not None else None,
    }
