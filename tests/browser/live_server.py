"""A stich server in a subprocess on 127.0.0.1: a free port, a fresh SQLite file, a short grace period.

Each pytest process (each xdist worker) starts its own server, so workers
never share tables, cookies or a database.  The server's output goes to a
log file whose tail is shown when the server fails to start.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType

LAUNCHER = Path(__file__).with_name("serve_for_tests.py")
START_TIMEOUT_SECONDS = 60.0
"""Migrations, the Argon2 self-calibration and uvicorn's start take a few seconds on a slow machine."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class LiveServer:
    """Starts the server on entering, stops it (terminate, then kill) on leaving; ``base_url`` has no trailing slash."""

    def __init__(self, folder: Path, *, grace_seconds: float, bot_delay_seconds: float) -> None:
        self.folder = folder
        self.grace_seconds = grace_seconds
        self.bot_delay_seconds = bot_delay_seconds
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / "server.log"
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> LiveServer:
        database = f"sqlite:///{self.folder / 'stich.db'}"
        command = [
            sys.executable,
            str(LAUNCHER),
            *("--port", str(self.port), "--database", database),
            *("--grace", str(self.grace_seconds), "--bot-delay", str(self.bot_delay_seconds)),
        ]
        with self.log_path.open("wb") as log:
            self._process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=self.folder)
        try:
            self._wait_until_healthy()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.stop()

    def log_tail(self, characters: int = 4000) -> str:
        """The end of the server's output (for failure messages)."""
        try:
            return self.log_path.read_text(errors="replace")[-characters:]
        except OSError:
            return "(no server log)"

    def _wait_until_healthy(self) -> None:
        assert self._process is not None
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"the test server exited with status {self._process.returncode}:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.base_url}/api/health", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the test server did not answer /api/health within {START_TIMEOUT_SECONDS:.0f} s:\n{self.log_tail()}")

    def stop(self) -> None:
        """Stop the server process (idempotent)."""
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
