"""The FastAPI application: the routers of the lobby, play, the client's extras and health, the
error shapes, and the web client's files.

The whole API is described in docs/server.md and, as OpenAPI, at /openapi.json (browsable at /docs).
Each router (lobby_api, play_api, accounts, client_api) finds the hub and the settings on `app.state`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

import parlour
from parlour.server.authority.hub import Hub
from parlour.server.edge.errors import ServerError, describe_problems
from parlour.server.edge.guard import RequestGuard
from parlour.server.edge.logs import log
from parlour.server.edge.metrics import CONTENT_TYPE
from parlour.server.edge.quotas import SocketSlots
from parlour.server.edge.requests import hub_of
from parlour.server.features import (
    accounts,
    admin,
    admin_recovery,
    chat,
    client_api,
    levels_api,
    lobby_api,
    my_games,
    play_api,
    quick_play,
    ratings,
    rematch,
    review_api,
    safety,
    timers,
)
from parlour.server.settings import Settings

health_router = APIRouter()


@health_router.get("/health", tags=["server"])
async def health(request: Request) -> dict[str, Any]:
    """Liveness and the database's reachability."""
    hub = hub_of(request)
    try:
        await hub.db.run(hub.store.ping)
        database = "ok"
    except Exception as error:  # reported, not raised: health must answer
        database = f"unreachable: {error.__class__.__name__}"
    return {
        "status": "ok" if database == "ok" else "degraded",
        "database": database,
        "backend": hub.store.backend,
        "tables": len(hub.tables),
        # Which server process answered (several may share a database and a port).
        "process": hub.cluster.name if hub.cluster is not None else f"pid {os.getpid()}",
    }


@health_router.get("/metrics", tags=["server"], response_class=Response)
async def metrics(request: Request) -> Response:
    """This process's metrics (all processes' with --workers) in the Prometheus text format."""
    refresh_gauges(request.app)
    return Response(hub_of(request).metrics.exposition(), media_type=CONTENT_TYPE)


def refresh_gauges(app: FastAPI) -> None:
    hub: Hub = app.state.hub
    hub.metrics.set_gauges(len(hub.tables), app.state.sockets.count, len(hub.bot_turns.waiting))


# How often each process writes its gauges (with --workers, a scrape reads every process's last values).
GAUGE_SECONDS = 5.0


async def _gauges_now_and_then(app: FastAPI) -> None:
    while True:
        refresh_gauges(app)
        await asyncio.sleep(GAUGE_SECONDS)


async def server_error(_request: Request, error: ServerError) -> JSONResponse:
    return JSONResponse({"error": error.to_json()}, status_code=error.status)


async def invalid_request(_request: Request, error: RequestValidationError) -> JSONResponse:
    problems = describe_problems(error.errors())
    return JSONResponse({"error": {"code": "bad_request", "message": problems}}, status_code=422)


async def http_error(_request: Request, error: HTTPException) -> JSONResponse:
    # Starlette's own refusals (no such address, wrong method) in the same shape as the rest.
    code = {404: "not_found", 405: "bad_method"}.get(error.status_code, "bad_request")
    body = {"error": {"code": code, "message": str(error.detail)}}
    return JSONResponse(body, status_code=error.status_code, headers=error.headers)


async def server_fault(_request: Request, _error: Exception) -> JSONResponse:
    # A fault of the server's own: the traceback goes to the log (Starlette re-raises it),
    # the client gets the usual shape and nothing of the fault's details.
    body = {"error": {"code": "internal_error", "message": "the server failed to answer this request"}}
    return JSONResponse(body, status_code=500)


def _add_error_shapes(app: FastAPI) -> None:
    app.add_exception_handler(ServerError, server_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, invalid_request)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, http_error)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, server_fault)


def _add_web_client(app: FastAPI, settings: Settings) -> None:
    if settings.web_dir is not None and settings.web_dir.is_dir():
        app.mount("/", StaticFiles(directory=settings.web_dir, html=True), name="web")
        return

    @app.get("/", include_in_schema=False)
    async def root() -> dict[str, str]:
        return {"name": "parlour", "api": "/docs", "openapi": "/openapi.json"}


# How often the rate buckets of accounts and chat forget the keys that are back to full.
PRUNE_SECONDS = 30.0


def prune_buckets(app: FastAPI) -> None:
    """Forget full buckets (sign-in attempts, chat), so their memory follows recent use only."""
    accounts = app.state.accounts
    for buckets in (accounts.by_pair, accounts.by_account, accounts.by_client, app.state.chat.by_seat):
        buckets.prune()


async def _prune_now_and_then(app: FastAPI) -> None:
    while True:
        await asyncio.sleep(PRUNE_SECONDS)
        prune_buckets(app)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(settings)
        await hub.start()
        app.state.hub = hub
        app.state.accounts = accounts.Accounts(settings, hub)
        app.state.chat = chat.Chat(settings, hub)
        app.state.safety = app.state.chat.safety = safety.Safety(settings, hub)
        app.state.admin = admin.Admin(hub)
        app.state.timers = timers.Timers(settings, hub)
        await app.state.timers.start()
        app.state.quick = quick_play.QuickPlay(settings, hub, app.state.timers)
        app.state.ratings = ratings.Ratings(settings, hub)
        await app.state.ratings.start()
        pruning = asyncio.create_task(_prune_now_and_then(app))
        gauges = asyncio.create_task(_gauges_now_and_then(app))
        try:
            yield
        finally:
            pruning.cancel()
            gauges.cancel()
            hub.metrics.process_ended()
            await app.state.ratings.stop()
            await app.state.timers.stop()
            await hub.stop()

    app = FastAPI(
        title="parlour",
        version=parlour.__version__,
        summary="Lobby, tables and live play of parlour's games",
        lifespan=lifespan,
    )
    app.state.settings = settings
    # The websockets open in this process, per client address and in all (see play_api.table_socket).
    app.state.sockets = SocketSlots(settings.websockets_per_client, settings.max_websockets)
    app.add_middleware(RequestGuard, settings=settings)
    _add_error_shapes(app)
    # In this order: a path's first matching route answers, and the web client's files come last.
    # The table's websocket first: a router is walked route by route, and its one websocket route
    # matched last cost each new connection about 0.24 ms of routing.
    for router in (
        play_api.socket_router,
        health_router,
        lobby_api.router,
        quick_play.router,
        play_api.router,
        accounts.router,
        my_games.router,
        chat.router,
        timers.router,
        ratings.router,
        rematch.router,
        client_api.router,
        review_api.router,
        levels_api.router,
        safety.router,
        admin.router,
        admin_recovery.reset_router,
        lobby_api.invite_router,
    ):
        app.include_router(router)
    _add_web_client(app, settings)
    log.debug("application created", extra={"database": settings.url.split("@")[-1]})
    return app
