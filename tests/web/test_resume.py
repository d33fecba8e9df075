"""A restart loses no finished deal and resumes unfinished tables by replaying their stored actions."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import update

from stich.core.records import replay_deal
from stich.web.storage.models import Deal, DealAction, GameTable

from .helpers import Reader, call, connect, create_table, make_settings, new_guest, play_as_seat, running, svc, wait_for

pytestmark = pytest.mark.both_databases


def _my_turn(reader: Reader) -> dict[str, Any]:
    return reader.until(lambda m: m["type"] == "state" and bool(m["view"]["legal_actions"]))


def test_restart_resumes_a_table_mid_deal(db_url: str) -> None:
    settings = make_settings(db_url)
    with running(settings) as client:
        token = new_guest(client, "Resi")
        table = create_table(client, token, game="doppelkopf", deals=2, seat=0, bots="heuristic")
        with connect(client, table["id"], token) as ws:
            reader = Reader(ws)
            first_end = play_as_seat(reader)
            turn = _my_turn(reader)
            reader.send({"type": "action", "action": turn["view"]["legal_actions"][-1], "step": turn["step"]})
            before = _my_turn(reader)
        first_record = call(client, "GET", first_end["record_url"]).text
    # a new server on the same database
    with running(settings) as client:
        info = call(client, "GET", f"/api/tables/{table['id']}", token).json()
        assert info["status"] == "playing" and info["deals_played"] == 1 and info["your_seat"] == 0
        assert call(client, "GET", first_end["record_url"]).text == first_record
        with connect(client, table["id"], token) as ws:
            reader = Reader(ws)
            assert reader.next()["role"] == "player"
            start = reader.until(lambda m: m["type"] == "deal_start")
            assert start["deal"] == before["deal"] and start["commitment"] == before["commitment"]
            after = reader.until(lambda m: m["type"] == "state")
            assert after["step"] == before["step"]
            assert after["view"] == before["view"]  # same hand, same events, same legal actions
            reader.send({"type": "action", "action": after["view"]["legal_actions"][0], "step": after["step"]})
            end = play_as_seat(reader, until=("table_end",))
        second_end = next(m for m in reader.seen if m["type"] == "deal_end" and m["deal"] == before["deal"])
        record = call(client, "GET", second_end["record_url"]).json()
        replay_deal(record)
        assert record["meta"]["deal_id"] == before["deal"]
        assert [seat for seat, _ in record["actions"]].count(0) >= 2  # our moves before and after the restart
        assert len(end["sheet"]) >= 2  # two counted deals (and any thrown-in ones)
        assert call(client, "GET", f"/api/tables/{table['id']}").json()["status"] == "finished"


def test_a_deal_whose_record_was_not_written_is_finished_on_start(db_url: str) -> None:
    settings = make_settings(db_url)
    with running(settings) as client:
        table = create_table(client, new_guest(client), game="droggn", seat=None, bots="random")

        def done() -> bool:
            row = svc(client).db.get_table(table["id"])
            return row is not None and row.status == "finished"

        wait_for(done, what="the bots' list")
        deals = svc(client).db.deals_of(table["id"])
        last = deals[-1]
        # as if the server had stopped between the last action of the list and writing its record
        with svc(client).db.sessions() as db:
            db.execute(update(Deal).where(Deal.id == last.id).values(status="playing", record=None))
            db.execute(update(GameTable).where(GameTable.id == table["id"]).values(status="playing"))
            db.commit()
    with running(settings) as client:
        wait_for(lambda: svc(client).db.deals_of(table["id"])[-1].status == "finished", what="the restored deal to be finished")
        wait_for(done, what="the table to end")
        again = svc(client).db.deals_of(table["id"])
        assert len(again) == len(deals)  # no further deal was dealt
        assert again[-1].record is not None and last.record is not None
        assert replay_deal(json.loads(again[-1].record)).result().scores == replay_deal(json.loads(last.record)).result().scores


def test_a_table_whose_actions_do_not_replay_is_reported_not_fatal(db_url: str) -> None:
    settings = make_settings(db_url)
    with running(settings) as client:
        token = new_guest(client)
        table = create_table(client, token, game="doppelkopf", seat=0, bots="heuristic")
        with connect(client, table["id"], token) as ws:
            turn = _my_turn(Reader(ws))
        deal_id = turn["deal"]
        with svc(client).db.sessions() as db:
            db.execute(update(DealAction).where(DealAction.deal_id == deal_id, DealAction.position == 0).values(action="play CQ"))
            db.commit()
    with running(settings) as client:
        info = call(client, "GET", f"/api/tables/{table['id']}", token).json()
        assert info["broken"] and "deal" in info["broken"]
        with connect(client, table["id"], token) as ws:
            reader = Reader(ws)
            error = reader.until(lambda m: m["type"] == "error")
            assert error["field"] == "table" and "cannot continue" in error["message"]
            reader.send({"type": "action", "action": "gesund"})
            assert reader.until(lambda m: m["type"] == "error")["field"] == "action"
        other = create_table(client, new_guest(client), game="doppelkopf")  # the server itself works on
        assert other["status"] == "open"
