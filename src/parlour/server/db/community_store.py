"""What running a community keeps in the database: admins, disabled accounts, password-reset codes,
the audit log, blocks, reports, refused words and who opened a table.

Blocking calls, run in a worker thread by the database runner (db/runner.py) like every Store method.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from parlour.server.db.models import (
    ActionRow,
    AdminRow,
    AuditRow,
    BlockRow,
    ChatRow,
    DisabledRow,
    RatingRow,
    ReportRow,
    ResetCodeRow,
    SeatRow,
    SessionRow,
    TableOwnerRow,
    TableRow,
    UserRow,
    now,
)
from parlour.server.db.safety_store import SafetyStore, iso


def _chat_json(row: ChatRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "table": row.table_id,
        "seat": row.seat,
        "name": row.name,
        "text": row.text,
        "sent_at": iso(row.sent_at),
    }


class CommunityStore(SafetyStore):
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # --- roles and account states ---------------------------------------------------------------

    def user_id(self, name: str) -> int | None:
        with Session(self.engine) as session:
            found = session.scalar(select(UserRow.id).where(UserRow.name_key == name.lower()))
            return None if found is None else int(found)

    def is_admin(self, user_id: int) -> bool:
        with Session(self.engine) as session:
            return session.get(AdminRow, user_id) is not None

    def set_admin(self, user_id: int, admin: bool) -> bool:
        """Grant or revoke the admin role; whether anything changed."""
        with Session(self.engine) as session, session.begin():
            row = session.get(AdminRow, user_id)
            if admin and row is None:
                session.add(AdminRow(user_id=user_id, granted_at=now()))
                return True
            if not admin and row is not None:
                session.delete(row)
                return True
            return False

    def is_disabled(self, user_id: int) -> bool:
        with Session(self.engine) as session:
            return session.get(DisabledRow, user_id) is not None

    def disable(self, user_id: int, reason: str) -> bool:
        """Disable the account and end its sessions; False if it was disabled already."""
        with Session(self.engine) as session, session.begin():
            if session.get(DisabledRow, user_id) is not None:
                return False
            session.add(DisabledRow(user_id=user_id, disabled_at=now(), reason=reason))
            session.execute(delete(SessionRow).where(SessionRow.user_id == user_id))
            session.execute(delete(ResetCodeRow).where(ResetCodeRow.user_id == user_id))
            return True

    def enable(self, user_id: int) -> bool:
        with Session(self.engine) as session, session.begin():
            result = session.execute(delete(DisabledRow).where(DisabledRow.user_id == user_id))
            return bool(getattr(result, "rowcount", 0))

    def accounts(self, find: str | None, limit: int) -> list[dict[str, Any]]:
        """Accounts by name (those containing `find`, in any case), with their role and state."""
        with Session(self.engine) as session:
            chosen = (
                select(UserRow, AdminRow.user_id, DisabledRow.disabled_at, DisabledRow.reason)
                .outerjoin(AdminRow, AdminRow.user_id == UserRow.id)
                .outerjoin(DisabledRow, DisabledRow.user_id == UserRow.id)
                .order_by(UserRow.name_key)
                .limit(limit)
            )
            if find:
                escaped = find.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
                chosen = chosen.where(UserRow.name_key.like(f"%{escaped}%", escape="\\"))
            return [
                {
                    "name": user.name,
                    "created_at": iso(user.created_at),
                    "admin": admin is not None,
                    "disabled": disabled_at is not None,
                    "disabled_at": iso(disabled_at),
                    "disabled_reason": reason,
                }
                for user, admin, disabled_at, reason in session.execute(chosen)
            ]

    def unfinished_seats(self, user_id: int) -> list[tuple[str, int]]:
        """The account's seats at tables not finished yet, as (table id, seat)."""
        with Session(self.engine) as session:
            chosen = (
                select(SeatRow.table_id, SeatRow.seat)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.user_id == user_id, TableRow.finished_at.is_(None), SeatRow.agent.is_(None))
                .order_by(SeatRow.table_id, SeatRow.seat)
            )
            return [(table_id, seat) for table_id, seat in session.execute(chosen)]

    def lock_seat(self, table_id: str, seat: int, token_hash: str) -> None:
        """Give a kept seat a token nobody holds: it stays the account's, and nobody plays it until
        the account, enabled again, asks for a new token (Resume in its games)."""
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat).values(token_hash=token_hash)
            )

    # --- export and deletion ----------------------------------------------------------------------

    def export(self, user_id: int) -> dict[str, Any] | None:
        """Everything stored about the account, as JSON: what a person may ask to be given."""
        with Session(self.engine) as session:
            user = session.get(UserRow, user_id)
            if user is None:
                return None
            seats = session.execute(
                select(
                    SeatRow.table_id, SeatRow.seat, SeatRow.name, SeatRow.joined_at, TableRow.game, TableRow.finished_at
                )
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.user_id == user_id)
                .order_by(SeatRow.joined_at)
            ).all()
            said: list[dict[str, Any]] = []
            for table_id, seat, *_ in seats:
                rows = session.scalars(
                    select(ChatRow).where(ChatRow.table_id == table_id, ChatRow.seat == seat).order_by(ChatRow.id)
                )
                said.extend(_chat_json(row) for row in rows)
            ratings = session.scalars(select(RatingRow).where(RatingRow.user_id == user_id))
            blocked = session.scalars(
                select(UserRow.name)
                .join(BlockRow, BlockRow.blocked_id == UserRow.id)
                .where(BlockRow.user_id == user_id)
            )
            reports = session.scalars(select(ReportRow).where(ReportRow.reporter == user.name).order_by(ReportRow.id))
            return {
                "account": {"name": user.name, "created_at": iso(user.created_at)},
                "seats": [
                    {"table": t, "seat": s, "name": n, "joined_at": iso(j), "game": g, "finished_at": iso(f)}
                    for t, s, n, j, g, f in seats
                ],
                "chat": said,
                "ratings": [
                    {"game": r.game, "players": r.players, "mu": r.mu, "sigma": r.sigma, "games": r.games}
                    for r in ratings
                ],
                "blocked": sorted(blocked),
                "reports_made": [
                    {
                        "id": r.id,
                        "created_at": iso(r.created_at),
                        "player": r.player,
                        "table": r.table_id,
                        "reason": r.reason,
                    }
                    for r in reports
                ],
                "exported_at": iso(now()),
            }

    def delete_user(self, user_id: int) -> None:
        """Delete the account and what is only its own. Its seats stay at their tables (the other
        players' games) under the name they were shown with, belonging to no account."""
        with Session(self.engine) as session, session.begin():
            session.execute(update(SeatRow).where(SeatRow.user_id == user_id).values(user_id=None))
            for row in (SessionRow, RatingRow, AdminRow, DisabledRow, ResetCodeRow, TableOwnerRow):
                session.execute(delete(row).where(row.user_id == user_id))
            session.execute(delete(BlockRow).where(or_(BlockRow.user_id == user_id, BlockRow.blocked_id == user_id)))
            session.execute(delete(UserRow).where(UserRow.id == user_id))

    # --- password-reset codes -------------------------------------------------------------------

    def new_reset_code(self, user_id: int, code_hash: str, expires_at: datetime) -> None:
        """The account's one reset code from now on (an earlier one stops working)."""
        with Session(self.engine) as session, session.begin():
            session.execute(delete(ResetCodeRow).where(ResetCodeRow.user_id == user_id))
            session.add(ResetCodeRow(code_hash=code_hash, user_id=user_id, expires_at=expires_at))

    def use_reset_code(self, user_id: int, code_hash: str, password_hash: str) -> bool:
        """Set the password if the code is the account's and unexpired; the code is spent and every
        session of the account ends."""
        with Session(self.engine) as session, session.begin():
            row = session.get(ResetCodeRow, code_hash)
            if row is None or row.user_id != user_id:
                return False
            session.delete(row)
            expires = row.expires_at if row.expires_at.tzinfo else row.expires_at.replace(tzinfo=UTC)
            if expires <= now():
                return False
            session.execute(update(UserRow).where(UserRow.id == user_id).values(password_hash=password_hash))
            session.execute(delete(SessionRow).where(SessionRow.user_id == user_id))
            return True

    # --- the audit log --------------------------------------------------------------------------

    def audit(self, admin: str, action: str, target: str, detail: dict[str, Any]) -> None:
        with Session(self.engine) as session, session.begin():
            session.add(AuditRow(at=now(), admin=admin, action=action, target=target[:200], detail=detail))

    def audit_log(self, limit: int, action: str | None) -> list[dict[str, Any]]:
        """The latest admin actions, newest first."""
        with Session(self.engine) as session:
            chosen = select(AuditRow).order_by(AuditRow.id.desc()).limit(limit)
            if action is not None:
                chosen = chosen.where(AuditRow.action == action)
            return [
                {
                    "id": r.id,
                    "at": iso(r.at),
                    "admin": r.admin,
                    "action": r.action,
                    "target": r.target,
                    "detail": r.detail,
                }
                for r in session.scalars(chosen)
            ]

    # --- tables and chat ------------------------------------------------------------------------

    def tables(self, finished: bool | None, limit: int) -> list[dict[str, Any]]:
        """Tables newest first, with their seats' names and how many actions were played."""
        with Session(self.engine) as session:
            played = select(ActionRow.table_id, func.count(ActionRow.ply).label("n")).group_by(ActionRow.table_id)
            counts = played.subquery()
            chosen = (
                select(TableRow, func.coalesce(counts.c.n, 0))
                .outerjoin(counts, counts.c.table_id == TableRow.id)
                .order_by(TableRow.created_at.desc())
                .limit(limit)
            )
            if finished is not None:
                chosen = chosen.where(TableRow.finished_at.is_not(None) if finished else TableRow.finished_at.is_(None))
            rows = session.execute(chosen).all()
            ids = [row.id for row, _ in rows]
            seats: dict[str, list[dict[str, Any]]] = {table_id: [] for table_id in ids}
            chosen_seats = select(SeatRow).where(SeatRow.table_id.in_(ids)).order_by(SeatRow.seat)
            for seat in session.scalars(chosen_seats):
                seats[seat.table_id].append({"seat": seat.seat, "agent": seat.agent, "name": seat.name})
            return [
                {
                    "id": row.id,
                    "game": row.game,
                    "created_at": iso(row.created_at),
                    "finished_at": iso(row.finished_at),
                    "actions": int(count),
                    "seats": seats[row.id],
                }
                for row, count in rows
            ]

    def remove_message(self, table_id: str, message_id: int) -> dict[str, Any] | None:
        """Delete a chat message; what it was, or None if the table has no such message."""
        with Session(self.engine) as session, session.begin():
            row = session.get(ChatRow, message_id)
            if row is None or row.table_id != table_id:
                return None
            removed = _chat_json(row)
            session.delete(row)
            return removed

    def chat_around(self, table_id: str, message_id: int, around: int) -> list[dict[str, Any]] | None:
        """The message and up to `around` messages of its table before and after it; None if the
        table has no such message."""
        with Session(self.engine) as session:
            row = session.get(ChatRow, message_id)
            if row is None or row.table_id != table_id:
                return None
            of_table = select(ChatRow).where(ChatRow.table_id == table_id)
            before = session.scalars(of_table.where(ChatRow.id < message_id).order_by(ChatRow.id.desc()).limit(around))
            after = session.scalars(of_table.where(ChatRow.id > message_id).order_by(ChatRow.id).limit(around))
            return [_chat_json(r) for r in [*reversed(list(before)), row, *after]]

    def seat_accounts(self, table_id: str) -> dict[int, int]:
        """Which account each seat of the table belongs to (seats of no account left out)."""
        with Session(self.engine) as session:
            chosen = select(SeatRow.seat, SeatRow.user_id).where(
                SeatRow.table_id == table_id, SeatRow.user_id.is_not(None)
            )
            return {int(seat): int(user) for seat, user in session.execute(chosen) if user is not None}

    # --- blocks ---------------------------------------------------------------------------------
