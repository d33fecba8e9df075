"""The lobby lists the tables of every worker in one order, whichever worker answers (issue 42, fault 6).

Walking three pages of 24 tables on two workers missed or repeated up to 9
of them: each worker listed its own tables first, then the others'.  Here
two apps share one Redis and one database (two workers in one process).
"""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from .helpers import call, create_table, make_settings, new_guest, running


def test_the_lobby_pages_are_the_same_on_every_worker(redis_url: str, tmp_path: Path) -> None:
    settings = make_settings(f"sqlite:///{tmp_path / 's.db'}", redis_url=redis_url, max_tables_per_person=20, lease_seconds=30.0)
    with running(settings) as a, running(settings) as b:
        made = []
        for number in range(12):
            worker = a if number % 2 == 0 else b
            token = new_guest(worker)
            made.append(create_table(worker, token, game="doppelkopf", kind="free")["id"])

        def walk(worker: TestClient) -> list[str]:
            seen: list[str] = []
            for offset in range(0, 12, 5):
                page = call(worker, "GET", f"/api/tables?limit=5&offset={offset}").json()
                assert page["total"] == 12
                seen += [table["id"] for table in page["tables"]]
            return seen

        on_a, on_b = walk(a), walk(b)
        assert on_a == on_b == made  # oldest first on both (was: each worker's own tables first)
