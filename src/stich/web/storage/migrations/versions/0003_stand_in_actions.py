"""Which stored actions a stand-in bot made: ``deal_actions.stand_in``.

A deal's record lists in ``meta.stand_in_seats`` the seats a stand-in bot
played for; the server kept them only in memory, so after a restart
(SIGKILL) the record forgot the seats a stand-in played before it (issue 30,
fault 7).  Each action now says whether a stand-in made it; existing actions
count as their player's own.

Revision ID: 0003
Revises: 0001
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
"""Written beside 0002 (branch hard-http, account name keys); when both are merged, this revises 0002 instead."""
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the flag, false for every stored action."""
    with op.batch_alter_table("deal_actions") as batch:
        batch.add_column(sa.Column("stand_in", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    """Drop the flag."""
    with op.batch_alter_table("deal_actions") as batch:
        batch.drop_column("stand_in")
