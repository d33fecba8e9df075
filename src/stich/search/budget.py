"""Thinking time of the search bots: strength levels, time budgets and a deadline.

The search bots (``pimc``, ``ismcts``) take either a strength ``level`` (1..5)
or an explicit ``time`` in seconds per decision; :func:`resolve_budget` turns
the two options into one budget, and :class:`Deadline` lets the search loop ask
"may I start another world / iteration?" against the monotonic clock, so a
wall-clock change never stretches or cuts a decision.
"""

from __future__ import annotations

import math
import time as _time

from stich.errors import OptionError

LEVELS: dict[int, float] = {1: 0.05, 2: 0.2, 3: 0.6, 4: 2.0, 5: 6.0}
"""Strength level -> seconds of thinking per decision (each level roughly triples the previous one)."""

DEFAULT_LEVEL = 3
"""The level used when neither ``level`` nor ``time`` is given."""

MAX_TIME = 600.0
"""Largest accepted ``time`` (seconds per decision); beyond it a typo is more likely than intent."""


def resolve_budget(level: int | None, time: float | None) -> float:
    """Seconds per decision for the options ``level`` and ``time``.

    ``time`` wins when given (an explicit budget is more precise than a level);
    otherwise ``level`` (default :data:`DEFAULT_LEVEL`) is looked up in
    :data:`LEVELS`.  Raises :class:`OptionError` naming ``level`` or ``time``
    for a value that is not a known level or not a positive finite number.
    """
    if level is not None and (isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS):
        known = ", ".join(str(key) for key in LEVELS)
        raise OptionError(f"level must be one of {known}, got {level!r}")
    if time is not None:
        if isinstance(time, bool) or not isinstance(time, (int, float)):
            raise OptionError(f"time must be a number of seconds, got {time!r}")
        seconds = float(time)
        if not math.isfinite(seconds) or seconds <= 0.0 or seconds > MAX_TIME:
            raise OptionError(f"time must be a number of seconds in (0, {MAX_TIME:g}], got {time!r}")
        return seconds
    return LEVELS[DEFAULT_LEVEL if level is None else level]


class Deadline:
    """A point in monotonic time ``seconds`` from construction.

    ``Deadline(0.5).expired()`` turns true half a second after the deadline was
    made; :meth:`remaining` never goes below zero.
    """

    __slots__ = ("_end", "seconds")

    def __init__(self, seconds: float) -> None:
        if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or math.isnan(seconds) or seconds < 0:
            raise OptionError(f"time must be a non-negative number of seconds, got {seconds!r}")
        self.seconds = float(seconds)
        self._end = _time.monotonic() + self.seconds

    def expired(self) -> bool:
        """Whether the deadline has passed."""
        return _time.monotonic() >= self._end

    def remaining(self) -> float:
        """Seconds left until the deadline, 0.0 once it has passed."""
        return max(0.0, self._end - _time.monotonic())

    def __repr__(self) -> str:
        return f"Deadline({self.seconds:g}s, {self.remaining():.3f}s left)"
