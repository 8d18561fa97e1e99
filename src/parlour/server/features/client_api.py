"""What the browser client asks beyond the lobby and live play: rules, component data, hints, the
game log and the replay of a finished game.

Everything here is read-only. The log and the replay are rebuilt by replaying the table's record
through the engine, and only events the asking seat may see (`Event.visible_to`) are returned; the
replay's positions are spectator views, and only of finished games, where nothing is hidden any more.
"""

from __future__ import annotations

import importlib
import json
import os
import re
from pathlib import Path
from typing import Annotated, Any

import anyio.to_thread
from fastapi import APIRouter, Header, Request
from fastapi.responses import PlainTextResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field

import parlour
from parlour.engine.data import read_csv, read_toml
from parlour.engine.errors import DataError, IllegalAction, InvalidOption
from parlour.engine.game import State
from parlour.engine.package import board_module, game_package, how_to_play_page
from parlour.engine.records import replay
from parlour.engine.registry import game_class
from parlour.server.authority.hub import Hub
from parlour.server.authority.table import LiveTable
from parlour.server.edge.errors import ServerError
from parlour.server.edge.guard import ActionRef
from parlour.server.edge.quotas import client_address

DATA_SUFFIXES = (".csv", ".toml")

router = APIRouter()

GENERIC_BOARD = "/js/games/generic.js"
"""The board module of the web client that draws any game from its view and move list."""


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _game_name(game: str) -> str:
    try:
        return game_class(game).name
    except InvalidOption as error:
        raise ServerError("unknown_game", str(error), 404) from None


def _seat_of(table: LiveTable, authorization: str | None) -> int | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    holder = table.seat_with_token(token.strip()) if scheme.lower() == "bearer" else None
    if holder is None:
        raise ServerError("bad_token", "this token holds no seat at this table", 403)
    return holder.index


def _start_of(table: LiveTable) -> State:
    record = table.state.record()
    return replay({**record, "actions": []})


@router.get("/api/games/{game}/rules", tags=["client"], response_class=PlainTextResponse)
async def rules(game: str) -> PlainTextResponse:
    """The game's rules told to players (Markdown): its how_to_play.md, else its rules page (the one
    `parlour rules GAME` shows, with the specification's rulings)."""
    name = _game_name(game)
    page = how_to_play_page(game_class(name))
    if page is None:
        raise ServerError("no_rules", f"the rules of {name} are not installed", 404)
    return PlainTextResponse(page, media_type="text/markdown; charset=utf-8")


@router.get("/games/{game}/board.js", tags=["client"], response_class=PlainTextResponse)
async def board(game: str) -> Response:
    """The game's browser board module, from the game's package. A game that ships none is sent to
    the client's generic board (a redirect, so the browser imports it under its own address)."""
    name = _game_name(game)
    module = board_module(game_class(name))
    if module is None:
        return RedirectResponse(GENERIC_BOARD, status_code=307)
    return Response(module, media_type="text/javascript; charset=utf-8")


@router.get("/api/games/{game}/data/{filename}", tags=["client"])
async def component_data(game: str, filename: str) -> Any:
    """One of the game's component data files as JSON: a CSV as a list of rows, a TOML as an object.

    The client draws boards and cards from these (island positions, flag colours, card costs).
    """
    name = _game_name(game)
    if "/" in filename or filename.startswith(".") or not filename.endswith(DATA_SUFFIXES):
        raise ServerError("bad_file", "ask for a .csv or .toml file of the game's data folder by its name", 422)
    package = f"{game_package(game_class(name))}.data"
    try:
        return read_csv(package, filename) if filename.endswith(".csv") else read_toml(package, filename)
    except DataError:
        raise ServerError("no_file", f"{name} has no data file {filename!r}", 404) from None


@router.get("/api/games/{game}/components", tags=["client"])
async def components(game: str) -> dict[str, Any]:
    """What each component of the game does, in words (the game package's `glossary` module), for the
    board's tooltips: `{kinds: {kind: {key: text}}, names: {kind: name}, tiebreak}`; empty without one."""
    name = _game_name(game)
    try:
        module = importlib.import_module(f"{game_package(game_class(name))}.glossary")
    except ModuleNotFoundError:
        return {"kinds": {}, "names": {}, "tiebreak": None}
    glossary: dict[str, Any] = module.glossary()
    return glossary


# Country flags are the `flag-icons` npm package's SVGs (MIT), fetched by `make install` into
# node_modules/ of the checkout, or found where PARLOUR_FLAG_ICONS points; never drawn by hand.
FLAG_CODE = re.compile(r"[a-z]{2}(-[a-z]{2,4})?")


def flag_folder() -> Path | None:
    """The folder of the flag-icons SVGs (4:3), or None when they are not installed."""
    configured = os.environ.get("PARLOUR_FLAG_ICONS")
    roots = (
        [Path(configured)] if configured else [checkout / "node_modules" / "flag-icons" for checkout in _checkouts()]
    )
    return next((root / "flags" / "4x3" for root in roots if (root / "flags" / "4x3").is_dir()), None)


def _checkouts() -> list[Path]:
    """Where a checkout's node_modules may lie: above src/parlour, or above build/compiled/parlour
    when the compiled build runs (`make serve`)."""
    package = Path(parlour.__file__).resolve().parent
    return [package.parents[1], package.parents[2]]


@router.get("/flags/index.json", tags=["client"])
async def flags_available() -> dict[str, Any]:
    """Whether country flag images are served here (the client draws colour bands otherwise)."""
    folder = flag_folder()
    return {"available": folder is not None, "license": "MIT (flag-icons)" if folder else None}


@router.get("/flags/{code}.svg", tags=["client"])
async def flag_image(code: str) -> Response:
    """A country's flag by its ISO 3166-1 alpha-2 code, from the flag-icons package."""
    folder = flag_folder()
    if not FLAG_CODE.fullmatch(code):
        raise ServerError("bad_flag", "ask for a flag by its two-letter ISO code, in lower case (fr, gb-sct)", 422)
    if folder is None or not (folder / f"{code}.svg").is_file():
        raise ServerError("no_flag", f"no flag image for {code!r} is installed", 404)
    return Response(
        (folder / f"{code}.svg").read_bytes(),
        media_type="image/svg+xml",
        headers={"Cache-Control": "public, max-age=86400"},
    )


@router.post("/api/tables/{table_id}/hint", tags=["client"])
async def hint_for_seat(
    request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """The move the MCTS bot prefers for the token's seat, searched on what that seat can see.

    Limited per seat and per client address, and in what one hint may cost (docs/server.md)."""
    hub = _hub(request)
    table = await hub.table(table_id)
    seat = _seat_of(table, authorization)
    if seat is None:
        raise ServerError("no_token", "send your seat token as 'Authorization: Bearer <token>'", 401)
    if table.state.is_terminal() or table.state.current_player() != seat:
        raise ServerError("not_your_turn", "a hint is given to the seat to move", 409)
    version, action, text = await hub.hint(table, seat, client_address(request))
    return {"version": version, "action": action.to_json(), "text": text}


class WhyAction(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    action: ActionRef = Field(description="an action id or label the player thinks of playing")


@router.post("/api/tables/{table_id}/why", tags=["client"])
async def why_not(
    request: Request, table_id: str, body: WhyAction, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """Whether the token's seat may play an action now and, if not, the rule that forbids it.

    The client asks this when a click on the board matches no legal move, to say why.
    """
    table = await _hub(request).table(table_id)
    seat = _seat_of(table, authorization)
    if seat is None:
        raise ServerError("no_token", "send your seat token as 'Authorization: Bearer <token>'", 401)
    position = table.state_for(seat)  # with the seat's tentative steps (docs/server.md, "Undo")
    try:
        action = position.game.action(body.action)
    except IllegalAction as error:
        return {"legal": False, "reason": str(error)}
    if position.is_terminal():
        return {"legal": False, "reason": "the game is over"}
    if position.current_player() != seat:
        return {"legal": False, "reason": "it is not your turn"}
    if position.is_legal(action):
        return {"legal": True, "reason": None}
    return {"legal": False, "reason": position.why_illegal(action)}


def _limit_logs(hub: Hub, request: Request) -> None:
    """A game log replays the table's whole record: limited per client address, like hints."""
    if not hub.logs_by_client.take(client_address(request)):
        pace = hub.logs_by_client.pace()
        raise ServerError("rate_limited", f"too many game logs from your address: {pace}", 429)


def _steps(table: LiveTable, seat: int | None, upto: int | None = None) -> tuple[list[dict[str, Any]], State]:
    """Each applied action's actor and the events `seat` may see, from the start up to ply `upto`."""
    state = _start_of(table)
    history = table.state.history if upto is None else table.state.history[:upto]
    steps = []
    finished = table.state.is_terminal()
    for action_id in history:
        actor = state.current_player()
        action = state.game.actions[action_id]
        events = [event.to_json() for event in state.apply(action) if event.visible_to(seat)]
        # An action's words may be a secret of its seat until the game is over (a card chosen face down).
        label = action.label if finished or seat == actor else None
        steps.append({"actor": actor, "label": label, "events": events})
    return steps, state


@router.get("/api/tables/{table_id}/log", tags=["client"])
async def game_log(
    request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """Every move so far with the events the token's seat (a spectator without a token) may see."""
    hub = _hub(request)
    _limit_logs(hub, request)
    table = await hub.table(table_id)
    seat = _seat_of(table, authorization)
    steps, _ = await anyio.to_thread.run_sync(_steps, table, seat)
    return {"table": table.id, "version": table.version, "seat": seat, "steps": steps}


@router.get("/api/tables/{table_id}/replay/{ply}", tags=["client"])
async def replay_position(request: Request, table_id: str, ply: int) -> dict[str, Any]:
    """A finished game's position after `ply` actions (0: the start), as a spectator sees it."""
    table = await _hub(request).table(table_id)
    if not table.state.is_terminal():
        raise ServerError("not_finished", "a game can be replayed once it is over", 409)
    last = len(table.state.history)
    if not 0 <= ply <= last:
        raise ServerError("no_ply", f"this game has plies 0..{last}, not {ply}", 422)
    steps, state = await anyio.to_thread.run_sync(_steps, table, None, ply)
    step = steps[-1] if steps else None
    view = json.loads(json.dumps(state.view(None)))
    return {"table": table.id, "ply": ply, "plies": last, "step": step, "to_move": state.current_player(), "view": view}
