"""A table's time limits: ``game_tables.turn_seconds`` and ``game_tables.continue_seconds``.

Issue 28 asks for a per-table turn timer (a stand-in bot makes the move of a
player whose time runs out) and a shared "Weiter" after each deal (the next
deal waits until every person at the table is ready, or until a time set for
the table).  Both are chosen when the table is opened and kept with it, so a
restarted server goes on with the same limits.  Existing tables have neither
(``NULL``: no limit).

Revision ID: 0004_table_clock
Revises: 0003
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_table_clock"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add both limits, ``NULL`` (no limit) for every stored table."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("turn_seconds", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("continue_seconds", sa.Integer(), nullable=True))


def downgrade() -> None:
    """Drop both limits."""
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("continue_seconds")
        batch.drop_column("turn_seconds")
