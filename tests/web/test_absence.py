"""Honest absence (issue 28, defect 2): deals a stand-in bot played for you are marked and kept out of your statistics.

A person who never connects gets the stand-in at once (grace period 0), so
their deal is played by a bot; a person who plays their own turns over the
WebSocket is not.  The record lists the stand-in seats (``meta.stand_in_seats``);
the deal list, the replay and the table's ``deal_end`` carry the mark, and
``GET /api/me/stats`` counts such deals only with ``include_stand_in=true``.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from fastapi.testclient import TestClient

from stich.web.api.history import game_stats
from stich.web.storage.db import PlayedDeal

from .helpers import Reader, call, connect, create_table, make_settings, new_guest, play_as_seat, running, wait_for


def _finished(client: TestClient, table_id: str) -> list[dict[str, Any]]:
    def done() -> list[dict[str, Any]]:
        deals: list[dict[str, Any]] = call(client, "GET", f"/api/tables/{table_id}/deals").json()["deals"]
        return deals if deals and all(d["status"] == "finished" for d in deals) else []

    found: list[dict[str, Any]] = wait_for(done, timeout=30, what="the finished deal")
    return found


def test_a_deal_the_stand_in_played_is_marked_and_not_counted(db_url: str) -> None:
    with running(make_settings(db_url, grace_seconds=0.0)) as client:
        ada = new_guest(client, "Ada")
        table = create_table(client, ada, game="doppelkopf", kind="free", deals=1, seat=1, bots="random")
        (deal,) = _finished(client, table["id"])
        record = call(client, "GET", deal["record_url"]).json()
        assert record["meta"]["stand_in_seats"] == [1]

        stats = call(client, "GET", "/api/me/stats", ada).json()
        assert stats["games"] == [] and stats["stand_in_deals"] == 1 and stats["include_stand_in"] is False
        included = call(client, "GET", "/api/me/stats?include_stand_in=true", ada).json()
        assert [(g["game"], g["deals"]) for g in included["games"]] == [("doppelkopf", 1)]
        listed = call(client, "GET", "/api/me/deals", ada).json()["deals"]
        assert [(d["deal_id"], d["stand_in"]) for d in listed] == [(deal["id"], True)]
        assert call(client, "GET", f"/api/deals/{deal['id']}/replay").json()["stand_in_seats"] == [1]


def test_a_deal_you_played_yourself_counts_and_is_not_marked(db_url: str) -> None:
    with running(make_settings(db_url, grace_seconds=60.0)) as client:
        bob = new_guest(client, "Bob")
        table = create_table(client, bob, game="doppelkopf", kind="free", deals=1, seat=0, bots="random")
        with connect(client, table["id"], bob) as ws:
            end = play_as_seat(Reader(ws))
        assert end["stand_in_seats"] == []
        _finished(client, table["id"])
        stats = call(client, "GET", "/api/me/stats", bob).json()
        assert [(g["game"], g["deals"]) for g in stats["games"]] == [("doppelkopf", 1)] and stats["stand_in_deals"] == 0
        assert [d["stand_in"] for d in call(client, "GET", "/api/me/deals", bob).json()["deals"]] == [False]


def test_history_rows_carry_the_deal_and_thrown_in_deals_are_not_played_deals(db_url: str) -> None:
    """Issue 28, defect 10: a history row can say contract and result (not only "seat 1"); a thrown-in deal is no played deal."""
    with running(make_settings(db_url, grace_seconds=60.0)) as client:
        bob = new_guest(client, "Bob")
        table = create_table(client, bob, game="doppelkopf", kind="free", deals=1, seat=0, bots="random")
        with connect(client, table["id"], bob) as ws:
            end = play_as_seat(Reader(ws))
        (row,) = call(client, "GET", "/api/me/deals", bob).json()["deals"]
        assert row["result"] == end["result"] and row["players"][0] == "Bob"


def test_game_stats_leave_thrown_in_deals_out() -> None:
    def played(result: dict[str, Any], deal_id: int) -> PlayedDeal:
        record = json.dumps({"result": result, "meta": {"stand_in_seats": []}})
        return PlayedDeal(deal_id, "t", "tapp_tarock", deal_id, datetime(2026, 1, 1, tzinfo=UTC), 0, record)

    deals = [played({"kind": "game", "scores": [8, -4, -4]}, 1), played({"kind": "all_pass", "scores": [0, 0, 0]}, 2)]
    (entry,) = game_stats(deals)
    assert entry["deals"] == 1 and entry["won"] == 1 and entry["score_total"] == 8
