"""The announcement deadlines in a seat's ``state`` message (issue 43): derived from the public facts only.

A Doppelkopf seat's message carries ``deadlines`` (``Game.call_deadlines`` of its observation's public facts),
the same for every seat of a moment, so it tells nobody anything the table does not know; spectators have no
call buttons and get none, and games without calls during play send none.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from .helpers import Reader, call, connect, create_table, new_guest, play_as_seat, play_watched_deal

pytestmark = pytest.mark.both_databases


def test_a_seat_gets_the_deadlines_of_the_public_facts(client: TestClient) -> None:
    deal = play_watched_deal(client, "doppelkopf", seat=2)
    engine, states, views = deal.game, deal.states, deal.seat_states
    for message in views:
        state = states[message["step"]]
        expected = engine.call_deadlines(state.observation(2).public)
        assert message["deadlines"] == expected
        # every seat of this moment would read the same: nothing of one seat's own knowledge is in it
        assert all(engine.call_deadlines(state.observation(seat).public) == expected for seat in range(4))
    last = views[-1]["deadlines"]
    assert last["shift"] or last["until"] == {"re_kontra": 2, "keine90": 3, "keine60": 4, "keine30": 5, "schwarz": 6}
    watched = [m for m in deal.spectator_seen if m["type"] == "state"]
    assert watched and all("deadlines" not in m for m in watched)


def test_games_without_calls_in_play_send_no_deadlines(client: TestClient) -> None:
    token = new_guest(client, "Bea")
    table = create_table(client, token, game="tapp_tarock", seat=0)
    with connect(client, table["id"], token) as player_ws:
        player = Reader(player_ws)
        assert call(client, "POST", f"/api/tables/{table['id']}/bots", token, json={"bot": "random"}).status_code == 200
        play_as_seat(player)
    states = [m for m in player.seen if m["type"] == "state"]
    assert states and all("deadlines" not in m for m in states)
