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


def test_worker_ports_need_redis_fit_below_65536_and_a_good_worker_url(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    cluster = ["--workers", "2", "--redis", "redis://127.0.0.1:1/0", "--database", "postgresql+psycopg://x@h/d"]
    refusals = [
        (["--worker-ports", "9000", "--database", f"sqlite:///{tmp_path / 'stich.db'}"], "--redis"),
        ([*cluster, "--worker-url", "http://{host}:{port}"], "--worker-ports BASE"),
        ([*cluster, "--worker-ports", "65535"], "65535"),
        ([*cluster, "--port", "9001", "--worker-ports", "9000"], "--port 9001"),
        ([*cluster, "--worker-ports", "9000", "--worker-url", "ftp://{host}/{port}"], "--worker-url"),
        ([*cluster, "--worker-ports", "9000", "--worker-url", "https://{host}/w{port}?x=1"], "--worker-url"),
    ]
    for args, named in refusals:
        status, out, err = run_cli(capsys, "serve", *args)
        line = assert_one_error_line(status, err)
        assert named in line, (args, line)
        assert "serving on" not in out


def test_each_worker_advertises_its_own_port_and_lets_the_shared_port_s_pages_in() -> None:
    from stich.cli.serve import _worker_urls
    from stich.web.settings import Settings
    from stich.web.workers import worker_settings

    assert _worker_urls(8000, 2, "redis://r", None, None) == []
    assert _worker_urls(8000, 2, "redis://r", 8100, None) == [(8100, "http://{host}:8100"), (8101, "http://{host}:8101")]
    assert _worker_urls(8000, 1, "redis://r", 8100, "https://{host}/w{port}") == [(8100, "https://{host}/w8100")]
    settings = worker_settings(Settings(allowed_origins=("https://other.example",)), 8000, "http://{host}:8101")
    assert settings.worker_url == "http://{host}:8101"
    assert settings.allowed_origins == ("https://other.example", "http://{host}:8000")
