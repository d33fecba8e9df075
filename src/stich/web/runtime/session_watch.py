"""Which login sessions changed lately, so that a socket's session check needs the database only now and then (decision 0039).

Every message a player sends over a table's socket is first checked against
the session the socket was opened with: after a logout, or a login that gave
the session a new token, the old socket must stop acting for it
(:meth:`stich.web.runtime.connection.Connection.session_holds`).  Asking the database for
that on every message was the largest single cost of an action: a query in a
worker thread, about 1 ms of CPU of the 2.5-3 ms an action took
(bench/README.md, "CPU per action").

:class:`SessionWatch` lets a socket keep its last answer instead.  A check
made at time *t* still holds while

* no change of that session was recorded after *t* here (this process ends
  or re-tokens sessions only through :mod:`stich.web.api.accounts`, which records
  each change once the database has it; with several workers, the others'
  changes arrive over Redis: :mod:`stich.web.cluster.manager`), and
* it is younger than ``recheck_seconds``, which bounds how long a change the
  watch never heard of (a lost Redis message, a session that simply expired,
  a row changed by hand) can go unnoticed.

Otherwise the socket asks the database again.  A change is recorded only
after the database has it, so a check that ran between the write and the
record is older than the record and is made again: no socket acts for an
ended session longer than the record takes to arrive.
"""

from __future__ import annotations

import math
import time


class SessionWatch:
    """Recent session changes of this process (by session id, with the monotonic time they were recorded)."""

    def __init__(self, recheck_seconds: float) -> None:
        if recheck_seconds <= 0:
            raise ValueError("recheck_seconds must be positive")
        self.recheck_seconds = recheck_seconds
        self._changed: dict[int, float] = {}
        self._all_changed = -math.inf
        """When changes may have been missed (the Redis subscription was broken): every check before it is asked again."""

    def changed(self, session_id: int, now: float | None = None) -> None:
        """Record that session ``session_id`` ended or got a new token (call it after the database has the change)."""
        now = time.monotonic() if now is None else now
        self._changed[session_id] = now
        if len(self._changed) > 64:  # keep only what a check younger than recheck_seconds could miss
            horizon = now - self.recheck_seconds
            self._changed = {sid: when for sid, when in self._changed.items() if when >= horizon}

    def everything_changed(self, now: float | None = None) -> None:
        """Treat every session as changed now (the changes of a while may have been missed): each socket asks the database once more."""
        self._all_changed = time.monotonic() if now is None else now

    def holds(self, session_id: int, checked_at: float, now: float | None = None) -> bool:
        """Whether a database check of ``session_id`` made at ``checked_at`` (monotonic) still answers for it."""
        now = time.monotonic() if now is None else now
        if now - checked_at >= self.recheck_seconds or checked_at <= self._all_changed:
            return False
        when = self._changed.get(session_id)
        return when is None or when < checked_at
