"""Presence: whether a seat's person is shown as "nicht verbunden" (issue 28, "Turn timer and presence").

A person whose last socket closed is shown as not connected only after
``presence_grace_seconds``: a page reload closes the socket and opens a new
one within a second, and the others should not see "X ist nicht verbunden"
and "X ist zurück" flash by for it.  A finished table shows nobody as not
connected (there is nothing left to be connected to).  The clients turn a
seat's change of ``away`` into the short notices "X ist nicht verbunden" and
"X ist zurück".
"""

from __future__ import annotations


def shown_away(*, human: bool, live: bool, status: str, away_since: float | None, now: float, grace: float) -> bool:
    """Whether a seat is shown as not connected.

    ``live``: the person has an open socket; ``away_since``: when their last
    socket closed (``None``: not since they sat down, or since the server
    resumed the table; they count as away from then on).
    """
    if not human or live or status == "finished":
        return False
    return away_since is None or now >= away_since + grace


def next_change(away_since: float | None, now: float, grace: float) -> float | None:
    """Seconds until a closed socket's grace ends (when the others are told), or ``None`` if it has already."""
    if away_since is None or now >= away_since + grace:
        return None
    return away_since + grace - now
