"""``stich serve`` on a port that is taken fails at once, before it says it is serving (issue 28, item 11)."""

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
