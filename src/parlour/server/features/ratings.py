"""Ratings: rated tables update each player's openskill rating (Plackett-Luce, multi-player
aware) per game and player count; leaderboards; ratings beside the players' names.

A rated table seats people only, each signed in to an account of their own (one seat per
account), on a deal the server draws (no chosen seed, no fixed deal), so that nobody knows the
deal and nobody plays against themselves. When its game is over, the seats are ranked by their
returns (ties share a rank; a seat forfeited on time or conceded ranks last) and the ratings are updated in
one transaction that also marks the table rated, so a restart neither loses nor repeats an
update. The rating shown is the conservative ordinal, mu - 3 sigma.

A result is applied as soon as its game is over: the ratings subscribe to the authority's
GameFinished event (server/authority/events.py). At start, the rated tables finished while the
server was down are applied; where several processes share a PostgreSQL database, each also reads
the rated tables still to apply every `timer_poll` seconds, for those finished elsewhere.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from parlour.engine.errors import InvalidOption
from parlour.engine.game import Game
from parlour.engine.registry import game_class
from parlour.server.authority.events import GameFinished
from parlour.server.authority.hub import Hub
from parlour.server.authority.opening import Opening
from parlour.server.authority.table import FINISHED, LiveTable
from parlour.server.db.rating_store import RatingStore, ordinal
from parlour.server.edge.errors import ServerError
from parlour.server.edge.logs import log
from parlour.server.features.accounts import SignedIn
from parlour.server.settings import Settings

router = APIRouter()
LEADERBOARD = 100
# How long a result the database could not take waits before it is tried again, at the least.
RETRY_SECONDS = 1.0


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


def ranks_of(returns: list[float]) -> list[int]:
    """1 for the best return; seats with equal returns share a rank."""
    return [1 + sum(other > mine for other in returns) for mine in returns]


def same_account() -> ServerError:
    return ServerError("same_account", "your account already holds a seat at this rated table", 409)


class Ratings:
    def __init__(self, settings: Settings, hub: Hub) -> None:
        self.settings = settings
        self.hub = hub
        self.db = hub.db  # the database runner (server/db/runner.py)
        self.store = RatingStore(hub.store.engine)
        # Rated tables whose result is still to be applied.
        self.waiting: set[str] = set()
        # Tables being rated now, and tables given up until the database records it.
        self.rating: set[str] = set()
        self.given_up: set[str] = set()
        self.task: asyncio.Task[None] | None = None
        hub.opening_steps.append(self._opening)
        hub.events.subscribe(GameFinished, lambda event: hub.events.later(self._finished(event.table), "ratings"))

    async def start(self) -> None:
        self.waiting = set(await self.db.run(self.store.unapplied))
        # Finished while the server was down (or by another process meanwhile): applied now.
        self.hub.events.later(self.tick(), "ratings")
        if self.hub.cluster is not None:
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

    async def _opening(self, table: LiveTable, opening: Opening) -> None:
        if opening.rated:
            await self.open(table)

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

    async def _finished(self, table: LiveTable) -> None:
        """A game is over: if its table is rated, its result is applied now."""
        # Several processes: a rated table opened by another one is not in `waiting` here.
        cluster = self.hub.cluster
        if table.id not in self.waiting and (cluster is None or not await self.db.run(self.store.is_rated, table.id)):
            return
        await self._rate(table.id, None)

    async def tick(self) -> None:
        over: dict[str, bool] | None = None
        if self.hub.cluster is not None:
            # Rated tables opened and finished on other processes too: the database lists them.
            over = await self.db.run(self.store.unapplied_finished)
            self.waiting = set(over)
            self.given_up &= self.waiting  # those the database lists as done need no guard here
        for table_id in list(self.waiting):
            await self._rate(table_id, over)

    async def _rate(self, table_id: str, over: dict[str, bool] | None) -> None:
        # Each table in its own guard: one that fails is given up (one log line), never tried
        # again, and never keeps the other tables from being rated. A table being rated here (its
        # game's end and a look at the database can ask at once) is rated once.
        if table_id in self.rating or table_id in self.given_up:
            return
        self.rating.add(table_id)
        try:
            await self._guarded(table_id, over)
        finally:
            self.rating.discard(table_id)

    async def _guarded(self, table_id: str, over: dict[str, bool] | None) -> None:
        try:
            await self._look_at(table_id, over)
        except ServerError as error:
            if error.code != "storage_error":
                await self._give_up(table_id, error.message)
            else:  # the database away: tried again a moment later
                retry = max(self.settings.timer_poll, RETRY_SECONDS)
                asyncio.get_running_loop().call_later(
                    retry, lambda: self.hub.events.later(self._rate(table_id, None), "ratings")
                )
        except Exception as error:
            await self._give_up(table_id, repr(error))

    async def _look_at(self, table_id: str, over: dict[str, bool] | None) -> None:
        table = self.hub.tables.get(table_id) or self.hub.held.get(table_id)
        if table is not None and table.stale:
            table = await self.hub.table(table_id)  # moves made elsewhere are read first
        if table is None and over is not None and not over[table_id]:
            return  # being played elsewhere: whoever holds it, or this one later, applies it
        if table is None and (over is not None or table_id not in self.hub.resting):
            # Not in memory nor resting unfinished: finished while the server was down, say.
            table = await self.hub.table(table_id)
        if table is not None and table.status == FINISHED:
            await self._apply(table)

    async def _give_up(self, table_id: str, reason: str) -> None:
        self.waiting.discard(table_id)
        self.given_up.add(table_id)  # until the database says so too (tick forgets it then)
        log.error("rated table cannot be rated", extra={"event": "not_rated", "table": table_id, "error": reason})
        try:
            await self.db.run(self.store.give_up, table_id)
        except Exception:  # the database is away: the next look tries the table once more
            self.given_up.discard(table_id)

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
        # Each lookup is skipped when it has nothing to look up (a new table, a table of guests):
        # a trip to a database thread costs more than the empty query.
        accounts = await self.db.run(self.store.seat_accounts, [s["id"] for s in summaries])
        finished = [s["id"] for s in summaries if s["status"] == FINISHED and accounts.get(s["id"])]
        changes = await self.db.run(self.store.changes, finished) if finished else {}
        shown: dict[str, dict[str, Any]] = {}
        for summary in summaries:
            seated = accounts.get(summary["id"], {})
            users = [user_id for user_id, _ in seated.values()]
            known = {}
            if users:
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
