"""The kind of table its creator asked for: ``game_tables.kind`` (``free``, ``list`` or ``NULL``).

A game without compulsory deals (Tapp Tarock, Droggn, Dappen) plays the same
deals at a free table and in a list of the same length, so the kind cannot be
told from the game and the number of deals: a free Dappen table of six deals
(its default, one per seat) was shown as a six-deal list (issue 40, defect 7).
The requested kind is stored with the table; ``NULL`` (tables made before, or
through the API without a kind) keeps deriving it as before.

Revision ID: 0007_table_kind
Revises: 0006_timed_out_actions
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_table_kind"
down_revision: str | None = "0006_timed_out_actions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the kind, unknown (``NULL``) for every stored table."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("kind", sa.String(8), nullable=True))


def downgrade() -> None:
    """Drop the kind."""
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("kind")
