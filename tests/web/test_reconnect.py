"""A player who drops out continues where they were; past the grace period a bot plays for them until they return."""

from __future__ import annotations

from typing import Any

import pytest

from stich.core.records import replay_deal

from .helpers import Reader, call, connect, create_table, make_settings, new_guest, play_as_seat, running, svc, wait_for

pytestmark = pytest.mark.both_databases


def _my_turn(reader: Reader) -> dict[str, Any]:
    return reader.until(lambda m: m["type"] == "state" and bool(m["view"]["legal_actions"]))


def test_back_within_the_grace_period_nothing_was_played_for_you(db_url: str) -> None:
    with running(make_settings(db_url, grace_seconds=30, presence_grace_seconds=0)) as client:  # shown as away at once
        token = new_guest(client, "Flaky")
        table = create_table(client, token, game="doppelkopf", seat=1, bots="heuristic")
        with connect(client, table["id"], token) as ws:
            turn = _my_turn(Reader(ws))
        seats = call(client, "GET", f"/api/tables/{table['id']}").json()["seats"]
        assert seats[1]["away"] and not seats[1]["stand_in"] and not seats[1]["connected"]
        with connect(client, table["id"], token) as ws:
            reader = Reader(ws)
            assert reader.next()["seat"] == 1
            again = _my_turn(reader)
            assert again["step"] == turn["step"] and again["view"] == turn["view"]
            reader.send({"type": "action", "action": again["view"]["legal_actions"][0], "step": again["step"]})
            moved = reader.until(lambda m: m["type"] == "state" and m["step"] == again["step"] + 1)
            assert moved["last"] == [1, again["view"]["legal_actions"][0]]


def test_past_the_grace_period_a_bot_plays_until_you_return(db_url: str) -> None:
    with running(make_settings(db_url, grace_seconds=0.3, bot_delay_seconds=0.03)) as client:
        token = new_guest(client, "Sleepy")
        table = create_table(client, token, game="doppelkopf", seat=0, bots="heuristic")
        with connect(client, table["id"], token) as ws:
            turn = _my_turn(Reader(ws))
        deal_id = turn["deal"]

        def stand_in_moved() -> bool:
            deal = next(d for d in svc(client).db.deals_of(table["id"], with_actions=True) if d.id == deal_id)
            return len(deal.actions) > turn["step"] and bool(deal.actions[turn["step"]][0] == 0)

        wait_for(stand_in_moved, what="the stand-in's move")
        seats = call(client, "GET", f"/api/tables/{table['id']}").json()["seats"]
        assert seats[0]["stand_in"] and seats[0]["name"] == "Sleepy"
        with connect(client, table["id"], token) as ws:
            reader = Reader(ws)
            assert reader.next()["role"] == "player"
            table_message = reader.until(lambda m: m["type"] == "table")
            assert table_message["seats"][0]["connected"] and not table_message["seats"][0]["stand_in"]
            now = reader.until(lambda m: m["type"] == "state")
            assert now["deal"] != turn["deal"] or now["step"] > turn["step"]  # the deal went on without us
            mine = now if now["view"]["legal_actions"] else _my_turn(reader)
            action = mine["view"]["legal_actions"][0]
            reader.send({"type": "action", "action": action, "step": mine["step"]})
            moved = reader.until(lambda m: m["type"] == "state" and m["step"] == mine["step"] + 1)
            assert moved["last"] == [0, action]
            reader.push_back(moved)  # it may be our turn again at once
            play_as_seat(reader, until=("table_end",))
        missed = call(client, "GET", f"/api/deals/{turn['deal']}/record").json()
        replay_deal(missed)
        assert missed["meta"]["stand_in_seats"] == [0]
        assert missed["actions"][turn["step"]][0] == 0  # the stand-in's move for us
        record = call(client, "GET", f"/api/deals/{mine['deal']}/record").json()
        assert record["actions"][mine["step"]] == [0, action]  # played by the person again, not the bot
