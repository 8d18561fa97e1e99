"""How a table ended when its game did not: expired after its idle time, or conceded
(docs/server.md, "Leaving and ending").

Revision ID: 0013
Revises: 0011
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("game_tables", sa.Column("ended", sa.String(40), nullable=True))


def downgrade() -> None:
    op.drop_column("game_tables", "ended")
