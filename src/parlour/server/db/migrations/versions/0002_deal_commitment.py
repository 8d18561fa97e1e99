"""The commitment to each table's deal: its salt, its commitment and whether the creator chose the seed.

Tables created before keep working: their salt and commitment are NULL (nothing to verify) and
they are not marked as fixed deals.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN, never a batch copy of the table: on SQLite a batch rebuilds game_tables, and
    # dropping the old copy would cascade to every table's seats and actions.
    op.add_column("game_tables", sa.Column("salt", sa.String(64), nullable=True))
    op.add_column("game_tables", sa.Column("commitment", sa.String(64), nullable=True))
    op.add_column("game_tables", sa.Column("fixed_deal", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("game_tables", "fixed_deal")
    op.drop_column("game_tables", "commitment")
    op.drop_column("game_tables", "salt")
