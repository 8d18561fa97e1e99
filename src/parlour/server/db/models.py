"""The database tables. A game table is stored as what rebuilds it exactly: game, options, seed,
seats and the list of actions; everything else (the position, the views) is derived by replay."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "game_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    # The commitment to the deal published at creation, SHA-256 of salt and seed (parlour.deal), and
    # the secret salt revealed with the seed once the game is over. None on tables created before
    # deals were committed (migration 0002).
    salt: Mapped[str | None] = mapped_column(String(64), nullable=True)
    commitment: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # The table's creator chose the seed; every client is told so.
    fixed_deal: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    # Set in the same transaction as the final action, so the lobby can list finished tables
    # without replaying them.
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    # Turn-based play (server/timers.py, migration 0005): 'live' or 'turn_based', the time per move,
    # what a timeout does ('bot' plays the turn, or the seat is 'forfeit'), and the deadline of the
    # turn being played with the table's version when it was set.
    mode: Mapped[str] = mapped_column(String(16), default="live", server_default="live")
    move_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    on_timeout: Mapped[str | None] = mapped_column(String(16), nullable=True)
    turn_deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    deadline_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # A live table's time banks (migration 0008): each seat's seconds left (move_seconds holds each
    # bank's start), and the seat whose bank the stored deadline spends.
    time_banks: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    deadline_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Rated (server/ratings.py, migration 0006): people only, a server-drawn deal; and whether the
    # finished game's result has been applied to the players' ratings.
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    rating_applied: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The new table this finished one's players were offered (server/rematch.py, migration 0007).
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # How the table ended when its game did not (migration 0013): 'expired' (idle for
    # table_expiry_seconds), 'conceded N' (seat N gave up) or 'left N' (seat N left, nobody else
    # playing); None while it runs or once its game is over.
    ended: Mapped[str | None] = mapped_column(String(40), nullable=True)


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    # An agent spec for a bot seat, None for a person's seat.
    agent: Mapped[str | None] = mapped_column(String(200), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # SHA-256 of the seat token; the token itself is handed out once and never stored.
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    joined_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The account the seat belongs to (joined while signed in, or claimed by a guest); None for a
    # guest's seat and a bot's. No foreign key: added in place by migration 0003 (see there).
    user_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    # The person ran out of time at a table that forfeits: a bot plays the seat from then on.
    forfeited: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The seat's account at a rated table (migration 0010): unique per table, so that one account
    # holds at most one seat of a rated table, checked and taken in one statement.
    rated_user_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # SHA-256 of the session the seat's token was handed to (a signed-in join or a Resume); ending
    # that session by a password change or sign-out everywhere retires the token.
    token_session: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # What the seat's rated game changed its account's shown rating by (migration 0013).
    rating_change: Mapped[float | None] = mapped_column(Float, nullable=True)

    __table_args__ = (Index("uq_seats_rated_account", "table_id", "rated_user_id", unique=True),)


class ActionRow(Base):
    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    # Position in the table's history (0-based); the primary key makes a second action at the
    # same position impossible, whatever happens above.
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    action_id: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class UserRow(Base):
    """An account. The password is kept only as its Argon2 hash (parlour.server.passwords)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    # The name as its owner wrote it, and in lower case: names differing only in case are one name.
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class SessionRow(Base):
    """A signed-in browser. The cookie holds a random token; only its SHA-256 is stored."""

    __tablename__ = "user_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class UserDeviceRow(Base):
    """A browser that signed in to an account with its password (migration 0010): the cookie
    `parlour_device` holds a random token whose SHA-256 alone is stored."""

    __tablename__ = "user_devices"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ChatRow(Base):
    """A chat message of a table, from a seat (by its token); kept as the text that was sent."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    text: Mapped[str] = mapped_column(String(2000))
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class RatingRow(Base):
    """An account's openskill rating (Plackett-Luce) at one game and player count."""

    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    # What the account's last rated game changed its shown rating by (migration 0013).
    last_change: Mapped[float | None] = mapped_column(Float, nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class LeaseRow(Base):
    """Which server process runs a table's bots and clock (server/leases.py, migration 0009)."""

    __tablename__ = "table_leases"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    # The process (host, pid and a random part: a restarted process is a new owner).
    owner: Mapped[str] = mapped_column(String(120), index=True)
    # Set from the database's clock, so that machines whose clocks differ agree on it.
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# --- Running a community (server/admin.py, server/safety.py, migration 0011) ----------------------


class AdminRow(Base):
    """An account holding the admin role."""

    __tablename__ = "admins"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    granted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class DisabledRow(Base):
    """A disabled account: it cannot sign in, and what it held was taken away when disabled."""

    __tablename__ = "disabled_accounts"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    disabled_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    reason: Mapped[str] = mapped_column(String(500))


class ResetCodeRow(Base):
    """A one-time password-reset code, kept only as its SHA-256."""

    __tablename__ = "reset_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AuditRow(Base):
    """One admin action: who, what, on what, and its details. Kept by name, so that it outlives
    the accounts it names."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)
    admin: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(40))
    target: Mapped[str] = mapped_column(String(200))
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)


class BlockRow(Base):
    """`user_id` blocks `blocked_id`: the blocked one's chat is hidden from the blocker, and it
    cannot join the tables the blocker opens."""

    __tablename__ = "blocks"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ReportRow(Base):
    """A report of a player or a chat message, waiting in the admins' queue until resolved. The
    message and its context are copied in, so that removing the message keeps the evidence."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    reporter: Mapped[str] = mapped_column(String(64))
    player: Mapped[str | None] = mapped_column(String(64), nullable=True)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    message_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reason: Mapped[str] = mapped_column(String(1000))
    context: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    resolved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    resolved_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    resolution: Mapped[str | None] = mapped_column(String(1000), nullable=True)


class RefusedWordRow(Base):
    """A word the server refuses in account names, display names and chat (lower case)."""

    __tablename__ = "refused_words"

    word: Mapped[str] = mapped_column(String(64), primary_key=True)
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class TableOwnerRow(Base):
    """The account that opened a table (signed in when it did)."""

    __tablename__ = "table_owners"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)


class QuickWaitRow(Base):
    """A player waiting for quick play (server/quick_play.py, migration 0012): until seated, then
    with the table, seat and seat token the next look at the ticket hands over (and forgets)."""

    __tablename__ = "quick_waits"

    ticket: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    mode: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(40))
    rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    # After this, the seats still free are given to bots.
    bots_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The player's page looks at the ticket every few seconds; one not seen for a while has left.
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    # The server process matching this ticket right now (so that two never seat one player twice).
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    token: Mapped[str | None] = mapped_column(String(200), nullable=True)
