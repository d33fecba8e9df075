"""The shared "Weiter": after a deal, the next one starts when every person at the table is ready (issue 28, defect 7).

The evaluation of a Tarock deal takes a while to read, so the server keeps
the table between deals until each person in a seat has said ``continue``
(the evaluation's "Weiter" button).  Bots are always ready.  A person whose
last socket closed counts as ready once the stand-in bot would play for them
(the grace period of :mod:`stich.web.deals.absence`), so that one closed tab does
not stop the table.  A table may set a limit (``continue_seconds``); without
one, a table with a turn timer waits at most :data:`TURN_LIMITS_PER_WAIT`
times its turn limit, and a table without either waits for everybody.

When nobody had to be waited for (only bots, or every person away), the
server's usual pause between deals (``next_deal_delay_seconds``) applies, as
before; once the last person said "Weiter", the next deal starts at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from stich.web.runtime.turn_clock import sooner

TURN_LIMITS_PER_WAIT = 2
"""Without its own limit, a table with a turn timer waits this many turn limits at most for "Weiter"."""


def wait_limit(continue_seconds: int | None, turn_seconds: int | None) -> int | None:
    """The longest wait for "Weiter" at a table: its own limit, else twice its turn limit, else none."""
    if continue_seconds is not None:
        return continue_seconds
    return None if turn_seconds is None else TURN_LIMITS_PER_WAIT * turn_seconds


@dataclass
class ReadyWait:
    """The wait after one finished deal: who has said "Weiter" so far, since when, and the limit."""

    deal: int
    """The id of the deal whose evaluation is being read."""
    started: float
    """When the deal ended (``time.monotonic``)."""
    limit: int | None
    """Longest wait in seconds (``None``: until everybody is ready)."""
    ready: set[int] = field(default_factory=set)
    """Seats whose person said "Weiter"."""

    def waiting(self, people: Iterable[int], excused_from: Callable[[int], float | None], now: float) -> list[int]:
        """The seats of ``people`` still to say "Weiter": not ready, and not away long enough to be excused.

        ``excused_from(seat)`` is when the seat's person counts as ready without
        a click (away past the grace period), or ``None`` while they are here.
        """
        out = []
        for seat in people:
            excused = excused_from(seat)
            if seat not in self.ready and (excused is None or now < excused):
                out.append(seat)
        return out

    def left(self, people: Iterable[int], excused_from: Callable[[int], float | None], now: float, pause: float) -> float | None:
        """0 when the next deal may start now, else how long to wait before looking again (``None``: until woken)."""
        deadline = None if self.limit is None else self.started + self.limit
        seats = list(people)
        waiting = self.waiting(seats, excused_from, now)
        if deadline is not None and now >= deadline:
            return 0.0
        if not waiting:
            if self.ready:
                return 0.0
            start = self.started + pause
            return 0.0 if now >= start else start - now
        wake = deadline
        for seat in waiting:
            wake = sooner(wake, excused_from(seat))
        return None if wake is None else max(0.0, wake - now)

    def message(self, table: str, people: Iterable[int], excused_from: Callable[[int], float | None], now: float) -> dict[str, Any]:
        """The ``waiting`` message: who is still reading the evaluation, who is ready, and the seconds left (or ``null``)."""
        seats = list(people)
        waiting = self.waiting(seats, excused_from, now)
        remaining = None if self.limit is None else round(max(0.0, self.started + self.limit - now), 2)
        return {
            "type": "waiting",
            "table": table,
            "deal": self.deal,
            "waiting": waiting,
            "ready": sorted(seat for seat in seats if seat not in waiting),  # people only: bots are always ready
            "limit": self.limit,
            "remaining": remaining,
        }
