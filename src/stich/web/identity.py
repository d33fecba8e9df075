"""Who is asking: the identity a session cookie stands for, shared by the API and the live tables.

A small value of its own so that the runtime, the guards and the cluster can name a player without
importing the HTTP layer that reads cookies (:mod:`stich.web.api.session`).  May import nothing of
:mod:`stich.web`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Identity:
    """Who is making a request: a session, its user (``None`` for a guest) and the name shown at tables."""

    session_id: int
    user_id: int | None
    name: str

    @property
    def guest(self) -> bool:
        """Whether this is a guest without an account."""
        return self.user_id is None

    def to_json(self) -> dict[str, Any]:
        """JSON form (``GET /api/auth/me``)."""
        return {"name": self.name, "guest": self.guest}
