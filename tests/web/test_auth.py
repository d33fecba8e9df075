"""Accounts: Argon2 hashes, session cookies, guests, login rate limit."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from stich.web.guards.login_limit import Attempt, LoginLimiter
from stich.web.guards.passwords import Passwords
from stich.web.storage.login_sessions import COOKIE_NAME, hash_token
from stich.web.storage.models import AuthSession, User

from .helpers import FAST_HASHER, call, create_table, make_settings, new_guest, running, session_token, svc

pytestmark = pytest.mark.both_databases


def _register(client: TestClient, name: str, password: str, token: str | None = None) -> str:
    response = call(client, "POST", "/api/auth/register", token, json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    return session_token(response)


def test_register_stores_an_argon2_hash_and_only_the_token_hash(client: TestClient) -> None:
    token = _register(client, "Erika", "correct horse battery")
    with svc(client).db.sessions() as db:
        user = db.scalar(select(User).where(User.name == "Erika"))
        assert user is not None and user.password_hash.startswith("$argon2id$")
        assert "correct horse" not in user.password_hash
        stored = db.scalar(select(AuthSession).where(AuthSession.user_id == user.id))
        assert stored is not None and stored.token_hash == hash_token(token) and token not in stored.token_hash
    assert call(client, "GET", "/api/auth/me", token).json() == {"name": "Erika", "guest": False}


def test_default_hasher_is_argon2id() -> None:
    passwords = Passwords()
    stored = passwords.hash("s3cret-pass")
    assert stored.startswith("$argon2id$")
    assert passwords.verify(stored, "s3cret-pass") and not passwords.verify(stored, "wrong")
    assert not passwords.verify(None, "s3cret-pass")  # unknown account: false, same work
    assert FAST_HASHER.memory_cost < passwords.hasher.memory_cost  # the cheap parameters are only for tests


def test_session_cookie_flags(db_url: str) -> None:
    with running(make_settings(db_url), base_url="http://localhost:8000") as client:
        response = call(client, "POST", "/api/auth/guest", json={})
        cookie = response.headers["set-cookie"]
        assert cookie.startswith(f"{COOKIE_NAME}=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
        assert "Secure" not in cookie  # plain HTTP on one's own machine
    for base in ("https://stich.example.org", "http://192.168.1.20:8000"):
        with running(make_settings(db_url), base_url=base) as client:
            cookie = call(client, "POST", "/api/auth/guest", json={}).headers["set-cookie"]
            assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie


def test_register_refusals(client: TestClient) -> None:
    _register(client, "Hans", "long enough password")
    taken = call(client, "POST", "/api/auth/register", json={"name": "hans", "password": "another password"})
    assert taken.status_code == 409 and taken.json()["field"] == "name"
    short = call(client, "POST", "/api/auth/register", json={"name": "Grete", "password": "short"})
    assert short.status_code == 422 and short.json()["field"] == "password"
    bad = call(client, "POST", "/api/auth/register", json={"name": "<script>", "password": "long enough password"})
    assert bad.status_code == 422 and bad.json()["field"] == "name"
    extra = call(client, "POST", "/api/auth/register", json={"name": "Grete", "password": "long enough password", "admin": True})
    assert extra.status_code == 422 and extra.json()["field"] == "admin"
    assert call(client, "POST", "/api/auth/login", json={"name": "Grete", "password": "long enough password"}).status_code == 401


def test_login_logout_and_rotation(client: TestClient) -> None:
    first = _register(client, "Max", "a very good password")
    login = call(client, "POST", "/api/auth/login", json={"name": "MAX", "password": "a very good password"})
    assert login.status_code == 200 and login.json() == {"name": "Max", "guest": False}
    second = session_token(login)
    assert second != first
    assert call(client, "GET", "/api/auth/me", first).json()["name"] == "Max"  # two devices, two sessions
    assert call(client, "POST", "/api/auth/logout", second).status_code == 200
    assert call(client, "GET", "/api/auth/me", second).status_code == 401
    wrong = call(client, "POST", "/api/auth/login", json={"name": "Max", "password": "not it at all"})
    assert wrong.status_code == 401 and wrong.json()["field"] == "password"
    unknown = call(client, "POST", "/api/auth/login", json={"name": "Nobody", "password": "whatever it is"})
    assert unknown.status_code == 401 and unknown.json()["message"] == wrong.json()["message"]


def test_a_guest_who_registers_keeps_their_seat(client: TestClient) -> None:
    guest = new_guest(client, "Wanderer")
    table = create_table(client, guest, game="doppelkopf", seat=2)
    token = _register(client, "Wanda", "password of wanda", guest)
    assert token != guest
    assert call(client, "GET", "/api/auth/me", guest).status_code == 401  # the old token is gone
    assert call(client, "GET", f"/api/tables/{table['id']}", token).json()["your_seat"] == 2


def test_guest_names(client: TestClient) -> None:
    token = new_guest(client)
    assert call(client, "GET", "/api/auth/me", token).json()["name"].startswith("Gast-")
    renamed = call(client, "POST", "/api/auth/guest", token, json={"name": "  Fritz "})
    assert renamed.json() == {"name": "Fritz", "guest": True}
    bad = call(client, "POST", "/api/auth/guest", json={"name": "a\u0007b"})
    assert bad.status_code == 422 and bad.json()["field"] == "name"
    assert call(client, "POST", "/api/auth/guest", json={"name": "x" * 25}).json()["field"] == "name"


def test_login_is_rate_limited_per_account_and_address(client: TestClient) -> None:
    _register(client, "Target", "the real password")
    for _ in range(5):
        assert call(client, "POST", "/api/auth/login", json={"name": "Target", "password": "guess"}).status_code == 401
    blocked = call(client, "POST", "/api/auth/login", json={"name": "target", "password": "the real password"})
    assert blocked.status_code == 429 and blocked.json()["field"] == "name"
    assert 1 <= int(blocked.headers["retry-after"]) <= 60
    # another account from the same address is not blocked
    _register(client, "Other", "other password!")
    assert call(client, "POST", "/api/auth/login", json={"name": "Other", "password": "other password!"}).status_code == 200


def test_limiter_window_slides() -> None:
    now = [1000.0]
    limiter = LoginLimiter(3, 60.0, clock=lambda: now[0])
    for _ in range(3):
        assert isinstance(limiter.begin("a", "1.2.3.4"), Attempt)
    assert limiter.begin("a", "1.2.3.4") == 60
    assert isinstance(limiter.begin("a", "5.6.7.8"), Attempt)  # per name and address
    now[0] += 45
    assert limiter.begin("a", "1.2.3.4") == 15
    now[0] += 15
    attempt = limiter.begin("a", "1.2.3.4")
    assert isinstance(attempt, Attempt)
    limiter.succeeded(attempt)  # a right password takes the attempt back
    for _ in range(3):
        assert isinstance(limiter.begin("a", "1.2.3.4"), Attempt)
