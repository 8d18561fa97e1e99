"""Seats that hold: one seat per account at a rated table, the session each seat token was handed
to, and the devices that have signed in to each account.

- `seats.rated_user_id`: the account of a seat at a rated table, under a unique index on (table,
  account), so that one account can never hold two seats of one rated table, whatever races.
- `seats.token_session`: SHA-256 of the session a signed-in join or a Resume handed the seat's token
  to; a password change or sign-out everywhere retires the tokens of the sessions it ends.
- `user_devices`: a browser that has signed in to an account with the right password (its cookie's
  SHA-256); it passes the slower per-account sign-in limit with the right password.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("rated_user_id", sa.Integer(), nullable=True))
    op.add_column("seats", sa.Column("token_session", sa.String(64), nullable=True))
    # Unfinished rated tables' seats: one per account (the lowest seat if an account held two).
    op.execute(
        "UPDATE seats SET rated_user_id = user_id WHERE user_id IS NOT NULL "
        "AND table_id IN (SELECT id FROM game_tables WHERE rated AND finished_at IS NULL) "
        "AND seat = (SELECT MIN(other.seat) FROM seats other "
        "WHERE other.table_id = seats.table_id AND other.user_id = seats.user_id)"
    )
    op.create_index("uq_seats_rated_account", "seats", ["table_id", "rated_user_id"], unique=True)
    op.create_table(
        "user_devices",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_user_devices_user_id", "user_devices", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_user_devices_user_id", "user_devices")
    op.drop_table("user_devices")
    op.drop_index("uq_seats_rated_account", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("token_session")
        batch.drop_column("rated_user_id")
