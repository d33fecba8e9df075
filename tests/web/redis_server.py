"""A private Redis server for the web tests: its own loopback port and scratch directory, nothing persisted.

Each pytest process (each xdist worker) starts one ``redis-server`` the first
time a test asks for Redis and stops it at the end of the session; each test
starts from an empty server (``FLUSHALL``).  The binary is Debian's
``redis-server`` on ``PATH`` (``$STICH_REDIS_SERVER`` names another);
without it, or without the ``redis`` package, the tests that need Redis are
skipped with the reason; ``.ci/run`` installs the Debian package.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from .postgres import free_port

INSTALL_HINT = "install Debian's redis-server package (apt-get install redis-server; .ci/run does) and redis (pip install -e '.[redis]')"


class RedisUnavailable(RuntimeError):
    """Redis cannot be started here; the message says why."""


def find_server() -> str:
    """The ``redis-server`` binary: ``$STICH_REDIS_SERVER`` (must be executable), else the one on ``PATH``."""
    configured = os.environ.get("STICH_REDIS_SERVER")
    if configured:
        if not os.access(configured, os.X_OK):
            raise ValueError(f"STICH_REDIS_SERVER={configured!r} is not an executable")  # a wrong setting fails, never skips
        return configured
    found = shutil.which("redis-server")
    if found is None:
        raise RedisUnavailable(f"redis-server is not installed: {INSTALL_HINT}")
    return found


class RedisServer:
    """One running ``redis-server`` on a loopback port, without persistence."""

    def __init__(self) -> None:
        if importlib.util.find_spec("redis") is None:
            raise RedisUnavailable(f"the redis package is not installed: {INSTALL_HINT}")
        self.binary = find_server()
        self.scratch = Path(tempfile.mkdtemp(prefix="stich-redis-"))
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The server's URL (database 0)."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start ``redis-server`` on a free port and wait until it answers (a few tries, should the port be taken first)."""
        import redis

        for _ in range(5):
            self.port = free_port()
            log = self.scratch / "server.log"
            command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
            command += ["--dir", str(self.scratch), "--logfile", str(log)]
            self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and self.process.poll() is None:
                try:
                    redis.Redis(port=self.port, socket_connect_timeout=1).ping()
                    return
                except redis.ConnectionError:
                    time.sleep(0.05)
            self.process.kill()
            self.process.wait()
            self.process = None
        raise RedisUnavailable(f"redis-server did not start on a free port after 5 tries ({self.scratch})")

    def flush(self) -> None:
        """Empty every database (each test starts from nothing)."""
        import redis

        redis.Redis(port=self.port).flushall()

    def stop(self) -> None:
        """Stop the server and delete its scratch directory."""
        try:
            if self.process is not None:
                self.process.terminate()
                try:
                    self.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
        finally:
            self.process = None
            shutil.rmtree(self.scratch, ignore_errors=True)
