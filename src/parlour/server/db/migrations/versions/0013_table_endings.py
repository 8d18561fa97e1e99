"""How a table ended when its game did not: expired after its idle time, conceded or left
(docs/server.md, "Leaving and ending"); the rating change each rated game made, per seat and
an account's last (docs/server.md, "Ratings").

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("game_tables", sa.Column("ended", sa.String(40), nullable=True))
    op.add_column("seats", sa.Column("rating_change", sa.Float(), nullable=True))
    op.add_column("ratings", sa.Column("last_change", sa.Float(), nullable=True))


def downgrade() -> None:
    op.drop_column("ratings", "last_change")
    op.drop_column("seats", "rating_change")
    op.drop_column("game_tables", "ended")
