"""Starvation benchmark (issue 30, fault 1): N tables of heavy search bots beside one human's table.

Starts a server on 127.0.0.1 (a free port, a temporary SQLite file;
``load_platform.local_server``) with the caps raised so that one address may
run ``--heavy`` tables of ``--bot`` bots
(default ``ismcts:level=5``, 6 s per decision), each a list of 50 deals that
the bots play on their own.  Beside them one scripted human plays a table
with ``random`` bots: whenever a ``state`` shows a legal action for the
human's seat it sends one at once.  A spectator of a heavy table sends a
``ping`` every half second, and the human's cookie asks ``GET /api/tables``
every second.  Measured for ``--seconds`` (after the heavy bots have begun
to think), written as JSON with ``--out``:

* ``action_ms``: p50, p90, p99 and max of the time from the human sending an
  action to receiving the ``state`` that contains it;
* ``ping_ms`` and ``http_ms``: the same for the pings and the lobby requests;
* ``server_cpu_s`` and ``bot_workers_cpu_s``: CPU seconds of the server
  process and of its bot worker processes during the measurement;
* ``heavy_deals_finished``: deals the heavy tables finished meanwhile.

Bounded: at most 50 heavy tables and 600 seconds; loopback only.

    .venv/bin/python bench/bench_starvation.py --heavy 20 --seconds 60 --out starvation-20.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
from bench_common import machine_info
from load_platform import COOKIE, _cpu_seconds, _ms, emit, load_limits, local_server, percentile
from websockets.asyncio.client import ClientConnection, connect

MAX_HEAVY = 50
MAX_SECONDS = 600.0


def _children(pid: int) -> list[int]:
    """Process ids of the direct children of ``pid`` (Linux ``/proc``): the bot workers."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(child) for child in text.split()]


def _workers_cpu(pid: int) -> float:
    return sum(_cpu_seconds(child) or 0.0 for child in _children(pid))


def server_settings(heavy: int, workers: int) -> dict[str, Any]:
    """The server's settings: short bot pauses, ``workers`` bot processes, room for ``heavy`` level-5 tables of guests."""
    return {
        "bot_delay_seconds": 0.1,
        "next_deal_delay_seconds": 0.5,
        "bot_workers": workers,
        "guest_max_bot_level": 5,
        "max_search_tables_per_person": heavy + 1,
        "max_tables_per_person": heavy + 2,
        **load_limits(heavy + 1, 4),
    }


async def guest(http: httpx.AsyncClient) -> str:
    response = await http.post("/api/auth/guest", json={})
    response.raise_for_status()
    token = response.cookies.get(COOKIE) or ""
    http.cookies.clear()
    return token


async def create(http: httpx.AsyncClient, token: str, body: dict[str, Any]) -> str:
    response = await http.post("/api/tables", json=body, cookies={COOKIE: token})
    http.cookies.clear()
    response.raise_for_status()
    table_id: str = response.json()["id"]
    return table_id


async def play_human(ws: ClientConnection, until: float, latencies: list[float], rng: random.Random) -> None:
    """Act at once on every turn of the human's seat; note the time until the state with the action arrives."""
    pending: dict[tuple[int, int], float] = {}
    acted: set[tuple[int, int]] = set()
    while (left := until - time.monotonic()) > 0:
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=left))
        except TimeoutError:
            return
        now = time.monotonic()
        if message.get("type") == "deal_end":  # "Weiter" at once: the next deal waits for every person (decision 0035)
            await ws.send(json.dumps({"type": "continue", "deal": message["deal"]}))
        if message.get("type") != "state":
            continue
        deal, step = message["deal"], message["step"]
        for key in [k for k in pending if k[0] == deal and k[1] < step]:
            latencies.append(now - pending.pop(key))
        legal = message["view"].get("legal_actions") or []
        if legal and (deal, step) not in acted:
            acted.add((deal, step))
            pending[(deal, step)] = time.monotonic()
            await ws.send(json.dumps({"type": "action", "action": rng.choice(legal), "deal": deal, "step": step}))


async def ping(ws: ClientConnection, until: float, latencies: list[float]) -> None:
    """A ping every half second; the time until its pong."""
    number = 0
    while time.monotonic() < until:
        number += 1
        sent = time.monotonic()
        await ws.send(json.dumps({"type": "ping", "id": number}))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
            if message.get("type") == "pong" and message.get("id") == number:
                break
        latencies.append(time.monotonic() - sent)
        await asyncio.sleep(0.5)


async def lobby(http: httpx.AsyncClient, token: str, until: float, latencies: list[float]) -> None:
    """``GET /api/tables`` every second."""
    while time.monotonic() < until:
        sent = time.monotonic()
        (await http.get("/api/tables", cookies={COOKIE: token})).raise_for_status()
        http.cookies.clear()
        latencies.append(time.monotonic() - sent)
        await asyncio.sleep(1.0)


def _summary(values: list[float]) -> dict[str, Any]:
    return {
        "count": len(values),
        "p50": _ms(percentile(values, 50)),
        "p90": _ms(percentile(values, 90)),
        "p99": _ms(percentile(values, 99)),
        "max": _ms(max(values) if values else None),
    }


async def deals_played(http: httpx.AsyncClient, table_ids: list[str]) -> int:
    """Deals the given tables have finished so far."""
    total = 0
    for table_id in table_ids:
        response = await http.get(f"/api/tables/{table_id}")
        total += response.json().get("deals_played", 0)
    return total


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Start the server, the heavy tables, then measure the human, the pings and the lobby."""
    async with (
        local_server(server_settings(args.heavy, args.workers), 60.0) as (base, process),
        httpx.AsyncClient(base_url=base, timeout=120) as http,
    ):
        owner = await guest(http)
        heavy = [await create(http, owner, {"game": args.game, "deals": 50, "seat": None, "bots": args.bot}) for _ in range(args.heavy)]
        await asyncio.sleep(args.warmup)  # the bot workers start and every heavy table asks for its first decision
        human = await guest(http)
        table = await create(http, human, {"game": args.game, "deals": 50, "seat": 0, "bots": "random"})
        ws_base = "ws" + base[len("http") :]
        actions: list[float] = []
        pings: list[float] = []
        requests: list[float] = []
        server_cpu, workers_cpu = _cpu_seconds(process.pid) or 0.0, _workers_cpu(process.pid)
        heavy_before = await deals_played(http, heavy)
        started = time.monotonic()
        until = started + args.seconds
        cookie = {"Cookie": f"{COOKIE}={human}"}
        async with (
            connect(f"{ws_base}/ws/tables/{table}", additional_headers=cookie) as player,
            connect(f"{ws_base}/ws/tables/{heavy[0]}" if heavy else f"{ws_base}/ws/tables/{table}") as watcher,
        ):
            await asyncio.gather(
                play_human(player, until, actions, random.Random(args.seed)),
                ping(watcher, until, pings),
                lobby(http, human, until, requests),
            )
        elapsed = time.monotonic() - started
        report = {
            "heavy_tables": args.heavy,
            "bot": args.bot,
            "game": args.game,
            "bot_workers": args.workers,
            "seconds": round(elapsed, 1),
            "action_ms": _summary(actions),
            "ping_ms": _summary(pings),
            "http_ms": _summary(requests),
            "server_cpu_s": round((_cpu_seconds(process.pid) or 0.0) - server_cpu, 2),
            "bot_workers_cpu_s": round(_workers_cpu(process.pid) - workers_cpu, 2),
            "heavy_deals_finished": await deals_played(http, heavy) - heavy_before,
            "machine": machine_info(dists=("stich",), load_average_1m_at_end=round(os.getloadavg()[0], 2)),
        }
    return report


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description="Heavy search-bot tables beside a human's table: the human's action latency.")
    parser.add_argument("--heavy", type=int, default=20, help=f"tables of heavy bots (0..{MAX_HEAVY}, default 20)")
    parser.add_argument("--bot", default="ismcts:level=5", help="the heavy tables' bot spec (default ismcts:level=5)")
    parser.add_argument("--game", default="doppelkopf", help="game of every table (default doppelkopf)")
    parser.add_argument("--workers", type=int, default=2, help="bot worker processes of the server (default 2)")
    parser.add_argument("--seconds", type=float, default=60.0, help=f"measured seconds (at most {MAX_SECONDS:.0f}, default 60)")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds between starting the heavy tables and measuring (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the human's random choices (default 1)")
    parser.add_argument("--out", type=Path, help="write the report as JSON to this file")
    args = parser.parse_args(argv)
    if not 0 <= args.heavy <= MAX_HEAVY:
        parser.error(f"--heavy must be 0..{MAX_HEAVY}")
    if not 0 < args.seconds <= MAX_SECONDS or not 0 <= args.warmup <= MAX_SECONDS:
        parser.error(f"--seconds and --warmup must be at most {MAX_SECONDS:.0f}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; print the report (and write it with ``--out``)."""
    args = parse_args(argv)
    emit(asyncio.run(run(args)), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
