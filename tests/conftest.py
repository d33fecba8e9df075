"""Fixtures shared by test packages: a local Ray instance for the tests of ``--ray`` (the arena's and the learner's)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    """A new local Ray instance with two CPUs (no dashboard) for one test module; its address (``HOST:PORT``).

    It takes seconds to start, so each module that needs one keeps its Ray
    checks in one test (under xdist a module's tests may run in several
    processes, each starting its own instance).  ``address="local"`` starts
    a new instance even where another one runs on this machine (a plain
    ``ray.init()`` would join the last one started, e.g. another xdist
    worker's).  Skipped where Ray is not installed (``pip install 'stich[ray]'``).
    """
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'stich[ray]')")
    ray.init(address="local", num_cpus=2, include_dashboard=False)
    try:
        yield str(ray.get_runtime_context().gcs_address)
    finally:
        ray.shutdown()
