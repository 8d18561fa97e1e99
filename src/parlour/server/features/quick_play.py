"""Quick play: "Play now" for a game and player count.

A player asks for a game, a player count and a mode (live or turn-based) and says how long they
will wait for people (0: at once). They are seated with others waiting for the same, the nearest
in rating first where they have one; once their wait is over, the seats no person took go to bots
of a level near their rating (`bot_for_rating`). The waiting list is in the database, so that
players who reach different server processes of one database meet; a process claims the tickets
it seats (a conditional update), so that two never seat one player twice.

Each waiting player's page looks at its ticket every few seconds (that look also runs the
matching); a ticket not looked at for `QUICK_STALE_SECONDS` is taken for gone and matched with
nobody. The seat token of a seated ticket is handed over at the next look and then forgotten.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import Field
from sqlalchemy import Engine, delete, select, update
from sqlalchemy.orm import Session

from parlour.agents.levels import calibrations
from parlour.engine.errors import InvalidOption
from parlour.engine.registry import game_class
from parlour.server.authority.hub import Hub
from parlour.server.authority.opening import ClockSetup, Opening
from parlour.server.db.models import QuickWaitRow, RatingRow
from parlour.server.db.timer_store import BOT, TURN_BASED
from parlour.server.edge.errors import ServerError
from parlour.server.edge.quotas import client_address
from parlour.server.edge.requests import Strict
from parlour.server.edge.text import check_display_name
from parlour.server.features.accounts import accounts_of
from parlour.server.features.safety import safety_of
from parlour.server.features.timers import Timers
from parlour.server.settings import Settings

QUICK_STALE_SECONDS = 15.0
"""A waiting ticket not looked at for this long is taken for gone (its page polls every 2 s)."""

LEVELS: tuple[tuple[float, str], ...] = (
    (20.0, "level:novice"),
    (27.0, "level:casual"),
    (32.0, "level:club"),
    (float("inf"), "level:expert"),
)
"""The levels quick play seats, and for a game without a calibration, which one a player's rating
(openskill's mu; a new account starts at 25) gets: the first whose bound is above it. A calibrated
game (agents/level_ratings.json) gives the level whose calibrated mu is nearest instead."""

NO_RATING_BOT = "level:casual"
"""The bot for players without a rating (guests, or a first game of this kind)."""


def bot_for_rating(rating: float | None, game: str = "") -> str:
    """The spec of a bot of a level near `rating` (None: no rating) in `game`. Both are openskill
    mu, though from pools no game links (people among people, the levels among bots), so "near"
    is a first guess that the player's next games correct."""
    if rating is None:
        return NO_RATING_BOT
    calibration = calibrations().get(game)
    rated = [] if calibration is None else [spec for _, spec in LEVELS if spec in calibration.ratings]
    if calibration is None or not rated:
        return next(spec for bound, spec in LEVELS if rating < bound)
    return min(rated, key=lambda spec: abs(calibration.ratings[spec].mu - rating))


def _aware(moment: datetime) -> datetime:
    # SQLite gives back naive datetimes; they were stored in UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass
class Waiting:
    ticket: str
    name: str
    rating: float | None
    created_at: datetime
    bots_at: datetime


class QuickStore:
    """The waiting list's rows (run in worker threads through the database runner, db/runner.py)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, row: QuickWaitRow) -> None:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            session.add(row)

    def get(self, ticket: str) -> QuickWaitRow | None:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            row = session.get(QuickWaitRow, ticket)
            if row is not None and row.table_id is None:
                row.seen_at = _now()
            return row

    def handed_over(self, ticket: str) -> None:
        """Forget a seated ticket once its token was handed over."""
        with Session(self.engine) as session, session.begin():
            session.execute(delete(QuickWaitRow).where(QuickWaitRow.ticket == ticket))

    def waiting(self, game: str, players: int, mode: str) -> list[Waiting]:
        fresh = _now() - timedelta(seconds=QUICK_STALE_SECONDS)
        with Session(self.engine) as session:
            rows = session.scalars(
                select(QuickWaitRow).where(
                    QuickWaitRow.game == game,
                    QuickWaitRow.players == players,
                    QuickWaitRow.mode == mode,
                    QuickWaitRow.table_id.is_(None),
                    QuickWaitRow.claimed_by.is_(None),
                    QuickWaitRow.seen_at >= fresh,
                )
            ).all()
            return [Waiting(r.ticket, r.name, r.rating, _aware(r.created_at), _aware(r.bots_at)) for r in rows]

    def claim(self, tickets: list[str], claimer: str) -> bool:
        """Claim every ticket for `claimer`, or none (another process got there first)."""
        with Session(self.engine) as session, session.begin():
            done = session.execute(
                update(QuickWaitRow)
                .where(QuickWaitRow.ticket.in_(tickets), QuickWaitRow.claimed_by.is_(None))
                .values(claimed_by=claimer)
            )
            if done.rowcount != len(tickets):  # type: ignore[attr-defined]
                session.rollback()
                return False
            return True

    def release(self, claimer: str) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(update(QuickWaitRow).where(QuickWaitRow.claimed_by == claimer).values(claimed_by=None))

    def seat(self, ticket: str, table_id: str, seat: int, token: str) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(QuickWaitRow)
                .where(QuickWaitRow.ticket == ticket)
                .values(table_id=table_id, seat=seat, token=token, claimed_by=None)
            )

    def leave(self, ticket: str) -> bool:
        with Session(self.engine) as session, session.begin():
            done = session.execute(
                delete(QuickWaitRow).where(QuickWaitRow.ticket == ticket, QuickWaitRow.table_id.is_(None))
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    def rating(self, user_id: int, game: str, players: int) -> float | None:
        with Session(self.engine) as session:
            row = session.get(RatingRow, (user_id, game, players))
            return None if row is None else float(row.mu)


class QuickPlay:
    def __init__(self, settings: Settings, hub: Hub, timers: Timers) -> None:
        self.settings = settings
        self.hub = hub
        self.db = hub.db  # the database runner (server/db/runner.py)
        self.timers = timers
        self.store = QuickStore(hub.store.engine)

    async def start(self, request: Request, body: PlayNow) -> dict[str, Any]:
        try:
            cls = game_class(body.game)
        except InvalidOption as error:
            raise ServerError("unknown_game", str(error), 404) from None
        if body.players not in cls.player_counts():
            counts = ", ".join(map(str, cls.player_counts()))
            raise ServerError("invalid_option", f"{cls.title} is played by {counts} players, not {body.players}", 422)
        # The name is checked now, as a join would check it, not when the table is ready for it.
        check_display_name(body.name)
        await safety_of(request).check_name(body.name, "display name")
        most = self.settings.quick_max_wait_seconds
        if body.wait_seconds > most:
            raise ServerError("bad_wait", f"wait at most {most:g} s for other players, not {body.wait_seconds:g}", 422)
        account = await accounts_of(request).signed_in(request)
        rating = None
        if account is not None:
            rating = await self.db.run(self.store.rating, account.user.id, body.game, body.players)
        moment = _now()
        row = QuickWaitRow(
            ticket=secrets.token_urlsafe(24),
            game=body.game,
            players=body.players,
            mode=body.mode,
            name=" ".join(body.name.split()),
            rating=rating,
            created_at=moment,
            bots_at=moment + timedelta(seconds=body.wait_seconds),
            seen_at=moment,
        )
        ticket = row.ticket
        await self.db.run(self.store.add, row)
        try:
            return await self.look(request, ticket)
        except ServerError:
            # Refused (too many tables from this address): the asker has no ticket to look at.
            await self.db.run(self.store.leave, ticket)
            raise

    async def look(self, request: Request, ticket: str) -> dict[str, Any]:
        row = await self.db.run(self.store.get, ticket)
        if row is None:
            raise ServerError("no_ticket", "no such quick-play ticket: it was seated and handed over, or left", 404)
        if row.table_id is None:
            await self._match(row, client_address(request))
            row = await self.db.run(self.store.get, ticket)
            assert row is not None
        if row.table_id is not None and row.token is not None:
            await self.db.run(self.store.handed_over, ticket)
            return {"status": "seated", "table": row.table_id, "seat": row.seat, "token": row.token, "name": row.name}
        waiting = await self.db.run(self.store.waiting, row.game, row.players, row.mode)
        left = (_aware(row.bots_at) - _now()).total_seconds()
        return {
            "status": "waiting",
            "ticket": ticket,
            "people_waiting": len(waiting),
            "bots_in_seconds": max(0.0, round(left, 1)),
        }

    async def leave(self, ticket: str) -> None:
        if not await self.db.run(self.store.leave, ticket):
            raise ServerError("no_ticket", "no such waiting ticket (seated already, or gone)", 404)

    async def _match(self, row: QuickWaitRow, client: str) -> None:
        """Seat `row`'s player if enough people wait for the same, or their wait is over."""
        waiting = await self.db.run(self.store.waiting, row.game, row.players, row.mode)
        me = next((w for w in waiting if w.ticket == row.ticket), None)
        if me is None:
            return  # claimed by another process right now
        others = sorted((w for w in waiting if w.ticket != row.ticket), key=lambda w: (_apart(me, w), w.created_at))
        group = [me, *others[: row.players - 1]]
        if len(group) < row.players and _now() < me.bots_at:
            return
        claimer = secrets.token_hex(8)
        if not await self.db.run(self.store.claim, [w.ticket for w in group], claimer):
            return
        try:
            await self._seat(row, group, client)
        finally:
            await self.db.run(self.store.release, claimer)

    async def _seat(self, row: QuickWaitRow, group: list[Waiting], client: str) -> None:
        """Open the table (held, like any, to the limits on tables per client of the asker)."""
        ratings = [w.rating for w in group if w.rating is not None]
        bot = bot_for_rating(sum(ratings) / len(ratings) if ratings else None, row.game)
        seats = ["human"] * len(group) + [bot] * (row.players - len(group))
        clock = ClockSetup(self.settings.quick_move_seconds, BOT) if row.mode == TURN_BASED else None
        table = await self.hub.open_table(
            Opening(row.game, {"players": row.players}, seats, client=client, clock=clock)
        )
        for person in group:
            _, seat, token = await self.hub.join(table.id, None, person.name)
            await self.db.run(self.store.seat, person.ticket, table.id, seat.index, token)


def _apart(me: Waiting, other: Waiting) -> float:
    """How far apart two players' ratings are (unknown ratings: neither near nor far)."""
    if me.rating is None or other.rating is None:
        return 1e6
    return abs(me.rating - other.rating)


class PlayNow(Strict):
    game: str = Field(max_length=64, description="a game name from /api/games")
    players: int = Field(ge=1, le=12, description="the player count, one of the game's")
    mode: Literal["live", "turn_based"] = Field(default="live", description="live, or turn_based (a time per move)")
    wait_seconds: float = Field(
        default=30.0, ge=0, description="how long to wait for people before bots take the free seats (0: at once)"
    )
    name: Annotated[str, Field(min_length=1, max_length=40)] = Field(description="the display name at the table")


router = APIRouter()


def quick_of(request: Request) -> QuickPlay:
    quick: QuickPlay = request.app.state.quick
    return quick


@router.post("/api/quick", status_code=201, tags=["lobby"])
async def play_now(request: Request, body: PlayNow) -> dict[str, Any]:
    """Play now: wait for others who want the same game, then bots take the seats left.

    Answers `{status: "waiting", ticket, people_waiting, bots_in_seconds}` (look at the ticket
    again every few seconds) or, once seated, `{status: "seated", table, seat, token, name}`."""
    return await quick_of(request).start(request, body)


@router.get("/api/quick/{ticket}", tags=["lobby"])
async def look(request: Request, ticket: str) -> dict[str, Any]:
    """A quick-play ticket: still waiting, or seated (the seat's token, handed over once)."""
    return await quick_of(request).look(request, ticket[:64])


@router.delete("/api/quick/{ticket}", status_code=204, tags=["lobby"])
async def leave(request: Request, ticket: str) -> None:
    """Stop waiting."""
    await quick_of(request).leave(ticket[:64])
