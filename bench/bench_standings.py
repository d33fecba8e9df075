"""The standings page of a 100-table duplicate tournament, served over HTTP (issue 44; decision 0057).

Builds a SQLite database holding one finished Doppelkopf tournament of
``--tables`` tables of ``--deals`` deals each, every deal really played (the
tournament's seeds, the DDV list, seeded random players) and stored as the
server stores it (table, seats, deal with its record, the deal's list entries
in ``tournament_results``); then starts ``stich serve`` on it and times
``GET /api/tournaments/ID/standings`` (summed from the stored entries on every
request: no cache), the tournament page ``GET /api/tournaments/ID`` and the
records download.  Reported: p50, p95 and max of ``--requests`` requests each.

    PYTHONPATH=src .venv/bin/python bench/bench_standings.py --tables 100 --deals 24
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from bench_common import machine_info
from load_platform import local_server

from stich.core.records import deal_record, dumps_record
from stich.core.registry import make_game
from stich.tournaments.replay import _seeded_session
from stich.tournaments.standings import outcome_from
from stich.web.deals.fairness import commitment
from stich.web.storage.db import Database, SeatRow, TableRow
from stich.web.storage.models import Deal, utcnow
from stich.web.storage.tournaments import CommittedDeal, TournamentRow, add_result, create_tournament


def build(url: str, tables: int, deals: int) -> str:
    """Store a finished tournament of ``tables`` × ``deals`` really played deals; returns its id."""
    db = Database(url)
    db.migrate()
    game = make_game("doppelkopf")
    seeds = {n: random.Random(n).getrandbits(64) for n in range(deals)}
    committed = [CommittedDeal(n, seeds[n], "ab" * 32, commitment(seeds[n], "ab" * 32)) for n in range(deals)]
    now = utcnow()
    tid = secrets.token_urlsafe(9)
    table_ids = []
    for _ in range(tables):
        row = TableRow(
            id=secrets.token_urlsafe(9),
            game=game.canonical,
            game_name=game.name,
            deals_requested=deals,
            private=True,
            invite_token=secrets.token_urlsafe(24),
            status="finished",
            creator_session_id=None,
            created_at=now,
            seats=tuple(SeatRow(i, "bot", bot="random") for i in range(4)),
            turn_seconds=None,
            continue_seconds=None,
        )
        db.create_table(row)
        table_ids.append(row.id)
    create_tournament(
        db,
        TournamentRow(tid, "Bench", game.canonical, game.name, None, deals, tables, "random", None, "finished", None, "bench", now),
        committed,
        table_ids,
    )
    for position, table_id in enumerate(table_ids):
        session = _seeded_session(game.canonical, deals, seeds)
        chooser = random.Random(position)
        players = [f"P{position}-{seat}" for seat in range(4)]
        while (state := session.next_deal()) is not None:
            number = session.deal_index
            while not state.is_terminal():
                state.apply(chooser.choice(state.legal_codes()))
            row = session.book(state)
            meta = {"number": number, "tournament": {"id": tid, "name": "Bench", "table": position, "tables": tables, "deals": deals}}
            record = dumps_record(deal_record(state, players=players, meta=meta))
            with db.sessions() as s:
                deal = Deal(
                    table_id=table_id,
                    number=number,
                    dealer=state.dealer,
                    seed=str(seeds[number]),
                    salt="ab" * 32,
                    commitment=committed[number].commitment,
                    status="finished",
                    record=record,
                    created_at=now,
                    finished_at=now,
                )
                s.add(deal)
                s.commit()
                deal_id = deal.id
            outcome = outcome_from(position, number, seeds[number], state.dealer, row.scores, players)
            add_result(db, tid, position, number, deal_id, outcome)
    db.dispose()
    return tid


async def _time(http: httpx.AsyncClient, path: str, requests: int) -> dict[str, float]:
    latencies = []
    size = 0
    for _ in range(requests):
        start = time.perf_counter()
        response = await http.get(path)
        latencies.append((time.perf_counter() - start) * 1000)
        response.raise_for_status()
        size = len(response.content)
    latencies.sort()
    return {
        "n": requests,
        "bytes": size,
        "p50_ms": round(statistics.median(latencies), 1),
        "p95_ms": round(latencies[int(0.95 * (len(latencies) - 1))], 1),
        "max_ms": round(latencies[-1], 1),
    }


async def run(tables: int, deals: int, requests: int) -> dict[str, Any]:
    """Build the tournament, serve it, time the three requests."""
    with tempfile.TemporaryDirectory(prefix="stich-standings-") as folder:
        url = f"sqlite:///{Path(folder, 'bench.db')}"
        start = time.perf_counter()
        tid = build(url, tables, deals)
        built = time.perf_counter() - start
        async with local_server({"database_url": url}, 60.0) as (base, _process), httpx.AsyncClient(base_url=base, timeout=60) as http:
            await http.get(f"/api/tournaments/{tid}")  # warm: imports, first connection
            first = time.perf_counter()
            standings = (await http.get(f"/api/tournaments/{tid}/standings")).json()  # computed from the stored deals
            first_ms = round((time.perf_counter() - first) * 1000, 1)
            first = time.perf_counter()
            detailed = (await http.get(f"/api/tournaments/{tid}/standings?comparison=true")).json()
            first_comparison_ms = round((time.perf_counter() - first) * 1000, 1)
            assert len(detailed["comparison"]) >= deals * 4  # (deal, seat) groups; a Pflichtsolo redeal can split one by dealer
            assert len(standings["rows"]) == tables * 4 and len(standings["deals_counted"]) == deals
            return {
                "tables": tables,
                "deals": deals,
                "build_s": round(built, 1),
                "standings_first_ms": first_ms,
                "standings_with_comparison_first_ms": first_comparison_ms,
                "standings": await _time(http, f"/api/tournaments/{tid}/standings", requests),
                "page": await _time(http, f"/api/tournaments/{tid}", requests),
                "records": await _time(http, f"/api/tournaments/{tid}/records", max(3, requests // 10)),
            }


def main() -> None:
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--deals", type=int, default=24)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    result = asyncio.run(run(args.tables, args.deals, args.requests))
    print(json.dumps({"machine": machine_info(("stich",)), **result}, indent=1))


if __name__ == "__main__":
    main()
