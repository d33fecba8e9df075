"""Who is online (issue 44, "a lively lobby"): a person counts as online while a page of theirs has been seen lately.

Every page of the client tells the server every
:data:`~stich.web.settings.Settings` ``online_ping_seconds`` that it is open
(``POST /api/online``, and the lobby's own poll); a person seen within
``online_seconds`` is online.  One person is one entry: an account by its
id (several browsers count once), a guest by its session.  Logging out
takes the person off at once.

:class:`OnlineBoard` keeps the board of one process.  With several workers
the composition root hands the API the Redis board instead
(:class:`stich.web.cluster.online.SharedOnlineBoard`), which answers the
same questions for every worker alike: friends seen on one worker are
online for a person asking another.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Protocol

from stich.web.identity import Identity

ONLINE_SECONDS = 90.0
"""How long after a page was last seen its person still counts as online (pages ping every 30 s)."""
MAX_LISTED = 50
"""Most names "who is online" lists (the count is always whole)."""


def person_key(identity: Identity) -> str:
    """The board's key of a person: ``u<id>`` for an account, ``s<id>`` for a guest's session."""
    return f"u{identity.user_id}" if identity.user_id is not None else f"s{identity.session_id}"


@dataclass(frozen=True)
class Online:
    """The board at one moment: how many people are online, and the names of the most recently seen ones."""

    count: int
    names: tuple[str, ...]


class OnlineBoardLike(Protocol):
    """What the API asks of an online board (this process's, or the shared one)."""

    async def seen(self, identity: Identity) -> None: ...
    async def gone(self, identity: Identity) -> None: ...
    async def snapshot(self, limit: int = MAX_LISTED) -> Online: ...
    async def online_accounts(self, user_ids: Collection[int]) -> set[int]: ...


class OnlineBoard:
    """The online board of one process."""

    def __init__(self, window: float = ONLINE_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        self.clock = clock
        self._seen: dict[str, tuple[float, str]] = {}

    def _prune(self, now: float) -> None:
        cutoff = now - self.window
        for key in [key for key, (when, _name) in self._seen.items() if when <= cutoff]:
            del self._seen[key]

    async def seen(self, identity: Identity) -> None:
        """``identity``'s person has a page open now."""
        now = self.clock()
        self._prune(now)
        self._seen[person_key(identity)] = (now, identity.name)

    async def gone(self, identity: Identity) -> None:
        """``identity``'s person logged out: off the board at once."""
        self._seen.pop(person_key(identity), None)

    async def snapshot(self, limit: int = MAX_LISTED) -> Online:
        """How many are online, and up to ``limit`` names, most recently seen first."""
        self._prune(self.clock())
        newest = sorted(self._seen.values(), key=lambda entry: -entry[0])[:limit]
        return Online(len(self._seen), tuple(name for _when, name in newest))

    async def online_accounts(self, user_ids: Collection[int]) -> set[int]:
        """Which of the accounts ``user_ids`` are online."""
        self._prune(self.clock())
        return {user_id for user_id in user_ids if f"u{user_id}" in self._seen}
