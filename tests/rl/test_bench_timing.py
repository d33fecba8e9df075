"""bench/bench_batched.py keeps the collection that switches the collector off outside its clock (issue 41, item 9).

A ``gc.collect()`` inside the clock added its time to every row; on a short
row (OpenSpiel's, a few deals) it understated the rate up to 13×.  The test
makes the collection cost a known CPU time and requires that none of it is
counted.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
pytest.importorskip("numba")
import bench_batched
import bench_common

BURN_S = 0.3


def _slow_collect(*_args: object) -> int:
    """A collection that costs ``BURN_S`` of CPU time."""
    start = time.process_time()
    while time.process_time() - start < BURN_S:
        pass
    return 0


def test_the_collection_before_a_timing_is_outside_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench_common.gc, "collect", _slow_collect)
    assert bench_batched._timed(lambda: 10)["cpu_s"] < BURN_S / 3
    row = bench_batched.batched_run(2, 50)
    assert row["cpu_s"] < BURN_S / 3 and row["steps"] >= 50
    # The OpenSpiel rows repeat their deals for a minimum of CPU time: the collection stays outside that too.
    calls = []
    row = bench_batched._timed_min(lambda: calls.append(1) or 10, 0.0)
    assert row["cpu_s"] < BURN_S / 3 and row["steps"] == 10 and len(calls) == 1
