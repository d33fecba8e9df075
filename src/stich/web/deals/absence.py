"""Honest absence: which deals a stand-in bot played for a person (issue 28, defect 2).

When a player is away past the grace period, a stand-in bot plays their
turns, and the deal's record lists that seat in ``meta.stand_in_seats``.
Such a deal is not the person's own play: the score sheet, the history and
the replay mark it, and personal statistics leave it out unless asked to
include it (``GET /api/me/stats?include_stand_in=true``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def stand_in_seats(record: Mapping[str, Any]) -> list[int]:
    """The seats a stand-in bot played for in a deal record (``meta.stand_in_seats``; none in an older record)."""
    meta = record.get("meta")
    seats = meta.get("stand_in_seats") if isinstance(meta, Mapping) else None
    return sorted(seat for seat in seats if isinstance(seat, int)) if isinstance(seats, list) else []


def played_by_stand_in(record: Mapping[str, Any], seat: int) -> bool:
    """Whether a stand-in bot played (some of) ``seat``'s turns in this deal."""
    return seat in stand_in_seats(record)
