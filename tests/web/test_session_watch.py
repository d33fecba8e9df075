"""The table socket's session check without a database query per message (issue 33, "cheaper actions").

A socket keeps the database's last answer about its session
(:mod:`stich.web.runtime.session_watch`) until a change of that session is recorded
(logout, a new token from registering or logging in) or
``session_recheck_seconds`` pass.  Checked here: the rules of the watch
itself; that playing a deal asks the database for the session only once (at
connect), and that a change the watch never heard of
(the row changed behind the server's back) is noticed after the recheck
time.  A logout and a new token stopping the old socket at once are in
``test_socket_limits.py``; the several-worker case (a logout on one worker,
the socket on another) in ``test_cluster_sessions.py``.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

import pytest

from stich.web.runtime.session_watch import SessionWatch
from stich.web.storage.login_sessions import hash_token
from stich.web.storage.models import utcnow

from .helpers import Reader, connect, create_table, make_settings, new_guest, play_as_seat, running, svc


def test_a_check_holds_until_its_session_changes_or_it_is_too_old() -> None:
    watch = SessionWatch(10.0)
    assert watch.holds(7, checked_at=100.0, now=105.0)
    watch.changed(7, now=106.0)
    assert not watch.holds(7, checked_at=100.0, now=107.0)  # changed after the check
    assert watch.holds(7, checked_at=106.5, now=107.0)  # a check after the change (the new token) holds
    assert not watch.holds(7, checked_at=106.0, now=107.0)  # made at the very moment of the change: asked again
    assert watch.holds(8, checked_at=100.0, now=107.0)  # another session's change does not matter
    assert not watch.holds(8, checked_at=100.0, now=110.0)  # too old: ask the database again
    with pytest.raises(ValueError, match="recheck_seconds"):
        SessionWatch(0)


def test_everything_changed_makes_every_earlier_check_ask_again() -> None:
    watch = SessionWatch(60.0)
    watch.everything_changed(now=50.0)
    assert not watch.holds(1, checked_at=49.0, now=51.0)
    assert watch.holds(1, checked_at=50.5, now=51.0)


def test_forgetting_old_changes_never_lets_a_stale_check_through() -> None:
    watch = SessionWatch(5.0)
    for sid in range(200):  # past the size at which old entries are dropped
        watch.changed(sid, now=float(sid))
    for sid in range(200):
        for checked_at in (sid - 1.0, sid - 0.5):
            now = 199.5
            # dropped or not, a check from before its session's change never holds
            assert not watch.holds(sid, checked_at=checked_at, now=now)


def _counting(client: Any) -> list[str]:
    """Count the database's session lookups from now on (the list grows by one per lookup)."""
    db = svc(client).db
    original: Callable[[str], Any] = db.find_session
    calls: list[str] = []

    def find_session(token_hash: str) -> Any:
        calls.append(token_hash)
        return original(token_hash)

    db.find_session = find_session  # type: ignore[method-assign]
    return calls


def test_playing_a_deal_asks_the_database_for_the_session_once(db_url: str) -> None:
    with running(make_settings(db_url)) as client:
        token = new_guest(client, "Ada")
        table = create_table(client, token, game="doppelkopf", seat=0, bots="random")
        calls = _counting(client)
        with connect(client, table["id"], token) as ws:
            reader = Reader(ws)
            end = play_as_seat(reader, ready=False)
            assert end["type"] == "deal_end"
        mine = [m for m in reader.seen if m["type"] == "state" and m["view"]["to_move"] == 0 and m["view"]["legal_actions"]]
        assert len(mine) >= 12  # at least a card per trick was this socket's own action
        assert len(calls) == 1  # the lookup when the socket opened, none per message


def test_a_change_the_server_never_heard_of_is_noticed_after_the_recheck_time(db_url: str) -> None:
    with running(make_settings(db_url, session_recheck_seconds=0.5)) as client:
        token = new_guest(client, "Ada")
        table = create_table(client, token, game="doppelkopf", seat=0, bots="random")
        with connect(client, table["id"], token) as ws:
            reader = Reader(ws)
            mine = reader.until(lambda m: m["type"] == "state" and bool(m["view"]["legal_actions"]))
            db = svc(client).db
            session = db.find_session(hash_token(token))
            assert session is not None
            # behind the server's back (no session_changed): as an operator's UPDATE would
            db.update_session(
                session.id, token_hash=secrets.token_hex(32), user_id=None, display_name=session.display_name, expires_at=utcnow()
            )
            time.sleep(0.6)
            reader.send({"type": "action", "action": mine["view"]["legal_actions"][0], "step": mine["step"], "deal": mine["deal"]})
            error = reader.until(lambda m: m["type"] == "error")
            assert error["field"] == "session"
