"""A table's lease epoch: ``game_tables.lease_epoch``, the fencing token of several workers.

With several workers (issue 33, docs/decisions/0033-several-workers.md) a
table runs on the worker holding its Redis lease.  A worker that stalls past
its lease (a long pause, SIGSTOP) may resume still believing it runs the
table, while another worker has taken it over.  Each takeover adds one to
``lease_epoch`` before it reads the table's actions, and every write of the
table's play checks, in its own transaction, that the epoch is still the one
its worker took the table at: a stale owner's write is refused.  Existing
tables start at 0.

Revision ID: 0005_lease_epoch
Revises: 0004_table_clock
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_lease_epoch"
down_revision: str | None = "0004_table_clock"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the epoch, 0 for every stored table."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("lease_epoch", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop the epoch."""
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("lease_epoch")
