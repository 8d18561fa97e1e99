"""The lobby over HTTP: the games, the tables, opening a table, taking a seat, and invite links."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse
from pydantic import Field

from parlour.agents import agent_kinds
from parlour.engine.errors import InvalidOption
from parlour.engine.game import Game
from parlour.engine.registry import game_class, game_classes
from parlour.engine.tutorial import tutorial_of
from parlour.server.authority.opening import ClockSetup, Opening
from parlour.server.authority.table import FINISHED, OPEN, RUNNING
from parlour.server.db.timer_store import BOT, FORFEIT, TURN_BASED, Mode, OnTimeout
from parlour.server.edge.errors import ServerError
from parlour.server.edge.guard import JSON_TYPES, exactly
from parlour.server.edge.quotas import client_address
from parlour.server.edge.requests import Strict, base_url, hub_of, invite
from parlour.server.features.accounts import CsrfHeader
from parlour.server.features.joining import joining_account, seat_owner
from parlour.server.features.ratings import ratings_of
from parlour.server.features.rematch import rematches_of
from parlour.server.features.safety import safety_of
from parlour.server.features.timers import timers_of

StatusQuery = Annotated[str | None, Query(description="open, running or finished (default: open and running)")]
STATUSES = (OPEN, RUNNING, FINISHED)
FINISHED_LISTED = 50

router = APIRouter()

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
        if option is not None and option.host_only:
            # A path on this machine (a data folder) is the host's to choose, never a client's.
            raise ServerError(
                "invalid_option", f"{cls.name} option {name} is set where parlour runs, not by a client", 422
            )
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
    mode: Mode = Field(default="live", description="live (no clock) or turn_based (a time per move)")
    move_seconds: float | None = Field(
        default=None, description="turn_based: seconds each person has for a move (settings bound it)"
    )
    time_bank_seconds: float | None = Field(
        default=None, description="live: each person's time bank (a chess clock), spent while they are to move"
    )
    rated: bool = Field(
        default=False,
        description="update the players' ratings: people only (two or more), signed in, a server-drawn deal, "
        "the game's default options; a live rated table without a clock gets a time bank and forfeits on time",
    )
    on_timeout: OnTimeout | None = Field(
        default=None, description="turn_based: 'bot' plays a timed-out turn (the default), 'forfeit' gives up the seat"
    )


class JoinTable(Strict):
    name: str | None = Field(
        default=None,
        min_length=1,
        max_length=40,
        description="the display name shown to the table; signed in, the account's name if not given",
    )
    seat: int | None = Field(default=None, description="the seat to take; the first free one if not given")


@router.get("/api/games", tags=["lobby"])
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
                    "title": option.heading,
                    "type": option.type.__name__,
                    "default": option.default,
                    "help": option.help,
                    "choices": list(option.choices) if option.choices is not None else None,
                    "minimum": option.minimum,
                    "maximum": option.maximum,
                }
                for option in cls.options_spec
                if not option.host_only
            ],
            "agents": kinds,
            **_introduction(cls),
        }
        for name, cls in game_classes().items()
    ]


def _introduction(cls: type[Game]) -> dict[str, Any]:
    """What the lobby's card of a game says beside its summary, from its tutorial if it has one."""
    try:
        tutorial = tutorial_of(cls)
    except InvalidOption:
        return {"tutorial": False, "feel": None, "minutes": None}
    return {"tutorial": True, "feel": tutorial.feel, "minutes": list(tutorial.minutes)}


@router.get("/api/games/{game}/tutorial", tags=["lobby"])
async def tutorial(game: str) -> dict[str, Any]:
    """A game's guided first game: its deal, the seats of its table and the scripted steps."""
    try:
        return tutorial_of(game_class(game)).to_json()
    except InvalidOption as error:
        raise ServerError("unknown_game", str(error), 404) from None


@router.get("/api/tables", tags=["lobby"])
async def list_tables(
    request: Request,
    status: StatusQuery = None,
) -> list[dict[str, Any]]:
    """Tables in the lobby, newest first."""
    if status is not None and status not in STATUSES:
        raise ServerError("bad_request", f"status must be one of {', '.join(STATUSES)}, got {status!r}", 422)
    wanted = {status} if status else {OPEN, RUNNING}
    listed = await hub_of(request).lobby(wanted, FINISHED_LISTED)
    base = base_url(request)
    return await _shown_all(
        request, [{**summary, "invite_url": f"{base}/invite/{summary['id']}"} for summary in listed]
    )


@router.post("/api/tables", status_code=201, tags=["lobby"])
async def create_table(request: Request, body: CreateTable, csrf: CsrfHeader = None) -> dict[str, Any]:
    """Open a table: a game, its options and who sits at each seat (people or bots)."""
    check_option_types(body.game, body.options)
    timers, ratings = timers_of(request), ratings_of(request)
    timers.check(body.mode, body.move_seconds, body.on_timeout, body.time_bank_seconds)
    ratings.check(body.rated, body.seats, body.seed, body.fixed_deal, body.game, body.options)
    hub, client = hub_of(request), client_address(request)
    opener = await safety_of(request).opener(request, csrf)
    clock = None
    if body.mode == TURN_BASED and body.move_seconds is not None:
        clock = ClockSetup(body.move_seconds, body.on_timeout or BOT)
    elif body.time_bank_seconds is not None:
        clock = ClockSetup(body.time_bank_seconds, body.on_timeout or BOT, banked=True)
    elif body.rated:
        # A live rated game without a clock could be left by whoever is losing, never to end and
        # never to be rated: it gets a time bank, and a seat whose bank runs out forfeits.
        clock = ClockSetup(hub.settings.rated_time_bank_seconds, FORFEIT, banked=True)
    opening = Opening(body.game, body.options, body.seats, body.seed, body.fixed_deal, client, None, clock, body.rated)
    table = await hub.open_table(opening)
    await safety_of(request).record_owner(table.id, opener)
    return await _shown(request, table.summary(invite(request, table)))


async def _shown(request: Request, summary: dict[str, Any]) -> dict[str, Any]:
    return (await _shown_all(request, [summary]))[0]


async def _shown_all(request: Request, summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Table summaries with their clocks, whether they are rated, their players' ratings and
    their rematches."""
    ratings, timers = ratings_of(request), timers_of(request)
    beside = await ratings.beside(summaries)
    offered = await rematches_of(request, summaries)
    rated = await ratings.rated_among([summary["id"] for summary in summaries])
    return [
        {
            **summary,
            "clock": timers.summary_clock(summary),
            "rated": summary["id"] in rated,
            "ratings": beside[summary["id"]],
            "rematch": offered.get(summary["id"]),
        }
        for summary in summaries
    ]


@router.get("/api/tables/{table_id}", tags=["lobby"])
async def get_table(request: Request, table_id: str) -> dict[str, Any]:
    table = await hub_of(request).table(table_id)
    return await _shown(request, table.summary(invite(request, table)))


@router.post("/api/tables/{table_id}/join", tags=["lobby"])
async def join(request: Request, table_id: str, body: JoinTable, csrf: CsrfHeader = None) -> dict[str, Any]:
    """Take a free seat. The token in the answer is shown once: keep it to play and to reconnect.

    Signed in (session cookie and X-CSRF-Token), the seat is the account's: listed in its games."""
    account = await joining_account(request, csrf)
    name = body.name if body.name is not None else account.user.name if account is not None else None
    if name is None:
        raise ServerError("bad_name", "give a display name to sit at a table (or sign in to sit as your account)", 422)
    hub = hub_of(request)
    rated = await ratings_of(request).may_join(await hub.table(table_id), account)
    await safety_of(request).may_join(table_id, account)
    await safety_of(request).check_name(name, "display name")
    table, seat, token = await hub.join(table_id, body.seat, name, *seat_owner(account, rated))
    link = invite(request, table)
    answer = {"table": table.id, "seat": seat.index, "name": seat.name, "token": token, "invite_url": link}
    return {**answer, "account": account.user.name if account is not None else None}


invite_router = APIRouter()


@invite_router.get("/invite/{table_id}", tags=["lobby"], response_class=RedirectResponse, status_code=307)
async def invite_link(request: Request, table_id: str) -> RedirectResponse:
    """The link to share: opens the web client at the table."""
    table = await hub_of(request).table(table_id)
    return RedirectResponse(f"/?table={table.id}", status_code=307)
