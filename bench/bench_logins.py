"""A bystander's request while many logins arrive at once (issue 30, fault 2).

Starts ``stich serve`` on 127.0.0.1 (a free port, a temporary SQLite file,
the server's real Argon2 parameters), measures a bystander's request that
needs the database (``GET /api/tables/NAME`` of a table that does not
exist) on the idle server, then sends ``--logins`` logins for random names
at once and keeps measuring the bystander, one request every 20 ms, until
the last login is answered.  Reported: the bystander's p50 and max, idle
and during the logins, and the logins' answers by status (401 checked, 429
refused by the rate limit before any hash, 503 refused by a full hashing
queue).

    PYTHONPATH=src .venv/bin/python bench/bench_logins.py --logins 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import statistics
import time
from collections import Counter
from typing import Any

import httpx
from bench_common import machine_info
from load_platform import local_server


async def _timed(http: httpx.AsyncClient) -> float:
    start = time.perf_counter()
    await http.get("/api/tables/no-such-table")
    return (time.perf_counter() - start) * 1000


def _summary(latencies: list[float]) -> dict[str, float]:
    return {"n": len(latencies), "p50_ms": round(statistics.median(latencies), 1), "max_ms": round(max(latencies), 1)}


async def run(logins: int) -> dict[str, Any]:
    """Start the server, measure idle, then during ``logins`` simultaneous logins."""
    async with local_server(60.0, 60.0) as (base, _process), httpx.AsyncClient(base_url=base, timeout=120) as http:
        idle = [await _timed(http) for _ in range(20)]

        async def login() -> int:
            body = {"name": f"user{secrets.token_hex(4)}", "password": "a guess of a password"}
            return (await http.post("/api/auth/login", json=body)).status_code

        tasks = [asyncio.create_task(login()) for _ in range(logins)]
        started = time.perf_counter()
        during: list[float] = []
        while not all(task.done() for task in tasks):
            during.append(await _timed(http))
            await asyncio.sleep(0.02)
        statuses = Counter(await asyncio.gather(*tasks))
        return {
            "logins": logins,
            "logins_wall_s": round(time.perf_counter() - started, 2),
            "login_statuses": dict(sorted(statuses.items())),
            "bystander_idle": _summary(idle),
            "bystander_during_logins": _summary(during),
        }


def main() -> None:
    """Parse the options, run, print the report."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--logins", type=int, default=30, help="simultaneous logins (1..200)")
    args = parser.parse_args()
    report = asyncio.run(run(max(1, min(args.logins, 200))))
    report["machine"] = machine_info()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
