"""Fixtures of the search tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from stich.bots.doppelkopf import kernel


@pytest.fixture(scope="module")
def compiled() -> Iterator[None]:
    """Compile (or load) the kernel once per test module."""
    assert kernel.warmup()
    yield
