"""Helpers of the several-worker tests: worker processes on one PostgreSQL and one Redis, and scripted players.

Each :class:`Worker` is a real ``stich`` server process (the app under
uvicorn, as ``stich serve --redis`` runs it) on its own loopback port, with
test settings (no bot delay, a short lease).  A :class:`Player` is a guest
with its own cookie, speaking HTTP and the table WebSocket like the browser.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from .postgres import free_port

COOKIE = "stich_session"
LAUNCH = (
    "import json, sys\n"
    "from stich.web.settings import Settings\n"
    "from stich.web.workers import serve_worker\n"
    "serve_worker(Settings(**json.loads(sys.argv[1])), '127.0.0.1', int(sys.argv[2]))\n"
)
SRC = Path(__file__).resolve().parents[2] / "src"


def worker_settings(db_url: str, redis_url: str, **changes: Any) -> dict[str, Any]:
    """Test settings of a worker: shared database and Redis, no bot delay, a one-second lease, a long grace period."""
    values: dict[str, Any] = {
        "database_url": db_url,
        "redis_url": redis_url,
        "bot_delay_seconds": 0.0,
        "next_deal_delay_seconds": 0.0,
        "grace_seconds": 120.0,
        "lease_seconds": 1.0,
        "bot_workers": 1,
        "public_turn_seconds": None,
    }
    values.update(changes)
    return values


class Worker:
    """One worker process (started by :meth:`start`, ended by :meth:`stop` or :meth:`kill`)."""

    def __init__(self, settings: dict[str, Any], log: Path) -> None:
        self.settings = settings
        self.log = log
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(SRC)}
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-c", LAUNCH, json.dumps(self.settings), str(self.port)], stdout=out, stderr=subprocess.STDOUT, env=env
            )

    async def ready(self, timeout: float = 90.0) -> None:
        """Wait until the worker answers ``/api/health``."""
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(base_url=self.base) as http:
            while True:
                assert self.process is not None and self.process.poll() is None, self.log.read_text(errors="replace")[-3000:]
                try:
                    if (await http.get("/api/health")).status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise AssertionError(f"worker did not start: {self.log.read_text(errors='replace')[-3000:]}")
                await asyncio.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: the worker ends at once, giving nothing up (no lease released, no socket closed cleanly)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@dataclass
class Player:
    """A guest at a table: its cookie, what it received and what it sent."""

    seat: int
    token: str = ""
    received: list[dict[str, Any]] = field(default_factory=list)
    sent: list[tuple[int, int, str]] = field(default_factory=list)
    """(deal, step, action) of every action sent."""
    closes: list[int | None] = field(default_factory=list)

    async def become_guest(self, base: str) -> None:
        async with httpx.AsyncClient(base_url=base) as http:
            response = await http.post("/api/auth/guest", json={})
            response.raise_for_status()
            self.token = response.cookies[COOKIE]

    async def call(self, base: str, method: str, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        async with httpx.AsyncClient(base_url=base, cookies={COOKIE: self.token}, timeout=30) as http:
            return await http.request(method, path, json=body)

    def states(self) -> list[dict[str, Any]]:
        return [message for message in self.received if message.get("type") == "state"]

    async def play(self, ws_base: str, table_id: str, *, until_step: int | None = None, timeout: float = 120.0) -> str:
        """Play (the first legal action on every turn) until the deal ends, ``until_step`` is reached, or the socket closes.

        Returns why it stopped: ``deal_end``, ``step`` or ``closed``.
        """
        headers = {"Cookie": f"{COOKIE}={self.token}"}
        deadline = time.monotonic() + timeout
        async with connect(f"{ws_base}/ws/tables/{table_id}", additional_headers=headers, open_timeout=30) as ws:
            return await self._play(ws, until_step, deadline)

    async def _play(self, ws: ClientConnection, until_step: int | None, deadline: float) -> str:
        acted: set[tuple[int, int]] = set()
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic()))
            except ConnectionClosed as exc:
                self.closes.append(exc.rcvd.code if exc.rcvd else None)
                return "closed"
            message = json.loads(raw)
            self.received.append(message)
            kind = message.get("type")
            if kind == "deal_end":
                return "deal_end"
            if kind != "state":
                continue
            deal, step = message["deal"], message["step"]
            if until_step is not None and step >= until_step:
                return "step"
            legal = message["view"].get("legal_actions") or []
            if legal and message["view"]["to_move"] == self.seat and (deal, step) not in acted:
                acted.add((deal, step))
                self.sent.append((deal, step, legal[0]))
                await ws.send(json.dumps({"type": "action", "action": legal[0], "deal": deal, "step": step}))


async def start_two_workers(tmp_path: Path, db_url: str, redis_url: str, **changes: Any) -> tuple[Worker, Worker]:
    """Workers A and B with the test settings and ``changes``, started at once on a fresh database (so both run the
    migrations, one under the other's lock); stopped again if either fails to start."""
    a = Worker(worker_settings(db_url, redis_url, **changes), tmp_path / "a.log")
    b = Worker(worker_settings(db_url, redis_url, **changes), tmp_path / "b.log")
    a.start()
    b.start()
    try:
        await asyncio.gather(a.ready(), b.ready())
    except BaseException:
        a.stop()
        b.stop()
        raise
    return a, b


async def fetch_record(player: Player, base: str, deal_id: int) -> dict[str, Any]:
    """The stored record of deal ``deal_id``, fetched through the worker at ``base`` with the player's session."""
    response = await player.call(base, "GET", f"/api/deals/{deal_id}/record")
    assert response.status_code == 200, response.text
    record: dict[str, Any] = response.json()
    return record


async def play_until_deal_end(player: Player, worker: Worker, table_id: str, deadline: float) -> None:
    """Reconnect to ``worker`` until the deal ends (a socket may be sent away while the table moves)."""
    while time.monotonic() < deadline:
        if await player.play(worker.ws_base, table_id, timeout=deadline - time.monotonic()) == "deal_end":
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"seat {player.seat} did not see the deal end")


def hand_within(hand: list[str], dealt: list[str]) -> bool:
    """Whether every card of ``hand`` is among ``dealt`` (as many times as it is there: Doppelkopf has each card twice)."""
    return not Counter(hand) - Counter(dealt)
