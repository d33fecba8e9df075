"""Complete deals over the WebSocket: one person and bots, with a spectator watching, and no card ever leaked."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stich.core.records import replay_deal, validate_record

from .helpers import Reader, call, check_no_leaks, connect, create_table, new_guest, play_as_seat

pytestmark = pytest.mark.both_databases


def _play_one_deal(client: TestClient, game: str, seat: int, **options: Any) -> tuple[dict[str, Any], Reader, Reader, dict[str, Any]]:
    """A one-deal table of ``game`` with a person in ``seat`` and heuristic bots; a spectator watches."""
    token = new_guest(client, "Ada")
    table = create_table(client, token, game=game, seat=seat, **options)
    assert table["status"] == "open"
    with connect(client, table["id"]) as spectator_ws, connect(client, table["id"], token) as player_ws:
        spectator, player = Reader(spectator_ws), Reader(player_ws)
        welcome = player.next()
        started = call(client, "POST", f"/api/tables/{table['id']}/bots", token, json={"bot": "heuristic"})
        assert started.status_code == 200 and started.json()["status"] == "playing"
        assert welcome == {
            "type": "welcome",
            "table": table["id"],
            "role": "player",
            "seat": seat,
            "name": "Ada",
            "game": table["game"],
            "seats": len(table["seats"]),
        }
        play_as_seat(player, until=("table_end",))  # a thrown-in deal is dealt again: play until the list is over
        spectator.until(lambda m: m["type"] == "table_end")
    ends = [m for m in player.seen if m["type"] == "deal_end"]
    assert [m for m in spectator.seen if m["type"] == "deal_end"] == ends
    return table, player, spectator, ends[-1]


def _record(client: TestClient, end: dict[str, Any]) -> dict[str, Any]:
    response = call(client, "GET", end["record_url"])
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    record: dict[str, Any] = response.json()
    return record


def _check_deal(client: TestClient, table: dict[str, Any], player: Reader, spectator: Reader, end: dict[str, Any], seat: int) -> None:
    record = _record(client, end)
    validate_record(record)
    state = replay_deal(record)  # every action legal, result recomputed
    assert state.is_terminal()
    assert list(state.result().scores) == end["result"]["scores"] == record["result"]["scores"]
    assert sum(end["result"]["scores"]) == 0 or state.game.name == "dappen"
    assert record["meta"]["table"] == table["id"]
    assert record["players"][seat] == "Ada"
    # a state message after every action, each carrying this seat's own observation
    steps = [m["step"] for m in player.seen if m["type"] == "state" and m["deal"] == end["deal"]]
    assert steps == list(range(len(record["actions"]) + 1))
    assert [m["step"] for m in spectator.seen if m["type"] == "state" and m["deal"] == end["deal"]][-1] == len(record["actions"])
    # the commitment came before the first view of the deal and matches the revealed seed and salt
    kinds = [(m["type"], m.get("deal")) for m in player.seen]
    start = next(m for m in player.seen if m["type"] == "deal_start" and m["deal"] == end["deal"])
    assert kinds.index(("deal_start", end["deal"])) < kinds.index(("state", end["deal"]))
    assert start["commitment"] == end["commitment"] == hashlib.sha256(f"{end['seed']}:{end['salt']}".encode()).hexdigest()
    assert int(end["seed"]) == record["seed"]
    # no message to the seat or the spectator names a card it may not know at that moment
    assert check_no_leaks(player.seen, record, seat) > len(record["actions"])
    assert check_no_leaks(spectator.seen, record, None) > len(record["actions"])
    # the player's view is exactly the engine's observation at the end
    final = [m for m in player.seen if m["type"] == "state"][-1]
    assert final["view"] == state.observation(seat).to_json()
    assert json.dumps(final["view"])  # JSON all the way


def test_doppelkopf_deal_one_person_three_bots(client: TestClient) -> None:
    table, player, spectator, end = _play_one_deal(client, "doppelkopf", 2)
    _check_deal(client, table, player, spectator, end, 2)
    deals = call(client, "GET", f"/api/tables/{table['id']}/deals").json()["deals"]
    assert len(deals) == 1 and deals[0]["status"] == "finished" and deals[0]["seed"] == end["seed"]
    assert call(client, "GET", f"/api/tables/{table['id']}").json()["status"] == "finished"


def test_droggn_deal_one_person_two_bots(client: TestClient) -> None:
    table, player, spectator, end = _play_one_deal(client, "droggn", 0)
    _check_deal(client, table, player, spectator, end, 0)
    assert len(table["seats"]) == 3


def test_a_list_of_several_deals_books_every_deal(client: TestClient) -> None:
    token = new_guest(client)
    table = create_table(client, token, game="dobbm", deals=2, seat=1, bots="random")
    ends = []
    with connect(client, table["id"], token) as ws:
        reader = Reader(ws)
        while (message := play_as_seat(reader, until=("deal_end", "table_end")))["type"] == "deal_end":
            ends.append(message)
    deals = call(client, "GET", f"/api/tables/{table['id']}/deals").json()["deals"]
    assert len(deals) == len(ends) >= 2
    assert all(d["status"] == "finished" for d in deals)
    scores = [_record(client, end)["result"]["scores"] for end in ends]
    assert message["totals"] == [sum(column) for column in zip(*scores, strict=True)]
    assert len(message["sheet"]) == len(ends)
