"""Leases on tables: which server process runs a table's bots and clock, and until when.

A PostgreSQL database may be shared by several server processes (docs/server.md, "Several server
processes"); each table with bots or a clock is leased to one of them at a time. A lease not
renewed by its expiry (the process died) is taken over by another process.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("owner", sa.String(120), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_table_leases_owner", "table_leases", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_table_leases_owner", "table_leases")
    op.drop_table("table_leases")
