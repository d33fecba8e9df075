"""A duplicate tournament in the browser (decision 0057): an account organises it from the tournaments page (German),
starts it with bots, watches the standings fill in, and downloads the records; a guest (English) sees it listed."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from .flows import LOCALES, ContextFactory, Screenshot
from .ui import client_text, enter_as_guest, register, tid


def test_organise_a_tournament_watch_its_standings_and_download_its_records(make_context: ContextFactory, screenshot: Screenshot) -> None:
    page = make_context(locale=LOCALES["de"]).new_page()
    register(page, "Turnierleiterin", "correct horse battery")

    page.locator(tid("nav-tournaments")).click()
    expect(page.locator(tid("nav-tournaments"))).to_have_text(client_text(page, "nav.tournaments"))
    page.locator(tid("tournament-name")).fill("Adventsturnier")
    page.locator(tid("tournament-game")).select_option("doppelkopf")
    page.locator(tid("tournament-deals")).fill("2")
    page.locator(tid("tournament-tables")).fill("2")
    page.locator(tid("tournament-bots")).select_option("random")
    page.locator(tid("tournament-create")).click()
    page.wait_for_url(re.compile(r".*#/tournament/[^/?]+"))
    tournament_id = page.url.rsplit("/", 1)[1]
    expect(page.locator(tid("tournament-name"))).to_have_text("Adventsturnier")
    expect(page.locator(tid("tournament-table"))).to_have_count(2)
    expect(page.locator(tid("standings-empty"))).to_have_text(client_text(page, "tournament.no_standings"))
    screenshot(page, "created")

    page.locator(tid("tournament-start-now")).click()
    expect(page.locator(tid("tournament-status"))).to_have_text(client_text(page, "tournament.status.finished"), timeout=90_000)
    expect(page.locator(tid("standings-row"))).to_have_count(8)
    standings = page.request.get(f"/api/tournaments/{tournament_id}/standings").json()
    first = page.locator(tid("standings-row")).first
    expect(first.locator("td").nth(1)).to_have_text(standings["rows"][0]["name"])
    expect(first.locator("td").nth(4)).to_have_text(re.compile(rf"^[−-]?{abs(standings['rows'][0]['points'])}$"))
    screenshot(page, "finished")

    link = page.locator(tid("tournament-records"))
    expect(link).to_have_text(client_text(page, "tournament.records"))
    download = page.request.get(link.get_attribute("href") or "")
    records = [json.loads(line) for line in download.text().splitlines()]
    assert len(records) == 4 and {r["meta"]["tournament"]["id"] for r in records} == {tournament_id}

    guest = make_context(locale=LOCALES["en"]).new_page()
    enter_as_guest(guest, "Ruth")
    guest.goto("/#/tournaments")
    expect(guest.locator(tid("tournament-login-first"))).to_be_visible()
    expect(guest.locator(tid("tournament-row")).filter(has_text="Adventsturnier")).to_have_count(1)
    guest.locator(tid("tournament-row")).filter(has_text="Adventsturnier").locator("a").click()
    expect(guest.locator(tid("standings-row"))).to_have_count(8)
    expect(guest.locator(tid("tournament-join"))).to_have_count(0)  # finished: nobody joins any more
