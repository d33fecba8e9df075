"""A restart keeps which seats a stand-in bot played (issue 30, fault 7): ``meta.stand_in_seats`` is rebuilt from the stored actions."""

from __future__ import annotations

from typing import Any

import pytest

from stich.core.records import replay_deal

from .helpers import Reader, call, connect, create_table, make_settings, new_guest, play_as_seat, running, svc, wait_for

pytestmark = pytest.mark.both_databases


def test_the_record_names_a_stand_in_that_played_before_a_restart(db_url: str) -> None:
    with running(make_settings(db_url, grace_seconds=0.2, bot_delay_seconds=0.3)) as client:
        token = new_guest(client, "Sleepy")
        table = create_table(client, token, game="doppelkopf", seat=0, bots="heuristic")
        with connect(client, table["id"], token) as ws:
            turn = Reader(ws).until(lambda m: m["type"] == "state" and bool(m["view"]["legal_actions"]))

        def stand_in_moved() -> Any:
            deal = svc(client).db.deals_of(table["id"], with_actions=True)[0]
            return deal if len(deal.actions) > turn["step"] else None

        deal = wait_for(stand_in_moved, what="the stand-in's move")
        assert deal.status == "playing" and deal.actions[turn["step"]][0] == 0 and deal.stand_in_seats == (0,)
    # the server goes (its memory with it) and comes back on the same database; the player is back in time
    with running(make_settings(db_url, grace_seconds=60)) as client:
        with connect(client, table["id"], token) as ws:
            reader = Reader(ws)
            end = play_as_seat(reader)
        assert end["deal"] == turn["deal"]
        record = call(client, "GET", end["record_url"]).json()
        replay_deal(record)
        assert record["meta"]["stand_in_seats"] == [0]
        later = [seat for seat, _ in record["actions"][turn["step"] + 1 :]]
        assert 0 in later  # the player played on after the restart, and the stand-in's seat is still named
