"""What an anonymous replay costs the server: CPU per request and bytes on the wire.

Builds a fresh app on a temporary SQLite file (cheap test password hashing,
no bot delay), lets heuristic bots finish one deal of each ``--games`` game,
and then asks ``GET /api/deals/{id}/replay`` anonymously, as a visitor of a
public table would: once cold (nothing cached), then ``--repeat`` times warm.
For each game it reports the record's size, the replay's size as sent
(with ``Accept-Encoding: gzip``, as browsers send it, and without) and the
CPU time per request (``time.process_time`` around the request: the test
client runs the app in this process, so the client's own work is included;
``health_cpu_ms`` is that floor, the cost of ``GET /api/health``).

A visitor walking through many deals is the costly case: ``--walk N`` plays
a bot table of N Doppelkopf deals and asks for every replay twice in turn;
``walk_second_pass_cpu_ms_median`` is what the second round cost per deal
(a cache smaller than N builds every replay again).

    .venv/bin/python bench/bench_replay.py --repeat 20 --walk 24 --out replay.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from bench_common import machine_info

warnings.filterwarnings("ignore", message=".*httpx.*starlette.testclient.*")

from argon2 import PasswordHasher  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from stich.web.app import create_app  # noqa: E402
from stich.web.guards.passwords import Passwords  # noqa: E402
from stich.web.settings import Settings  # noqa: E402

GAMES = ("doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen")


def finished_deals(client: TestClient, game: str, count: int = 1, timeout: float = 120.0) -> list[tuple[int, int]]:
    """Ids and record sizes of the finished deals of a bot table of ``game`` with ``count`` deals."""
    table = client.post("/api/tables", json={"game": game, "deals": count, "seat": None, "bots": "heuristic"}).json()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        deals = client.get(f"/api/tables/{table['id']}/deals").json()["deals"]
        done = [d for d in deals if d.get("record_url")]
        if len(done) >= count:
            return [(int(d["id"]), len(client.get(d["record_url"]).content)) for d in done[:count]]
        time.sleep(0.05)
    raise SystemExit(f"{count} deals of {game} did not finish within {timeout} s")


def measure(client: TestClient, deal_id: int, gzip: bool) -> tuple[float, int]:
    """CPU seconds of one anonymous replay request, and the bytes of its body as sent."""
    client.cookies.clear()
    headers = {"accept-encoding": "gzip" if gzip else "identity"}
    start = time.process_time()
    with client.stream("GET", f"/api/deals/{deal_id}/replay", headers=headers) as response:
        raw = b"".join(response.iter_raw())
    cpu = time.process_time() - start
    if response.status_code != 200:
        raise SystemExit(f"replay of deal {deal_id}: {response.status_code} {raw[:200]!r}")
    return cpu, len(raw)


def main() -> None:
    """Parse the options, run the measurement, print (and write) the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument("--repeat", type=int, default=20, help="warm requests per game and encoding (1..200)")
    parser.add_argument("--walk", type=int, default=24, help="deals of the walk through many replays (0: none; at most 100)")
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = parser.parse_args()
    repeat = max(1, min(args.repeat, 200))
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database_url=f"sqlite:///{folder}/bench.db", bot_delay_seconds=0.0, next_deal_delay_seconds=0.0)
        app = create_app(settings, Passwords(PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)))
        with TestClient(app) as client:
            for game in args.games:
                [(deal_id, record_bytes)] = finished_deals(client, game)
                cold_cpu, _ = measure(client, deal_id, gzip=True)
                row: dict[str, Any] = {"game": game, "record_bytes": record_bytes, "cold_cpu_ms": round(cold_cpu * 1000, 2)}
                for label, gzip in (("gzip", True), ("plain", False)):
                    runs = [measure(client, deal_id, gzip) for _ in range(repeat)]
                    row[f"{label}_bytes"] = runs[-1][1]
                    row[f"{label}_ratio"] = round(runs[-1][1] / record_bytes, 1)
                    row[f"{label}_warm_cpu_ms_median"] = round(statistics.median(cpu for cpu, _ in runs) * 1000, 2)
                results.append(row)
                print(json.dumps(row))
            walk: dict[str, Any] = {}
            if args.walk > 0:
                ids = [deal_id for deal_id, _ in finished_deals(client, "doppelkopf", min(args.walk, 100))]
                for deal_id in ids:
                    measure(client, deal_id, gzip=True)
                second = [measure(client, deal_id, gzip=True)[0] for deal_id in ids]
                walk = {"deals": len(ids), "walk_second_pass_cpu_ms_median": round(statistics.median(second) * 1000, 2)}
            health = []
            for _ in range(repeat):
                start = time.process_time()
                client.get("/api/health")
                health.append(time.process_time() - start)
            walk["health_cpu_ms"] = round(statistics.median(health) * 1000, 2)
            print(json.dumps(walk))
    report = {"machine": machine_info(), "replays": results, "walk": walk}
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
