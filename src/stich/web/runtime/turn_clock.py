"""The turn timer: how long a person may think over one move (issue 28, "Turn timer and presence").

A table may be opened with ``turn_seconds`` (off by default).  Then the
person to move has that many seconds; when they run out, the stand-in bot of
:mod:`stich.web.deals.absence` makes that one move for them, the move is stored as
a stand-in's (``deal_actions.stand_in``, so the record's
``meta.stand_in_seats`` and the score sheet mark the deal), and the person
keeps the seat: their next turn gets a fresh clock.

The deadline lives on the server only (the table's driver wakes for it); the
clients get the seconds left with every ``state`` message and count down
themselves, so a client's clock is never trusted.  A clock belongs to one
*moment* of a deal, ``(deal id, step, seat)``: a new moment starts it afresh.
After a restart the resumed table starts the clock of the seat to move
afresh too (decision 0035: the server's downtime is nobody's thinking time).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from stich.web.protocol import ApiError

TURN_CHOICES = (15, 30, 60, 120)
"""The turn limits the lobby offers (seconds per move); the API takes any whole number of seconds in the allowed range."""
CONTINUE_CHOICES = (15, 30, 60, 120, 300)
"""The limits on the wait for "Weiter" the lobby offers (seconds)."""
MAX_TURN_SECONDS = 600
"""Longest turn limit a table may ask for."""
MAX_CONTINUE_SECONDS = 1800
"""Longest wait for "Weiter" a table may ask for."""

Moment = tuple[int, int, int]
"""``(deal id, step, seat)``: one seat to move at one step of one deal."""


def check_limit(value: int | None, field: str, minimum: int, maximum: int) -> int | None:
    """``value`` if it is ``None`` (no limit) or whole seconds in ``minimum..maximum``, else a 422 naming ``field``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        text = f"{field} must be a whole number of seconds from {minimum} to {maximum}, or null for no limit; not {value!r}"
        raise ApiError(422, field, text)
    return value


def sooner(first: float | None, second: float | None) -> float | None:
    """The earlier of two waits, where ``None`` means "no limit"."""
    if first is None:
        return second
    if second is None:
        return first
    return min(first, second)


@dataclass
class TurnClock:
    """The clock of the person to move: which moment it runs for, since when, and the table's limit."""

    limit: int | None
    """Seconds per move; ``None``: the table has no turn timer (the clock never runs)."""
    moment: Moment | None = None
    started: float = 0.0
    """When the moment began (``time.monotonic``)."""

    def follow(self, moment: Moment | None, now: float) -> None:
        """The table is at ``moment`` (``None``: nobody's clock runs): a new moment starts the clock afresh."""
        if moment != self.moment:
            self.moment = moment
            self.started = now

    def deadline(self) -> float | None:
        """When the running clock runs out (``time.monotonic``), or ``None`` when none runs."""
        if self.limit is None or self.moment is None:
            return None
        return self.started + self.limit

    def left(self, moment: Moment, now: float) -> float | None:
        """Seconds left at ``moment`` (0 once run out), or ``None`` when no clock runs for it."""
        deadline = self.deadline()
        if deadline is None or moment != self.moment:
            return None
        return max(0.0, deadline - now)

    def expired(self, moment: Moment, now: float) -> bool:
        """Whether the clock of ``moment`` has run out."""
        return self.left(moment, now) == 0.0

    def to_json(self, now: float) -> dict[str, Any] | None:
        """The clock as the ``state`` message carries it: ``{"seat", "limit", "remaining"}``, or ``None``."""
        if self.moment is None:
            return None
        left = self.left(self.moment, now)
        if left is None:
            return None
        return {"seat": self.moment[2], "limit": self.limit, "remaining": round(left, 2)}
