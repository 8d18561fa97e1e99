"""Accounts in the database: users, their sessions, and which account a seat belongs to.

Blocking calls, run in a worker thread by the database runner (db/runner.py) like every Store method.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from parlour.server.db.models import SeatRow, SessionRow, UserDeviceRow, UserRow, now


@dataclass(frozen=True)
class User:
    id: int
    name: str
    password_hash: str
    created_at: datetime


def _user(row: UserRow) -> User:
    created = row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=UTC)
    return User(row.id, row.name, row.password_hash, created)


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes; they were written in UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class AccountStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # --- users -------------------------------------------------------------------------------

    def create_user(self, name: str, password_hash: str) -> User | None:
        """A new account; None if the name (in any case) is taken."""
        row = UserRow(name=name, name_key=name.lower(), password_hash=password_hash, created_at=now())
        try:
            with Session(self.engine, expire_on_commit=False) as session, session.begin():
                session.add(row)
        except IntegrityError:
            return None
        return _user(row)

    def user_named(self, name: str) -> User | None:
        with Session(self.engine) as session:
            row = session.scalar(select(UserRow).where(UserRow.name_key == name.lower()))
            return None if row is None else _user(row)

    def set_password(self, user_id: int, password_hash: str) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(update(UserRow).where(UserRow.id == user_id).values(password_hash=password_hash))

    # --- sessions ----------------------------------------------------------------------------

    def open_session(self, token_hash: str, user_id: int, lasts: timedelta) -> None:
        moment = now()
        with Session(self.engine) as session, session.begin():
            session.add(
                SessionRow(token_hash=token_hash, user_id=user_id, created_at=moment, expires_at=moment + lasts)
            )

    def session_user(self, token_hash: str) -> User | None:
        """The user a session token signs in, if the session exists and has not expired."""
        with Session(self.engine) as session:
            found = session.execute(
                select(UserRow, SessionRow.expires_at)
                .join(SessionRow, SessionRow.user_id == UserRow.id)
                .where(SessionRow.token_hash == token_hash)
            ).first()
            if found is None or _aware(found[1]) <= now():
                return None
            return _user(found[0])

    def close_session(self, token_hash: str) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash))

    def close_sessions(self, user_id: int, keep: str | None = None) -> int:
        """End every session of the user (but `keep`); how many were ended."""
        with Session(self.engine) as session, session.begin():
            statement = delete(SessionRow).where(SessionRow.user_id == user_id)
            if keep is not None:
                statement = statement.where(SessionRow.token_hash != keep)
            result = session.execute(statement)
            return int(getattr(result, "rowcount", 0) or 0)

    # --- devices -----------------------------------------------------------------------------

    def add_device(self, token_hash: str, user_id: int) -> None:
        with Session(self.engine) as session, session.begin():
            session.add(UserDeviceRow(token_hash=token_hash, user_id=user_id, created_at=now()))

    def device_user(self, token_hash: str) -> int | None:
        """The account a device cookie signed in to, or None."""
        with Session(self.engine) as session:
            found = session.scalar(select(UserDeviceRow.user_id).where(UserDeviceRow.token_hash == token_hash))
            return None if found is None else int(found)

    # --- seats -------------------------------------------------------------------------------

    def link_seat(self, table_id: str, seat: int, token_hash: str, user_id: int) -> bool | None:
        """Give the seat that `token_hash` holds to the account: True if done (or already so),
        False if it belongs to another account, None if the token holds no such seat."""
        with Session(self.engine) as session, session.begin():
            row = session.get(SeatRow, (table_id, seat))
            if row is None or row.token_hash != token_hash or row.agent is not None:
                return None
            if row.user_id is not None:
                return row.user_id == user_id
            row.user_id = user_id
            return True

    def seats_of(self, user_id: int, limit: int) -> list[tuple[str, int]]:
        """The (table id, seat) pairs of the account, the most recently joined first."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(SeatRow.table_id, SeatRow.seat)
                .where(SeatRow.user_id == user_id)
                .order_by(SeatRow.joined_at.desc())
                .limit(limit)
            )
            return [(table_id, seat) for table_id, seat in rows]

    def seat_of(self, table_id: str, user_id: int) -> int | None:
        """The account's seat at a table, or None."""
        with Session(self.engine) as session:
            found = session.scalar(
                select(SeatRow.seat).where(SeatRow.table_id == table_id, SeatRow.user_id == user_id).limit(1)
            )
            return None if found is None else int(found)

    def new_seat_token(
        self, table_id: str, seat: int, user_id: int, token_hash: str, session_hash: str | None = None
    ) -> str | None:
        """Give the account's seat a new token (the one it held stops working), handed to the
        session `session_hash`; None if done, else why not: `not_your_seat`, or `forfeited` for a
        seat a bot plays now (a forfeit stays a forfeit)."""
        with Session(self.engine) as session, session.begin():
            row = session.get(SeatRow, (table_id, seat), with_for_update=True)
            if row is None or row.user_id != user_id:
                return "not_your_seat"
            if row.forfeited or row.agent is not None:
                return "forfeited"
            row.token_hash, row.token_session = token_hash, session_hash
            return None

    def retire_seat_tokens(self, user_id: int, keep: str | None) -> list[tuple[str, int, str]]:
        """Give every seat of the account whose token was handed to a session other than `keep`
        (None: any session) a new token nobody knows: the owner resumes it again from a signed-in
        device. Returns each (table id, seat, new token hash)."""
        retired = []
        with Session(self.engine) as session, session.begin():
            chosen = select(SeatRow).where(SeatRow.user_id == user_id, SeatRow.token_session.is_not(None))
            if keep is not None:
                chosen = chosen.where(SeatRow.token_session != keep)
            for row in session.scalars(chosen.with_for_update()):
                if row.token_hash is None or row.agent is not None:
                    continue
                row.token_hash, row.token_session = secrets.token_hex(32), None
                retired.append((row.table_id, row.seat, row.token_hash))
        return retired
