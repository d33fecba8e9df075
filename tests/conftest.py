"""Settings of the whole test suite: how many pytest-xdist workers ``pytest -n auto`` (``make test``) starts.

The browser tests (tests/browser) spend most of their time waiting, not
computing: for the server's bot delays, a trick held in the middle, a turn
clock running out, a person's "Weiter".  Measured alone, a browser test file
used a fifth to a quarter of one core over its run (tests/browser/
test_clock_and_presence.py: 23 s of CPU, its chromium and server included,
in 131 s).  With one worker per core, two
workers in browser tests at once leave the cores mostly idle; one worker more
than there are cores lets a computing test (the engines, the search bots)
use that time.  ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still sets the number
exactly, and ``-n N`` is unchanged.
"""

from __future__ import annotations

import os

import pytest

EXTRA_WORKERS = 1
"""Workers of ``-n auto`` beyond one per usable core."""


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one, else the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: one worker per usable core and :data:`EXTRA_WORKERS` more, unless the environment names the number."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own hook reads it
    return usable_cores() + EXTRA_WORKERS
