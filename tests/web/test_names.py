"""Fault 5 of issue 30 and defect 5 of issue 28: one name rule for accounts and guests, stated once, enforced everywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy import text

from stich.web.guards.names import MAX_LENGTH, NAME_RULE, BadName, checked_name, name_key
from stich.web.storage.db import MIGRATIONS, Database

from .helpers import call, make_settings, new_guest, running

pytestmark = pytest.mark.both_databases

STATIC = Path(__file__).resolve().parents[2] / "src" / "stich" / "web" / "static"


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("alice\n", "alice"),
        ("  Jürgen   Müller ", "Jürgen Müller"),
        ("ａｌｉｃｅ", "alice"),  # full width
        ("Oma\u00a0Erna", "Oma Erna"),  # no-break space
        ("Gast-3f9a", "Gast-3f9a"),
        ("x" * MAX_LENGTH, "x" * MAX_LENGTH),
    ],
)
def test_names_are_normalised(given: str, kept: str) -> None:
    assert checked_name(given) == kept


@pytest.mark.parametrize(
    "given",
    ["ab", "x" * (MAX_LENGTH + 1), "a\u0007bc", "ali\u200bce", "аlice", "<script>", "_abc", "   ", "Ünal\tK", "a\u0301\u0301bc"],
)
def test_names_breaking_the_rule_are_refused(given: str) -> None:
    with pytest.raises(BadName, match="3 to 24 characters"):
        checked_name(given)


def test_names_compare_by_key() -> None:
    assert name_key("ALICE") == name_key("alice ") == name_key("ａｌｉｃｅ")
    assert name_key("Strauß") == name_key("STRAUSS")
    assert name_key("аlice") != name_key("alice")  # a Cyrillic а is another letter (and refused as a name anyway)


def test_the_client_states_the_servers_rule() -> None:
    for language in ("en", "de"):
        texts = json.loads((STATIC / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
        assert texts["login.name_rules"] == NAME_RULE[language]
    login = (STATIC / "js" / "pages" / "login.js").read_text(encoding="utf-8")
    assert login.count(f'maxlength: "{MAX_LENGTH}"') == 2  # the guest field and the account name field


def test_one_account_per_name_whatever_its_spelling(client: TestClient) -> None:
    assert call(client, "POST", "/api/auth/register", json={"name": "alice", "password": "long enough password"}).status_code == 201
    for twin in ("alice\n", "ALICE", " alice ", "ａｌｉｃｅ"):
        taken = call(client, "POST", "/api/auth/register", json={"name": twin, "password": "long enough password"})
        assert taken.status_code == 409 and taken.json()["field"] == "name", twin
    login = call(client, "POST", "/api/auth/login", json={"name": " ALICE\n", "password": "long enough password"})
    assert login.status_code == 200 and login.json()["name"] == "alice"
    refused = call(client, "POST", "/api/auth/register", json={"name": "a\u0007lice", "password": "long enough password"})
    assert refused.status_code == 422 and refused.json() == {"type": "error", "field": "name", "message": NAME_RULE["en"]}


def test_guests_follow_the_same_rule(client: TestClient) -> None:
    token = new_guest(client, "  Oma   Erna ")
    assert call(client, "GET", "/api/auth/me", token).json() == {"name": "Oma Erna", "guest": True}
    for bad in ("ab", "x" * 25, "a\u0007bc", "аlice", "Zoë\n\u202e"):
        refused = call(client, "POST", "/api/auth/guest", json={"name": bad})
        assert refused.status_code == 422 and refused.json()["message"] == NAME_RULE["en"], bad
    call(client, "POST", "/api/auth/register", json={"name": "Hannelore", "password": "long enough password"})
    impostor = call(client, "POST", "/api/auth/guest", json={"name": "hannelore"})
    assert impostor.status_code == 409 and impostor.json()["field"] == "name"


def test_the_migration_rekeys_accounts_and_disables_an_impersonation(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    db = Database(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with db.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        for name in ("alice", "alice\n", "Bob"):  # as the old server stored them: the key was the name case-folded
            connection.execute(
                text("INSERT INTO users (name, name_key, password_hash, created_at) VALUES (:n, :k, 'x', '2026-01-01')"),
                {"n": name, "k": name.casefold()},
            )
    db.migrate()
    with db.engine.connect() as connection:
        keys = dict(connection.execute(text("SELECT name, name_key FROM users")).all())
    assert keys == {"alice": "alice", "alice\n": "~2", "Bob": "bob"}
    found = db.find_user("Alice")
    assert found is not None and found[1] == "alice"
    db.dispose()


def test_long_account_names_of_old_still_log_in(db_url: str) -> None:
    with running(make_settings(db_url)) as client:
        db = client.app.state.services.db  # type: ignore[attr-defined]
        db.create_user("a-name-of-thirty-chars-long-x", client.app.state.services.passwords.hash("long enough password"))  # type: ignore[attr-defined]
        login = call(client, "POST", "/api/auth/login", json={"name": "a-name-of-thirty-chars-long-x", "password": "long enough password"})
        assert login.status_code == 200
