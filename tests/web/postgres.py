"""A private PostgreSQL server for the web tests: its own scratch data directory, loopback port and socket directory.

Each pytest process (each xdist worker) starts one instance the first time a
test asks for PostgreSQL and stops it at the end of the session; every test
gets a fresh database in it (``CREATE DATABASE`` copies the empty template in
milliseconds).  The binaries are Debian's (``/usr/lib/postgresql/<version>/bin``),
``$STICH_PG_BIN`` names another folder.  PostgreSQL refuses to run as root, so
under root the server runs as the ``postgres`` system user (the package
creates it) and owns the scratch directory.  Durability settings are off
(``fsync``, ``synchronous_commit``): the data is thrown away afterwards.
Without the binaries or the ``psycopg`` driver the tests that need the server
are skipped with the reason; ``.ci/run`` installs the Debian package.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SERVER_USER = "stich"
"""The database superuser ``initdb`` creates (trust authentication: loopback and socket only)."""
RUN_AS_WHEN_ROOT = "postgres"
"""The system account that runs the server when the tests run as root."""
INSTALL_HINT = "install Debian's postgresql package (apt-get install postgresql; .ci/run does) and psycopg (pip install -e '.[postgresql]')"


class PostgresUnavailable(RuntimeError):
    """PostgreSQL cannot be started here; the message says why."""


def _version_key(folder: Path) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", folder.parent.name)) or (0,)


def find_bin_dir() -> Path:
    """Where ``initdb``, ``pg_ctl`` and ``postgres`` are: ``$STICH_PG_BIN`` (must have them), else newest Debian version, else ``PATH``."""
    needed = ("initdb", "pg_ctl", "postgres")
    configured = os.environ.get("STICH_PG_BIN")
    if configured:
        if not all(os.access(Path(configured) / name, os.X_OK) for name in needed):
            raise ValueError(f"STICH_PG_BIN={configured!r} lacks one of {', '.join(needed)}")  # a wrong setting fails, never skips
        return Path(configured)
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=_version_key, reverse=True)
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).parent)
    for folder in candidates:
        if all(os.access(folder / name, os.X_OK) for name in needed):
            return folder
    raise PostgresUnavailable(f"PostgreSQL is not installed (no initdb/pg_ctl/postgres found): {INSTALL_HINT}")


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class PostgresServer:
    """One running PostgreSQL instance in a scratch directory; :meth:`new_database` hands out fresh databases."""

    def __init__(self) -> None:
        if importlib.util.find_spec("psycopg") is None:
            raise PostgresUnavailable(f"the psycopg driver is not installed: {INSTALL_HINT}")
        self.bin = find_bin_dir()
        self.run_as: str | None = None
        if os.geteuid() == 0:
            try:
                account = pwd.getpwnam(RUN_AS_WHEN_ROOT)
            except KeyError:
                raise PostgresUnavailable(f"the tests run as root and there is no {RUN_AS_WHEN_ROOT!r} user to run PostgreSQL as") from None
            self.run_as = RUN_AS_WHEN_ROOT
        # not under pytest's tmp_path (nor $TMPDIR under root): those folders may be private to the test user
        self.scratch = Path(tempfile.mkdtemp(prefix="stich-pg-", dir="/tmp" if self.run_as else None))
        if self.run_as is not None:
            os.chown(self.scratch, account.pw_uid, account.pw_gid)
        self.data = self.scratch / "data"
        self.log = self.scratch / "server.log"
        self.port = 0
        self._names = itertools.count(1)
        self._handed_out: list[str] = []
        self._started = False

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.run_as is not None:
            command = ["runuser", "-u", self.run_as, "--", *command]
        done = subprocess.run(command, cwd=self.scratch, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise PostgresUnavailable(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}\n{log}")

    def start(self) -> None:
        """``initdb`` and ``pg_ctl start`` on a free loopback port (a few tries, should another process take the port first)."""
        self._run("initdb", "-D", str(self.data), "-U", SERVER_USER, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync")
        for _ in range(5):
            self.port = free_port()
            options = (
                f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.scratch}"
                " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
            )
            try:
                self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "60", "start")
            except PostgresUnavailable:
                if "could not bind" not in (self.log.read_text(errors="replace") if self.log.exists() else ""):
                    raise
                continue
            self._started = True
            return
        raise PostgresUnavailable(f"no free port for PostgreSQL after 5 tries (log: {self.log})")

    def url(self, database: str) -> str:
        """The SQLAlchemy URL of ``database`` on this server (psycopg 3, loopback TCP)."""
        return f"postgresql+psycopg://{SERVER_USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new, empty database; returns its URL."""
        import psycopg

        name = f"test_{next(self._names)}"
        with psycopg.connect(host="127.0.0.1", port=self.port, user=SERVER_USER, dbname="postgres", autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        self._handed_out.append(name)
        return self.url(name)

    def drop_databases(self) -> None:
        """Drop every database handed out so far (their clients are gone: the test that made them has ended).

        Each new database is a copy of the template, about 8 MB on disk: the
        web tests make hundreds, and left in place they filled gigabytes and
        made the server's stop at the end of the session take over a minute.
        ``WITH (FORCE)`` ends a connection a test's server left open.
        """
        import psycopg

        if not self._started or not self._handed_out:
            return
        with psycopg.connect(host="127.0.0.1", port=self.port, user=SERVER_USER, dbname="postgres", autocommit=True) as connection:
            for name in self._handed_out:
                connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self._handed_out.clear()

    def stop(self) -> None:
        """Stop the server (if it started) and delete the scratch directory."""
        try:
            if self._started:
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            self._started = False
            shutil.rmtree(self.scratch, ignore_errors=True)
