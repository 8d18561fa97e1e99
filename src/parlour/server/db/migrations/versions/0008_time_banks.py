"""Time banks of live tables: each seat's seconds left, and the seat a stored deadline belongs to.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("game_tables", sa.Column("time_banks", sa.JSON(), nullable=True))
    op.add_column("game_tables", sa.Column("deadline_seat", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("game_tables", "deadline_seat")
    op.drop_column("game_tables", "time_banks")
