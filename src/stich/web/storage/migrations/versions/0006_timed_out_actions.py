"""Which stand-in actions were made because the turn clock ran out: ``deal_actions.timed_out``.

A move the stand-in bot makes when a present player's turn clock runs out is
that one move, not an absence (issue 40, defect 1): the record lists it in
``meta.timed_out_moves`` and leaves the seat out of ``meta.stand_in_seats``,
so the deal keeps counting in the player's statistics.  The flag survives a
restart with the action; existing actions count as not timed out.

Revision ID: 0006_timed_out_actions
Revises: 0005_lease_epoch
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_timed_out_actions"
down_revision: str | None = "0005_lease_epoch"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the flag, false for every stored action."""
    with op.batch_alter_table("deal_actions") as batch:
        batch.add_column(sa.Column("timed_out", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    """Drop the flag."""
    with op.batch_alter_table("deal_actions") as batch:
        batch.drop_column("timed_out")
