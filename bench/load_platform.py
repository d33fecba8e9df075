"""Load test of the web server: many tables at once, every seat a scripted WebSocket client.

Starts the server of ``stich serve`` on 127.0.0.1 (a free port, a temporary
SQLite file, the per-address caps raised to fit the run: :func:`load_limits`),
or uses a running server given with ``--url``.  Then ``--tables`` table slots
run at the same time: each makes one guest session per seat (over HTTP, like
a browser), creates a table of ``--game`` (the first guest sits at seat 0,
the others join), connects every seat's WebSocket, and plays: whenever a
``state`` message shows legal actions for the client's own seat, it sends a
random one (with ``deal`` and ``step``, as the web client does).  A slot plays
one table of ``--deals`` deals; with ``--seconds`` it starts a new table each
time one ends, until the time is up.

Measured, and written as JSON with ``--out``:

* ``actions_per_second``: actions the server confirmed (the ``state`` that
  contains the action reached its sender) per second of the play phase
  (from the first table's start to the last client's end);
* ``latency_ms``: p50, p90, p99 and max of the time from sending an action to
  receiving the ``state`` that contains it;
* ``errors``: error messages from the server, failed requests and
  connections that closed early (each kind counted, a few samples kept);
* ``server_cpu_s`` and ``server_cpu_ms_per_action``: CPU seconds (user
  plus system, ``/proc``) the started servers spent during the run, and per
  confirmed action; CPU time, unlike wall time, hardly changes with what
  else the machine runs;
* ``services_cpu_s`` and ``total_cpu_ms_per_action`` (several workers on
  the scratch PostgreSQL and Redis the script starts): the same for
  PostgreSQL (all its processes) and Redis, and the workers' and theirs
  together per action: the cost a deployment pays;
* ``redis_calls_per_action`` (the scratch Redis): the commands Redis ran
  in the whole run, by name, per confirmed action (``INFO commandstats``),
  the exact count of round trips where CPU times are noisy;
* ``steady_cpu_ms_per_action``: the same per action once every table had
  started (guest sessions, creations and joins done), the figure that sets
  how many tables at human pace a core holds;
* ``sent_to_owner_4307``: sockets a worker sent to the worker running
  their table (``moved``, decision 0068), each opened again there; with
  ``--stay`` the seats do not ask for that and are relayed (the costly case);
* ``sent_away_1012``: sockets the server closed with 1012 (the table moved
  to another worker, or its worker lost track of it: decision 0033); the
  client reconnects after about half a second, as the browser's socket does
  (static/js/socket.js), and goes on from the snapshot: counted here, not
  as an error.

The run is bounded: at most 500 tables, 50 deals per table, one hour, and
``--timeout`` seconds in all (default 300), after which clients stop and the
report says so.  With ``--profile DIR`` each started server runs under
cProfile (counting CPU time) and writes ``DIR/server-N.prof`` when it stops.
Only loopback addresses are accepted unless ``--url``
points elsewhere explicitly with ``--allow-remote``.

    .venv/bin/python bench/load_platform.py --tables 20 --out load-20.json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import platform
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

COOKIE = "stich_session"
MOVED = 1012
"""Close code of a socket the server sends away to reconnect (the table moved: ``stich.web.cluster.manager.TAKEOVER_CODE``)."""
SENT_TO_OWNER = 4307
"""Close code after a ``moved`` message: open the socket again at the table's own worker (``stich.web.cluster.direct``)."""
MAX_MOVES = 3
"""Moves in a row without being served, after which a seat asks to be relayed (as the browser's socket does)."""
MAX_TABLES = 500
MAX_DEALS = 50
MAX_SECONDS = 3600.0
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
SEATS = {"doppelkopf": 4, "tapp_tarock": 3, "dobbm": 3, "droggn": 3, "dappen": 4}
"""Seats of each game with its default options (``--game`` with options is not offered: tables use the default preset)."""


# ------------------------------------------------------------------ results
@dataclass
class Stats:
    """Everything the clients measured, shared by all tasks (one event loop, so no locking)."""

    latencies: list[float] = field(default_factory=list)
    """Seconds from sending an action to receiving the state that contains it."""
    steady: list[float] = field(default_factory=list)
    """The same for the actions sent once every table had started (no table being opened meanwhile)."""
    all_started: float | None = None
    tables_wanted: int = 0
    confirmed: int = 0
    sent: int = 0
    deals_finished: int = 0
    tables_started: int = 0
    tables_finished: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    samples: list[str] = field(default_factory=list)
    first_start: float | None = None
    last_end: float | None = None
    killed_at: float | None = None
    """When ``--kill-after`` killed worker 0 (monotonic), or ``None``."""
    resumed: list[float] = field(default_factory=list)
    """Per socket the kill closed: seconds from the kill to its first ``state`` after reconnecting."""
    reconnects: int = 0
    refused: int = 0
    """Reconnects refused (the killed worker's port) before one was accepted."""
    sent_away: int = 0
    """Sockets the server closed with 1012 (reconnect): each reconnected, as the browser does."""
    moved: int = 0
    """Sockets the server sent to the table's own worker (``moved``, 4307): each opened again there."""

    def error(self, kind: str, detail: str) -> None:
        """Count one error of ``kind``; keep the first few details."""
        self.errors[kind] += 1
        if len(self.samples) < 10:
            self.samples.append(f"{kind}: {detail[:200]}")


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0..100) by the nearest-rank method, or ``None`` without values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 2)


# ------------------------------------------------------------------ clients
class SeatClient:
    """One seat's player: an HTTP session (its guest cookie) and, once seated, the table's WebSocket.

    With ``pace`` (seconds, lowest and highest) it thinks a random time in
    that range before each action, as people do; ``fallbacks`` are the other
    workers it reconnects to when its socket is closed under it (``--kill-after``).
    With ``follow`` it asks to be sent to the worker that runs the table
    (``?follow=1``) and opens its socket there when told (``moved``, 4307),
    as the browser's socket does; without, it stays where it connected and
    is relayed (``--stay``, the costly case).
    """

    def __init__(
        self,
        http: httpx.AsyncClient,
        stats: Stats,
        rng: random.Random,
        pace: tuple[float, float] | None = None,
        fallbacks: Sequence[str] = (),
        follow: bool = False,
    ) -> None:
        self.http = http
        self.follow = follow
        self._moved_to: str | None = None
        """Where the last ``moved`` message sent this seat (a ``ws://`` base), until the socket closes."""
        self._moves = 0
        """Moves in a row without being served (``welcome``)."""
        self.stats = stats
        self.rng = rng
        self.token = ""
        self.pace = pace
        self.fallbacks = list(fallbacks)
        self._sent_away = False
        """Whether the server closed this seat's socket with 1012 (so a reconnect is expected, with or without a kill)."""

    async def become_guest(self) -> None:
        """Make a guest session and keep its token."""
        response = await self.http.post("/api/auth/guest", json={})
        response.raise_for_status()
        self.token = response.cookies.get(COOKIE) or ""
        if not self.token:
            raise RuntimeError("the server set no session cookie")

    def _cookies(self) -> dict[str, str]:
        return {COOKIE: self.token}

    async def create_table(self, game: str, deals: int) -> str:
        """Create a table, sitting at seat 0; returns its id."""
        response = await self.http.post("/api/tables", json={"game": game, "deals": deals, "seat": 0}, cookies=self._cookies())
        response.raise_for_status()
        table_id: str = response.json()["id"]
        return table_id

    async def join(self, table_id: str, seat: int) -> None:
        """Take ``seat`` at the table."""
        response = await self.http.post(f"/api/tables/{table_id}/join", json={"seat": seat}, cookies=self._cookies())
        response.raise_for_status()

    async def play(self, ws_url: str, deadline: float) -> None:
        """Play this seat until the table ends (or the deadline): a random legal action on every turn.

        A socket closed under the seat after a worker was killed is opened
        again on the next worker (``fallbacks``), and play goes on from the
        snapshot it gets; an action sent but not confirmed is sent again.
        """
        headers = {"Cookie": f"{COOKIE}={self.token}"}
        path = ws_url[ws_url.index("/ws/") :]
        urls = [ws_url] + [base + path for base in self.fallbacks]
        acted: set[tuple[int, int]] = set()
        moved = False
        self._sent_away = False
        self._moves = 0
        going_to: str | None = None
        attempt = 0
        while attempt < 200:
            url = going_to + path if going_to else urls[attempt % len(urls)]  # a dead worker refuses at once, the next try another
            if self.follow and self._moves < MAX_MOVES:
                url += "?follow=1"
            self._moved_to = None
            try:
                async with connect(url, additional_headers=headers, max_size=2**22, open_timeout=60) as ws:
                    if await self._play(ws, deadline, acted, moved):
                        return
            except (OSError, WebSocketException):
                if (self.stats.killed_at is None and not self._sent_away) or time.monotonic() >= deadline:
                    raise
                self.stats.refused += 1  # the killed worker (or one not ready): the next try goes to another
            going_to, self._moved_to = self._moved_to, None
            if going_to is not None:  # sent to the table's own worker: at once, as the browser's socket does
                self._moves += 1
                continue
            attempt += 1
            if (self.stats.killed_at is None and not self._sent_away) or time.monotonic() >= deadline:
                return
            moved = True
            if self._sent_away:  # as the browser's socket: about half a second (jittered) before the first retry
                await asyncio.sleep(0.5 * (0.75 + self.rng.random() * 0.5))
            else:
                self.stats.reconnects += 1
                await asyncio.sleep(0.2 + self.rng.random() * 0.3)

    async def _play(self, ws: ClientConnection, deadline: float, acted: set[tuple[int, int]], moved: bool) -> bool:
        """Play on one socket; whether the seat is done (the table ended, or the deadline), else the socket was closed."""
        pending: dict[tuple[int, int], float] = {}
        acted.clear()  # what was sent and not confirmed on a closed socket is sent again
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return True
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=left)
            except TimeoutError:
                return True
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd else None
                if code == SENT_TO_OWNER and self._moved_to is not None:
                    self.stats.moved += 1
                    return False
                if code == MOVED:  # the table moved (or its worker let it go): reconnect, as the browser does
                    self.stats.sent_away += 1
                    self._sent_away = True
                    return False
                if self.stats.killed_at is not None:
                    return False
                self.stats.error("closed", f"code {code}")
                return True
            now = time.monotonic()
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "state":
                if moved:
                    moved = False
                    if self.stats.killed_at is not None:
                        self.stats.resumed.append(now - self.stats.killed_at)
                deal, step = message["deal"], message["step"]
                for key in [k for k in pending if k[0] == deal and k[1] < step]:
                    sent_at = pending.pop(key)
                    self.stats.latencies.append(now - sent_at)
                    if self.stats.all_started is not None and sent_at >= self.stats.all_started:
                        self.stats.steady.append(now - sent_at)
                    self.stats.confirmed += 1
                legal = message["view"].get("legal_actions") or []
                if legal and (deal, step) not in acted:
                    acted.add((deal, step))
                    if self.pace is not None:
                        await asyncio.sleep(self.rng.uniform(*self.pace))
                    pending[(deal, step)] = time.monotonic()
                    self.stats.sent += 1
                    action = {"type": "action", "action": self.rng.choice(legal), "deal": deal, "step": step}
                    await ws.send(json.dumps(action))
            elif kind == "deal_end":
                pending = {k: v for k, v in pending.items() if k[0] != message["deal"]}
                await ws.send(json.dumps({"type": "continue", "deal": message["deal"]}))  # "Weiter": the next deal waits for it
            elif kind == "table_end":
                return True
            elif kind == "welcome":
                self._moves = 0
            elif kind == "moved" and self.follow:
                url = str(message.get("url", ""))
                self._moved_to = url if url.startswith("ws://") and "?" not in url else None
            elif kind == "error":
                self.stats.error(f"error:{message.get('field')}", str(message.get("message")))


async def play_table(
    bases: Sequence[str],
    game: str,
    deals: int,
    deadline: float,
    stats: Stats,
    rng: random.Random,
    pace: tuple[float, float] | None = None,
    follow: bool = False,
) -> bool:
    """One table from creation to its end; returns whether it ended before the deadline.

    With several workers (``bases``), the table is created on the first and
    seat ``i`` plays on worker ``i % len(bases)`` (so its seats sit on several
    workers; with ``follow`` a seat on a worker that does not run the table
    is sent to the one that does, else it is relayed: the costly case, most
    messages travel through Redis).
    """
    seats = SEATS[game]
    async with contextlib.AsyncExitStack() as stack:
        # The server closes a connection idle for request_timeout_seconds (10 s; stich.web.server): reusing one only up to
        # half that leaves room for a busy server's late replies (at 5 s, uvicorn's old default, creations failed: issue 42)
        limits = httpx.Limits(keepalive_expiry=5.0)
        https = [await stack.enter_async_context(httpx.AsyncClient(base_url=base, timeout=30, limits=limits)) for base in bases]
        clients = []
        for seat in range(seats):
            mine = seat % len(bases)
            others = ["ws" + base[len("http") :] for base in bases[mine + 1 :] + bases[:mine]]
            clients.append(SeatClient(https[mine], stats, random.Random(rng.getrandbits(64)), pace, others, follow))
        await asyncio.gather(*(client.become_guest() for client in clients))
        table_id = await clients[0].create_table(game, deals)
        for seat, client in enumerate(clients[1:], start=1):
            await client.join(table_id, seat)
        stats.tables_started += 1
        if stats.first_start is None:
            stats.first_start = time.monotonic()
        if stats.tables_started == stats.tables_wanted:
            stats.all_started = time.monotonic()
        ws_bases = ["ws" + base[len("http") :] for base in bases]
        seats_playing = [
            asyncio.create_task(client.play(f"{ws_bases[seat % len(bases)]}/ws/tables/{table_id}", deadline))
            for seat, client in enumerate(clients)
        ]
        finished, unfinished = await asyncio.wait(seats_playing, return_when=asyncio.FIRST_EXCEPTION)
        for task in unfinished:  # one seat failed: the table cannot go on as measured, so its other seats stop too
            task.cancel()
        await asyncio.gather(*unfinished, return_exceptions=True)
        for task in finished:
            error = task.exception()
            if error is not None:
                raise error
        done = time.monotonic() < deadline
        if done:
            stats.tables_finished += 1
            response = await https[-1].get(f"/api/tables/{table_id}/deals")
            if response.status_code == 200:
                stats.deals_finished += sum(1 for d in response.json()["deals"] if d["status"] == "finished")
        stats.last_end = time.monotonic()
        return done


async def table_slot(bases: Sequence[str], args: argparse.Namespace, deadline: float, stats: Stats, rng: random.Random) -> None:
    """One of ``--tables`` concurrent slots: one table, or tables one after another until ``--seconds``."""
    while True:
        try:
            finished = await play_table(bases, args.game, args.deals, deadline, stats, rng, args.pace, follow=not args.stay)
        except (httpx.HTTPError, OSError, WebSocketException, RuntimeError, KeyError, ValueError) as exc:
            stats.error("client", repr(exc))
            return
        if not finished or args.seconds is None or time.monotonic() >= deadline:
            return


# ------------------------------------------------------------------- server
def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


SERVER = """
import json, sys
from stich.web.app import create_app
from stich.web.server import make_server
from stich.web.settings import Settings
settings = Settings(**json.loads(sys.argv[1]))
server = make_server(create_app(settings), settings, "127.0.0.1", int(sys.argv[2]), log_level="warning")
if len(sys.argv) > 3:  # uvicorn raises the SIGTERM again after its shutdown: this handler lets the statistics be written
    import cProfile, signal, time
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    profile = cProfile.Profile(time.process_time)  # CPU time: a coroutine waiting costs nothing
    try:
        profile.runcall(server.run)
    finally:
        profile.dump_stats(sys.argv[3])
else:
    server.run()
"""
"""The local server: the app of ``stich serve`` under uvicorn, with its settings as JSON (``stich serve`` has no options for the caps).

A third argument names a file for the server's cProfile statistics (``--profile``), written when it stops.
"""


def load_limits(tables: int, seats: int) -> dict[str, int]:
    """Settings that let ``tables`` tables of ``seats`` clients each come from the one address of a load test.

    The server caps tables, sockets and messages per client address
    (docs/web.md, "Security model"); a load test is many people on one
    address, so the caps are raised to fit it (each session keeps its own).
    The socket caps fit every client twice: with several workers the open
    sockets are counted on every worker (decision 0033), and a killed
    worker's sockets keep counting until its heartbeat lapses
    (``lease_seconds``), while the same clients reconnect to the other one.
    """
    return {
        "max_tables_per_address": tables + 2,
        "max_search_tables_per_address": tables + 2,
        "max_sockets_per_address": 2 * tables * seats + 8,
        "max_sockets_per_table": 2 * seats + 8,
        "max_messages_per_minute_per_address": 10**9,
    }


def _cpu_seconds(pid: int) -> float | None:
    """User plus system CPU seconds of a process so far (Linux ``/proc``), or ``None`` elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def _tree_cpu_seconds(parent: int) -> float | None:
    """CPU seconds of a server that forks a process per connection (PostgreSQL): its own, its reaped and its live children's.

    A child that ended and was waited for counts in the parent's ``cutime``
    and ``cstime``; the live ones are found by their parent id in ``/proc``.
    """
    try:
        ticks = os.sysconf("SC_CLK_TCK")
        fields = Path(f"/proc/{parent}/stat").read_text().rsplit(")", 1)[1].split()
        total = sum(int(value) for value in fields[11:15]) / ticks
    except (OSError, IndexError, ValueError):
        return None
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile: counted in the parent once reaped
        if int(fields[1]) == parent:
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def _rss_mb(pid: int) -> float | None:
    """Resident memory of a process in MiB (Linux ``/proc``), or ``None``."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


@contextlib.asynccontextmanager
async def local_server(settings: dict[str, Any], startup: float) -> AsyncIterator[tuple[str, subprocess.Popen[bytes]]]:
    """The server on 127.0.0.1, a free port and a temporary SQLite file, with ``settings``; stopped (and the files removed) afterwards."""
    async with local_workers(settings, startup, 1) as (bases, processes):
        yield bases[0], processes[0]


@contextlib.asynccontextmanager
async def local_workers(
    settings: dict[str, Any],
    startup: float,
    workers: int,
    logs: Path | None = None,
    profile: Path | None = None,
    advertise: bool = False,
) -> AsyncIterator[tuple[list[str], list[subprocess.Popen[bytes]]]]:
    """``workers`` server processes on 127.0.0.1, each on a free port, with ``settings`` (a temporary SQLite file unless named).

    Several workers need ``database_url`` (PostgreSQL) and ``redis_url`` in
    ``settings``; each is a separate ``stich`` server as on a machine of its
    own (``stich serve --redis``), so a client may be sent to any of them.
    Their logs (``server-N.log``) go to ``logs`` when given (kept after the
    run: why a socket was sent away is logged there), else with the
    temporary files.  With ``profile``, each runs under cProfile and writes
    ``server-N.prof`` there when it stops.  With ``advertise`` each worker
    advertises its own URL (``worker_url``: decision 0068), so that a
    client that follows is sent to the worker running its table.
    """
    with contextlib.ExitStack() as files:
        folder = files.enter_context(tempfile.TemporaryDirectory(prefix="stich-load-"))
        values = {"database_url": f"sqlite:///{Path(folder, 'load.db')}", **settings}
        processes: list[subprocess.Popen[bytes]] = []
        bases = []
        try:
            for number in range(workers):
                port = free_port()
                log_folder = folder if logs is None else logs
                if logs is not None:
                    logs.mkdir(parents=True, exist_ok=True)
                log = files.enter_context(Path(log_folder, f"server-{number}.log").open("wb"))
                own = {**values, "worker_url": f"http://127.0.0.1:{port}"} if advertise else values
                command = [sys.executable, "-c", SERVER, json.dumps(own), str(port)]
                if profile is not None:
                    profile.mkdir(parents=True, exist_ok=True)
                    command.append(str(Path(profile, f"server-{number}.prof").resolve()))
                processes.append(subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT))
                bases.append(f"http://127.0.0.1:{port}")
            for number, (base, process) in enumerate(zip(bases, processes, strict=True)):
                await _wait_ready(base, process, startup, Path(folder if logs is None else logs, f"server-{number}.log"))
            yield bases, processes
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


@dataclass
class Services:
    """The scratch PostgreSQL and Redis of a run: their URLs, and the process ids whose CPU time the report counts."""

    database: str
    redis: str
    postgres_pid: int | None
    redis_pid: int | None

    def cpu_seconds(self) -> dict[str, float | None]:
        """CPU seconds so far of PostgreSQL (every process of the server) and of Redis."""
        return {
            "postgresql": None if self.postgres_pid is None else _tree_cpu_seconds(self.postgres_pid),
            "redis": None if self.redis_pid is None else _cpu_seconds(self.redis_pid),
        }


@contextlib.contextmanager
def scratch_services() -> Iterator[Services]:
    """A scratch PostgreSQL database and Redis for a several-worker run: the test suite's own (tests/web), stopped afterwards."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from web.postgres import PostgresServer
    from web.redis_server import RedisServer

    postgres, redis = PostgresServer(), RedisServer()
    try:
        postgres.start()
        redis.start()
        database = postgres.new_database()
        try:
            postmaster: int | None = int((postgres.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            postmaster = None
        yield Services(database, redis.url, postmaster, None if redis.process is None else redis.process.pid)
    finally:
        redis.stop()
        postgres.stop()


async def _wait_ready(base: str, process: subprocess.Popen[bytes], startup: float, log: Path) -> None:
    end = time.monotonic() + startup
    async with httpx.AsyncClient(base_url=base, timeout=2) as http:
        while time.monotonic() < end:
            if process.poll() is not None:
                raise RuntimeError(f"stich serve exited with {process.returncode}:\n{log.read_text(errors='replace')[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get("/api/health")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
    raise RuntimeError(f"stich serve did not answer within {startup} s")


# ---------------------------------------------------------------------- run
async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Start or reach the server, run the table slots, and build the report."""
    stats = Stats(tables_wanted=args.tables)
    rng = random.Random(args.seed)
    limit = min(args.timeout, args.seconds) if args.seconds is not None else args.timeout
    servers: list[subprocess.Popen[bytes]] = []
    cpu_before: list[float | None] = []
    rss: dict[str, float | None] = {"idle": None, "peak": None}
    services: Services | None = None
    services_before: dict[str, float | None] = {}
    services_after: dict[str, float | None] = {}
    async with contextlib.AsyncExitStack() as stack:
        if args.url:
            bases = [url.rstrip("/") for url in args.url.split(",")]
        else:
            settings: dict[str, Any] = {"grace_seconds": args.grace, **load_limits(args.tables, SEATS[args.game])}
            if args.workers > 1 or args.redis:
                database, redis = args.database, args.redis
                if database is None or redis is None:
                    services = stack.enter_context(scratch_services())
                    database, redis = services.database, services.redis
                settings.update(database_url=database, redis_url=redis, lease_seconds=args.lease)
            elif args.database:
                settings["database_url"] = args.database
            advertise = "redis_url" in settings and not args.stay
            bases, servers = await stack.enter_async_context(
                local_workers(settings, args.startup, args.workers, args.logs, args.profile, advertise)
            )
            cpu_before = [_cpu_seconds(process.pid) for process in servers]
            services_before = services.cpu_seconds() if services is not None else {}
            rss["idle"] = _total([_rss_mb(process.pid) for process in servers])
        started = time.monotonic()
        deadline = started + limit
        watcher = asyncio.create_task(_watch(servers, rss, stats, args))
        steady = asyncio.create_task(_steady_start(servers, services, stats))
        await asyncio.gather(*(table_slot(bases, args, deadline, stats, random.Random(rng.getrandbits(64))) for _ in range(args.tables)))
        ended = time.monotonic()
        _sample_rss(servers, rss, stats)  # a run shorter than the watcher's half second has its one sample
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher
        cpu_after = [_cpu_seconds(process.pid) for process in servers]
        services_after = services.cpu_seconds() if services is not None else {}
        redis_calls = _redis_calls(services.redis) if services is not None else None
        steady_end = (stats.confirmed, _total(cpu_after), _total(list(services_after.values())) if services_after else None)
        steady.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            steady_start = await steady
    play_start = stats.first_start or started
    play_end = stats.last_end or ended
    elapsed = max(play_end - play_start, 1e-9)
    latencies = stats.latencies
    timed_out = args.seconds is None and ended >= deadline
    cpu = None
    if servers and stats.killed_at is None and None not in cpu_before and None not in cpu_after:
        cpu = round(sum(after - before for after, before in zip(cpu_after, cpu_before, strict=True)), 2)  # type: ignore[operator]
    resumed = stats.resumed
    steady_cpu = _steady_cpu(steady_start if steady.done() and not steady.cancelled() else None, steady_end, stats)
    services_cpu: dict[str, float | None] = {}
    for name, before in services_before.items():
        after = services_after.get(name)
        services_cpu[name] = None if before is None or after is None or stats.killed_at is not None else round(after - before, 2)
    total_cpu = None
    if cpu is not None and services_cpu and None not in services_cpu.values():
        total_cpu = cpu + sum(value for value in services_cpu.values() if value is not None)
    return {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "server": args.url or _describe_target(args),
        "workers": args.workers,
        "pace_s": list(args.pace) if args.pace else None,
        "game": args.game,
        "tables": args.tables,
        "deals_per_table": args.deals,
        "seconds": args.seconds,
        "clients": args.tables * SEATS[args.game],
        "tables_started": stats.tables_started,
        "tables_finished": stats.tables_finished,
        "deals_finished": stats.deals_finished,
        "actions_sent": stats.sent,
        "actions_confirmed": stats.confirmed,
        "elapsed_s": round(elapsed, 3),
        "wall_s": round(ended - started, 3),
        "actions_per_second": round(stats.confirmed / elapsed, 1),
        "latency_ms": {
            "count": len(latencies),
            "p50": _ms(percentile(latencies, 50)),
            "p90": _ms(percentile(latencies, 90)),
            "p99": _ms(percentile(latencies, 99)),
            "max": _ms(max(latencies) if latencies else None),
            "mean": _ms(sum(latencies) / len(latencies) if latencies else None),
        },
        "steady_latency_ms": {
            "count": len(stats.steady),
            "p50": _ms(percentile(stats.steady, 50)),
            "p99": _ms(percentile(stats.steady, 99)),
            "max": _ms(max(stats.steady) if stats.steady else None),
        },
        "errors": {"total": sum(stats.errors.values()), "by_kind": dict(stats.errors), "samples": stats.samples},
        "sent_away_1012": stats.sent_away,
        "sent_to_owner_4307": stats.moved,
        "stay": args.stay,
        "timed_out": timed_out,
        "server_cpu_s": cpu,
        "server_cpu_ms_per_action": round(cpu * 1000 / stats.confirmed, 2) if cpu is not None and stats.confirmed else None,
        "services_cpu_s": services_cpu or None,
        "total_cpu_ms_per_action": round(total_cpu * 1000 / stats.confirmed, 2) if total_cpu is not None and stats.confirmed else None,
        "steady_cpu_ms_per_action": steady_cpu,
        "redis_calls_per_action": None
        if not redis_calls or not stats.confirmed
        else {name: round(calls / stats.confirmed, 2) for name, calls in sorted(redis_calls.items(), key=lambda kv: -kv[1])},
        "server_rss_mb": {key: None if value is None else round(value, 1) for key, value in rss.items()},
        "rss_mb_per_100_tables": (
            round((rss["peak"] - rss["idle"]) * 100 / args.tables, 1) if rss["peak"] is not None and rss["idle"] is not None else None
        ),
        "kill": None
        if stats.killed_at is None
        else {
            "after_s": args.kill_after,
            "sockets_reconnected": stats.reconnects,
            "reconnects_refused": stats.refused,
            "actions_resent": stats.sent - stats.confirmed,
            "seats_resumed": len(resumed),
            "resume_s": {
                "p50": _s(percentile(resumed, 50)),
                "p99": _s(percentile(resumed, 99)),
                "max": _s(max(resumed) if resumed else None),
            },
        },
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "load_average_1m_at_end": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
        },
    }


Snapshot = tuple[int, float | None, float | None]
"""Actions confirmed, the servers' CPU seconds, PostgreSQL's and Redis's together (``None``: not counted)."""


async def _steady_start(servers: list[subprocess.Popen[bytes]], services: Services | None, stats: Stats) -> Snapshot:
    """Wait until every table has started, then take the counts from which the steady figures are measured."""
    while stats.all_started is None:
        await asyncio.sleep(0.05)
    shared = _total(list(services.cpu_seconds().values())) if services is not None else None
    return stats.confirmed, _total([_cpu_seconds(process.pid) for process in servers]), shared


def _steady_cpu(start: Snapshot | None, end: Snapshot, stats: Stats) -> dict[str, float | int | None] | None:
    """CPU per action once every table had started (no sessions, tables and joins being made): the servers', and with the services'."""
    if start is None or stats.killed_at is not None or start[1] is None or end[1] is None or end[0] <= start[0]:
        return None
    actions = end[0] - start[0]
    services = None if start[2] is None or end[2] is None else round((end[2] - start[2]) * 1000 / actions, 2)
    servers = round((end[1] - start[1]) * 1000 / actions, 2)
    total = None if services is None else round(servers + services, 2)
    return {"actions": actions, "servers": servers, "services": services, "total": total}


def _redis_calls(url: str) -> dict[str, int] | None:
    """Commands the scratch Redis ran in the whole run, by name (``INFO commandstats``): the round trips a change saves, exactly."""
    try:
        from redis import Redis

        client = Redis.from_url(url, decode_responses=True)
        try:
            stats = client.info("commandstats")
        finally:
            client.close()
    except Exception:  # redis-py missing, or the server gone: the report goes without
        return None
    return {name.removeprefix("cmdstat_"): int(value["calls"]) for name, value in stats.items() if isinstance(value, dict)}


def _total(values: Sequence[float | None]) -> float | None:
    return None if not values or None in values else sum(v for v in values if v is not None)


def _s(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def _describe_target(args: argparse.Namespace) -> str:
    if args.workers == 1 and not args.redis:
        return "local server (" + ("given database" if args.database else "temporary SQLite") + ", per-address caps raised)"
    services = "given PostgreSQL and Redis" if args.database and args.redis else "scratch PostgreSQL and Redis"
    return f"{args.workers} local workers ({services}, lease {args.lease:g} s, per-address caps raised)"


def _sample_rss(servers: list[subprocess.Popen[bytes]], rss: dict[str, float | None], stats: Stats) -> None:
    """Keep the servers' total resident memory in ``rss["peak"]`` if it is the largest so far (not after a kill)."""
    total = _total([_rss_mb(process.pid) for process in servers if process.poll() is None])
    if total is not None and stats.killed_at is None:
        rss["peak"] = max(rss["peak"] or 0.0, total)


async def _watch(servers: list[subprocess.Popen[bytes]], rss: dict[str, float | None], stats: Stats, args: argparse.Namespace) -> None:
    """Sample the servers' resident memory twice a second (keeping the peak); kill worker 0 ``--kill-after`` s after every table started."""
    all_started: float | None = None
    while True:
        await asyncio.sleep(0.5)
        _sample_rss(servers, rss, stats)
        if stats.tables_started >= args.tables and all_started is None:
            all_started = time.monotonic()
        due = all_started is not None and args.kill_after is not None and time.monotonic() - all_started >= args.kill_after
        if due and stats.killed_at is None:
            servers[0].kill()
            stats.killed_at = time.monotonic()


def _pace(text: str) -> tuple[float, float]:
    try:
        low, high = (float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be MIN,MAX seconds (e.g. 2,4), not {text!r}") from None
    if not 0 <= low <= high <= 60:
        raise argparse.ArgumentTypeError(f"must be 0 <= MIN <= MAX <= 60, not {text!r}")
    return low, high


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line, with every bound checked."""
    parser = argparse.ArgumentParser(description="Load test of stich serve: concurrent tables of scripted WebSocket players.")
    parser.add_argument(
        "--url", help="a running server, or several workers' URLs separated by commas (default: start the server here, see --workers)"
    )
    parser.add_argument("--allow-remote", action="store_true", help="allow --url to name a host other than the loopback")
    parser.add_argument("--tables", type=int, default=20, help=f"concurrent tables (1..{MAX_TABLES}, default 20)")
    parser.add_argument("--game", default="doppelkopf", choices=sorted(SEATS), help="game of every table (default doppelkopf)")
    parser.add_argument("--deals", type=int, default=1, help=f"deals per table (1..{MAX_DEALS}, default 1)")
    parser.add_argument("--seconds", type=float, help="keep starting new tables in each slot until this many seconds have passed")
    parser.add_argument("--timeout", type=float, default=300.0, help="stop everything after this many seconds (default 300)")
    parser.add_argument("--grace", type=float, default=60.0, help="the local server's grace period (default 60 s)")
    parser.add_argument("--startup", type=float, default=60.0, help="seconds to wait for the local server to answer (default 60)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' random choices (default 1)")
    parser.add_argument("--out", type=Path, help="write the report as JSON to this file")
    parser.add_argument("--logs", type=Path, help="keep the started servers' logs (server-N.log) in this folder")
    parser.add_argument(
        "--pace", type=_pace, metavar="MIN,MAX", help="human pace: each seat thinks MIN..MAX seconds before acting (e.g. 2,4)"
    )
    parser.add_argument("--workers", type=int, default=1, help="local worker processes (more than 1: on PostgreSQL and Redis; default 1)")
    parser.add_argument("--database", help="database URL of the local server(s) (several workers: default a scratch PostgreSQL)")
    parser.add_argument("--redis", help="Redis URL of the local workers (default with --workers above 1: a scratch redis-server)")
    parser.add_argument(
        "--profile", type=Path, metavar="DIR", help="run each started server under cProfile and write DIR/server-N.prof when it stops"
    )
    parser.add_argument("--lease", type=float, default=5.0, help="the workers' lease_seconds (default 5)")
    parser.add_argument(
        "--stay",
        action="store_true",
        help="several workers: every seat stays on the worker it was given and is relayed (the costly case; default: sent to the owner)",
    )
    parser.add_argument(
        "--kill-after", type=float, metavar="S", help="SIGKILL worker 0 S seconds after every table started (needs --workers 2 or more)"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.workers <= 16:
        parser.error(f"--workers must be 1..16, not {args.workers}")
    if args.kill_after is not None and (args.workers < 2 or args.url or args.seconds is not None):
        parser.error("--kill-after needs --workers 2 or more, local workers and no --seconds")
    if not 1 <= args.tables <= MAX_TABLES:
        parser.error(f"--tables must be 1..{MAX_TABLES}, not {args.tables}")
    if not 1 <= args.deals <= MAX_DEALS:
        parser.error(f"--deals must be 1..{MAX_DEALS}, not {args.deals}")
    for name in ("seconds", "timeout"):
        value = getattr(args, name)
        if value is not None and not 0 < value <= MAX_SECONDS:
            parser.error(f"--{name} must be in (0, {MAX_SECONDS:g}], not {value}")
    for url in args.url.split(",") if args.url else ():
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            parser.error(f"--url must be http://host:port (several workers: separated by commas), not {url!r}")
        if parts.hostname not in LOOPBACK and not args.allow_remote:
            parser.error(f"--url names {parts.hostname}, not the loopback; add --allow-remote to load another machine on purpose")
    return args


def emit(report: dict[str, Any], out: Path | None) -> None:
    """Print a report as JSON, and write it to ``out`` if given."""
    text = json.dumps(report, indent=2)
    if out is not None:
        out.write_text(text + "\n", encoding="utf-8")
    print(text)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the load test; print the report (and write it with ``--out``)."""
    args = parse_args(argv)
    emit(asyncio.run(run(args)), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
