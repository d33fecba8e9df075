"""Fault 7 of issue 30, the HTTP items: error shapes, huge ids, refused joins, cheap replays, cross-site requests."""

from __future__ import annotations

import gzip
import json
import logging
import os
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from stich.web.api import history
from stich.web.api.history import REPLAYS
from stich.web.storage.models import AuthSession

from .helpers import call, create_table, make_settings, new_guest, running, wait_for


def _is_error(response: Any, status: int, field: str = "$") -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"type", "field", "message"} and body["type"] == "error" and body["field"] == field, body
    assert body["message"]


def test_starlettes_own_refusals_have_the_error_shape(client: TestClient) -> None:
    _is_error(call(client, "GET", "/api/no-such-path"), 404)
    _is_error(call(client, "DELETE", "/api/health"), 405)
    _is_error(call(client, "PUT", "/api/auth/login", json={}), 405)
    _is_error(call(client, "POST", "/api/auth/guest", content=b"{not json", headers={"content-type": "application/json"}), 422)
    _is_error(call(client, "POST", "/api/auth/guest", content=b"\xff\xfe\x00", headers={"content-type": "application/json"}), 400)


@pytest.mark.both_databases
@pytest.mark.parametrize("deal_id", [2**31, 2**63, 2**63 - 1, 2**64 + 5, 10**30, 0, -1])
def test_a_deal_id_no_database_holds_is_simply_not_found(client: TestClient, deal_id: int) -> None:
    for suffix in ("", "/record", "/replay"):
        _is_error(call(client, "GET", f"/api/deals/{deal_id}{suffix}"), 404, "deal")


def _session_rows(client: TestClient) -> int:
    with client.app.state.services.db.sessions() as db:  # type: ignore[attr-defined]
        return int(db.scalar(select(func.count()).select_from(AuthSession)) or 0)


def test_a_refused_join_leaves_no_guest_session(client: TestClient) -> None:
    host = new_guest(client, "Hostess")
    private = create_table(client, host, game="doppelkopf", private=True)
    full = create_table(client, host, game="doppelkopf", seat=0, bots="random")
    before = _session_rows(client)
    for table_id, body in ((private["id"], {}), (private["id"], {"seat": 9}), (full["id"], {})):
        refused = call(client, "POST", f"/api/tables/{table_id}/join", json=body)
        assert refused.status_code in (403, 409), refused.text
        assert "set-cookie" not in refused.headers
    assert _session_rows(client) == before
    joined = call(client, "POST", f"/api/tables/{private['id']}/join", json={"invite": private["invite"].split("invite=")[1]})
    assert joined.status_code == 200 and _session_rows(client) == before + 1


def test_replays_are_served_compressed_from_a_cache(db_url: str) -> None:
    with running(make_settings(db_url, grace_seconds=0.0)) as client:
        token = new_guest(client, "Ada")
        table = create_table(client, token, game="doppelkopf", seat=1, bots="random")

        def finished() -> list[dict[str, Any]]:
            deals: list[dict[str, Any]] = call(client, "GET", f"/api/tables/{table['id']}/deals").json()["deals"]
            return [d for d in deals if d["status"] == "finished"]

        deal = wait_for(finished, timeout=30, what="a finished deal")[0]
        record = call(client, "GET", deal["record_url"]).content
        url = f"/api/deals/{deal['id']}/replay"
        entries = len(REPLAYS)
        with client.stream("GET", url, headers={"accept-encoding": "gzip"}) as response:
            packed = b"".join(response.iter_raw())
        assert response.headers["content-encoding"] == "gzip" and "accept-encoding" in response.headers["vary"].lower()
        assert len(packed) < 5 * len(record)  # the uncompressed replay is over 100 times the record
        assert len(REPLAYS) == entries + 1
        plain = call(client, "GET", url, headers={"accept-encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.content == gzip.decompress(packed)
        assert plain.json()["deal_id"] == deal["id"] and len(REPLAYS) == entries + 1  # served from the cache


def test_the_replay_cache_is_bounded_by_bytes_and_drops_the_least_recent(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []

    def fake_build(deal_id: int, record_text: str) -> dict[str, Any]:
        built.append(deal_id)
        return {"deal_id": deal_id, "noise": os.urandom(1000).hex()}  # random hex: about 1.1 KB packed

    monkeypatch.setattr(history, "build_replay", fake_build)
    cache = history.ReplayCache(3000)
    packed = [cache.gzipped(deal, "record") for deal in (1, 2)]
    assert cache.gzipped(1, "record") == packed[0] and built == [1, 2]  # 1 is now the most recent
    cache.gzipped(3, "record")  # over 3000 bytes: 2, the least recent, goes
    assert len(cache) == 2 and cache.size <= 3000
    cache.gzipped(1, "record")
    cache.gzipped(2, "record")
    assert built == [1, 2, 3, 2]
    assert json.loads(gzip.decompress(cache.gzipped(7, "other")))["deal_id"] == 7


ORIGIN = "http://testserver"


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "https://evil.example"},
        {"origin": "http://evil.testserver"},  # same site, another origin: SameSite=Lax would send the cookie
        {"origin": "null"},
        {"sec-fetch-site": "same-site"},
        {"sec-fetch-site": "cross-site", "origin": ORIGIN},
    ],
)
def test_state_changing_requests_from_another_origin_are_refused(client: TestClient, headers: dict[str, str]) -> None:
    token = new_guest(client, "Victim")
    table = create_table(client, token, game="doppelkopf")
    for method, path in (("POST", "/api/auth/logout"), ("POST", f"/api/tables/{table['id']}/leave"), ("POST", "/api/auth/guest")):
        _is_error(call(client, method, path, token, headers=headers), 403, "origin")
    assert call(client, "GET", "/api/auth/me", token).status_code == 200  # still logged in
    assert call(client, "GET", f"/api/tables/{table['id']}", token).json()["your_seat"] == 0  # still seated
    assert call(client, "GET", "/api/auth/me", token, headers=headers).status_code == 200  # reading is not refused


def test_the_own_origin_and_configured_origins_may_change_state(db_url: str) -> None:
    with running(make_settings(db_url, allowed_origins=("https://play.example.org",))) as client:
        for headers in ({"origin": ORIGIN, "sec-fetch-site": "same-origin"}, {"origin": "https://play.example.org"}, {}):
            token = new_guest(client, "Player")
            assert call(client, "POST", "/api/auth/logout", token, headers=headers).status_code == 200
            assert call(client, "GET", "/api/auth/me", token).status_code == 401


def test_every_refused_request_leaves_a_log_line_with_its_reason(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 42, fault 3: tables failed to open with nothing logged; every refusal is now one line with its status, field and reason."""
    caplog.set_level(logging.INFO, logger="stich.web")
    token = new_guest(client)
    assert call(client, "POST", "/api/tables", token, json={"game": "skat"}).status_code == 422
    assert call(client, "POST", "/api/tables", token, json={"game": "doppelkopf", "deals": "x"}).status_code == 422
    assert call(client, "GET", "/api/nowhere").status_code == 404
    lines = [record.getMessage() for record in caplog.records if record.name == "stich.web.requests"]
    assert any("refused POST /api/tables" in line and "422 game: unknown game 'skat'" in line for line in lines), lines
    assert any("refused POST /api/tables" in line and "422 deals" in line for line in lines), lines
    assert any("refused GET /api/nowhere" in line and "404" in line for line in lines), lines
