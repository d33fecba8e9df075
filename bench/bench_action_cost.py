"""Server CPU per action: a few tables played through the real server, with an optional cProfile of the server.

Starts the app of ``stich serve`` under uvicorn in a subprocess (127.0.0.1, a
free port, a temporary SQLite file in WAL mode with ``synchronous=FULL``, as
deployed), makes the tables over HTTP (guests, create, join) and only then
starts counting the server's CPU time (user + system, ``/proc``): every seat
connects its WebSocket (permessage-deflate, as browsers do) with
``--spectators`` watchers per table, every seat plays a random legal action as
soon as its ``state`` shows legal actions, and the count stops when every
table has ended.  The figure is that CPU time divided by the actions played:
it covers everything the server does for an action (reading and checking the
message, the session check, storing it, building the views, encoding and
compressing every client's ``state``), not the client side.  The share of
the event loop's thread is reported apart (the rest is mostly the database
work in worker threads).

``--src DIR`` runs the server from another checkout's ``src`` (for example a
``git worktree`` of the commit before a change), so before and after come from
the same run on the same machine: ``--src`` may be given several times and
the rounds alternate between them (``--rounds``).  ``--profile FILE`` writes
the event loop thread's cProfile of the last round of each source (the
database work done in worker threads is not in it; its clock is the thread's
CPU time, so other load on the machine does not inflate it) and prints
its top functions by own time and by cumulative time.

    PYTHONPATH=src .venv/bin/python bench/bench_action_cost.py --src /tmp/before/src --src src --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import pstats
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

COOKIE = "stich_session"

SERVER = """
import cProfile, json, sys, time
import uvicorn
from stich.web.app import create_app
from stich.web.settings import Settings
settings, port, profile = json.loads(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
server = uvicorn.Server(uvicorn.Config(create_app(Settings(**settings)), host="127.0.0.1", port=port, log_level="warning"))
profiler = cProfile.Profile(time.thread_time) if profile else None  # CPU time of the loop's thread: other load does not count
if profiler is not None:
    profiler.enable()
try:
    server.run()  # stopped by SIGINT, which uvicorn raises again (KeyboardInterrupt) once it has shut down
finally:
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(profile)
"""
"""The server process: the app under uvicorn (per-message deflate on, uvicorn's default), optionally under cProfile."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def cpu_seconds(pid: int, task: int | None = None) -> float:
    """User plus system CPU seconds of a process so far, or of one of its threads (``task``), from Linux ``/proc``."""
    path = Path(f"/proc/{pid}/stat") if task is None else Path(f"/proc/{pid}/task/{task}/stat")
    fields = path.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.asynccontextmanager
async def server(src: Path, tables: int, spectators: int, profile: Path | None) -> AsyncIterator[tuple[str, int]]:
    """The server from ``src`` on a free port and a temporary SQLite file; stopped (SIGINT, so a profile is written) afterwards."""
    with tempfile.TemporaryDirectory(prefix="stich-cost-") as folder, Path(folder, "server.log").open("wb") as log:
        port = free_port()
        clients = tables * (4 + spectators)
        settings = {
            "database_url": f"sqlite:///{Path(folder, 'cost.db')}",
            "max_tables_per_address": tables + 2,
            "max_sockets_per_address": clients + 8,
            "max_sockets_per_table": 4 + spectators + 8,
            "max_messages_per_minute_per_address": 10**9,
        }
        env = {**os.environ, "PYTHONPATH": str(src)}
        command = [sys.executable, "-c", SERVER, json.dumps(settings), str(port), str(profile or "")]
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        base = f"http://127.0.0.1:{port}"
        try:
            async with httpx.AsyncClient(base_url=base, timeout=2) as http:
                for _ in range(600):
                    if process.poll() is not None:
                        raise RuntimeError(Path(folder, "server.log").read_text(errors="replace")[-2000:])
                    with contextlib.suppress(httpx.HTTPError):
                        if (await http.get("/api/health")).status_code == 200:
                            break
                    await asyncio.sleep(0.1)
            yield base, process.pid
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


async def guest(http: httpx.AsyncClient) -> str:
    """A fresh guest session's cookie."""
    response = await http.post("/api/auth/guest", json={})
    response.raise_for_status()
    http.cookies.clear()  # each guest its own session: the next request must not carry this one's cookie
    return response.cookies[COOKIE]


async def make_table(http: httpx.AsyncClient, deals: int, spectators: int) -> tuple[str, list[str], list[str]]:
    """A full Doppelkopf table: its id, its four seats' cookies and the spectators' cookies."""
    seats = [await guest(http) for _ in range(4)]
    response = await http.post("/api/tables", json={"game": "doppelkopf", "deals": deals, "seat": 0}, cookies={COOKIE: seats[0]})
    response.raise_for_status()
    table_id: str = response.json()["id"]
    for seat in range(1, 4):
        joined = await http.post(f"/api/tables/{table_id}/join", json={"seat": seat}, cookies={COOKIE: seats[seat]})
        joined.raise_for_status()
    return table_id, seats, [await guest(http) for _ in range(spectators)]


async def client(url: str, cookie: str, rng: random.Random | None, played: list[int]) -> None:
    """One socket until ``table_end``: a seat (``rng`` given) plays a random legal action on its turns, a spectator only reads."""
    async with connect(url, additional_headers={"Cookie": f"{COOKIE}={cookie}"}, max_size=2**22, open_timeout=120) as ws:
        await play(ws, rng, played)


async def play(ws: ClientConnection, rng: random.Random | None, played: list[int]) -> None:
    """Read until ``table_end``, acting on this seat's turns."""
    acted: set[tuple[int, int]] = set()
    async for raw in ws:
        message = json.loads(raw)
        kind = message["type"]
        if kind == "state" and rng is not None:
            legal = message["view"].get("legal_actions") or []
            key = (message["deal"], message["step"])
            if legal and key not in acted:
                acted.add(key)
                played[0] += 1
                await ws.send(json.dumps({"type": "action", "action": rng.choice(legal), "deal": key[0], "step": key[1]}))
        elif kind == "deal_end" and rng is not None:
            await ws.send(json.dumps({"type": "continue", "deal": message["deal"]}))
        elif kind == "table_end":
            return
        elif kind == "error":
            raise RuntimeError(f"server error: {message}")


async def one_round(src: Path, args: argparse.Namespace, profile: Path | None) -> dict[str, Any]:
    """Play ``--tables`` tables on a fresh server from ``src``; the server's CPU per action."""
    rng = random.Random(args.seed)
    async with server(src, args.tables, args.spectators, profile) as (base, pid):
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            made = [await make_table(http, args.deals, args.spectators) for _ in range(args.tables)]
        played = [0]
        before, loop_before, started = cpu_seconds(pid), cpu_seconds(pid, pid), time.monotonic()
        ws_base = "ws" + base[len("http") :]
        tasks = []
        for table_id, seats, watchers in made:
            url = f"{ws_base}/ws/tables/{table_id}"
            tasks += [client(url, cookie, random.Random(rng.getrandbits(64)), played) for cookie in seats]
            tasks += [client(url, cookie, None, played) for cookie in watchers]
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=args.timeout)
        cpu, loop, wall = cpu_seconds(pid) - before, cpu_seconds(pid, pid) - loop_before, time.monotonic() - started
    return {
        "actions": played[0],
        "cpu_s": round(cpu, 3),
        "wall_s": round(wall, 2),
        "cpu_ms_per_action": round(cpu / played[0] * 1000, 3),
        "event_loop_thread_ms_per_action": round(loop / played[0] * 1000, 3),
    }


def show_profile(path: Path, actions: int, top: int) -> None:
    """Print the profile's top functions (own time, then cumulative), in ms per action."""
    stats = pstats.Stats(str(path))
    rows = stats.stats  # type: ignore[attr-defined]
    for title, column in (("own time", 2), ("cumulative", 3)):
        print(f"  top {top} by {title} (ms per action, event loop thread, profiler overhead included):")
        ordered = sorted(rows.items(), key=lambda item: item[1][column], reverse=True)[:top]
        for (filename, line, name), values in ordered:
            short = "/".join(Path(filename).parts[-2:]) if filename != "~" else ""
            print(f"    {values[column] / actions * 1000:8.3f}  {short}:{line} {name}")


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Alternate the sources for ``--rounds`` rounds; the median per source."""
    sources = [Path(s).resolve() for s in (args.src or ["src"])]
    results: dict[str, list[dict[str, Any]]] = {str(s): [] for s in sources}
    profiles: dict[str, Path] = {}
    with tempfile.TemporaryDirectory(prefix="stich-prof-") as folder:
        for number in range(args.rounds):
            for index, src in enumerate(sources):
                profile = Path(folder, f"{index}.prof") if args.profile and number == args.rounds - 1 else None
                result = await one_round(src, args, profile)
                results[str(src)].append(result)
                print(f"round {number + 1} {src}: {result}", flush=True)
                if profile is not None:
                    profiles[str(src)] = profile
        report: dict[str, Any] = {
            "command": " ".join([Path(sys.executable).name, *sys.argv]),
            "tables": args.tables,
            "spectators_per_table": args.spectators,
            "deals_per_table": args.deals,
            "sources": {
                src: {"rounds": rounds, "median_cpu_ms_per_action": statistics.median(r["cpu_ms_per_action"] for r in rounds)}
                for src, rounds in results.items()
            },
            "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "load_average_1m": round(os.getloadavg()[0], 2)},
        }
        for src, path in profiles.items():
            print(f"profile of {src} (last round):")
            show_profile(path, results[src][-1]["actions"], args.top)
            if args.profile:
                target = Path(f"{args.profile}.{sources.index(Path(src))}")
                target.write_bytes(path.read_bytes())
    return report


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description="Server CPU per action of stich serve, optionally before/after and profiled.")
    parser.add_argument("--src", action="append", help="a checkout's src folder to run the server from (repeatable; default src)")
    parser.add_argument("--tables", type=int, default=4, help="tables played at once (default 4)")
    parser.add_argument("--spectators", type=int, default=2, help="spectators per table (default 2)")
    parser.add_argument("--deals", type=int, default=2, help="deals per table (default 2)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds per source, alternating (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices (default 1)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds a round may take (default 600)")
    parser.add_argument("--profile", help="profile the server's last round of each source; writes FILE.<index> (pstats)")
    parser.add_argument("--top", type=int, default=25, help="functions shown from each profile (default 25)")
    parser.add_argument("--out", type=Path, help="write the report as JSON here")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 200 or not 0 <= args.spectators <= 50 or not 1 <= args.deals <= 20 or not 1 <= args.rounds <= 20:
        parser.error("--tables 1..200, --spectators 0..50, --deals 1..20, --rounds 1..20")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    """Run and print the report."""
    args = parse_args(argv)
    report = asyncio.run(run(args))
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
