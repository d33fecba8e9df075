"""Free play and lists in the browser (issue 28, defect 1), in German and English, on a laptop and a phone.

The lobby's default Doppelkopf table is free play: no Pflichtsolo, so no
row of forced solos; the form says what the table will play, following the
game's options (Dappen at 8 seats deals round 8 seats).  When a deal is a
Vorführung, the table says so and why, and the side panel does not call it
a Normalspiel while only solo buttons are offered [doppelkopf.md §2.3].
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .flows import GERMAN_LAPTOP_AND_ENGLISH_PHONE, ContextFactory, Screenshot, person
from .ui import client_text, create_table, tid


@GERMAN_LAPTOP_AND_ENGLISH_PHONE
def test_the_lobby_offers_free_play_first_and_says_what_a_table_plays(
    make_context: ContextFactory, screenshot: Screenshot, lang: str, viewport: dict[str, int]
) -> None:
    page = person(make_context, lang, viewport, "Lena")
    page.goto("/#/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.locator(tid("create-game")).select_option("doppelkopf")
    expect(page.locator(tid("create-kind"))).to_have_value("free")
    rules = page.locator(tid("create-rules"))
    expect(rules).to_contain_text(client_text(page, "rules.no_pflichtsolo"))
    screenshot(page, f"lobby-free-{lang}")

    page.locator(tid("create-kind")).select_option("list")
    expect(page.locator(tid("create-deals"))).to_have_value("24")  # §2.1: a round of 24 games, the Pflichtsoli included
    expect(rules).to_contain_text(client_text(page, "rules.vorfuehrung"))
    screenshot(page, f"lobby-list-{lang}")

    page.locator(tid("create-kind")).select_option("free")
    page.locator(tid("create-game")).select_option("dappen")
    page.locator(".options-form summary").click()
    players = page.locator("#opt-dappen-players")
    players.fill("8")
    players.press("Tab")
    expect(rules).to_contain_text(client_text(page, "rules.dealer_rotates").replace("{seats}", "8"))
    expect(page.locator(tid("create-deals"))).to_have_value("8")

    table_id = create_table(page, "doppelkopf", deals=3)
    summary: dict[str, Any] = page.request.get(f"/api/tables/{table_id}").json()
    assert "pflichtsolo=false" in summary["game"] and summary["rules"]["compulsory"] is None, summary
    expect(page.locator(tid("table-rules"))).to_contain_text(client_text(page, "rules.no_pflichtsolo"))


@GERMAN_LAPTOP_AND_ENGLISH_PHONE
def test_a_vorfuehrung_is_said_on_the_table(
    make_context: ContextFactory, screenshot: Screenshot, lang: str, viewport: dict[str, int]
) -> None:
    """A one-deal DDV list (made through the API, without a kind): seat 1 is forced; its page says so and why."""
    page = person(make_context, lang, viewport, "Vera")
    made = page.request.post("/api/tables", data={"game": "doppelkopf", "deals": 1, "seat": 1, "bots": "heuristic"})
    assert made.status == 201, made.text()
    page.goto(f"/#/table/{made.json()['id']}")
    note = page.locator(tid("forced-note"))
    expect(note).to_be_visible()
    expect(note).to_contain_text(client_text(page, "rules.forced_vorfuehrung"))
    expect(page.locator(f"{tid('actions')} {tid('action')}").first).to_be_visible()
    offered = page.locator(f"{tid('actions')} {tid('action')}").evaluate_all("buttons => buttons.map(b => b.dataset.action)")
    assert offered and all(action.startswith("solo ") for action in offered), offered
    side = page.locator(".info-panel")
    expect(side).to_contain_text(client_text(page, "rules.forced_vorfuehrung"))
    expect(side).not_to_contain_text(client_text(page, "contract.doppelkopf.normal"))
    expect(page.locator(tid("table-rules"))).to_contain_text(client_text(page, "rules.short_list").split("(")[0].strip())
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the table scrolls sideways by {overflow} px"
    screenshot(page, f"vorfuehrung-{lang}", full_page=False)


@GERMAN_LAPTOP_AND_ENGLISH_PHONE
def test_a_free_dappen_table_of_one_deal_a_seat_stays_free_play(
    make_context: ContextFactory, screenshot: Screenshot, lang: str, viewport: dict[str, int]
) -> None:
    """Issue 40, defect 7: the form said "Freies Spiel", the table was made a six-deal list; "Freies Spiel" again changed nothing.

    Dappen has no compulsory deals, so six deals at six seats are the same deals free or as a list [dappen.md §2]:
    the table is what its creator asked for, in the form's preview, on the table page and in its summary.
    """
    page = person(make_context, lang, viewport, "Dora")
    page.goto("/#/")
    page.locator(tid("create-game")).select_option("dappen")
    expect(page.locator(tid("create-kind"))).to_have_value("free")
    expect(page.locator(tid("create-deals"))).to_have_value("6")
    free = client_text(page, "rules.kind_free").replace("{deals}", "6")
    rules = page.locator(tid("create-rules"))
    expect(rules).to_contain_text(free)
    page.locator(tid("create-kind")).select_option("list")
    expect(rules).to_contain_text(client_text(page, "rules.kind_list").replace("{deals}", "6"))
    page.locator(tid("create-kind")).select_option("free")
    expect(rules).to_contain_text(free)
    page.locator(tid("create-submit")).click()
    page.wait_for_url(re.compile(r".*#/table/[^/?]+"))
    table_id = page.url.split("#/table/")[1].split("?")[0]
    summary: dict[str, Any] = page.request.get(f"/api/tables/{table_id}").json()
    assert summary["rules"]["kind"] == "free" and summary["deals_requested"] == 6, summary
    expect(page.locator(tid("table-rules"))).to_contain_text(free)
    screenshot(page, f"dappen-free-{lang}", full_page=False)

    made = page.request.post("/api/tables", data={"game": "dappen", "kind": "list", "seat": 0})
    assert made.status == 201 and made.json()["rules"]["kind"] == "list", made.text()
