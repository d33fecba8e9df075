"""Bot strength at tables: the bot specs the lobby offers, ``name:level=N`` specs, and bots that think off the event loop.

Two stand-in bots are registered for these tests only (the registry is
restored afterwards): ``deep`` takes a ``level`` like the search bots do and
plays the first legal action; ``gate`` blocks inside ``choose`` until the
test opens its gate, which shows whether a thinking bot holds up the server.
Both think in the server's bot worker processes (tests/web/fake_bots.py) and
report through files.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stich.bots.registry import BOTS
from stich.core.records import replay_deal
from stich.search.budget import LEVELS

from .helpers import Reader, call, connect, create_table, make_settings, new_guest, play_as_seat, running, svc, wait_for

FAKE_BOTS = Path(__file__).with_name("fake_bots.py")


class Gate:
    """The files through which the test talks to the ``gate`` and ``deep`` bots in the worker processes."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def entered(self) -> bool:
        return (self.folder / "entered").exists()

    def open(self) -> None:
        (self.folder / "open").touch()

    @property
    def timed_out(self) -> bool:
        return (self.folder / "timed_out").exists()

    def levels(self) -> set[int]:
        path = self.folder / "levels"
        return {int(line) for line in path.read_text().split()} if path.exists() else set()


@pytest.fixture(autouse=True)
def fake_bots(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Gate]:
    """Register ``deep`` and ``gate`` (from tests/web/fake_bots.py) for one test; yields the gate (opened at the end whatever happens)."""
    folder = tmp_path / "bots"
    folder.mkdir()
    monkeypatch.setenv("STICH_TEST_BOTS", str(folder))
    monkeypatch.setitem(BOTS, "deep", f"{FAKE_BOTS}:DeepBot")
    monkeypatch.setitem(BOTS, "gate", f"{FAKE_BOTS}:GateBot")
    gate = Gate(folder)
    try:
        yield gate
    finally:
        gate.open()


def test_bots_lists_each_spec_with_a_label_and_thinking_time(client: TestClient) -> None:
    data = call(client, "GET", "/api/bots").json()
    offers = {offer["spec"]: offer for offer in data["bots"]}
    assert data["default"] in offers and data["stand_in"] == "heuristic"
    for name in ("random", "heuristic"):
        assert offers[name]["level"] is None and offers[name]["label"] and 0 < offers[name]["seconds_per_decision"] < 0.01
    assert offers["random"]["seconds_per_decision"] < offers["heuristic"]["seconds_per_decision"]
    for level in range(1, 6):  # a bot with a level is offered at every level, with the search budget as its time
        offer = offers[f"deep:level={level}"]
        assert offer["bot"] == "deep" and offer["level"] == level and offer["seconds_per_decision"] == LEVELS[level]
    assert "deep" not in offers and "gate" in offers
    for name in ("pimc", "ismcts"):  # the search bots, once registered, are offered the same way
        assert (f"{name}:level=1" in offers) == (name in BOTS)


def test_a_table_accepts_a_level_spec_and_its_bots_get_that_level(client: TestClient, fake_bots: Gate) -> None:
    token = new_guest(client)
    table = create_table(client, token, game="doppelkopf", seat=None, bots="deep:level=2")
    assert [seat["bot"] for seat in table["seats"]] == ["deep:level=2"] * 4 and table["status"] == "playing"

    def finished() -> list[dict[str, Any]]:
        deals: list[dict[str, Any]] = call(client, "GET", f"/api/tables/{table['id']}/deals").json()["deals"]
        return [d for d in deals if d["status"] == "finished"]

    deal = wait_for(finished, timeout=60, what="the deep bots' deal")[0]
    record = call(client, "GET", deal["record_url"]).json()
    replay_deal(record)
    assert record["meta"]["seats"] == ["deep:level=2"] * 4
    assert fake_bots.levels() == {2}


def test_add_bots_takes_a_spec_for_some_seats(client: TestClient) -> None:
    token = new_guest(client)
    table = create_table(client, token, game="doppelkopf", seat=0)
    response = call(client, "POST", f"/api/tables/{table['id']}/bots", token, json={"bot": "deep:level=2", "seats": [2]})
    assert response.status_code == 200, response.text
    assert [seat["bot"] for seat in response.json()["seats"]] == [None, None, "deep:level=2", None]


@pytest.mark.parametrize(
    "bot",
    [
        "genius",
        "random:level=2",
        "deep:time=100",
        "deep:level=9",
        "deep:level=0",
        "deep:level=two",
        "deep:level=2.5",
        "deep:",
        "",
        ":level=1",
        5,
    ],
)
def test_bad_bot_specs_name_the_field_and_change_nothing(client: TestClient, bot: Any) -> None:
    token = new_guest(client)
    table = create_table(client, token, game="doppelkopf", seat=0)
    response = call(client, "POST", f"/api/tables/{table['id']}/bots", token, json={"bot": bot})
    assert response.status_code == 422, response.text
    assert response.json()["field"] == "bot" and response.json()["message"]
    after = call(client, "GET", f"/api/tables/{table['id']}", token).json()
    assert after["status"] == "open" and [seat["kind"] for seat in after["seats"]] == ["human", "empty", "empty", "empty"]
    created = call(client, "POST", "/api/tables", json={"game": "doppelkopf", "bots": bot})
    assert created.status_code == 422 and created.json()["field"] == "bots"
    assert "set-cookie" not in created.headers  # refused before a guest session is made
    assert [t["id"] for t in call(client, "GET", "/api/tables").json()["tables"]] == [table["id"]]


def test_a_thinking_bot_holds_up_neither_other_tables_nor_its_own_clients(client: TestClient, fake_bots: Gate) -> None:
    token = new_guest(client, "Ada")
    slow = create_table(client, token, game="doppelkopf", seat=None, bots="gate")
    wait_for(fake_bots.entered, timeout=60, what="the gate bot to start thinking")
    # while it thinks: the lobby answers, another table plays a whole deal, and the slow table's own clients are served
    other = create_table(client, token, game="tapp_tarock", seat=0)
    with connect(client, other["id"], token) as ws:
        player = Reader(ws)
        assert call(client, "POST", f"/api/tables/{other['id']}/bots", token, json={"bot": "random"}).status_code == 200
        end = play_as_seat(player)
        assert end["type"] == "deal_end"
    with connect(client, slow["id"]) as ws:
        spectator = Reader(ws)
        state = spectator.until(lambda m: m["type"] == "state")
        spectator.send({"type": "sync"})
        assert spectator.until(lambda m: m["type"] == "state")["step"] == state["step"]  # nothing moved while the bot thinks
        spectator.send({"type": "ping", "id": 7})
        assert spectator.until(lambda m: m["type"] == "pong")["id"] == 7
        fake_bots.open()
        moved = spectator.until(lambda m: m["type"] == "state" and m["step"] > state["step"])
        assert moved["last"][0] == state["view"]["to_move"]
    assert not fake_bots.timed_out


def test_a_decision_for_a_moment_that_passed_is_dropped(db_url: str, fake_bots: Gate) -> None:
    settings = make_settings(db_url, grace_seconds=0.0, stand_in_bot="gate")
    with running(settings) as client:
        token = new_guest(client, "Ada")
        # ``deep`` bots say "gesund", so seat 0's first decision is its reservation (two choices); random bots
        # could declare a compulsory solo first, and seat 0 then opens with a single legal card.
        table = create_table(client, token, game="doppelkopf", seat=0, bots="deep:level=1")
        wait_for(fake_bots.entered, timeout=60, what="the stand-in to start thinking for the absent person")
        with connect(client, table["id"], token) as ws:  # back while the stand-in thinks: the turn is ours again
            reader = Reader(ws)
            mine = reader.until(lambda m: m["type"] == "state")
            legal = mine["view"]["legal_actions"]
            assert mine["seat"] == 0 and len(legal) >= 2  # the stand-in would play the last, we play the first
            reader.send({"type": "action", "action": legal[0], "step": mine["step"], "deal": mine["deal"]})
            moved = reader.until(lambda m: m["type"] == "state" and m["step"] == mine["step"] + 1)
            assert moved["last"] == [0, legal[0]]
        fake_bots.open()  # the stand-in's late choice is for a step that has passed

        def finished() -> bool:
            deals = svc(client).db.deals_of(table["id"])
            return bool(deals) and deals[0].status == "finished"

        wait_for(finished, timeout=30, what="the deal to end")
        record = call(client, "GET", f"/api/deals/{mine['deal']}/record").json()
        replay_deal(record)
        assert record["actions"][mine["step"]] == [0, legal[0]]
        assert not fake_bots.timed_out


@pytest.mark.parametrize("name", ["pimc", "ismcts"])
def test_a_registered_search_bot_plays_a_whole_deal_at_level_1(client: TestClient, name: str) -> None:
    if name not in BOTS:
        pytest.skip(f"the {name} bot is not registered")
    token = new_guest(client)
    table = create_table(client, token, game="doppelkopf", seat=None, bots=f"{name}:level=1")

    def finished() -> list[dict[str, Any]]:
        deals: list[dict[str, Any]] = call(client, "GET", f"/api/tables/{table['id']}/deals").json()["deals"]
        return [d for d in deals if d["status"] == "finished"]

    deal = wait_for(finished, timeout=180, what=f"the {name} bots' deal")[0]
    record = call(client, "GET", deal["record_url"]).json()
    assert replay_deal(record).is_terminal()
    assert record["meta"]["seats"] == [f"{name}:level=1"] * 4
