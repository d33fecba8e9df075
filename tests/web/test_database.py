"""The database: migrations match the models, run idempotently, and the default location and CLI options."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

import stich.web.settings as settings_module
from stich.cli.main import main
from stich.web.settings import Settings, default_database_url
from stich.web.storage.db import Database
from stich.web.storage.models import Base

pytestmark = pytest.mark.both_databases


def test_migrations_build_exactly_the_models(db_url: str) -> None:
    db = Database(db_url)
    db.migrate()
    db.migrate()  # a second start applies nothing and breaks nothing
    with db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []
        assert context.get_current_revision() == "0008_table_options"
    names = set(inspect(db.engine).get_table_names())
    assert {"users", "auth_sessions", "game_tables", "table_seats", "deals", "deal_actions", "alembic_version"} <= names
    db.dispose()


@pytest.mark.parametrize("deal_id", [2**31 - 1, 2**31, 2**63 - 1, 2**63])
def test_an_id_past_the_key_columns_range_is_no_deal(db_url: str, deal_id: int) -> None:
    # PostgreSQL's integer key has 32 bits and refuses a larger id outright (a DataError, a 500 to the client)
    db = Database(db_url)
    db.migrate()
    try:
        assert db.get_deal(deal_id) is None
    finally:
        db.dispose()


def test_migration_scripts_ship_inside_the_package() -> None:
    import stich.web.storage.migrations as migrations

    folder = Path(migrations.__file__).parent
    assert (folder / "env.py").is_file() and (folder / "versions" / "0001_initial.py").is_file()


def test_default_database_is_a_file_in_the_user_data_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    asked = []

    def fake_user_data_dir(name: str, appauthor: bool) -> str:
        asked.append(name)
        return str(tmp_path / name)

    monkeypatch.setattr(settings_module, "user_data_dir", fake_user_data_dir)
    url = default_database_url()
    assert asked == ["stich"]
    assert url == f"sqlite:///{tmp_path / 'stich' / 'stich.db'}"
    assert (tmp_path / "stich").is_dir()
    assert Settings().resolved_database_url() == url
    assert Settings(database_url="sqlite:///x.db").resolved_database_url() == "sqlite:///x.db"


def test_settings_refuse_nonsense() -> None:
    with pytest.raises(ValueError, match="grace"):
        Settings(grace_seconds=-1)
    with pytest.raises(ValueError, match="max_message_bytes"):
        Settings(max_message_bytes=10)


def test_serve_refuses_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--database", "not a url"]) == 2
    assert "--database" in capsys.readouterr().err
    assert main(["serve", "--port", "0"]) == 2
    assert "--port" in capsys.readouterr().err
    assert main(["serve", "--grace", "-5"]) == 2
    assert "--grace" in capsys.readouterr().err
