"""Bot strength at tables: the bot specs the lobby offers, ``name:level=N`` specs, and bots that think off the event loop.

Two stand-in bots are registered for these tests only (the registry is
restored afterwards): ``deep`` takes a ``level`` like the search bots do and
plays the first legal action; ``gate`` blocks inside ``choose`` until the
test opens its gate, which shows whether a thinking bot holds up the server.
"""

from __future__ import annotations

import sys
import threading
import types
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from fastapi.testclient import TestClient

from stich.bots.registry import BOTS
from stich.core.game import Action, Game, Observation
from stich.core.records import replay_deal
from stich.search.budget import LEVELS

from .helpers import Reader, call, connect, create_table, make_settings, new_guest, play_as_seat, running, svc, wait_for

GATE_SECONDS = 20.0
"""Longest a gate bot waits; a gate that times out means the server could not answer while it thought."""


class DeepBot:
    """A bot with a strength level, like the search bots; plays the first legal action."""

    levels: ClassVar[list[int]] = []

    def __init__(self, game: Game, seat: int, seed: int, level: int = 3) -> None:
        self.name = f"deep-{level}"
        DeepBot.levels.append(level)

    def choose(self, observation: Observation) -> Action:
        return observation.legal_actions[0]


class Gate:
    """The gate the ``gate`` bots wait at, and what they saw."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.entered = threading.Event()
        self.timed_out = False


class GateBot:
    """Blocks in ``choose`` until the gate opens, then plays the last legal action."""

    gate = Gate()

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        self.name = "gate"

    def choose(self, observation: Observation) -> Action:
        gate = GateBot.gate
        gate.entered.set()
        if not gate.open.wait(GATE_SECONDS):
            gate.timed_out = True
        return observation.legal_actions[-1]


@pytest.fixture(autouse=True)
def fake_bots(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    """Register ``deep`` and ``gate`` for one test; yields the gate (opened at the end whatever happens)."""
    module = types.ModuleType("stich_test_fake_bots")
    module.DeepBot = DeepBot  # type: ignore[attr-defined]
    module.GateBot = GateBot  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(BOTS, "deep", f"{module.__name__}:DeepBot")
    monkeypatch.setitem(BOTS, "gate", f"{module.__name__}:GateBot")
    DeepBot.levels = []
    GateBot.gate = Gate()
    try:
        yield GateBot.gate
    finally:
        GateBot.gate.open.set()


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


def test_a_table_accepts_a_level_spec_and_its_bots_get_that_level(client: TestClient) -> None:
    token = new_guest(client)
    table = create_table(client, token, game="doppelkopf", seat=None, bots="deep:level=2")
    assert [seat["bot"] for seat in table["seats"]] == ["deep:level=2"] * 4 and table["status"] == "playing"

    def finished() -> list[dict[str, Any]]:
        deals: list[dict[str, Any]] = call(client, "GET", f"/api/tables/{table['id']}/deals").json()["deals"]
        return [d for d in deals if d["status"] == "finished"]

    deal = wait_for(finished, what="the deep bots' deal")[0]
    record = call(client, "GET", deal["record_url"]).json()
    replay_deal(record)
    assert record["meta"]["seats"] == ["deep:level=2"] * 4
    assert DeepBot.levels and set(DeepBot.levels) == {2}


def test_add_bots_takes_a_spec_for_some_seats(client: TestClient) -> None:
    token = new_guest(client)
    table = create_table(client, token, game="doppelkopf", seat=0)
    response = call(client, "POST", f"/api/tables/{table['id']}/bots", token, json={"bot": "deep:level=5", "seats": [2]})
    assert response.status_code == 200, response.text
    assert [seat["bot"] for seat in response.json()["seats"]] == [None, None, "deep:level=5", None]


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
    wait_for(fake_bots.entered.is_set, what="the gate bot to start thinking")
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
        fake_bots.open.set()
        moved = spectator.until(lambda m: m["type"] == "state" and m["step"] > state["step"])
        assert moved["last"][0] == state["view"]["to_move"]
    assert not fake_bots.timed_out


def test_a_decision_for_a_moment_that_passed_is_dropped(db_url: str, fake_bots: Gate) -> None:
    settings = make_settings(db_url, grace_seconds=0.0, stand_in_bot="gate")
    with running(settings) as client:
        token = new_guest(client, "Ada")
        # ``deep`` bots say "gesund", so seat 0's first decision is its reservation (two choices); random bots
        # could declare a compulsory solo first, and seat 0 then opens with a single legal card.
        table = create_table(client, token, game="doppelkopf", seat=0, bots="deep")
        wait_for(fake_bots.entered.is_set, what="the stand-in to start thinking for the absent person")
        with connect(client, table["id"], token) as ws:  # back while the stand-in thinks: the turn is ours again
            reader = Reader(ws)
            mine = reader.until(lambda m: m["type"] == "state")
            legal = mine["view"]["legal_actions"]
            assert mine["seat"] == 0 and len(legal) >= 2  # the stand-in would play the last, we play the first
            reader.send({"type": "action", "action": legal[0], "step": mine["step"], "deal": mine["deal"]})
            moved = reader.until(lambda m: m["type"] == "state" and m["step"] == mine["step"] + 1)
            assert moved["last"] == [0, legal[0]]
        fake_bots.open.set()  # the stand-in's late choice is for a step that has passed

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
