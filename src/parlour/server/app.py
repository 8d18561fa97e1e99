"""The FastAPI application: the HTTP lobby, the table websocket, health, and the web client's files.

The whole API is described in docs/server.md and, as OpenAPI, at /openapi.json (browsable at /docs).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

import parlour
from parlour.agents import agent_kinds
from parlour.engine.errors import InvalidOption
from parlour.engine.registry import game_class, game_classes
from parlour.server.client_api import router as client_router
from parlour.server.errors import ServerError, describe_problems
from parlour.server.guard import JSON_TYPES, ActionRef, RequestGuard, exactly
from parlour.server.hub import Hub
from parlour.server.logs import log
from parlour.server.quotas import client_address
from parlour.server.settings import Settings
from parlour.server.table import FINISHED, OPEN, RUNNING, LiveTable
from parlour.server.ws import Connection

StatusQuery = Annotated[str | None, Query(description="open, running or finished (default: open and running)")]
STATUSES = (OPEN, RUNNING, FINISHED)
FINISHED_LISTED = 50


class Strict(BaseModel):
    """A request body: no unknown fields, and every value of the JSON type declared (strict:
    "2" is not a number and true is not 1, as on the websocket)."""

    model_config = ConfigDict(extra="forbid", strict=True)


OptionValue = Annotated[
    int | bool | str, exactly(int, bool, str, what="an option is a whole number, true/false or text")
]


def check_option_types(game: str, options: dict[str, Any]) -> None:
    """Each option given as the JSON type the game declares; the engine would also read "2" as 2."""
    try:
        cls = game_class(game)
    except InvalidOption:
        return  # the hub answers unknown_game
    declared = {option.name: option for option in cls.options_spec}
    for name, value in options.items():
        option = declared.get(name)
        if option is not None and type(value) is not option.type:
            wanted = JSON_TYPES.get(option.type, option.type.__name__)
            given = json.dumps(value)[:60]
            raise ServerError("invalid_option", f"{cls.name} option {name} takes {wanted}, got {given}", 422)


class CreateTable(Strict):
    game: str = Field(max_length=64, description="a game name from /api/games, e.g. hatflings")
    seats: list[Annotated[str, Field(max_length=200)]] = Field(
        min_length=1, max_length=12, description="one entry per seat: 'human' or an agent spec such as 'random'"
    )
    options: dict[str, OptionValue] = Field(default_factory=dict, description="the game's options")
    seed: int | None = Field(
        default=None,
        ge=0,
        lt=2**62,
        description="seed of the game, drawn by the server if not given; a table with more than one "
        "person's seat takes a chosen seed only with fixed_deal",
    )
    fixed_deal: bool = Field(
        default=False, description="the creator chose the deal (seed): every seat and spectator is told so"
    )


class JoinTable(Strict):
    name: str = Field(min_length=1, max_length=40, description="the display name shown to the table")
    seat: int | None = Field(default=None, description="the seat to take; the first free one if not given")


class PlayAction(Strict):
    action: ActionRef = Field(description="an action id from the legal list, or its label")
    version: int | None = Field(default=None, description="the version the client saw; refused if the table moved on")
    seat: int | None = Field(default=None, description="the seat the client plays; must match the token's seat")


def _bearer(authorization: str | None) -> str:
    if not authorization:
        raise ServerError("no_token", "send your seat token as 'Authorization: Bearer <token>'", 401)
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ServerError("no_token", "send your seat token as 'Authorization: Bearer <token>'", 401)
    return token.strip()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(settings)
        await hub.start()
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(
        title="parlour",
        version=parlour.__version__,
        summary="Lobby, tables and live play of parlour's games",
        lifespan=lifespan,
    )
    app.add_middleware(RequestGuard, settings=settings)

    @app.exception_handler(ServerError)
    async def server_error(_request: Request, error: ServerError) -> JSONResponse:
        return JSONResponse({"error": error.to_json()}, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = describe_problems(error.errors())
        return JSONResponse({"error": {"code": "bad_request", "message": problems}}, status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, error: HTTPException) -> JSONResponse:
        # Starlette's own refusals (no such address, wrong method) in the same shape as the rest.
        code = {404: "not_found", 405: "bad_method"}.get(error.status_code, "bad_request")
        body = {"error": {"code": code, "message": str(error.detail)}}
        return JSONResponse(body, status_code=error.status_code, headers=error.headers)

    @app.exception_handler(Exception)
    async def server_fault(_request: Request, _error: Exception) -> JSONResponse:
        # A fault of the server's own: the traceback goes to the log (Starlette re-raises it),
        # the client gets the usual shape and nothing of the fault's details.
        body = {"error": {"code": "internal_error", "message": "the server failed to answer this request"}}
        return JSONResponse(body, status_code=500)

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    def invite(request: Request, table: LiveTable) -> str:
        base = settings.public_url or str(request.base_url)
        return f"{base.rstrip('/')}/invite/{table.id}"

    @app.get("/health", tags=["server"])
    async def health(request: Request) -> dict[str, Any]:
        """Liveness and the database's reachability."""
        hub = hub_of(request)
        try:
            await hub._db(hub.store.ping)
            database = "ok"
        except Exception as error:  # reported, not raised: health must answer
            database = f"unreachable: {error.__class__.__name__}"
        return {
            "status": "ok" if database == "ok" else "degraded",
            "database": database,
            "backend": hub.store.backend,
            "tables": len(hub.tables),
        }

    @app.get("/api/games", tags=["lobby"])
    async def games() -> list[dict[str, Any]]:
        """Every game with its player counts and options, and the bots that can fill a seat."""
        kinds = agent_kinds()
        return [
            {
                "name": name,
                "title": cls.title,
                "summary": cls.summary,
                "players": list(cls.player_counts()),
                "options": [
                    {
                        "name": option.name,
                        "type": option.type.__name__,
                        "default": option.default,
                        "help": option.help,
                        "choices": list(option.choices) if option.choices is not None else None,
                        "minimum": option.minimum,
                        "maximum": option.maximum,
                    }
                    for option in cls.options_spec
                ],
                "agents": kinds,
            }
            for name, cls in game_classes().items()
        ]

    @app.get("/api/tables", tags=["lobby"])
    async def list_tables(
        request: Request,
        status: StatusQuery = None,
    ) -> list[dict[str, Any]]:
        """Tables in the lobby, newest first."""
        if status is not None and status not in STATUSES:
            raise ServerError("bad_request", f"status must be one of {', '.join(STATUSES)}, got {status!r}", 422)
        wanted = {status} if status else {OPEN, RUNNING}
        listed = await hub_of(request).lobby(wanted, FINISHED_LISTED)
        base = (settings.public_url or str(request.base_url)).rstrip("/")
        return [{**summary, "invite_url": f"{base}/invite/{summary['id']}"} for summary in listed]

    @app.post("/api/tables", status_code=201, tags=["lobby"])
    async def create_table(request: Request, body: CreateTable) -> dict[str, Any]:
        """Open a table: a game, its options and who sits at each seat (people or bots)."""
        check_option_types(body.game, body.options)
        hub, client = hub_of(request), client_address(request)
        table = await hub.create_table(body.game, body.options, body.seats, body.seed, body.fixed_deal, client)
        return table.summary(invite(request, table))

    @app.get("/api/tables/{table_id}", tags=["lobby"])
    async def get_table(request: Request, table_id: str) -> dict[str, Any]:
        table = await hub_of(request).table(table_id)
        return table.summary(invite(request, table))

    @app.post("/api/tables/{table_id}/join", tags=["lobby"])
    async def join(request: Request, table_id: str, body: JoinTable) -> dict[str, Any]:
        """Take a free seat. The token in the answer is shown once: keep it to play and to reconnect."""
        table, seat, token = await hub_of(request).join(table_id, body.seat, body.name)
        link = invite(request, table)
        return {"table": table.id, "seat": seat.index, "name": seat.name, "token": token, "invite_url": link}

    @app.get("/api/tables/{table_id}/state", tags=["play"])
    async def position(
        request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """The position as the token's seat sees it; a spectator's view without a token."""
        table = await hub_of(request).table(table_id)
        seat = None
        if authorization is not None:
            holder = table.seat_with_token(_bearer(authorization))
            if holder is None:
                raise ServerError("bad_token", "this token holds no seat at this table", 403)
            seat = holder.index
        return table.sync_message(seat)

    @app.post("/api/tables/{table_id}/actions", tags=["play"])
    async def act(
        request: Request, table_id: str, body: PlayAction, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Play an action for the token's seat (the websocket's `act` message does the same)."""
        hub = hub_of(request)
        table = await hub.table(table_id)
        holder = table.seat_with_token(_bearer(authorization))
        if holder is None:
            raise ServerError("bad_token", "this token holds no seat at this table", 403)
        if body.seat is not None and body.seat != holder.index:
            raise ServerError("wrong_seat", f"your token holds seat {holder.index}, not seat {body.seat}", 403)
        move = await hub.submit(table, holder.index, body.action, body.version)
        return table.update_message(move, holder.index)

    @app.get("/api/tables/{table_id}/record", tags=["play"])
    async def record(request: Request, table_id: str) -> dict[str, Any]:
        """The game's record (replayable with `parlour replay`), once the game is over."""
        from parlour.engine.records import full_record

        table = await hub_of(request).table(table_id)
        if not table.state.is_terminal():
            raise ServerError("not_finished", "the record is published when the game is over", 409)
        return full_record(table.state)

    app.include_router(client_router)

    @app.get("/invite/{table_id}", tags=["lobby"], response_class=RedirectResponse, status_code=307)
    async def invite_link(request: Request, table_id: str) -> RedirectResponse:
        """The link to share: opens the web client at the table."""
        table = await hub_of(request).table(table_id)
        return RedirectResponse(f"/?table={table.id}", status_code=307)

    @app.websocket("/api/tables/{table_id}/ws")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        hub = hub_of(websocket)
        try:
            table = await hub.table(table_id)
        except ServerError as error:
            await websocket.accept()
            await websocket.send_json({"type": "error", **error.to_json()})
            await websocket.close(4404, "no such table")
            return
        await websocket.accept()
        await Connection(hub, table, websocket).run()

    if settings.web_dir is not None and settings.web_dir.is_dir():
        app.mount("/", StaticFiles(directory=settings.web_dir, html=True), name="web")
    else:

        @app.get("/", include_in_schema=False)
        async def root() -> dict[str, str]:
            return {"name": "parlour", "api": "/docs", "openapi": "/openapi.json"}

    log.debug("application created", extra={"database": settings.url.split("@")[-1]})
    return app
