"""Registration is no free hashing service (issue 42, fault 1): a taken name costs no hash; attempts and accounts are capped."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from stich.web.app import create_app
from stich.web.guards.passwords import Passwords

from .helpers import FAST_HASHER, call, make_settings


class CountingPasswords(Passwords):
    """The fast test hasher, counting the hashes made for new passwords."""

    def __init__(self) -> None:
        super().__init__(FAST_HASHER)
        self.made = 0

    def hash(self, password: str) -> str:
        """Count, then hash."""
        self.made += 1
        return super().hash(password)


def _register(client: TestClient, name: str) -> tuple[int, dict[str, object]]:
    response = call(client, "POST", "/api/auth/register", json={"name": name, "password": "long enough password"})
    return response.status_code, response.json()


def test_a_taken_name_is_refused_before_any_hash(tmp_path: Path) -> None:
    passwords = CountingPasswords()
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path / 's.db'}"), passwords)) as client:
        assert _register(client, "Hanna")[0] == 201
        assert passwords.made == 1
        for spelling in ("hanna", "HANNA", " Hanna "):
            status, body = _register(client, spelling)
            assert status == 409 and body["field"] == "name", spelling
        assert passwords.made == 1  # was one hash per refused registration


def test_registration_attempts_are_rate_limited_per_address(tmp_path: Path) -> None:
    settings = make_settings(f"sqlite:///{tmp_path / 's.db'}", login_max_failures=3, accounts_per_address=10)
    passwords = CountingPasswords()
    with TestClient(create_app(settings, passwords)) as client:
        assert _register(client, "Hanna")[0] == 201
        assert _register(client, "Hanna")[0] == 409
        assert _register(client, "Hanna")[0] == 409
        made = passwords.made
        response = call(client, "POST", "/api/auth/register", json={"name": "Fresh", "password": "long enough password"})
        assert response.status_code == 429 and response.json()["field"] == "name"
        assert 1 <= int(response.headers["retry-after"]) <= 60
        assert passwords.made == made  # refused before the hash
        assert call(client, "POST", "/api/auth/login", json={"name": "Fresh", "password": "long enough password"}).status_code == 401


def test_new_accounts_per_address_are_capped(tmp_path: Path) -> None:
    settings = make_settings(f"sqlite:///{tmp_path / 's.db'}", accounts_per_address=2, accounts_window_seconds=3600)
    with TestClient(create_app(settings, Passwords(FAST_HASHER))) as client:
        assert _register(client, "Anna")[0] == 201
        assert _register(client, "Berta")[0] == 201
        status, body = _register(client, "Clara")
        assert status == 429 and body["field"] == "accounts"
        assert call(client, "POST", "/api/auth/login", json={"name": "Clara", "password": "long enough password"}).status_code == 401
        # a name already taken is still told as taken (the cheaper answer), not counted as a new account
        assert _register(client, "anna")[0] == 409
