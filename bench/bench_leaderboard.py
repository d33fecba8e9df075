"""The leaderboard and a profile served with many rated players (issue 44: "a leaderboard ... served in under 50 ms").

Fills a fresh SQLite file (or, with ``--postgres``, a scratch PostgreSQL
database of the test suite's) through the migrations with ``--players``
accounts rated in ``doppelkopf:ddv``, each with ``--history`` rating changes
(rated deals of made-up tables), then starts ``stich serve`` on it
(127.0.0.1, a free port) and times over HTTP, ``--repeat`` times each:

* ``GET /api/ratings/doppelkopf`` (the first page of 50),
* the same with ``offset`` near the end (the deepest page),
* ``GET /api/players/NAME`` of a player in the middle (ratings, rank,
  history points, statistics of the rated deals, recent tables).

Reported: p50, p95 and max in milliseconds per request, from the client
(so the HTTP round trip on the loopback is included).

    PYTHONPATH=src .venv/bin/python bench/bench_leaderboard.py --players 10000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from bench_common import machine_info
from load_platform import local_server, scratch_services
from sqlalchemy import insert, text

from stich.core.registry import make_game
from stich.web.deals.ratings import ordinal
from stich.web.storage.db import Database
from stich.web.storage.models import Deal, GameTable, Rating, RatingChange, TableSeat, User, utcnow

POOL = "doppelkopf:ddv"


def fill(url: str, players: int, history: int, seed: int = 1) -> None:
    """Migrate ``url`` and store ``players`` rated accounts, each with ``history`` rated deals (one table per player)."""
    db = Database(url)
    db.migrate()
    rng = random.Random(seed)
    now = utcnow()
    game = make_game("doppelkopf", "ddv").canonical
    record = json.dumps({"game": game, "result": {"scores": [1, 1, -1, -1], "re": [0, 1], "kontra": [2, 3]}, "actions": []})
    users, ratings, tables, seats, deals, changes = [], [], [], [], [], []
    deal_id = 0
    for number in range(1, players + 1):
        mu, sigma = rng.gauss(25, 4), rng.uniform(1.5, 8.3)
        users.append({"id": number, "name": f"Player {number}", "name_key": f"player {number}", "password_hash": "x", "created_at": now})
        ratings.append(
            {"pool": POOL, "player": f"user:{number}", "user_id": number, "bot": None, "mu": mu, "sigma": sigma}
            | {"ordinal": ordinal(mu, sigma), "deals": history, "won": history // 2, "lost": history - history // 2, "updated_at": now}
        )
        table = f"t{number:010d}"
        tables.append(
            {"id": table, "game": game, "game_name": "doppelkopf", "deals_requested": history, "private": False, "invite_token": "x"}
            | {"status": "finished", "creator_session_id": None, "created_at": now, "rated": True}
        )
        seats += [{"table_id": table, "seat": s, "kind": "human" if s == 0 else "bot"} | _seat(s, number) for s in range(4)]
        for index in range(history):
            deal_id += 1
            deals.append(
                {"id": deal_id, "table_id": table, "number": index, "dealer": 0, "seed": "1", "salt": "s", "commitment": "c"}
                | {"status": "finished", "record": record, "created_at": now, "finished_at": now}
            )
            changes.append(
                {"deal_id": deal_id, "pool": POOL, "player": f"user:{number}", "user_id": number, "mu": mu, "sigma": sigma}
                | {"ordinal": ordinal(mu, sigma), "outcome": "won" if index % 2 else "lost", "absent": False, "created_at": now}
            )
    with db.engine.begin() as connection:
        for model, rows in (
            (User, users),
            (Rating, ratings),
            (GameTable, tables),
            (TableSeat, seats),
            (Deal, deals),
            (RatingChange, changes),
        ):
            for start in range(0, len(rows), 5000):
                connection.execute(insert(model), rows[start : start + 5000])
    with db.engine.connect() as connection:  # the planner's statistics, as a database in service has them
        connection.execute(text("ANALYZE"))
        connection.commit()
    db.dispose()


def _seat(seat: int, user: int) -> dict[str, Any]:
    return {
        "bot": None if seat == 0 else "heuristic",
        "name": f"Player {user}" if seat == 0 else None,
        "user_id": user if seat == 0 else None,
    }


def _summary(latencies: list[float]) -> dict[str, float]:
    ordered = sorted(latencies)
    return {
        "n": len(ordered),
        "p50_ms": round(statistics.median(ordered), 2),
        "p95_ms": round(ordered[max(0, int(0.95 * len(ordered)) - 1)], 2),
        "max_ms": round(ordered[-1], 2),
    }


async def measure(url: str, players: int, repeat: int) -> dict[str, Any]:
    """Start the server on the filled database and time the three requests."""
    settings = {"database_url": url, "public_turn_seconds": None}
    async with local_server(settings, 120.0) as (base, _process), httpx.AsyncClient(base_url=base, timeout=60) as http:
        paths = {
            "leaderboard_first_page": "/api/ratings/doppelkopf?limit=50",
            "leaderboard_last_page": f"/api/ratings/doppelkopf?limit=50&offset={max(0, players - 50)}",
            "profile": f"/api/players/Player%20{players // 2}",
        }
        out: dict[str, Any] = {}
        for label, path in paths.items():
            first = await http.get(path)
            assert first.status_code == 200, first.text
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                response = await http.get(path)
                times.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 200
            out[label] = _summary(times)
        board = (await http.get(paths["leaderboard_first_page"])).json()
        assert board["total"] == players and len(board["players"]) == min(50, players), board["total"]
        return out


@contextlib.contextmanager
def database(postgres: bool) -> Iterator[str]:
    """A fresh database URL: a temporary SQLite file, or a scratch PostgreSQL database."""
    if postgres:
        with scratch_services() as (url, _redis):
            yield url
        return
    with tempfile.TemporaryDirectory(prefix="stich-board-") as folder:
        yield f"sqlite:///{Path(folder, 'board.db')}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--history", type=int, default=20, help="rated deals per player")
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--postgres", action="store_true", help="a scratch PostgreSQL database instead of SQLite")
    args = parser.parse_args()
    with database(args.postgres) as url:
        start = time.perf_counter()
        fill(url, args.players, args.history)
        filled = time.perf_counter() - start
        figures = asyncio.run(measure(url, args.players, args.repeat))
    print(json.dumps({**machine_info(("stich", "openskill")), "database": "postgresql" if args.postgres else "sqlite"}, indent=2))
    print(json.dumps({"players": args.players, "history": args.history, "fill_seconds": round(filled, 1), **figures}, indent=2))


if __name__ == "__main__":
    main()
