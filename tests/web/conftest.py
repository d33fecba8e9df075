"""Fixtures of the web server tests: a fresh database (SQLite, or PostgreSQL where a module asks) and a running server on it.

A module marked ``pytestmark = pytest.mark.both_databases`` runs each of its
tests that uses ``db_url`` (directly or through ``client``) twice: on a fresh
SQLite file and on a fresh database of this process's own PostgreSQL server
(tests/web/postgres.py).  Where PostgreSQL is not installed the second run is
skipped with the reason.  Every other test runs on SQLite only.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from .helpers import make_settings, running
from .postgres import PostgresServer, PostgresUnavailable
from .redis_server import RedisServer, RedisUnavailable

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

BACKENDS = ("sqlite", "postgresql")
"""The databases a ``both_databases`` module runs on, in test-id order."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "both_databases: run the tests that use db_url on SQLite and on PostgreSQL")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "db_url" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_databases"):
        metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """This process's PostgreSQL server, started on first use and stopped at the end (skips the test when impossible)."""
    try:
        server = PostgresServer()
    except PostgresUnavailable as exc:
        pytest.skip(str(exc))
    try:
        server.start()
    except PostgresUnavailable as exc:
        server.stop()
        pytest.skip(f"PostgreSQL did not start: {exc}")
    _servers.append(server)
    try:
        yield server
    finally:
        _servers.remove(server)
        server.stop()


_servers: list[PostgresServer] = []
"""This process's running PostgreSQL server (at most one: :func:`postgres_server`), for :func:`_drop_the_test_s_databases`."""


@pytest.fixture(autouse=True)
def _drop_the_test_s_databases() -> Iterator[None]:
    """After each test, drop the PostgreSQL databases it made (set up first, so torn down after the test's servers)."""
    yield
    for server in _servers:
        server.drop_databases()


@pytest.fixture(scope="session")
def redis_process() -> Iterator[RedisServer]:
    """This process's Redis server, started on first use and stopped at the end (skips the test when impossible)."""
    try:
        server = RedisServer()
    except RedisUnavailable as exc:
        pytest.skip(str(exc))
    try:
        server.start()
    except RedisUnavailable as exc:
        server.stop()
        pytest.skip(str(exc))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_url(redis_process: RedisServer) -> str:
    """The URL of an empty Redis (this process's server, flushed)."""
    redis_process.flush()
    return redis_process.url


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The database kind of this test: ``sqlite`` unless parametrized by ``both_databases``."""
    kind: str = getattr(request, "param", "sqlite")
    return kind


@pytest.fixture
def db_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A fresh database: a SQLite file, or a new database on the PostgreSQL server."""
    if backend == "postgresql":
        server: PostgresServer = request.getfixturevalue("postgres_server")
        return server.new_database()
    return f"sqlite:///{tmp_path / 'stich.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """A running server with default test settings."""
    with running(make_settings(db_url)) as test_client:
        yield test_client
