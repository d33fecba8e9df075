"""The lobby's write requests have rate limits (issue 44): per session and per address, 429 naming the action, and on every worker.

Each limited endpoint is called up to its (small) limit, then once more: 429
naming its action with ``Retry-After``; after the window it is served again.
The app's limiter is swapped for one on a hand-moved clock, so that "after
the window" needs no sleeping.  The Redis limiter (several workers) is
checked on two connections and on two whole apps sharing one Redis.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stich.web.cluster.shared_limits import RedisActionLimiter
from stich.web.guards.action_limits import ACTIONS, ActionLimiter
from stich.web.settings import Settings

from .helpers import call, make_settings, new_guest, run_async, running, session_token, svc

PASSWORD = "correct horse battery"

ENDPOINTS: list[tuple[str, str, str, Any]] = [
    ("online", "POST", "/api/online", None),
    ("friends", "POST", "/api/friends", {"name": "Nobody"}),
    ("friends", "DELETE", "/api/friends/Nobody", None),
    ("invites", "POST", "/api/tables/no-such-table/invite", {"name": "Nobody"}),
    ("invites", "POST", "/api/invites/999/accept", None),
    ("invites", "POST", "/api/invites/999/decline", None),
    ("quickstart", "POST", "/api/quickstart", {"game": "no-such-game"}),
    ("rematch", "POST", "/api/tables/no-such-table/rematch", None),
    ("tournaments", "POST", "/api/tournaments", {"name": "\u0001", "game": "doppelkopf"}),
    ("tournaments", "POST", "/api/tournaments/no-such-tournament/join", {}),
    ("tournaments", "POST", "/api/tournaments/no-such-tournament/start", None),
    ("again", "POST", "/api/deals/999/again", {}),
    ("analysis", "POST", "/api/deals/999/analysis", None),
]
"""(action, method, path, JSON body): requests that each handler refuses for its own reason (no such thing), once counted."""


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _register(client: TestClient, name: str) -> str:
    response = call(client, "POST", "/api/auth/register", json={"name": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return session_token(response)


def _send(client: TestClient, method: str, path: str, token: str, body: Any) -> Any:
    return call(client, method, path, token, json=body) if body is not None else call(client, method, path, token)


def _clocked(client: TestClient, settings: Settings) -> Clock:
    clock = Clock()
    svc(client).actions = ActionLimiter(settings, clock)
    return clock


def test_every_action_kind_has_a_limit_setting_and_the_settings_are_checked() -> None:
    assert {action for action, *_ in ENDPOINTS} == set(ACTIONS)  # every kind is tested below
    for bad in ({"action_limit": 0}, {"online_ping_limit_per_address": 0}, {"action_window_seconds": 0.0}):
        with pytest.raises(ValueError, match="action"):
            Settings(**bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("action", "method", "path", "body"), ENDPOINTS, ids=[f"{m} {p}" for _, m, p, _ in ENDPOINTS])
def test_each_endpoint_refuses_past_its_limit_and_recovers_after_the_window(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, action: str, method: str, path: str, body: Any
) -> None:
    settings = make_settings(f"sqlite:///{tmp_path / 'stich.db'}", action_limit=2, online_ping_limit=2, action_window_seconds=60.0)
    with running(settings) as client:
        clock = _clocked(client, settings)
        token = _register(client, "Ada")
        for _ in range(2):
            served = _send(client, method, path, token, body)
            assert served.status_code != 429, served.text  # the handler's own answer (200, 404, 422...)
        with caplog.at_level(logging.INFO, logger="stich.web.requests"):
            refused = _send(client, method, path, token, body)
        assert refused.status_code == 429, refused.text
        assert refused.json()["field"] == action
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert any(f"{action} from" in r.getMessage() and "too many requests" in r.getMessage() for r in caplog.records)
        assert any("429" in r.getMessage() and path in r.getMessage() for r in caplog.records)  # the refusal's own line
        clock.now += 30
        assert _send(client, method, path, token, body).status_code == 429  # still within the window
        clock.now += 31
        assert _send(client, method, path, token, body).status_code != 429  # the window has passed


def test_a_refused_request_changes_nothing_and_a_real_one_is_served_after_the_window(tmp_path: Path) -> None:
    settings = make_settings(f"sqlite:///{tmp_path / 'stich.db'}", action_limit=1)
    with running(settings) as client:
        clock = _clocked(client, settings)
        ada, _ = _register(client, "Ada"), _register(client, "Bert")
        _register(client, "Cleo")
        assert call(client, "POST", "/api/friends", ada, json={"name": "Bert"}).status_code == 201
        refused = call(client, "POST", "/api/friends", ada, json={"name": "Cleo"})
        assert refused.status_code == 429 and refused.json()["field"] == "friends"
        assert [f["name"] for f in call(client, "GET", "/api/friends", ada).json()["friends"]] == ["Bert"]  # Cleo was not added
        clock.now += 61
        assert call(client, "POST", "/api/friends", ada, json={"name": "Cleo"}).status_code == 201
        names = sorted(f["name"] for f in call(client, "GET", "/api/friends", ada).json()["friends"])
        assert names == ["Bert", "Cleo"]


def test_sessions_of_one_address_share_its_limit_and_kinds_count_apart(tmp_path: Path) -> None:
    settings = make_settings(f"sqlite:///{tmp_path / 'stich.db'}", action_limit=2, action_limit_per_address=3, online_ping_limit=1)
    with running(settings) as client:
        _clocked(client, settings)
        anna, bert, cleo = (new_guest(client, name) for name in ("Anna", "Bert", "Cleo"))
        unknown = {"game": "no-such-game"}
        assert [call(client, "POST", "/api/quickstart", anna, json=unknown).status_code for _ in range(3)] == [422, 422, 429]
        assert call(client, "POST", "/api/quickstart", bert, json=unknown).status_code == 422  # Bert's first: the address's third
        refused = call(client, "POST", "/api/quickstart", cleo, json=unknown)  # Cleo's first: the address has none left
        assert refused.status_code == 429 and refused.json()["field"] == "quickstart"
        assert call(client, "POST", "/api/online", cleo).status_code == 200  # another kind has its own count
        assert call(client, "POST", "/api/online", cleo).json()["field"] == "online"


def test_the_limiter_counts_per_client_and_per_address() -> None:
    clock = Clock()
    limiter = ActionLimiter(Settings(action_limit=2, action_limit_per_address=3, action_window_seconds=10.0), clock)
    assert [limiter.count("friends", "session:1", "1.1.1.1") for _ in range(3)] == [None, None, 10]
    assert limiter.count("friends", "session:2", "1.1.1.1") is None
    assert limiter.count("friends", "session:3", "1.1.1.1") == 10  # the address's third was session 2's
    assert limiter.count("friends", "session:3", "2.2.2.2") is None  # another address
    assert limiter.count("rematch", "session:1", "1.1.1.1") is None  # another kind
    clock.now += 4
    assert limiter.count("friends", "session:3", "1.1.1.1") == 6  # refusals were not counted: the wait shrinks
    clock.now += 6
    assert limiter.count("friends", "session:3", "1.1.1.1") is None


def test_the_redis_limiter_counts_on_every_worker(redis_url: str) -> None:
    async def body() -> None:
        from redis.asyncio import Redis

        settings = Settings(action_limit=3, action_limit_per_address=4, online_ping_limit=1, action_window_seconds=60.0)
        first, second = Redis.from_url(redis_url, decode_responses=True), Redis.from_url(redis_url, decode_responses=True)
        one, two = RedisActionLimiter(first, settings), RedisActionLimiter(second, settings)
        try:
            counted = [await (one if i % 2 else two).acount("tournaments", "session:1", "1.1.1.1") for i in range(4)]
            assert counted[:3] == [None] * 3 and counted[3] is not None and 55 <= counted[3] <= 60
            assert await one.acount("tournaments", "session:2", "1.1.1.1") is None  # the address's fourth
            assert await two.acount("tournaments", "session:3", "1.1.1.1") is not None  # the address is spent
            assert await two.acount("tournaments", "session:3", "2.2.2.2") is None
            assert await one.acount("online", "session:1", "1.1.1.1") is None  # its own kind and limit (1)
            assert await two.acount("online", "session:1", "1.1.1.1") is not None
        finally:
            await first.aclose()
            await second.aclose()

    run_async(body())


def test_the_redis_limiter_forgets_after_its_window(redis_url: str) -> None:
    async def body() -> None:
        import asyncio

        from redis.asyncio import Redis

        redis = Redis.from_url(redis_url, decode_responses=True)
        limiter = RedisActionLimiter(redis, Settings(action_limit=1, action_window_seconds=0.3))
        try:
            assert await limiter.acount("again", "session:1", "1.1.1.1") is None
            assert await limiter.acount("again", "session:1", "1.1.1.1") == 1  # under a second: wait 1 s
            await asyncio.sleep(0.4)
            assert await limiter.acount("again", "session:1", "1.1.1.1") is None
        finally:
            await redis.aclose()

    run_async(body())


def test_friend_requests_on_two_workers_share_one_limit(redis_url: str, tmp_path: Path) -> None:
    settings = make_settings(f"sqlite:///{tmp_path / 'stich.db'}", redis_url=redis_url, action_limit=2, accounts_per_address=10)
    with running(settings) as a, running(settings) as b:
        ada = _register(a, "Ada")
        for name in ("Bert", "Cleo", "Dora"):
            _register(b, name)
        assert call(a, "POST", "/api/friends", ada, json={"name": "Bert"}).status_code == 201
        assert call(b, "POST", "/api/friends", ada, json={"name": "Cleo"}).status_code == 201
        refused = call(a, "POST", "/api/friends", ada, json={"name": "Dora"})
        assert refused.status_code == 429 and refused.json()["field"] == "friends" and int(refused.headers["Retry-After"]) >= 55
        assert call(b, "POST", "/api/friends", ada, json={"name": "Dora"}).status_code == 429
        assert sorted(f["name"] for f in call(b, "GET", "/api/friends", ada).json()["friends"]) == ["Bert", "Cleo"]
