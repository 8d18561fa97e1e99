"""The review of a finished table (docs/server.md, "Reviews"): each seat's chances after every move
and the moves that cost a seat most, each with the move the strongest bot prefers.

A review is computed by `parlour.agents.review` on a worker thread, within the server's bound
(`review_seconds` for the searches, `review_iterations` per decision), `review_threads` at a time
and at most `review_queue` more waiting; while it runs, asking again tells how far it got. A review
done is kept in this process's memory, the `review_cache` most recently asked, under the record's
key, so the same table reviewed twice is computed once.

What each viewer gets is cut to what that viewer may know (see `for_viewer`): the finished table's
replay shows everybody the moves and the spectator's view, so a seat's judgement that read more than
the spectator saw is shown to that seat alone.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Annotated, Any

import anyio
import anyio.to_thread
from fastapi import APIRouter, Header, Request
from fastapi.responses import JSONResponse

from parlour.agents import review as reviewing
from parlour.server.authority.table import LiveTable
from parlour.server.edge.errors import ServerError
from parlour.server.edge.logs import log
from parlour.server.edge.requests import bearer, hub_of, settings_of
from parlour.server.settings import Settings

router = APIRouter()


@dataclass
class Job:
    """A review being computed: how many of the record's moves it has been through."""

    total: int
    done: int = 0
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class Reviews:
    """This process's reviews: those running and those done (the most recently asked kept)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.review_settings = reviewing.Settings(
            iterations=settings.review_iterations, max_seconds=settings.review_seconds, top=settings.review_top
        )
        self.done: OrderedDict[str, reviewing.Review] = OrderedDict()
        self.running: dict[str, Job] = {}
        self.computed = 0  # reviews computed by this process (the cache's test reads it)
        self.failed: OrderedDict[str, str] = OrderedDict()  # reviews that failed, not tried again
        self._limiter: anyio.CapacityLimiter | None = None

    def ask(self, record: dict[str, Any]) -> reviewing.Review | Job:
        """The review of a finished game's record if done, else its job (started by the first ask)."""
        key = reviewing.cache_key(record, self.review_settings)
        if key in self.done:
            self.done.move_to_end(key)
            return self.done[key]
        if key in self.running:
            return self.running[key]
        if key in self.failed:
            raise ServerError("review_failed", f"this game could not be reviewed: {self.failed[key]}", 500)
        if len(self.running) >= self.settings.review_threads + self.settings.review_queue:
            raise ServerError(
                "busy", f"the server is reviewing {len(self.running)} games already; ask again in a minute", 503
            )
        job = Job(total=len(record["actions"]))
        self.running[key] = job
        job.task = asyncio.create_task(self._compute(key, record, job))
        return job

    async def _compute(self, key: str, record: dict[str, Any], job: Job) -> None:
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.settings.review_threads)

        def progress(step: int, _total: int) -> None:
            job.done = step

        try:
            found = await anyio.to_thread.run_sync(
                reviewing.review, record, self.review_settings, progress, limiter=self._limiter
            )
        except Exception as error:
            # Kept (as many as the cache holds), so that a page asking again does not start it again.
            log.exception("a review failed", extra={"game": record.get("game")})
            self.failed[key] = error.__class__.__name__
            while len(self.failed) > self.settings.review_cache:
                self.failed.popitem(last=False)
            return
        finally:
            self.running.pop(key, None)
        self.computed += 1
        self.done[key] = found
        while len(self.done) > self.settings.review_cache:
            self.done.popitem(last=False)


def reviews_of(request: Request) -> Reviews:
    """The app's reviews, made on first use."""
    state = request.app.state
    if getattr(state, "reviews", None) is None:
        state.reviews = Reviews(settings_of(request))
    found: Reviews = state.reviews
    return found


def _seat_of(table: LiveTable, authorization: str | None) -> int | None:
    """The seat whose token the request carries; None without one (anybody else)."""
    if authorization is None:
        return None
    holder = table.seat_with_token(bearer(authorization))
    if holder is None:
        raise ServerError("bad_token", "this token holds no seat at this table", 403)
    return holder.index


def _chance(value: float | None, players: int) -> float | None:
    if value is None:
        return None
    return round((1 + value) / 2 if players == 2 else value, 4)


def for_viewer(found: reviewing.Review, viewer: int | None) -> dict[str, Any]:
    """The review as `viewer` (a seat, or None for anybody else) may read it.

    Chart: a seat sees every seat's chances as it could judge them from its own view; anybody else
    sees a seat's chances only after moves where that seat saw no more than a spectator (null
    elsewhere). Costly moves: a seat sees all of its own; the others' only where the mover saw no
    more than a spectator (its preferred move and cost then read nothing hidden); the rest are
    counted, not shown.
    """
    if viewer is not None:
        rows: list[list[float | None]] = [list(row) for row in found.seen_by[viewer]]
    else:
        rows = [
            [value if shown else None for value, shown in zip(row, public, strict=True)]
            for row, public in zip(found.prospects, found.public, strict=True)
        ]
    shown = [mistake for mistake in found.mistakes if mistake.seat == viewer or mistake.public]
    return {
        "game": found.game,
        "players": found.players,
        "viewer": viewer,
        "judged_by": found.judged_by,
        "scale": "winning chance" if found.players == 2 else "expected return",
        "chances": [[_chance(value, found.players) for value in row] for row in rows],
        "mistakes": [
            {
                "step": mistake.step,
                "seat": mistake.seat,
                "played": mistake.played,
                "preferred": mistake.preferred,
                "cost": mistake.cost,
                "words": mistake.words(found.players),
            }
            for mistake in shown
        ],
        "hidden_mistakes": len(found.mistakes) - len(shown),
        "decisions": found.decisions,
        "complete": found.complete,
        "seconds": found.seconds,
    }


@router.get(
    "/api/tables/{table_id}/review",
    tags=["client"],
    responses={202: {"description": "the review is being computed: how far it got"}},
)
async def table_review(request: Request, table_id: str, authorization: Annotated[str | None, Header()] = None) -> Any:
    """The review of a finished table: each seat's chances after every move and the costliest moves.

    The first ask starts it (202 with `done` of `total` moves while it runs; ask again); once done,
    200 with `review`, cut to what the token's seat (anybody without a token) may know.
    """
    table = await hub_of(request).table(table_id)
    if not table.state.is_terminal():
        raise ServerError("not_finished", "a game is reviewed once it has been played to its end", 409)
    viewer = _seat_of(table, authorization)
    found = reviews_of(request).ask(table.state.record())
    if isinstance(found, Job):
        body = {"table": table.id, "status": "running", "done": found.done, "total": found.total}
        return JSONResponse(body, status_code=202)
    total = len(found.prospects) - 1
    return {"table": table.id, "status": "done", "done": total, "total": total, "review": for_viewer(found, viewer)}
