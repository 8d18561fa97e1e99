"""What keeps people safe, as stored: blocks between accounts, reports, the refused words and
who opened a table. Part of the community store (db/community_store.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from parlour.server.db.models import (
    BlockRow,
    RefusedWordRow,
    ReportRow,
    TableOwnerRow,
    UserRow,
    now,
)


def iso(moment: datetime | None) -> str | None:
    """A stored moment in ISO 8601 (SQLite hands back naive datetimes; they were written in UTC)."""
    if moment is None:
        return None
    return (moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)).isoformat()


class SafetyStore:
    engine: Engine

    def block(self, user_id: int, blocked_id: int) -> bool:
        try:
            with Session(self.engine) as session, session.begin():
                session.add(BlockRow(user_id=user_id, blocked_id=blocked_id, created_at=now()))
        except IntegrityError:
            return False  # blocked already
        return True

    def unblock(self, user_id: int, blocked_id: int) -> bool:
        with Session(self.engine) as session, session.begin():
            result = session.execute(
                delete(BlockRow).where(BlockRow.user_id == user_id, BlockRow.blocked_id == blocked_id)
            )
            return bool(getattr(result, "rowcount", 0))

    def blocked_names(self, user_id: int) -> list[str]:
        with Session(self.engine) as session:
            chosen = select(UserRow.name).join(BlockRow, BlockRow.blocked_id == UserRow.id)
            return sorted(session.scalars(chosen.where(BlockRow.user_id == user_id)))

    def blocks_among(self, user_ids: list[int]) -> set[tuple[int, int]]:
        """The (blocker, blocked) pairs among these accounts."""
        with Session(self.engine) as session:
            chosen = select(BlockRow.user_id, BlockRow.blocked_id).where(
                BlockRow.user_id.in_(user_ids), BlockRow.blocked_id.in_(user_ids)
            )
            return {(int(a), int(b)) for a, b in session.execute(chosen)}

    def owner_blocks(self, table_id: str, user_id: int) -> bool:
        """Whether the account that opened the table blocks this account."""
        with Session(self.engine) as session:
            chosen = (
                select(BlockRow.user_id)
                .join(TableOwnerRow, TableOwnerRow.user_id == BlockRow.user_id)
                .where(TableOwnerRow.table_id == table_id, BlockRow.blocked_id == user_id)
            )
            return session.scalar(chosen.limit(1)) is not None

    def set_owner(self, table_id: str, user_id: int) -> None:
        with Session(self.engine) as session, session.begin():
            session.add(TableOwnerRow(table_id=table_id, user_id=user_id))

    # --- reports --------------------------------------------------------------------------------

    def report(
        self,
        reporter: str,
        player: str | None,
        table_id: str | None,
        message_id: int | None,
        reason: str,
        context: list[dict[str, Any]],
    ) -> int:
        row = ReportRow(
            created_at=now(),
            reporter=reporter,
            player=player,
            table_id=table_id,
            message_id=message_id,
            reason=reason,
            context=context,
        )
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            session.add(row)
        return int(row.id)

    def reports(self, open_only: bool, limit: int) -> list[dict[str, Any]]:
        """Reports oldest first (the queue's order); open ones only, or all."""
        with Session(self.engine) as session:
            chosen = select(ReportRow).order_by(ReportRow.id).limit(limit)
            if open_only:
                chosen = chosen.where(ReportRow.resolved_at.is_(None))
            return [
                {
                    "id": r.id,
                    "created_at": iso(r.created_at),
                    "reporter": r.reporter,
                    "player": r.player,
                    "table": r.table_id,
                    "message": r.message_id,
                    "reason": r.reason,
                    "context": r.context,
                    "resolved_at": iso(r.resolved_at),
                    "resolved_by": r.resolved_by,
                    "resolution": r.resolution,
                }
                for r in session.scalars(chosen)
            ]

    def resolve(self, report_id: int, admin: str, resolution: str) -> bool | None:
        """Close a report; None if there is none by that id, False if it was closed already."""
        with Session(self.engine) as session, session.begin():
            row = session.get(ReportRow, report_id)
            if row is None:
                return None
            if row.resolved_at is not None:
                return False
            row.resolved_at, row.resolved_by, row.resolution = now(), admin, resolution
            return True

    # --- refused words --------------------------------------------------------------------------

    def refused_words(self) -> list[str]:
        with Session(self.engine) as session:
            return sorted(session.scalars(select(RefusedWordRow.word)))

    def add_word(self, word: str) -> bool:
        try:
            with Session(self.engine) as session, session.begin():
                session.add(RefusedWordRow(word=word, added_at=now()))
        except IntegrityError:
            return False
        return True

    def remove_word(self, word: str) -> bool:
        with Session(self.engine) as session, session.begin():
            result = session.execute(delete(RefusedWordRow).where(RefusedWordRow.word == word))
            return bool(getattr(result, "rowcount", 0))
