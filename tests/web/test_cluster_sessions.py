"""A logout on one worker closes the player's socket on another at once (issues 33, 42; :mod:`stich.web.runtime.session_watch`).

A table socket no longer asks the database about its session on every
message; it keeps the last answer until a change of the session is heard of.
With several workers the change is told to every worker over Redis
(``stich:sessions``), so worker B closes the socket (4401) at once, though
it sends nothing, not only at its next message or after
``session_recheck_seconds`` (left at its default of a minute here, so only
the message can explain the close).
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from stich.web.storage.db import Database

from .cluster_helpers import COOKIE, Player, Worker, worker_settings
from .helpers import run_async
from .postgres import PostgresServer


def test_a_logout_on_one_worker_ends_the_socket_on_another(postgres_server: PostgresServer, redis_url: str, tmp_path: Path) -> None:
    run_async(_logout_elsewhere(postgres_server.new_database(), redis_url, tmp_path))


async def _next_turn(ws: Any, seat: int) -> dict[str, Any]:
    """The next ``state`` in which ``seat`` has legal actions."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
        if message["type"] == "state" and message["view"]["to_move"] == seat and message["view"]["legal_actions"]:
            return message


async def _act(ws: Any, state: dict[str, Any]) -> None:
    """Play the first legal action of ``state``."""
    await ws.send(json.dumps({"type": "action", "action": state["view"]["legal_actions"][0], "deal": state["deal"], "step": state["step"]}))


async def _logout_elsewhere(db_url: str, redis_url: str, tmp_path: Path) -> None:
    a = Worker(worker_settings(db_url, redis_url), tmp_path / "a.log")
    b = Worker(worker_settings(db_url, redis_url), tmp_path / "b.log")
    a.start()
    b.start()
    try:
        await asyncio.gather(a.ready(), b.ready())
        ada = Player(0)
        await ada.become_guest(b.base)
        created = await ada.call(b.base, "POST", "/api/tables", {"game": "doppelkopf", "seat": 0, "bots": "random"})
        assert created.status_code == 201, created.text
        table_id = created.json()["id"]
        headers = {"Cookie": f"{COOKIE}={ada.token}"}
        async with connect(f"{b.ws_base}/ws/tables/{table_id}", additional_headers=headers, open_timeout=30) as ws:
            first = await _next_turn(ws, 0)
            await ws.send(
                json.dumps({"type": "action", "action": first["view"]["legal_actions"][0], "deal": first["deal"], "step": first["step"]})
            )
            mine = await _next_turn(ws, 0)  # the session held for that action (asked once, at connect)
            assert mine["step"] > first["step"]
            logged_out = await ada.call(a.base, "POST", "/api/auth/logout")
            assert logged_out.status_code == 200
            # the socket sends nothing more: B closes it once the change arrives (A -> Redis -> B), not at its next message (issue 42)
            deadline = time.monotonic() + 30
            error = None
            try:
                while time.monotonic() < deadline:
                    message = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
                    if message["type"] == "error":
                        error = message
            except ConnectionClosed as exc:
                assert exc.rcvd is not None and exc.rcvd.code == 4401
                assert time.monotonic() < deadline - 25  # at once, not after a minute's session recheck
            else:
                raise AssertionError("the socket stayed open after the logout")
            assert error is not None and error["field"] == "session"
        db = Database(db_url)
        try:
            actions = db.deals_of(table_id, with_actions=True)[0].actions
        finally:
            db.dispose()
        assert len(actions) == mine["step"]  # the action sent after the logout was not played
    finally:
        a.stop()
        b.stop()
