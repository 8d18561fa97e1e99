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
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("salt", sa.String(64), nullable=True))
        batch.add_column(sa.Column("commitment", sa.String(64), nullable=True))
        batch.add_column(sa.Column("fixed_deal", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("fixed_deal")
        batch.drop_column("commitment")
        batch.drop_column("salt")
