"""Fixtures of the web server tests: a fresh SQLite file and a running server on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from .helpers import make_settings, running

if TYPE_CHECKING:
    from fastapi.testclient import TestClient


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A fresh SQLite file."""
    return f"sqlite:///{tmp_path / 'stich.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """A running server with default test settings."""
    with running(make_settings(db_url)) as test_client:
        yield test_client
