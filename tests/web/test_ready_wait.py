"""The shared "Weiter" (issue 28, defect 7; decision 0035): the next deal starts when every person at the table is ready.

The server is the authority: after a deal's end it sends who is still
reading the evaluation (``waiting``) and deals the next only when each
person said ``continue`` (bots are ready at once), when the table's time for
it runs out (``continue_seconds``; without one, twice the turn limit), or,
for a person who has left, once the stand-in would play for them.
"""

from __future__ import annotations

from typing import Any

import pytest

from stich.web.runtime.ready_wait import ReadyWait, wait_limit

from .helpers import Reader, call, connect, create_table, make_settings, new_guest, play_as_seat, running

pytestmark = pytest.mark.both_databases


def _messages_for(reader: Reader, seconds: float) -> list[dict[str, Any]]:
    """Every message that arrives within ``seconds`` (until the socket has been quiet that long)."""
    seen: list[dict[str, Any]] = []
    try:
        while True:
            seen.append(reader.next(timeout=seconds))
    except TimeoutError:
        return seen


def _two_people(client: Any, **body: Any) -> tuple[dict[str, Any], str, str]:
    ada, ben = new_guest(client, "Ada"), new_guest(client, "Ben")
    table = create_table(client, ada, game="doppelkopf", kind="free", deals=2, seat=0, **body)
    joined = call(client, "POST", f"/api/tables/{table['id']}/join", ben, json={"seat": 2})
    assert joined.status_code == 200, joined.text
    added = call(client, "POST", f"/api/tables/{table['id']}/bots", ada, json={"bot": "random"})
    assert added.status_code == 200, added.text
    return table, ada, ben


def test_the_next_deal_waits_until_every_person_said_weiter(db_url: str) -> None:
    with running(make_settings(db_url)) as client:
        table, ada, ben = _two_people(client)
        with connect(client, table["id"], ada) as ws_ada, connect(client, table["id"], ben) as ws_ben:
            a, b = Reader(ws_ada), Reader(ws_ben)
            end_a, end_b = _play_both(a, b)
            assert end_a["deal"] == end_b["deal"]
            waiting = a.until(lambda m: m["type"] == "waiting")
            assert waiting["deal"] == end_a["deal"] and waiting["waiting"] == [0, 2] and waiting["ready"] == []
            assert waiting["remaining"] is None  # no limit: the table waits for everybody
            assert not [m for m in _messages_for(a, 1.0) if m["type"] == "deal_start"]  # nobody said Weiter: no new deal
            a.send({"type": "continue", "deal": end_a["deal"]})
            after_ada = b.until(lambda m: m["type"] == "waiting" and m["waiting"] == [2])
            assert after_ada["ready"] == [0]  # people only: bots are always ready
            assert not [m for m in _messages_for(a, 0.5) if m["type"] == "deal_start"]  # Ben still reads
            b.send({"type": "continue", "deal": end_a["deal"]})
            start = a.until(lambda m: m["type"] == "deal_start")
            assert start["number"] == end_a["number"] + 1


def _play_both(a: Reader, b: Reader) -> tuple[dict[str, Any], dict[str, Any]]:
    """Both people play their turns (taking turns reading their sockets) until each has seen the deal's end; nobody says Weiter."""
    ends: dict[int, dict[str, Any]] = {}
    acted: set[tuple[int, int, int]] = set()
    readers = [a, b]
    while len(ends) < 2:
        for index, reader in enumerate(readers):
            if index in ends:
                continue
            try:
                message = reader.next(timeout=0.05)
            except TimeoutError:
                continue
            if message["type"] == "deal_end":
                ends[index] = message
            elif message["type"] == "state" and message["view"]["legal_actions"]:
                key = (index, message["deal"], message["step"])
                if key not in acted:
                    acted.add(key)
                    reader.send({"type": "action", "action": message["view"]["legal_actions"][0], "step": message["step"]})
    return ends[0], ends[1]


def test_the_table_s_time_for_weiter_starts_the_next_deal_without_anyone(db_url: str) -> None:
    with running(make_settings(db_url, min_limit_seconds=1)) as client:
        token = new_guest(client, "Ida")
        table = create_table(client, token, game="doppelkopf", kind="free", deals=2, seat=0, bots="random", continue_seconds=1)
        with connect(client, table["id"], token) as ws:
            reader = Reader(ws)
            end = play_as_seat(reader, ready=False)
            waiting = reader.until(lambda m: m["type"] == "waiting")
            assert waiting["waiting"] == [0] and waiting["limit"] == 1 and 0 < waiting["remaining"] <= 1
            start = reader.until(lambda m: m["type"] == "deal_start", timeout=10)
            assert start["number"] == end["number"] + 1
            late = {"type": "continue", "deal": end["deal"]}  # a "Weiter" after the time ran out changes nothing
            reader.send(late)
            reader.send({"type": "ping", "id": 1})
            assert reader.until(lambda m: m["type"] in ("pong", "error")) == {"type": "pong", "id": 1}


def test_without_its_own_time_a_table_with_a_turn_timer_waits_two_turn_limits(db_url: str) -> None:
    with running(make_settings(db_url, min_limit_seconds=1)) as client:
        token = new_guest(client, "Tim")
        # 3 s, not 1 s: the seat answers every turn at once, but a starved client on a loaded machine must not time out
        table = create_table(client, token, game="doppelkopf", kind="free", deals=2, seat=0, bots="random", turn_seconds=3)
        with connect(client, table["id"], token) as ws:
            reader = Reader(ws)
            play_as_seat(reader, ready=False)
            waiting = reader.until(lambda m: m["type"] == "waiting")
            assert waiting["limit"] == 6


def test_a_person_who_left_is_not_waited_for_past_the_grace_period(db_url: str) -> None:
    with running(make_settings(db_url, grace_seconds=0.5)) as client:
        table, ada, _ben = _two_people(client)
        with connect(client, table["id"], ada) as ws_ada:
            a = Reader(ws_ada)
            end = play_as_seat(a)  # Ben never connects: the stand-in plays for him, and he is not waited for
            start = a.until(lambda m: m["type"] == "deal_start", timeout=10)
            assert start["number"] == end["number"] + 1


def test_a_spectator_cannot_say_weiter(db_url: str) -> None:
    with running(make_settings(db_url)) as client:
        token = new_guest(client)
        table = create_table(client, token, game="doppelkopf", kind="free", deals=2, seat=0, bots="random")
        with connect(client, table["id"]) as ws:
            reader = Reader(ws)
            reader.send({"type": "continue", "deal": 1})
            refused = reader.until(lambda m: m["type"] == "error")
            assert refused["field"] == "type" and "watching" in refused["message"]
            bad = {"type": "continue", "deal": "one"}
            reader.send(bad)
            assert reader.until(lambda m: m["type"] == "error")["field"] == "deal"


def test_a_restart_between_deals_waits_for_weiter_again(db_url: str) -> None:
    settings = make_settings(db_url)
    with running(settings) as client:
        token = new_guest(client, "Rita")
        table = create_table(client, token, game="doppelkopf", kind="free", deals=2, seat=0, bots="random")
        with connect(client, table["id"], token) as ws:
            end = play_as_seat(Reader(ws), ready=False)  # the server stops while Rita reads the evaluation
    with running(settings) as client, connect(client, table["id"], token) as ws:
        reader = Reader(ws)
        waiting = reader.until(lambda m: m["type"] == "waiting")
        assert waiting["deal"] == end["deal"] and waiting["waiting"] == [0]
        assert not [m for m in _messages_for(reader, 1.0) if m["type"] == "deal_start"]
        reader.send({"type": "continue", "deal": end["deal"]})
        start = reader.until(lambda m: m["type"] == "deal_start")
        assert start["number"] == end["number"] + 1


def test_the_wait_s_rules_without_a_server() -> None:
    """:class:`ReadyWait` alone: the limit, the excused absent person, the pause when nobody had to be waited for."""
    assert (wait_limit(None, None), wait_limit(None, 30), wait_limit(45, 30)) == (None, 60, 45)
    here: dict[int, float | None] = {0: None, 2: None}
    wait = ReadyWait(deal=7, started=100.0, limit=None)
    assert wait.left([0, 2], here.get, 101.0, pause=4.0) is None  # both read, no limit: until woken
    wait.ready.add(0)
    assert wait.left([0, 2], here.get, 101.0, pause=4.0) is None
    wait.ready.add(2)
    assert wait.left([0, 2], here.get, 101.0, pause=4.0) == 0.0  # everybody said Weiter: at once, no pause
    limited = ReadyWait(deal=7, started=100.0, limit=10)
    assert limited.left([0, 2], here.get, 103.0, pause=4.0) == pytest.approx(7.0)
    assert limited.left([0, 2], here.get, 110.0, pause=4.0) == 0.0
    away = {0: None, 2: 105.0}  # seat 2 left; a stand-in would play for them from 105 on
    gone = ReadyWait(deal=7, started=100.0, limit=None, ready={0})
    assert gone.left([0, 2], away.get, 101.0, pause=4.0) == pytest.approx(4.0)
    assert gone.waiting([0, 2], away.get, 105.0) == [] and gone.left([0, 2], away.get, 105.0, pause=4.0) == 0.0
    bots_only = ReadyWait(deal=7, started=100.0, limit=None)
    assert bots_only.left([], here.get, 101.0, pause=4.0) == pytest.approx(3.0)  # the old pause between deals
    assert bots_only.message("t", [0, 2], away.get, 101.0)["waiting"] == [0, 2]
