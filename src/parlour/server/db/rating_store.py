"""The ratings as stored: each account's openskill rating per game and player count, which tables
are rated, and a finished table's result applied in one transaction with marking it applied."""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from parlour.server.db.models import RatingRow, SeatRow, TableRow, UserRow, now

MODEL = PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    return round(mu - 3 * sigma, 1)


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
        with self.engine.connect() as connection:  # not a Session: as in rated_among
            return bool(connection.scalar(select(TableRow.rated).where(TableRow.id == table_id)))

    def rated_among(self, table_ids: list[str]) -> set[str]:
        """Which of these tables are rated, as the database records it (from their opening on)."""
        if not table_ids:
            return set()
        # A connection, not a Session: asked for every table opened or joined, and an ORM
        # Session costs about 0.1 ms of CPU more for a query that returns plain values.
        with self.engine.connect() as connection:
            chosen = select(TableRow.id).where(TableRow.id.in_(table_ids), TableRow.rated.is_(True))
            return set(connection.scalars(chosen))

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
        with self.engine.connect() as connection:  # not a Session: as in rated_among
            for table_id, seat, user_id, name in connection.execute(chosen):
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
