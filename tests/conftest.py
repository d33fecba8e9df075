"""Fixtures shared by test packages: a local Ray instance for the tests of ``--ray`` (the arena's and the learner's), and a way to run
this checkout's code in a new Python process (a second driver joining that instance, as on a real cluster)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import stich

SOURCE = str(Path(stich.__file__).resolve().parents[1])
"""The ``src`` folder the tests import ``stich`` from."""


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


@pytest.fixture
def run_python() -> Callable[..., subprocess.CompletedProcess[str]]:
    """``run_python(*args)``: ``python *args`` in a new process importing this checkout's ``stich``; the completed process."""

    def run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [SOURCE, os.environ.get("PYTHONPATH")]))}
        return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=timeout, check=False)

    return run
