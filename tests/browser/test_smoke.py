"""The client loads: ``/`` serves the single-page app, its assets load, the header and the lobby render, the API answers."""

from __future__ import annotations

from playwright.sync_api import Response, expect

from .flows import ContextFactory, Screenshot
from .ui import enter_as_guest, tid


def test_client_loads_and_shows_the_lobby(make_context: ContextFactory, screenshot: Screenshot) -> None:
    page = make_context().new_page()
    failed: list[str] = []

    def note_failure(response: Response) -> None:  # the client's own files (an API call may answer 401 before login)
        if response.status >= 400 and "/api/" not in response.url and "/ws/" not in response.url:
            failed.append(f"{response.status} {response.url}")

    page.on("response", note_failure)
    response = page.goto("/")
    assert response is not None and response.ok
    assert "stich" in page.title().lower()
    expect(page.locator(tid("lang-switch"))).to_be_visible()
    assert page.evaluate("document.documentElement.lang") in ("de", "en")
    health = page.request.get("/api/health")
    assert health.ok and health.json()["status"] == "ok"

    enter_as_guest(page, "Smoke")
    page.goto("/#/")
    expect(page.locator(tid("table-list"))).to_be_visible()
    expect(page.locator(tid("create-game")).locator("option[value='doppelkopf']")).to_have_count(1)
    expect(page.locator(tid("create-game")).locator("option[value='tapp_tarock']")).to_have_count(1)
    assert screenshot(page, "lobby").stat().st_size > 0
    assert not failed, f"client files that failed to load: {failed}"
