"""A hostile client gets nowhere: every bad message is answered with an error naming the field, and nothing changes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from .helpers import Reader, call, connect, create_table, first_and_close, make_settings, new_guest, running, svc


def _four_people(client: TestClient) -> tuple[str, list[str]]:
    """A Doppelkopf table of four guests (no bots, so nothing moves by itself)."""
    tokens = [new_guest(client, f"Player{i}") for i in range(4)]
    table = create_table(client, tokens[0], game="doppelkopf", seat=0)
    for seat in (1, 2, 3):
        response = call(client, "POST", f"/api/tables/{table['id']}/join", tokens[seat], json={"seat": seat})
        assert response.status_code == 200, response.text
    assert response.json()["status"] == "playing"
    return table["id"], tokens


def _stored_actions(client: TestClient, table_id: str) -> int:
    return sum(len(deal.actions) for deal in svc(client).db.deals_of(table_id, with_actions=True))


def test_bad_messages_are_refused_and_change_nothing(client: TestClient) -> None:
    table_id, tokens = _four_people(client)
    sockets = [connect(client, table_id, token) for token in tokens]
    spectator_ws = connect(client, table_id)
    readers = [Reader(ws.__enter__()) for ws in sockets]
    spectator = Reader(spectator_ws.__enter__())
    try:
        first = [reader.until(lambda m: m["type"] == "state") for reader in readers]
        spectator.until(lambda m: m["type"] == "state")
        to_move = first[0]["view"]["to_move"]
        legal = first[to_move]["view"]["legal_actions"]
        assert legal and all(not f["view"]["legal_actions"] for i, f in enumerate(first) if i != to_move)
        other = (to_move + 1) % 4
        deal_id = first[0]["deal"]
        mover, idle = readers[to_move], readers[other]
        action = legal[0]
        cases: list[tuple[Reader, str | bytes, str]] = [
            (idle, '{"type": "action", "action": "gesund"', "$"),  # malformed JSON
            (idle, "[1, 2]", "$"),
            (idle, '"play CQ"', "$"),
            (idle, "{}", "type"),
            (idle, '{"type": "move"}', "type"),
            (idle, '{"type": 5}', "type"),
            (idle, json.dumps({"type": "action", "action": action}), "action"),  # out of turn
            (idle, json.dumps({"type": "action", "action": action, "seat": to_move}), "seat"),  # for another seat
            (mover, json.dumps({"type": "action", "action": action, "seat": other}), "seat"),
            (mover, json.dumps({"type": "action", "action": action, "cheat": True}), "cheat"),  # unknown field
            (mover, json.dumps({"type": "action", "action": 7}), "action"),
            (mover, json.dumps({"type": "action"}), "action"),
            (mover, json.dumps({"type": "action", "action": ""}), "action"),
            (mover, json.dumps({"type": "action", "action": action, "step": True}), "step"),
            (mover, json.dumps({"type": "action", "action": action, "step": 5}), "step"),  # stale
            (mover, json.dumps({"type": "action", "action": action, "deal": deal_id + 100}), "deal"),
            (mover, json.dumps({"type": "action", "action": "play CQ"}), "action"),  # illegal now
            (mover, json.dumps({"type": "action", "action": "fly away"}), "action"),  # no such action
            (mover, json.dumps({"type": "action", "action": action, "pad": "x" * 5000}), "$"),  # oversized
            (mover, json.dumps({"type": "action", "action": action}).encode(), "$"),  # binary frame
            (spectator, json.dumps({"type": "action", "action": action}), "type"),  # spectators do not act
            (spectator, json.dumps({"type": "action", "action": action, "seat": to_move}), "type"),
        ]
        for reader, raw, field in cases:
            if isinstance(raw, bytes):
                reader.ws.send_bytes(raw)
            else:
                reader.ws.send_text(raw)
            answer = reader.until(lambda m: m["type"] != "table")  # seat updates as the others connect
            assert answer["type"] == "error", (raw, answer)
            assert answer["field"] == field, (raw, answer)
            assert isinstance(answer["message"], str) and answer["message"]
        # nothing moved: no action stored, every view still at step 0
        assert _stored_actions(client, table_id) == 0
        for reader in [*readers, spectator]:
            reader.send({"type": "sync"})
            state = reader.until(lambda m: m["type"] == "state")
            assert state["step"] == 0
        # the right seat, acting legally, moves the deal on for everybody
        mover.send({"type": "action", "action": action, "step": 0, "deal": deal_id})
        for reader in [*readers, spectator]:
            state = reader.until(lambda m: m["type"] == "state")
            assert state["step"] == 1
            assert state["last"] == [to_move, action]
        assert _stored_actions(client, table_id) == 1
    finally:
        for ws in [*sockets, spectator_ws]:
            ws.__exit__(None, None, None)


def test_ping_is_answered(client: TestClient) -> None:
    token = new_guest(client)
    table = create_table(client, token, game="doppelkopf")
    with connect(client, table["id"], token) as ws:
        reader = Reader(ws)
        reader.send({"type": "ping", "id": "abc"})
        assert reader.until(lambda m: m["type"] in ("pong", "error")) == {"type": "pong", "id": "abc"}
        reader.send({"type": "ping", "id": {"nested": 1}})
        assert reader.until(lambda m: m["type"] in ("pong", "error"))["field"] == "id"


def test_a_flooding_client_is_disconnected(db_url: str) -> None:
    with running(make_settings(db_url, max_messages_per_minute=5)) as client:
        token = new_guest(client)
        table = create_table(client, token, game="doppelkopf")
        with connect(client, table["id"], token) as ws:
            reader = Reader(ws)
            for _ in range(6):
                reader.send({"type": "ping"})
            errors = []
            with pytest.raises(ConnectionError, match="1008"):
                while True:
                    message = reader.next()
                    if message["type"] == "error":
                        errors.append(message)
            assert errors and "too many" in errors[0]["message"]


def test_a_cross_site_websocket_is_refused(client: TestClient) -> None:
    token = new_guest(client)
    table = create_table(client, token, game="doppelkopf")
    client.cookies.clear()
    headers = {"cookie": f"stich_session={token}", "origin": "https://evil.example"}
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/tables/{table['id']}", headers=headers):
        pass  # pragma: no cover - refused before this
    headers["origin"] = "http://testserver"
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=headers) as ws:
        assert Reader(ws).next()["role"] == "player"


def test_a_websocket_from_an_allowed_origin_is_let_in(db_url: str) -> None:
    """The WebSocket reads ``allowed_origins`` as the HTTP requests do (one origin rule, stich.web.guards.cross_site)."""
    with running(make_settings(db_url, allowed_origins=("https://play.example/",))) as client:
        token = new_guest(client)
        table = create_table(client, token, game="doppelkopf")
        client.cookies.clear()
        headers = {"cookie": f"stich_session={token}", "origin": "https://play.example"}
        with client.websocket_connect(f"/ws/tables/{table['id']}", headers=headers) as ws:
            assert Reader(ws).next()["role"] == "player"
        headers["origin"] = "https://other.example"
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/tables/{table['id']}", headers=headers):
            pass  # pragma: no cover - refused before this


def _first_and_close(client: TestClient, path: str) -> tuple[dict[str, Any], str]:
    client.cookies.clear()
    with client.websocket_connect(path) as ws:
        return first_and_close(ws)


def test_private_tables_and_unknown_tables_are_closed_to_strangers(client: TestClient) -> None:
    token = new_guest(client)
    table = create_table(client, token, game="doppelkopf", private=True)
    message, closed = _first_and_close(client, f"/ws/tables/{table['id']}")
    assert message["type"] == "error" and message["field"] == "invite" and "4403" in closed
    message, closed = _first_and_close(client, f"/ws/tables/{table['id']}?invite=wrong")
    assert message["field"] == "invite"
    invite = table["invite"].split("invite=")[1]
    with connect(client, table["id"], invite=invite) as ws:
        assert Reader(ws).next()["role"] == "spectator"
    message, closed = _first_and_close(client, "/ws/tables/nonexistent")
    assert message["field"] == "table" and "4404" in closed
