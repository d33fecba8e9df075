"""The analyses of finished deals: ``deal_analyses`` (issue 43).

An analysis costs seconds of a worker process per deal; it is kept with the
deal (deleted with it) so that asking again, or from another worker, costs a
lookup.  One row per deal, seat, budget, seed and analysis version.

Revision ID: 0010_deal_analysis
Revises: 0009_accounts
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_deal_analysis"
down_revision: str | None = "0009_accounts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the table, empty."""
    op.create_table(
        "deal_analyses",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "deal_id", sa.Integer(), sa.ForeignKey("deals.id", ondelete="CASCADE", name="fk_deal_analyses_deal_id_deals"), nullable=False
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("budget", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("analysis", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("deal_id", "seat", "budget", "seed", "version", name="uq_deal_analyses_key"),
    )
    op.create_index("ix_deal_analyses_deal_id", "deal_analyses", ["deal_id"])


def downgrade() -> None:
    """Drop the table."""
    op.drop_index("ix_deal_analyses_deal_id", table_name="deal_analyses")
    op.drop_table("deal_analyses")
