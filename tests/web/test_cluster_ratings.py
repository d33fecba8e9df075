"""Ratings with two workers on one PostgreSQL and one Redis (issue 44: "rating updates exactly once per deal").

Two accounts sit at a rated table that worker A runs: the first created it
on A, the second joins and seats heuristic bots through B (forwarded to A;
a guest's join through B is refused by A with ``rated``).  A is killed
(SIGKILL) in the middle of the deal, B takes the table over and the deal
is played to its end there.  Checked through B: each person and the bot
spec are rated by that deal exactly once (one history point each, the
deal's id), and the person's won/lost agrees with the stored record.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx

from .cluster_helpers import COOKIE, Player, fetch_record, play_until_deal_end, start_two_workers
from .helpers import run_async
from .postgres import PostgresServer


async def _account(player: Player, base: str, name: str) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        response = await http.post("/api/auth/register", json={"name": name, "password": "long enough password"})
        assert response.status_code == 201, response.text
        player.token = response.cookies[COOKIE]


def test_a_deal_moved_to_another_worker_is_rated_once(postgres_server: PostgresServer, redis_url: str, tmp_path: Path) -> None:
    run_async(_moved_deal(postgres_server.new_database(), redis_url, tmp_path))


async def _moved_deal(db_url: str, redis_url: str, tmp_path: Path) -> None:
    a, b = await start_two_workers(tmp_path, db_url, redis_url)
    try:
        first, second, guest = Player(0), Player(1), Player(2)
        await _account(first, a.base, "Anna")
        await _account(second, b.base, "Bert")
        await guest.become_guest(b.base)
        created = await first.call(a.base, "POST", "/api/tables", {"game": "doppelkopf", "deals": 2, "seat": 0, "rated": True})
        assert created.status_code == 201, created.text
        table_id = created.json()["id"]
        refused = await guest.call(b.base, "POST", f"/api/tables/{table_id}/join", {"seat": 2})
        assert refused.status_code == 403 and refused.json()["field"] == "rated", refused.text
        joined = await second.call(b.base, "POST", f"/api/tables/{table_id}/join", {"seat": 1})
        assert joined.status_code == 200, joined.text
        bots = await second.call(b.base, "POST", f"/api/tables/{table_id}/bots", {"bot": "heuristic"})
        assert bots.status_code == 200 and bots.json()["status"] == "playing", bots.text
        ends = await asyncio.gather(first.play(a.ws_base, table_id, until_step=12), second.play(b.ws_base, table_id, until_step=12))
        assert ends == ["step", "step"]
        deal_id = second.states()[-1]["deal"]
        a.kill()
        deadline = time.monotonic() + 120
        await asyncio.gather(play_until_deal_end(first, b, table_id, deadline), play_until_deal_end(second, b, table_id, deadline))
        record = await fetch_record(first, b.base, deal_id)
        result = record["result"]
        board: dict[str, Any] = (await first.call(b.base, "GET", "/api/ratings/doppelkopf")).json()
        lines = {line["name"]: line for line in board["players"]}
        if result.get("redeal"):  # a thrown-in deal is not rated
            assert board["total"] == 0
            return
        assert set(lines) == {"Anna", "Bert", "heuristic"} and all(line["deals"] == 1 for line in lines.values()), lines
        for player, name in ((first, "Anna"), (second, "Bert")):
            profile = (await player.call(b.base, "GET", f"/api/players/{name}")).json()
            [rating] = profile["ratings"]
            assert [point["deal_id"] for point in rating["history"]] == [deal_id]
            re_total = sum(result["scores"][seat] for seat in result["re"])
            side_won = (re_total > 0) == (player.seat in result["re"])
            if re_total != 0:
                assert (rating["won"], rating["lost"]) == ((1, 0) if side_won else (0, 1)), (name, rating, result)
    finally:
        a.stop()
        b.stop()
