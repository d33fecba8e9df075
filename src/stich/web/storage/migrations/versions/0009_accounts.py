"""Issue 44's accounts, table ends and lobby: a finished table's Revanche, friends, and invite notices.

* ``game_tables.rematch_id``: the table a finished table's "Revanche" opened
  (set once, by a conditional update: two players asking at the same moment,
  on any worker, get the same new table).
* ``friendships``: one row per direction (``user_id`` added ``friend_id``);
  both are accounts, and deleting either deletes the row.
* ``table_invites``: an invite notice to a person (an account, or a guest's
  session) to a table; it goes when accepted, declined, or with the table.

Revision ID: 0009_accounts
Revises: 0008_ratings
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_accounts"
down_revision: str | None = "0008_ratings"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the rematch link, the friendships and the invite notices."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("rematch_id", sa.String(24), nullable=True))
    op.create_table(
        "friendships",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("friend_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_friendships_user_id_users", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["friend_id"], ["users.id"], name="fk_friendships_friend_id_users", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "friend_id"),
    )
    op.create_index("ix_friendships_friend_id", "friendships", ["friend_id"])
    op.create_table(
        "table_invites",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(24), nullable=False),
        sa.Column("from_name", sa.String(40), nullable=False),
        sa.Column("to_user_id", sa.Integer(), nullable=True),
        sa.Column("to_session_id", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["game_tables.id"], name="fk_table_invites_table_id_game_tables", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["to_user_id"], ["users.id"], name="fk_table_invites_to_user_id_users", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["to_session_id"], ["auth_sessions.id"], name="fk_table_invites_to_session_id_auth_sessions", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_table_invites_to_user_id", "table_invites", ["to_user_id"])
    op.create_index("ix_table_invites_to_session_id", "table_invites", ["to_session_id"])


def downgrade() -> None:
    """Drop them again."""
    op.drop_index("ix_table_invites_to_session_id", "table_invites")
    op.drop_index("ix_table_invites_to_user_id", "table_invites")
    op.drop_table("table_invites")
    op.drop_index("ix_friendships_friend_id", "friendships")
    op.drop_table("friendships")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("rematch_id")
