"""Play over HTTP and the table's websocket: a seat's position, its actions, and the record."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request, WebSocket
from pydantic import Field

from parlour.server.edge.errors import ServerError
from parlour.server.edge.guard import ActionRef
from parlour.server.edge.quotas import SocketSlots, client_address
from parlour.server.edge.requests import Strict, bearer, hub_of
from parlour.server.features.ratings import ratings_of
from parlour.server.features.ws import Connection, refuse_socket

router = APIRouter()
socket_router = APIRouter()


class PlayAction(Strict):
    action: ActionRef = Field(description="an action id from the legal list, or its label")
    version: int | None = Field(default=None, description="the version the client saw; refused if the table moved on")
    seat: int | None = Field(default=None, description="the seat the client plays; must match the token's seat")


@router.get("/api/tables/{table_id}/state", tags=["play"])
async def position(
    request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """The position as the token's seat sees it; a spectator's view without a token."""
    table = await hub_of(request).table(table_id)
    seat = None
    if authorization is not None:
        holder = table.seat_with_token(bearer(authorization))
        if holder is None:
            raise ServerError("bad_token", "this token holds no seat at this table", 403)
        seat = holder.index
    return table.sync_message(seat)


@router.post("/api/tables/{table_id}/actions", tags=["play"])
async def act(
    request: Request, table_id: str, body: PlayAction, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """Play an action for the token's seat (the websocket's `act` message does the same)."""
    hub = hub_of(request)
    table = await hub.table(table_id)
    holder = table.seat_with_token(bearer(authorization))
    if holder is None:
        raise ServerError("bad_token", "this token holds no seat at this table", 403)
    if body.seat is not None and body.seat != holder.index:
        raise ServerError("wrong_seat", f"your token holds seat {holder.index}, not seat {body.seat}", 403)
    move = await hub.submit(table, holder.index, body.action, body.version)
    return table.update_message(move, holder.index)


@router.post("/api/tables/{table_id}/undo", tags=["play"])
async def undo(
    request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """Take back the last tentative step of the token's seat (the websocket's `undo` message does the same)."""
    hub = hub_of(request)
    table = await hub.table(table_id)
    holder = table.seat_with_token(bearer(authorization))
    if holder is None:
        raise ServerError("bad_token", "this token holds no seat at this table", 403)
    await hub.undo(table, holder.index)
    return table.sync_message(holder.index)


@router.post("/api/tables/{table_id}/concede", tags=["play"])
async def concede(
    request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """The token's seat gives up and loses: with one other person playing (or none) the table
    ends, else the timeout bot plays the seat out (docs/server.md, "Leaving and ending")."""
    hub = hub_of(request)
    table = await hub.table(table_id)
    holder = table.seat_with_token(bearer(authorization))
    if holder is None:
        raise ServerError("bad_token", "this token holds no seat at this table", 403)
    await hub.concede(table, holder.index)
    return table.summary("")


@router.post("/api/tables/{table_id}/leave", tags=["play"])
async def leave(
    request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """The token's seat leaves: free again before the game starts; at a rated table, a
    concession; else a bot takes the seat, or the table ends if nobody else plays at it."""
    hub = hub_of(request)
    table = await hub.table(table_id)
    holder = table.seat_with_token(bearer(authorization))
    if holder is None:
        raise ServerError("bad_token", "this token holds no seat at this table", 403)
    ratings = ratings_of(request)
    await hub.leave(table, holder.index, await hub.db.run(ratings.store.is_rated, table.id))
    return table.summary("")


@router.get("/api/tables/{table_id}/record", tags=["play"])
async def record(request: Request, table_id: str) -> dict[str, Any]:
    """The game's record (replayable with `parlour replay`), once the game is over."""
    from parlour.engine.records import full_record

    table = await hub_of(request).table(table_id)
    if not table.state.is_terminal():
        raise ServerError("not_finished", "the record is published when the game is over", 409)
    return full_record(table.state)


@socket_router.websocket("/api/tables/{table_id}/ws")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    slots: SocketSlots = websocket.app.state.sockets
    address = client_address(websocket)
    refused = slots.refusal(address)
    if refused is not None:
        await refuse_socket(websocket, refused)
        return
    slots.take(address)
    try:
        await _serve_socket(websocket, table_id)
    finally:  # however the connection ends: closed, dropped or failed
        slots.give(address)


async def _serve_socket(websocket: WebSocket, table_id: str) -> None:
    hub = hub_of(websocket)
    try:
        table = await hub.table(table_id)
    except ServerError as error:
        await websocket.accept()
        await websocket.send_json({"type": "error", **error.to_json()})
        await websocket.close(4404, "no such table")
        return
    await websocket.accept()
    # The connection reads its messages in a task of its own. The endpoint runs some twenty
    # coroutines deep (uvicorn's, Starlette's and FastAPI's middleware and routing), and a task
    # resumes every one of them each time it wakes: the reader wakes for every message, this
    # endpoint only once, when the reader ends. Cancelling the endpoint cancels the reader too.
    await asyncio.create_task(Connection(hub, table, websocket).run())
