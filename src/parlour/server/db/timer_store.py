"""The clocks of timed tables as stored: each table's mode, time per move or time banks, and the
deadline of the turn being played with the version it was set for (what a restart takes up again)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from parlour.server.db.models import SeatRow, TableRow, now

LIVE, TURN_BASED = "live", "turn_based"
BOT, FORFEIT = "bot", "forfeit"
Mode = Literal["live", "turn_based"]
OnTimeout = Literal["bot", "forfeit"]


def _aware(moment: datetime | None) -> datetime | None:
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


@dataclass
class Clock:
    table_id: str
    move_seconds: float
    on_timeout: str
    deadline: datetime | None = None
    version: int | None = None  # the table's version when the deadline was set
    seen: tuple[int, str] | None = None  # the (version, status) the deadline was worked out for
    # A live table's time banks: each seat's seconds left (move_seconds is then each bank's start),
    # and the seat whose bank the deadline spends.
    banks: list[float] | None = None
    seat: int | None = None

    def to_json(self, version: int, to_move: int) -> dict[str, Any]:
        # A deadline belongs to the turn it was set for: just after a move, until the watch sets
        # the next one, no clock runs.
        deadline = self.deadline if self.version == version else None
        left = None if deadline is None else max(0.0, (deadline - now()).total_seconds())
        banked = self.banks is not None
        return {
            "mode": LIVE if banked else TURN_BASED,
            "move_seconds": None if banked else self.move_seconds,
            "time_bank_seconds": self.move_seconds if banked else None,
            "time_banks": [round(bank, 3) for bank in self.banks] if self.banks is not None else None,
            "on_timeout": self.on_timeout,
            "deadline": deadline.isoformat() if deadline else None,
            "seconds_left": left,
            "to_move": to_move if deadline else None,
        }


class TimerStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def set_mode(self, table_id: str, move_seconds: float, on_timeout: str, banks: list[float] | None) -> None:
        mode = TURN_BASED if banks is None else LIVE
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(mode=mode, move_seconds=move_seconds, on_timeout=on_timeout, time_banks=banks)
            )

    def clocks(self, table_ids: list[str] | None = None) -> list[Clock]:
        """The clocks of every unfinished turn-based table (or of these), with their stored deadlines."""
        columns = (TableRow.id, TableRow.move_seconds, TableRow.on_timeout, TableRow.turn_deadline)
        more = (TableRow.deadline_version, TableRow.time_banks, TableRow.deadline_seat)
        timed = or_(TableRow.mode == TURN_BASED, TableRow.time_banks.is_not(None))
        chosen = select(*columns, *more).where(timed, TableRow.finished_at.is_(None))
        if table_ids is not None:
            chosen = chosen.where(TableRow.id.in_(table_ids))
        with Session(self.engine) as session:
            return [
                Clock(table_id, float(seconds or 0), on_timeout or BOT, _aware(deadline), version, None, banks, seat)
                for table_id, seconds, on_timeout, deadline, version, banks, seat in session.execute(chosen)
            ]

    def set_deadline(self, table_id: str, clock: Clock) -> None:
        """Store the clock's deadline (and its time banks): what a restart takes up again."""
        values: dict[str, Any] = {
            "turn_deadline": clock.deadline,
            "deadline_version": clock.version,
            "deadline_seat": clock.seat,
        }
        if clock.banks is not None:
            values["time_banks"] = list(clock.banks)
        with Session(self.engine) as session, session.begin():
            session.execute(update(TableRow).where(TableRow.id == table_id).values(**values))

    def forfeit(self, table_id: str, seat: int, agent: str) -> None:
        """The seat is the bot's from now on, and its token holds nothing any more."""
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(agent=agent, token_hash=None, forfeited=True)
            )
