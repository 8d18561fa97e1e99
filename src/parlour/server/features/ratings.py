"""Ratings: rated tables update each player's openskill rating (Plackett-Luce, multi-player
aware) per game and player count; leaderboards; ratings beside the players' names.

A rated table seats people only, each signed in to an account of their own (one seat per
account), on a deal the server draws (no chosen seed, no fixed deal), so that nobody knows the
deal and nobody plays against themselves. When its game is over, the seats are ranked by their
returns (ties share a rank; a seat forfeited on time or conceded ranks last) and the ratings are updated in
one transaction that also marks the table rated, so a restart neither loses nor repeats an
update. The rating shown is the conservative ordinal, mu - 3 sigma.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from openskill.models import PlackettLuce
from sqlalchemy import select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from parlour.engine.errors import InvalidOption
from parlour.engine.game import Game
from parlour.engine.registry import game_class
from parlour.server.authority.hub import Hub
from parlour.server.authority.table import FINISHED, LiveTable
from parlour.server.db.models import RatingRow, SeatRow, TableRow, UserRow, now
from parlour.server.edge.errors import ServerError
from parlour.server.edge.logs import log
from parlour.server.features.accounts import SignedIn
from parlour.server.settings import Settings

router = APIRouter()
MODEL = PlackettLuce()
LEADERBOARD = 100


# The options a rated table may set, for a game that declares none: the player count alone (a
# rating is per game and player count). A game may list more in its `rated_options`, options
# that change neither the game's length nor who can win it.
RATED_OPTIONS = frozenset({"players"})


def rated_options(cls: type[Game]) -> frozenset[str]:
    return RATED_OPTIONS | frozenset(getattr(cls, "rated_options", ()))


def check_rated_options(game: str, options: dict[str, Any]) -> None:
    """Refuse an option of a rated table that differs from the game's default and is not one of
    its rated_options: every rated game of one game and player count is the same game."""
    try:
        cls = game_class(game)
    except InvalidOption:
        return  # the hub answers unknown_game
    allowed = rated_options(cls)
    for option in cls.options_spec:
        if option.name in allowed or option.name not in options:
            continue
        try:
            value = option.parse(cls.name, options[option.name])
        except InvalidOption:
            continue  # the hub answers invalid_option
        if value != option.default:
            raise ServerError(
                "bad_rated",
                f"a rated {cls.name} table plays the game as it is: option {option.name} must stay at its "
                f"default {option.default!r}, got {value!r} (a rated table may set: {', '.join(sorted(allowed))})",
                422,
            )


def ordinal(mu: float, sigma: float) -> float:
    return round(mu - 3 * sigma, 1)


def ranks_of(returns: list[float]) -> list[int]:
    """1 for the best return; seats with equal returns share a rank."""
    return [1 + sum(other > mine for other in returns) for mine in returns]


def same_account() -> ServerError:
    return ServerError("same_account", "your account already holds a seat at this rated table", 409)


class RatingStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def mark_rated(self, table_id: str) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(update(TableRow).where(TableRow.id == table_id).values(rated=True))

    def give_up(self, table_id: str) -> None:
        """Mark a rated table that cannot be rated as done, so that nobody tries it again."""
        with Session(self.engine) as session, session.begin():
            session.execute(update(TableRow).where(TableRow.id == table_id).values(rating_applied=True))

    def unapplied(self) -> list[str]:
        """Rated tables whose result is not in the ratings yet (unfinished, or finished just before a stop)."""
        return list(self.unapplied_finished())

    def unapplied_finished(self) -> dict[str, bool]:
        """The rated tables not applied yet, each with whether its game is over."""
        with Session(self.engine) as session:
            chosen = select(TableRow.id, TableRow.finished_at.is_not(None)).where(
                TableRow.rated.is_(True), TableRow.rating_applied.is_(False)
            )
            return {table_id: bool(finished) for table_id, finished in session.execute(chosen)}

    def is_rated(self, table_id: str) -> bool:
        return table_id in self.rated_among([table_id])

    def rated_among(self, table_ids: list[str]) -> set[str]:
        """Which of these tables are rated, as the database records it (from their opening on)."""
        if not table_ids:
            return set()
        with Session(self.engine) as session:
            chosen = select(TableRow.id).where(TableRow.id.in_(table_ids), TableRow.rated.is_(True))
            return set(session.scalars(chosen))

    def seat_accounts(self, table_ids: list[str]) -> dict[str, dict[int, tuple[int, str]]]:
        """Each table's seats that belong to accounts: seat -> (user id, account name)."""
        found: dict[str, dict[int, tuple[int, str]]] = {table_id: {} for table_id in table_ids}
        if not table_ids:
            return found
        chosen = (
            select(SeatRow.table_id, SeatRow.seat, UserRow.id, UserRow.name)
            .join(UserRow, UserRow.id == SeatRow.user_id)
            .where(SeatRow.table_id.in_(table_ids))
        )
        with Session(self.engine) as session:
            for table_id, seat, user_id, name in session.execute(chosen):
                found[table_id][seat] = (user_id, name)
        return found

    def changes(self, table_ids: list[str]) -> dict[str, dict[int, float]]:
        """What each rated table's game changed its seats' ratings by: table -> seat -> change."""
        found: dict[str, dict[int, float]] = {}
        if not table_ids:
            return found
        chosen = select(SeatRow.table_id, SeatRow.seat, SeatRow.rating_change).where(
            SeatRow.table_id.in_(table_ids), SeatRow.rating_change.is_not(None)
        )
        with Session(self.engine) as session:
            for table_id, seat, change in session.execute(chosen):
                if change is not None:
                    found.setdefault(table_id, {})[seat] = change
        return found

    def forfeited(self, table_id: str) -> set[int]:
        with Session(self.engine) as session:
            chosen = select(SeatRow.seat).where(SeatRow.table_id == table_id, SeatRow.forfeited.is_(True))
            return set(session.scalars(chosen))

    def ratings(self, game: str, players: int, user_ids: list[int]) -> dict[int, RatingRow]:
        if not user_ids:
            return {}
        with Session(self.engine, expire_on_commit=False) as session:
            rows = session.scalars(
                select(RatingRow).where(
                    RatingRow.game == game, RatingRow.players == players, RatingRow.user_id.in_(user_ids)
                )
            )
            return {row.user_id: row for row in rows}

    def apply(self, table_id: str, game: str, ranked: list[tuple[int, int]]) -> bool:
        """Rate a finished table's (user id, rank) list in one transaction with marking it applied;
        False if it was applied already (by an earlier attempt)."""
        players = len(ranked)
        with Session(self.engine) as session, session.begin():
            # Locked: where several processes see the game end, one applies it, the others find it done.
            row = session.get(TableRow, table_id, with_for_update=True)
            if row is None or row.rating_applied:
                return False
            users = [user_id for user_id, _ in ranked]
            stored = {
                r.user_id: r
                for r in session.scalars(
                    select(RatingRow).where(
                        RatingRow.game == game, RatingRow.players == players, RatingRow.user_id.in_(users)
                    )
                )
            }
            before = [
                [MODEL.rating(mu=stored[u].mu, sigma=stored[u].sigma) if u in stored else MODEL.rating()] for u in users
            ]
            after = MODEL.rate(before, ranks=[float(rank) for _, rank in ranked])
            moment = now()
            for seat, (user_id, [rating]) in enumerate(zip(users, after, strict=True)):
                known = stored.get(user_id)
                was = ordinal(known.mu, known.sigma) if known is not None else ordinal(MODEL.mu, MODEL.sigma)
                change = round(ordinal(rating.mu, rating.sigma) - was, 1)
                chosen_seat = update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                session.execute(chosen_seat.values(rating_change=change))
                if known is None:
                    session.add(
                        RatingRow(
                            user_id=user_id,
                            game=game,
                            players=players,
                            mu=rating.mu,
                            sigma=rating.sigma,
                            games=1,
                            updated_at=moment,
                            last_change=change,
                        )
                    )
                else:
                    known.mu, known.sigma, known.games, known.updated_at = (
                        rating.mu,
                        rating.sigma,
                        known.games + 1,
                        moment,
                    )
                    known.last_change = change
            row.rating_applied = True
            return True

    def leaderboard(self, game: str, players: int | None, limit: int) -> list[dict[str, Any]]:
        chosen = select(RatingRow, UserRow.name).join(UserRow, UserRow.id == RatingRow.user_id)
        chosen = chosen.where(RatingRow.game == game)
        if players is not None:
            chosen = chosen.where(RatingRow.players == players)
        with Session(self.engine) as session:
            rows = [(row, name) for row, name in session.execute(chosen)]
        rows.sort(key=lambda pair: (pair[0].players, -(pair[0].mu - 3 * pair[0].sigma), pair[1].lower()))
        return [
            {
                "players": row.players,
                "name": name,
                "rating": ordinal(row.mu, row.sigma),
                "mu": round(row.mu, 3),
                "sigma": round(row.sigma, 3),
                "games": row.games,
                "last_change": row.last_change,
            }
            for row, name in rows[:limit]
        ]


class Ratings:
    def __init__(self, settings: Settings, hub: Hub) -> None:
        self.settings = settings
        self.hub = hub
        self.db = hub.db  # the database runner (server/db/runner.py)
        self.store = RatingStore(hub.store.engine)
        # Rated tables whose result is still to be applied.
        self.waiting: set[str] = set()
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.waiting = set(await self.db.run(self.store.unapplied))
        self.task = asyncio.create_task(self._watch())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    @staticmethod
    def check(
        rated: bool, seats: list[str], seed: int | None, fixed_deal: bool, game: str = "", options: Any = None
    ) -> None:
        """Refuse a rated table that is not the rated game: people only, two or more of them, a
        drawn deal, and the game's default options but for those it lists as rated_options."""
        if not rated:
            return
        if any(spec.strip().lower() != "human" for spec in seats):
            raise ServerError("bad_rated", "a rated table seats people only: every seat must be 'human'", 422)
        if len(seats) < 2:
            raise ServerError(
                "bad_rated", f"a rated table needs two or more seats (a rating ranks players), got {len(seats)}", 422
            )
        if seed is not None or fixed_deal:
            raise ServerError("bad_rated", "a rated table is dealt by the server: leave out seed and fixed_deal", 422)
        if game:
            check_rated_options(game, dict(options or {}))

    async def open(self, table: LiveTable) -> None:
        await self.db.run(self.store.mark_rated, table.id)
        self.waiting.add(table.id)

    async def rated_among(self, table_ids: list[str]) -> set[str]:
        """Which tables are rated. Asked of the database, not of `waiting`: a table stays rated
        after its result is applied, and another process's tick may be rewriting `waiting`."""
        return await self.db.run(self.store.rated_among, table_ids)

    async def may_join(self, table: LiveTable, account: SignedIn | None) -> bool:
        """Whether the table is rated; a rated table's seat goes to a signed-in account holding no
        other seat there (checked here for a clear answer, and again by the seats' unique index
        when the seat is taken: Store.claim_seat)."""
        if not await self.db.run(self.store.is_rated, table.id):
            return False
        if account is None:
            raise ServerError("account_needed", "a rated table seats signed-in players only; sign in first", 403)
        seated = (await self.db.run(self.store.seat_accounts, [table.id]))[table.id]
        if any(user_id == account.user.id for user_id, _ in seated.values()):
            raise same_account()
        return True

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.settings.timer_poll)
            try:
                await self.tick()
            except Exception:
                log.exception("ratings failed", extra={"event": "server_fault"})

    async def tick(self) -> None:
        over: dict[str, bool] | None = None
        if self.hub.cluster is not None:
            # Rated tables opened and finished on other processes too: the database lists them.
            over = await self.db.run(self.store.unapplied_finished)
            self.waiting = set(over)
        for table_id in list(self.waiting):
            # Each table in its own guard: one that fails is given up (one log line), never tried
            # again each tick, and never keeps the tables after it from being rated.
            try:
                await self._look_at(table_id, over)
            except ServerError as error:
                if error.code != "storage_error":  # the database away: tried again next tick
                    await self._give_up(table_id, error.message)
            except Exception as error:
                await self._give_up(table_id, repr(error))

    async def _look_at(self, table_id: str, over: dict[str, bool] | None) -> None:
        table = self.hub.tables.get(table_id) or self.hub.held.get(table_id)
        if table is None and over is not None and not over[table_id]:
            return  # being played elsewhere: whoever holds it, or this one later, applies it
        if table is None and (over is not None or table_id not in self.hub.resting):
            # Not in memory nor resting unfinished: finished while the server was down, say.
            table = await self.hub.table(table_id)
        if table is not None and table.status == FINISHED:
            await self._apply(table)

    async def _give_up(self, table_id: str, reason: str) -> None:
        self.waiting.discard(table_id)
        log.error("rated table cannot be rated", extra={"event": "not_rated", "table": table_id, "error": reason})
        with contextlib.suppress(Exception):  # the database is away: the next tick tries once more
            await self.db.run(self.store.give_up, table_id)

    async def _apply(self, table: LiveTable) -> None:
        seated = (await self.db.run(self.store.seat_accounts, [table.id]))[table.id]
        # A table ended by a concession before its game did: the seats still playing share the
        # first rank, the conceded (forfeited) ones rank last.
        returns = table.state.returns() if table.state.is_terminal() else [0.0] * len(table.seats)
        if len(seated) != len(table.seats) or len(table.seats) < 2:
            raise ValueError(f"{len(seated)} of its {len(table.seats)} seats belong to accounts")
        # A seat forfeited on time ranks last, whatever the bot that played it out achieved.
        forfeited = await self.db.run(self.store.forfeited, table.id)
        playing = [seat for seat in range(len(returns)) if seat not in forfeited]
        ranks = dict(zip(playing, ranks_of([returns[seat] for seat in playing]), strict=True))
        last = len(playing) + 1  # behind every seat that played to the end
        ranked = [(seated[seat][0], ranks.get(seat, last)) for seat in range(len(returns))]
        applied = await self.db.run(self.store.apply, table.id, table.state.game.name, ranked)
        self.waiting.discard(table.id)
        log.info("ratings updated", extra={"event": "rated", "table": table.id, "applied": applied})

    async def beside(self, summaries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
        """For each table summary, its account seats' names and ratings: {seat: {account, rating, games}}."""
        accounts = await self.db.run(self.store.seat_accounts, [s["id"] for s in summaries])
        changes = await self.db.run(self.store.changes, [s["id"] for s in summaries if s["status"] == FINISHED])
        shown: dict[str, dict[str, Any]] = {}
        for summary in summaries:
            seated = accounts.get(summary["id"], {})
            users = [user_id for user_id, _ in seated.values()]
            known = await self.db.run(self.store.ratings, summary["game"], len(summary["seats"]), users)
            shown[summary["id"]] = {
                str(seat): {
                    "account": name,
                    "rating": ordinal(known[user_id].mu, known[user_id].sigma) if user_id in known else None,
                    "games": known[user_id].games if user_id in known else 0,
                    # What this table's game changed the rating by (null until it is rated).
                    "change": changes.get(summary["id"], {}).get(seat),
                }
                for seat, (user_id, name) in sorted(seated.items())
            }
        return shown


def ratings_of(request: Any) -> Ratings:
    ratings: Ratings = request.app.state.ratings
    return ratings


@router.get("/api/ratings/{game}", tags=["ratings"])
async def leaderboard(
    request: Request,
    game: str,
    players: Annotated[int | None, Query(ge=1, le=12, description="the player count (all counts if not given)")] = None,
) -> dict[str, Any]:
    """The game's leaderboard: accounts by rating (mu - 3 sigma), per player count."""
    try:
        name = game_class(game).name
    except InvalidOption as error:
        raise ServerError("unknown_game", str(error), 404) from None
    ratings = ratings_of(request)
    board = await ratings.db.run(ratings.store.leaderboard, name, players, LEADERBOARD)
    return {"game": name, "players": players, "ratings": board}
