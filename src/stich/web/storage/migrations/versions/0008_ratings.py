"""Rated tables and ratings: ``game_tables.rated``, ``ratings`` and ``rating_changes`` (issue 44, decision 0055).

A table created rated changes the ratings of its players after each complete
deal.  ``ratings`` holds each player's current rating per pool (a game, and
for Doppelkopf its rules family); ``rating_changes`` one row per rated deal
and player, unique, so that a deal is rated exactly once even when several
workers run: the row is written in the transaction that stores the deal's
end.

Revision ID: 0008_ratings
Revises: 0007_table_kind
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_ratings"
down_revision: str | None = "0007_table_kind"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the flag (false for every stored table), the two rating tables and an index of the seats by account."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "ratings",
        sa.Column("pool", sa.String(48), nullable=False),
        sa.Column("player", sa.String(48), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("lost", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_ratings_user_id_users", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("pool", "player", name="pk_ratings"),
    )
    op.create_index("ix_ratings_pool_ordinal", "ratings", ["pool", "ordinal", "deals", "player"])
    op.create_index("ix_ratings_user_id", "ratings", ["user_id"])
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("deal_id", sa.Integer(), nullable=False),
        sa.Column("pool", sa.String(48), nullable=False),
        sa.Column("player", sa.String(48), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("outcome", sa.String(8), nullable=False),
        sa.Column("absent", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["deal_id"], ["deals.id"], name="fk_rating_changes_deal_id_deals", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_rating_changes_user_id_users", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_rating_changes"),
        sa.UniqueConstraint("deal_id", "player", name="uq_rating_changes_deal_player"),
    )
    op.create_index("ix_rating_changes_player_pool", "rating_changes", ["player", "pool", "id"])
    op.create_index("ix_rating_changes_user_id", "rating_changes", ["user_id"])
    op.create_index("ix_table_seats_user_id", "table_seats", ["user_id"])  # a profile's recent tables


def downgrade() -> None:
    """Drop the rating tables, the seats' account index and the flag."""
    op.drop_index("ix_table_seats_user_id", table_name="table_seats")
    op.drop_index("ix_rating_changes_user_id", table_name="rating_changes")
    op.drop_index("ix_rating_changes_player_pool", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_user_id", table_name="ratings")
    op.drop_index("ix_ratings_pool_ordinal", table_name="ratings")
    op.drop_table("ratings")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("rated")
