"""A discard is explained and confirmed (or taken back) before it is sent (issue 28, defect 9).

Vera plays Tapp Tarock with two random bots and bids whenever she may, so
she usually becomes the declarer and must discard; at most six tables are
dealt until she does.  Clicking a card to discard shows the explanation
with "Bestätigen" and "Zurücknehmen": taking it back sends nothing and
keeps the card; confirming sends exactly that discard.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .flows import ContextFactory, Screenshot
from .test_table_kinds import LAPTOP, LOCALES, PHONE
from .ui import Player, client_text, enter_as_guest, play, snapshot, tid

TABLES = 6
"""Tables dealt at most until Vera has to discard."""


@pytest.mark.parametrize(("lang", "viewport"), [("de", LAPTOP), ("en", PHONE)], ids=["de-1366", "en-390"])
def test_a_discard_is_confirmed_or_taken_back_before_it_is_sent(
    make_context: ContextFactory, screenshot: Screenshot, lang: str, viewport: dict[str, int]
) -> None:
    page = make_context(viewport=viewport, locale=LOCALES[lang]).new_page()
    enter_as_guest(page, "Vera")
    vera = Player("Vera", page, ("bid ", "take ", "hold", "pass"))

    for _ in range(TABLES):
        made = page.request.post("/api/tables", data={"game": "tapp_tarock", "kind": "free", "deals": 1, "bots": "random"})
        assert made.status == 201, made.text()
        page.goto(f"/#/table/{made.json()['id']}")
        expect(page.locator(f"{tid('hand')} {tid('card')}").first).to_be_visible()
        reached = play([vera], until=lambda latest: latest["Vera"].evaluation or _discarding(page), timeout=60)
        if not reached["Vera"].evaluation:
            break
    else:
        pytest.skip(f"Vera never had to discard in {TABLES} deals")

    shot = snapshot(page)
    card = shot.legal[0]
    messages = shot.messages
    page.locator(f'{tid("hand")} {tid("card")}[data-card="{card}"]').first.click()
    box = page.locator(tid("confirm-box"))
    expect(box).to_be_visible()
    expect(box).to_contain_text(client_text(page, "confirm.ok"))
    screenshot(page, f"confirm-discard-{lang}", full_page=False)
    page.locator(tid("cancel-action")).click()
    expect(box).to_be_hidden()
    page.wait_for_timeout(300)
    after = snapshot(page)
    assert card in after.hand and after.messages == messages, "taking the discard back sent something"
    page.locator(f'{tid("hand")} {tid("card")}[data-card="{card}"]').first.click()
    page.locator(tid("confirm-action")).click()
    page.wait_for_function("n => window.__stichProbe.messages > n", arg=messages)
    expect(page.locator(f'{tid("hand")} {tid("card")}[data-card="{card}"]')).to_have_count(0)


def _discarding(page: Page) -> bool:
    """Whether it is Vera's turn to discard (the latest view the page received is in the ``discard`` phase)."""
    shot = snapshot(page)
    phase = page.evaluate("() => window.__stichProbe && window.__stichProbe.phase")
    return phase == "discard" and shot.mine and bool(shot.legal)
