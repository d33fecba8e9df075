"""Presence (issue 28, "Turn timer and presence"): a seat shows "not connected" only after a grace, and never at a finished table.

A page reload closes the socket and opens a new one at once: the others must
not see the seat flip to "not connected" and back.  A person who stays away
is shown as not connected once ``presence_grace_seconds`` have passed, and as
back the moment they return.
"""

from __future__ import annotations

from typing import Any

import pytest

from stich.web.runtime.presence import next_change, shown_away

from .helpers import Reader, call, connect, create_table, make_settings, new_guest, play_as_seat, running

pytestmark = pytest.mark.both_databases

GRACE = 0.6


def _seat(message: dict[str, Any], seat: int) -> dict[str, Any]:
    found: dict[str, Any] = message["seats"][seat]
    return found


def _two_people(client: Any) -> tuple[str, str, str]:
    ada, ben = new_guest(client, "Ada"), new_guest(client, "Ben")
    table = create_table(client, ada, game="doppelkopf", kind="free", deals=1, seat=0)
    assert call(client, "POST", f"/api/tables/{table['id']}/join", ben, json={"seat": 1}).status_code == 200
    return table["id"], ada, ben


def test_a_reload_does_not_flash_not_connected_but_staying_away_does(db_url: str) -> None:
    with running(make_settings(db_url, presence_grace_seconds=GRACE, grace_seconds=60)) as client:
        table_id, ada, ben = _two_people(client)
        with connect(client, table_id, ada) as ws_ada:
            a = Reader(ws_ada)
            with connect(client, table_id, ben) as ws_ben:
                Reader(ws_ben).until(lambda m: m["type"] == "table")
            a.until(lambda m: m["type"] == "table" and _seat(m, 1)["connected"])
            with connect(client, table_id, ben) as ws_ben:  # a reload: back within the grace
                Reader(ws_ben).until(lambda m: m["type"] == "table")
                seen = []
                try:
                    while True:
                        seen.append(a.next(timeout=GRACE + 0.4))
                except TimeoutError:
                    pass
                assert not [m for m in seen if m["type"] == "table" and _seat(m, 1)["away"]], seen
            # now Ben stays away: after the grace the others are told
            gone = a.until(lambda m: m["type"] == "table" and _seat(m, 1)["away"], timeout=5)
            assert not _seat(gone, 1)["connected"] and not _seat(gone, 0)["away"]
            with connect(client, table_id, ben):
                back = a.until(lambda m: m["type"] == "table" and not _seat(m, 1)["away"], timeout=5)
                assert _seat(back, 1)["connected"]


def test_a_finished_table_shows_nobody_as_not_connected(db_url: str) -> None:
    with running(make_settings(db_url, presence_grace_seconds=0, grace_seconds=0)) as client:
        table_id, ada, _ben = _two_people(client)
        with connect(client, table_id, ada) as ws:  # Ben never comes: a stand-in plays for him
            reader = Reader(ws)
            reader.until(lambda m: m["type"] == "table")  # Ada is there before the table starts (else stand-ins could finish it first)
            assert call(client, "POST", f"/api/tables/{table_id}/bots", ada, json={"bot": "random"}).status_code == 200
            play_as_seat(reader, until=("table_end",))
            tables = [m for m in reader.seen if m["type"] == "table"]
            assert any(_seat(m, 1)["away"] for m in tables if m["status"] == "playing")
            final = [m for m in tables if m["status"] == "finished"]
            assert final and not any(seat["away"] for m in final for seat in m["seats"]), final
            summary = call(client, "GET", f"/api/tables/{table_id}").json()
            assert summary["status"] == "finished" and not any(seat.get("away") for seat in summary["seats"])


def test_shown_away_needs_the_grace_and_an_unfinished_table() -> None:
    def away(**changes: Any) -> bool:
        values: dict[str, Any] = {"human": True, "live": False, "status": "playing", "away_since": 10.0, "now": 11.0, "grace": 5.0}
        values.update(changes)
        return shown_away(**values)

    assert not away()  # a reload: within the grace
    assert away(now=15.0) and away(status="open", now=15.0)
    assert away(away_since=None)  # never connected since sitting down
    assert not away(status="finished", now=99.0) and not away(live=True, now=99.0) and not away(human=False, now=99.0)
    assert next_change(10.0, 11.0, 5.0) == pytest.approx(4.0) and next_change(10.0, 16.0, 5.0) is None
