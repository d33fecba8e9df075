"""Strength levels, budgets and the deadline of the search bots (``stich.search.budget``)."""

from __future__ import annotations

import math

import pytest

from stich.errors import OptionError
from stich.search.budget import DEFAULT_LEVEL, LEVELS, Deadline, resolve_budget


def test_levels_grow_with_strength() -> None:
    seconds = [LEVELS[level] for level in sorted(LEVELS)]
    assert sorted(LEVELS) == [1, 2, 3, 4, 5]
    assert seconds == sorted(seconds) and len(set(seconds)) == len(seconds)
    assert DEFAULT_LEVEL in LEVELS


def test_resolve_budget_default_level_time() -> None:
    assert resolve_budget(None, None) == LEVELS[DEFAULT_LEVEL]
    assert resolve_budget(1, None) == LEVELS[1]
    assert resolve_budget(5, None) == LEVELS[5]
    assert resolve_budget(None, 0.25) == 0.25
    assert resolve_budget(4, 0.1) == 0.1  # an explicit time wins over the level
    assert resolve_budget(None, 2) == 2.0


@pytest.mark.parametrize("level", [0, 6, -1, 2.5, "3", True])
def test_bad_level_is_named(level: object) -> None:
    with pytest.raises(OptionError, match="level"):
        resolve_budget(level, None)  # type: ignore[arg-type]


@pytest.mark.parametrize("seconds", [0, -0.5, math.nan, math.inf, 1e9, "1", False])
def test_bad_time_is_named(seconds: object) -> None:
    with pytest.raises(OptionError, match="time"):
        resolve_budget(None, seconds)  # type: ignore[arg-type]


def test_deadline_follows_the_monotonic_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr("time.monotonic", lambda: now[0])
    deadline = Deadline(0.5)
    assert not deadline.expired()
    assert deadline.remaining() == pytest.approx(0.5)
    now[0] = 100.3
    assert not deadline.expired()
    assert deadline.remaining() == pytest.approx(0.2)
    now[0] = 100.5
    assert deadline.expired()
    now[0] = 200.0
    assert deadline.expired()
    assert deadline.remaining() == 0.0


def test_zero_deadline_is_expired_at_once() -> None:
    assert Deadline(0).expired()
    assert Deadline(0).remaining() == 0.0


@pytest.mark.parametrize("seconds", [-1, math.nan, "x"])
def test_bad_deadline_is_rejected(seconds: object) -> None:
    with pytest.raises(OptionError, match="time"):
        Deadline(seconds)  # type: ignore[arg-type]
