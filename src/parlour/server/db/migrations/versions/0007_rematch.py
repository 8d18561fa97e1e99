"""Rematch: the table a finished table's players were offered next.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("game_tables", sa.Column("rematch_id", sa.String(32), nullable=True))


def downgrade() -> None:
    op.drop_column("game_tables", "rematch_id")
