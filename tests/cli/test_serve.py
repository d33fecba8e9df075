"""``stich serve``: a busy port fails before serving is announced (issue 28, item 11); several workers need Redis and PostgreSQL."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from .helpers import assert_one_error_line, run_cli


def test_a_busy_port_fails_before_serving_is_announced(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        status, out, err = run_cli(capsys, "serve", "--port", str(port), "--database", f"sqlite:///{tmp_path / 'stich.db'}")
    line = assert_one_error_line(status, err)
    assert f"127.0.0.1:{port}" in line and "in use" in line, line
    assert "serving on" not in out


def test_several_workers_need_redis_and_a_database_server(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sqlite = f"sqlite:///{tmp_path / 'stich.db'}"
    status, out, err = run_cli(capsys, "serve", "--workers", "2", "--database", sqlite)
    line = assert_one_error_line(status, err)
    assert "--workers" in line and "--redis" in line, line
    status, out, err = run_cli(capsys, "serve", "--workers", "2", "--redis", "redis://127.0.0.1:1/0", "--database", sqlite)
    line = assert_one_error_line(status, err)
    assert "postgresql" in line, line
    status, out, err = run_cli(capsys, "serve", "--redis", "http://example.org", "--database", "postgresql+psycopg://x@h/d")
    line = assert_one_error_line(status, err)
    assert "--redis" in line and "not a Redis URL" in line, line
    status, out, err = run_cli(capsys, "serve", "--workers", "0")
    line = assert_one_error_line(status, err)
    assert "--workers" in line and "1..64" in line, line
    assert "serving on" not in out
