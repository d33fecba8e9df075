"""A table's own options: ``game_tables.table_options``, a JSON object or ``NULL`` (issue 43, decision 0059).

Learning mode (``learning``: hints on request) and "play this deal again"
(``replay_of``: the finished deal a table replays, with its revealed seed,
dealer and context) are options of the table, not of the game, so they live
beside the game string rather than in it.  One JSON column keeps later
table options (``rated``, ``tournament``) from needing a column each;
``NULL`` (every table made before) means none.

``deals.hints`` (a JSON list of seats, ``NULL``: none) keeps the seats given
a hint during a deal, so that a restart in the middle of the deal does not
forget the mark its record will carry (``meta.hints``).

Revision ID: 0012_table_options
Revises: 0011_tournaments
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_table_options"
down_revision: str | None = "0011_tournaments"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the options, none (``NULL``) for every stored table, and the seats given hints per deal (none)."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("table_options", sa.Text(), nullable=True))
    with op.batch_alter_table("deals") as batch:
        batch.add_column(sa.Column("hints", sa.Text(), nullable=True))


def downgrade() -> None:
    """Drop the options and the hints."""
    with op.batch_alter_table("deals") as batch:
        batch.drop_column("hints")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("table_options")
