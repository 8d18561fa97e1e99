"""Running a community: admins, disabled accounts, password-reset codes, the audit log, blocks,
reports, refused words and who opened a table (docs/server.md, "Running a community").

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def _user(name: str, primary_key: bool = True) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(
        name, sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=primary_key, nullable=False
    )


def upgrade() -> None:
    op.create_table("admins", _user("user_id"), sa.Column("granted_at", sa.DateTime(timezone=True), nullable=False))
    op.create_table(
        "disabled_accounts",
        _user("user_id"),
        sa.Column("disabled_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
    )
    op.create_table(
        "reset_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        _user("user_id", primary_key=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_reset_codes_user_id", "reset_codes", ["user_id"])
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("admin", sa.String(64), nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("target", sa.String(200), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
    )
    op.create_index("ix_audit_log_at", "audit_log", ["at"])
    op.create_table(
        "blocks",
        _user("user_id"),
        _user("blocked_id"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reporter", sa.String(64), nullable=False),
        sa.Column("player", sa.String(64), nullable=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("message_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(1000), nullable=False),
        sa.Column("context", sa.JSON(), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("resolved_by", sa.String(64), nullable=True),
        sa.Column("resolution", sa.String(1000), nullable=True),
    )
    op.create_index("ix_reports_resolved_at", "reports", ["resolved_at"])
    op.create_table(
        "refused_words",
        sa.Column("word", sa.String(64), primary_key=True),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "table_owners",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
        _user("user_id", primary_key=False),
    )
    op.create_index("ix_table_owners_user_id", "table_owners", ["user_id"])


def downgrade() -> None:
    for index, table in (
        ("ix_table_owners_user_id", "table_owners"),
        ("ix_reports_resolved_at", "reports"),
        ("ix_blocks_blocked_id", "blocks"),
        ("ix_audit_log_at", "audit_log"),
        ("ix_reset_codes_user_id", "reset_codes"),
    ):
        op.drop_index(index, table)
    for table in ("table_owners", "refused_words", "reports", "blocks", "audit_log", "reset_codes"):
        op.drop_table(table)
    op.drop_table("disabled_accounts")
    op.drop_table("admins")
