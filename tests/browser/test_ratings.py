"""The leaderboard and a profile in the browser (issue 44, decision 0055), in German and English, on a laptop and a phone.

An account creates a rated Doppelkopf table with random bots from the
lobby's form and leaves it for the leaderboard at once: after the grace
period the stand-in plays the deal to its end, and by the stand-in rule the
deal counts as lost for the absent account.
The leaderboard (reached from the nav) then lists the account and the bot
spec; the account's name leads to its profile, whose rating, plot point
and statistics agree with the API.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .flows import GERMAN_LAPTOP_AND_ENGLISH_PHONE, ContextFactory, Screenshot, person
from .ui import client_text, register, table_finished, tid


@GERMAN_LAPTOP_AND_ENGLISH_PHONE
def test_leaderboard_and_profile_after_a_rated_deal(
    make_context: ContextFactory, screenshot: Screenshot, lang: str, viewport: dict[str, int]
) -> None:
    name = f"Rita {lang}"
    page = person(make_context, lang, viewport)
    register(page, name)
    page.goto("/#/")
    page.locator(tid("create-game")).select_option("doppelkopf")
    page.locator(tid("create-deals")).fill("1")
    page.locator(tid("create-bots")).select_option("random")
    page.locator(tid("create-rated")).check()
    page.locator(tid("create-submit")).click()
    page.wait_for_url(re.compile(r".*#/table/[^/?]+"))
    match = re.search(r"#/table/([^/?]+)", page.url)
    assert match, page.url
    table_id = match.group(1)
    summary: dict[str, Any] = page.request.get(f"/api/tables/{table_id}").json()
    assert summary["rated"] is True, summary

    page.on("dialog", lambda dialog: dialog.accept())  # "a bot plays for you while you are away": yes, leave
    page.locator('.mainnav a[data-route="ratings"]').click()
    expect(page.locator(tid("leaderboard"))).to_be_visible()
    table_finished(page, table_id)  # away past the grace period: the stand-in played the deal to its end
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    board: dict[str, Any] = page.request.get("/api/ratings/doppelkopf").json()
    mine = next(line for line in board["players"] if line["name"] == name)
    assert (mine["deals"], mine["lost"]) == (1, 1), mine  # away for the deal: counted as lost
    expect(page.locator(tid("leaderboard-title"))).to_contain_text(client_text(page, "ratings.family.doppelkopf.ddv"))
    row = page.locator(tid("leaderboard-row")).filter(has_text=name)
    expect(row).to_contain_text(f"{mine['rating']:.2f}")
    expect(page.locator(tid("leaderboard-row")).and_(page.locator('[data-kind="bot"]'))).to_have_count(1)
    screenshot(page, f"leaderboard-{lang}")

    row.locator(tid("player-link")).click()
    expect(page.locator(tid("profile-name"))).to_contain_text(name)
    expect(page.locator(tid("profile-rating-value"))).to_have_text(f"{mine['rating']:.2f}")
    expect(page.locator(tid("rating-plot"))).to_be_visible()
    points = page.locator(tid("rating-point"))
    expect(points).to_have_count(1)
    assert "lost" in (points.first.get_attribute("class") or "")
    expect(page.locator(tid("profile-stats-row"))).to_have_count(1)
    expect(page.locator(tid("profile-table"))).to_have_count(1)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the profile scrolls sideways by {overflow} px"
    screenshot(page, f"profile-{lang}")

    page.goto("/#/players/nobody%20here")
    expect(page.locator(tid("profile-error"))).to_have_text(client_text(page, "ratings.no_player"))
    page.goto("/#/")
    expect(page.locator(tid("create-rated"))).to_be_checked()  # the lobby remembers the last table, rated included
