"""Turn-based tables: each table's mode and time per move, what a timeout does, and the stored
deadline of the turn being played (so a timer survives a restart).

Existing tables become live tables (mode 'live', no deadline); nothing stored is rewritten.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN, never a batch copy of game_tables (see 0002).
    op.add_column("game_tables", sa.Column("mode", sa.String(16), nullable=False, server_default="live"))
    op.add_column("game_tables", sa.Column("move_seconds", sa.Float(), nullable=True))
    op.add_column("game_tables", sa.Column("on_timeout", sa.String(16), nullable=True))
    op.add_column("game_tables", sa.Column("turn_deadline", sa.DateTime(timezone=True), nullable=True))
    op.add_column("game_tables", sa.Column("deadline_version", sa.Integer(), nullable=True))
    op.add_column("seats", sa.Column("forfeited", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("seats", "forfeited")
    for column in ("deadline_version", "turn_deadline", "on_timeout", "move_seconds", "mode"):
        op.drop_column("game_tables", column)
