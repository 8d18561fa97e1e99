"""A signed-in player's tables from any device: "my games" (waiting, your turn, others' turn,
finished) with Resume, and each player's profile (games played and won, per game).

Resume hands the signed-in owner of a seat a new seat token for it: the token an older device
held stops working there (that device resumes again the same way). Only the account's own seats
can be resumed; another account's table ids answer `404 not_your_seat`, the same as a table
where the account has no seat, so they tell nothing.
"""

from __future__ import annotations

import secrets
from collections import Counter
from typing import Any

from fastapi import APIRouter, Request

from parlour.server.authority.hub import Hub
from parlour.server.authority.table import FINISHED, OPEN, hash_token
from parlour.server.edge.errors import ServerError
from parlour.server.edge.requests import base_url, hub_of
from parlour.server.features.accounts import CsrfHeader, accounts_of

router = APIRouter()
# Tables a "my games" list or a profile reads, the most recently joined first.
LISTED = 200
WAITING, YOUR_TURN, THEIR_TURN = "waiting", "your_turn", "their_turn"


async def summary_of(hub: Hub, table_id: str) -> dict[str, Any] | None:
    """A table's lobby summary, from memory when it is there (rebuilt from the database if not);
    None for a table that no longer replays."""
    if (table := hub.tables.get(table_id)) is not None and hub.cluster is None:
        return table.summary("")
    if hub.cluster is not None:
        # Other processes may have moved it: the database says what it is now.
        summaries = await hub.summaries(await hub.db.run(hub.store.marks, [table_id]))
        return summaries[0] if summaries else None
    if (kept := hub.resting.get(table_id) or hub.finished.get(table_id)) is not None:
        return kept
    try:
        return (await hub.table(table_id)).summary("")
    except ServerError:
        return None


def where_is(summary: dict[str, Any], seat: int) -> str:
    """Where the seat's game stands for its player."""
    if summary["status"] == FINISHED:
        return FINISHED
    if summary["status"] == OPEN:
        return WAITING
    return YOUR_TURN if summary["to_move"] == seat else THEIR_TURN


async def _entries(hub: Hub, seats: list[tuple[str, int]]) -> list[dict[str, Any]]:
    entries = []
    found: dict[str, dict[str, Any]] = {}
    if hub.cluster is not None:
        # Other processes may have moved them: the database says where each stands now.
        marks = await hub.db.run(hub.store.marks, [table_id for table_id, _ in seats])
        found = {summary["id"]: summary for summary in await hub.summaries(marks)}
    for table_id, seat in seats:
        summary = found.get(table_id) if hub.cluster is not None else await summary_of(hub, table_id)
        if summary is not None:
            entries.append({**summary, "seat": seat, "where": where_is(summary, seat)})
    return entries


@router.get("/api/account/games", tags=["accounts"])
async def my_games(request: Request) -> dict[str, Any]:
    """The signed-in account's tables, each with its seat and `where`: waiting (a seat is still
    free), your_turn, their_turn or finished; `your_turn` counts the tables where it must move."""
    accounts = accounts_of(request)
    account = await accounts.signed_in(request)
    if account is None:
        raise ServerError("not_signed_in", "sign in to see your games", 401)
    seats = await accounts.hub.db.run(accounts.store.seats_of, account.user.id, LISTED)
    entries = await _entries(hub_of(request), seats)
    base = base_url(request)
    for entry in entries:
        entry["invite_url"] = f"{base}/invite/{entry['id']}"
    return {"name": account.user.name, "your_turn": sum(e["where"] == YOUR_TURN for e in entries), "tables": entries}


@router.post("/api/account/tables/{table_id}/resume", tags=["accounts"])
async def resume(request: Request, table_id: str, csrf: CsrfHeader = None) -> dict[str, Any]:
    """A new seat token for the account's seat at this table, to play it from this device."""
    accounts = accounts_of(request)
    account = await accounts.authorise(request, csrf)
    hub = hub_of(request)
    seat = await hub.db.run(accounts.store.seat_of, table_id, account.user.id) if len(table_id) <= 32 else None
    if seat is None:
        raise ServerError("not_your_seat", f"you have no seat at table {table_id!r}", 404)
    table = await hub.table(table_id)
    token = secrets.token_urlsafe(24)
    async with table.lock:
        refused = await hub.db.run(
            accounts.store.new_seat_token, table.id, seat, account.user.id, hash_token(token), hash_token(account.token)
        )
        if refused == "forfeited":
            raise ServerError("forfeited", f"seat {seat} was forfeited: a bot plays it to the end of the game", 409)
        if refused is not None:
            raise ServerError("not_your_seat", f"you have no seat at table {table_id!r}", 404)
        table.seats[seat].token_hash = hash_token(token)
    await hub.announce_seats(table.id)
    # A device still connected with the old token is let go of: on reconnecting it is refused.
    for client in list(table.clients):
        if client.seat == seat:
            client.close(4003, "this seat is now played from another device")
    return {
        "table": table.id,
        "seat": seat,
        "name": table.seats[seat].name,
        "token": token,
        "account": account.user.name,
    }


@router.get("/api/players/{name}", tags=["accounts"])
async def profile(request: Request, name: str) -> dict[str, Any]:
    """A player's profile: finished games played and won, in all and per game (public)."""
    accounts = accounts_of(request)
    user = await accounts.hub.db.run(accounts.store.user_named, name) if len(name) <= 40 else None
    if user is None:
        raise ServerError("no_player", f"there is no player {name!r}", 404)
    seats = await accounts.hub.db.run(accounts.store.seats_of, user.id, LISTED)
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for entry in await _entries(hub_of(request), seats):
        if entry["where"] == FINISHED:
            played[entry["game"]] += 1
            won[entry["game"]] += entry["seat"] in (entry["result"] or {}).get("winners", [])
    per_game = {game: {"played": played[game], "won": won[game]} for game in sorted(played)}
    return {
        "name": user.name,
        "since": user.created_at.isoformat(),
        "played": sum(played.values()),
        "won": sum(won.values()),
        "games": per_game,
    }
