"""Initial schema: accounts, sessions, tables, seats, deals and their actions.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create every table."""
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("name_key", name="uq_users_name_key"),
    )
    op.create_table(
        "auth_sessions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE", name="fk_auth_sessions_user_id_users"), nullable=True
        ),
        sa.Column("display_name", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("token_hash", name="uq_auth_sessions_token_hash"),
    )
    op.create_index("ix_auth_sessions_user_id", "auth_sessions", ["user_id"])
    op.create_table(
        "game_tables",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("game", sa.String(1000), nullable=False),
        sa.Column("game_name", sa.String(32), nullable=False),
        sa.Column("deals_requested", sa.Integer(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("invite_token", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column(
            "creator_session_id",
            sa.Integer(),
            sa.ForeignKey("auth_sessions.id", ondelete="SET NULL", name="fk_game_tables_creator_session_id_auth_sessions"),
            nullable=True,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_game_tables_status", "game_tables", ["status"])
    op.create_table(
        "table_seats",
        sa.Column(
            "table_id",
            sa.String(24),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE", name="fk_table_seats_table_id_game_tables"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL", name="fk_table_seats_user_id_users"), nullable=True
        ),
        sa.Column(
            "session_id",
            sa.Integer(),
            sa.ForeignKey("auth_sessions.id", ondelete="SET NULL", name="fk_table_seats_session_id_auth_sessions"),
            nullable=True,
        ),
    )
    op.create_table(
        "deals",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "table_id",
            sa.String(24),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE", name="fk_deals_table_id_game_tables"),
            nullable=False,
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("seed", sa.String(20), nullable=False),
        sa.Column("salt", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("record", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("table_id", "number", name="uq_deals_table_number"),
    )
    op.create_index("ix_deals_table_id", "deals", ["table_id"])
    op.create_table(
        "deal_actions",
        sa.Column(
            "deal_id", sa.Integer(), sa.ForeignKey("deals.id", ondelete="CASCADE", name="fk_deal_actions_deal_id_deals"), primary_key=True
        ),
        sa.Column("position", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop every table."""
    op.drop_table("deal_actions")
    op.drop_index("ix_deals_table_id", table_name="deals")
    op.drop_table("deals")
    op.drop_table("table_seats")
    op.drop_index("ix_game_tables_status", table_name="game_tables")
    op.drop_table("game_tables")
    op.drop_index("ix_auth_sessions_user_id", table_name="auth_sessions")
    op.drop_table("auth_sessions")
    op.drop_table("users")
