"""Account names compared by the one name rule: ``users.name_key`` becomes :func:`stich.web.guards.names.name_key`.

Until now the key was the name case-folded, so ``alice`` and ``alice\\n`` or
``ａｌｉｃｅ`` (full width) were two accounts.  The key is now the normalised
name (NFKC, trimmed, inner spaces made one) case-folded, and the column is
wider because case folding can lengthen a name.  Should two existing accounts
share the new key, the older one keeps it and each later one gets the key
``~ID``, which no name can produce: that account can no longer be logged in
to by name (it was an impersonation of the older one in all but case,
width or white space).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from stich.web.guards.names import name_key

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_users = sa.table("users", sa.column("id", sa.Integer), sa.column("name", sa.String), sa.column("name_key", sa.String))


def upgrade() -> None:
    """Widen ``name_key`` and recompute it for every account (oldest first; a clash disables the later account's key)."""
    with op.batch_alter_table("users") as batch:
        batch.alter_column("name_key", existing_type=sa.String(32), type_=sa.String(96), existing_nullable=False)
    bind = op.get_bind()
    rows = bind.execute(sa.select(_users.c.id, _users.c.name).order_by(_users.c.id)).all()
    # Park every key first, so that recomputing one cannot clash with another's old key.
    bind.execute(sa.update(_users).values(name_key=sa.literal("~") + sa.cast(_users.c.id, sa.String)))
    seen: set[str] = set()
    for user_id, name in rows:
        key = name_key(name)
        if key in seen:
            continue
        seen.add(key)
        bind.execute(sa.update(_users).where(_users.c.id == user_id).values(name_key=key))


def downgrade() -> None:
    """Back to the case-folded name as the key, in the narrower column."""
    bind = op.get_bind()
    for user_id, name in bind.execute(sa.select(_users.c.id, _users.c.name)).all():
        bind.execute(sa.update(_users).where(_users.c.id == user_id).values(name_key=name.casefold()[:32]))
    with op.batch_alter_table("users") as batch:
        batch.alter_column("name_key", existing_type=sa.String(96), type_=sa.String(32), existing_nullable=False)
