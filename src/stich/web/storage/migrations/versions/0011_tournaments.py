"""Duplicate tournaments: the tournament, its committed deals, its tables and each finished deal's list entries (decision 0057).

Revision ID: 0011_tournaments
Revises: 0010_deal_analysis
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_tournaments"
down_revision: str | None = "0010_deal_analysis"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the four tournament tables."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("game", sa.String(1000), nullable=False),
        sa.Column("game_name", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(8), nullable=True),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("tables", sa.Integer(), nullable=False),
        sa.Column("bots", sa.String(32), nullable=True),
        sa.Column("start_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column(
            "organiser_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="SET NULL", name="fk_tournaments_organiser_id_users"),
            nullable=True,
        ),
        sa.Column("organiser_name", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_index("ix_tournaments_organiser_id", "tournaments", ["organiser_id"])
    op.create_table(
        "tournament_deals",
        sa.Column(
            "tournament_id",
            sa.String(24),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE", name="fk_tournament_deals_tournament_id_tournaments"),
            primary_key=True,
        ),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("seed", sa.String(20), nullable=False),
        sa.Column("salt", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
    )
    op.create_table(
        "tournament_tables",
        sa.Column(
            "tournament_id",
            sa.String(24),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE", name="fk_tournament_tables_tournament_id_tournaments"),
            primary_key=True,
        ),
        sa.Column("position", sa.Integer(), primary_key=True),
        sa.Column(
            "table_id",
            sa.String(24),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE", name="fk_tournament_tables_table_id_game_tables"),
            nullable=False,
        ),
        sa.UniqueConstraint("table_id", name="uq_tournament_tables_table_id"),
    )
    op.create_table(
        "tournament_results",
        sa.Column(
            "tournament_id",
            sa.String(24),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE", name="fk_tournament_results_tournament_id_tournaments"),
            primary_key=True,
        ),
        sa.Column("position", sa.Integer(), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column(
            "deal_id",
            sa.Integer(),
            sa.ForeignKey("deals.id", ondelete="CASCADE", name="fk_tournament_results_deal_id_deals"),
            nullable=False,
        ),
        sa.Column("seed", sa.String(20), nullable=False),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("scores", sa.String(200), nullable=False),
        sa.Column("players", sa.String(400), nullable=False),
        sa.UniqueConstraint("deal_id", name="uq_tournament_results_deal_id"),
    )


def downgrade() -> None:
    """Drop the tournament tables."""
    op.drop_table("tournament_results")
    op.drop_table("tournament_tables")
    op.drop_table("tournament_deals")
    op.drop_index("ix_tournaments_organiser_id", "tournaments")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_table("tournaments")
