"""A discard is explained and confirmed (or taken back) before it is sent (issue 28, defect 9).

Vera plays Tapp Tarock with two heuristic bots (they bid only on good hands) and bids whenever she may, so
she usually becomes the declarer and must discard; at most twelve tables are
dealt until she does.  Clicking a card to discard shows the explanation
with "Bestätigen" and "Zurücknehmen": taking it back sends nothing and
keeps the card; confirming sends exactly that discard.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .flows import GERMAN_LAPTOP_AND_ENGLISH_PHONE, ContextFactory, Screenshot, person
from .ui import Player, client_text, play, snapshot, tid

TABLES = 12
"""Tables dealt at most until Vera has to discard (a table is left as soon as someone else won the bidding)."""
PAST_DISCARD = frozenset({"announce", "kontra", "play", "end"})
"""Phases after the discard: reached without Vera discarding, the next table is dealt."""


@GERMAN_LAPTOP_AND_ENGLISH_PHONE
def test_a_discard_is_confirmed_or_taken_back_before_it_is_sent(
    make_context: ContextFactory, screenshot: Screenshot, lang: str, viewport: dict[str, int]
) -> None:
    page = person(make_context, lang, viewport, "Vera")
    vera = Player("Vera", page, ("bid ", "take ", "hold", "pass"))

    page.on("dialog", lambda dialog: dialog.accept())  # leaving a table that still plays asks first: yes, leave it
    for _ in range(TABLES):
        made = page.request.post("/api/tables", data={"game": "tapp_tarock", "kind": "free", "deals": 1, "bots": "heuristic"})
        assert made.status == 201, made.text()
        page.evaluate("() => { if (window.__stichProbe) window.__stichProbe.phase = null; }")  # forget the last table
        page.goto(f"/#/table/{made.json()['id']}")
        page.wait_for_function("() => window.__stichProbe && window.__stichProbe.phase !== null")
        expect(page.locator(f"{tid('hand')} {tid('card')}").first).to_be_visible()
        play([vera], until=lambda latest: latest["Vera"].evaluation or _discarding(page) or _phase(page) in PAST_DISCARD, timeout=60)
        if _discarding(page):
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


def _phase(page: Page) -> str | None:
    """The phase of the latest view the page received."""
    phase: str | None = page.evaluate("() => window.__stichProbe && window.__stichProbe.phase")
    return phase


def _discarding(page: Page) -> bool:
    """Whether it is Vera's turn to discard (the latest view the page received is in the ``discard`` phase)."""
    shot = snapshot(page)
    return _phase(page) == "discard" and shot.mine and bool(shot.legal)


def test_discards_are_picked_then_confirmed_once(make_context: ContextFactory, screenshot: Screenshot) -> None:
    """Issue 40, defect 15: Tapp's declarer picks the three cards to lay away and confirms once (not twice per card)."""
    page = person(make_context, "de", {"width": 1366, "height": 768}, "Dora")
    dora = Player("Dora", page, ("bid ", "take ", "hold", "pass"))
    page.on("dialog", lambda dialog: dialog.accept())
    for _ in range(TABLES):
        made = page.request.post("/api/tables", data={"game": "tapp_tarock", "kind": "free", "deals": 1, "bots": "heuristic"})
        assert made.status == 201, made.text()
        page.evaluate("() => { if (window.__stichProbe) window.__stichProbe.phase = null; }")
        page.goto(f"/#/table/{made.json()['id']}")
        page.wait_for_function("() => window.__stichProbe && window.__stichProbe.phase !== null")
        expect(page.locator(f"{tid('hand')} {tid('card')}").first).to_be_visible()
        play([dora], until=lambda latest: latest["Dora"].evaluation or _discarding(page) or _phase(page) in PAST_DISCARD, timeout=60)
        if _discarding(page):
            break
    else:
        pytest.skip(f"Dora never had to discard in {TABLES} deals")

    shot = snapshot(page)
    chosen = shot.legal[:3]
    box = page.locator(tid("confirm-box"))
    for card in chosen:
        page.locator(f'{tid("hand")} {tid("card")}[data-card="{card}"]').first.click()
    page.wait_for_timeout(300)
    assert snapshot(page).messages == shot.messages, "picking a card sent something"
    expect(box).to_contain_text(client_text(page, "confirm.discard_many").split("{n}")[0])
    expect(page.locator(f"{tid('hand')} .card.picked")).to_have_count(3)
    screenshot(page, "three-picked", full_page=False)
    page.locator(tid("confirm-action")).click()  # once, for all three
    page.wait_for_function("() => window.__stichProbe.phase !== 'discard'")
    for card in chosen:
        expect(page.locator(f'{tid("hand")} {tid("card")}[data-card="{card}"]')).to_have_count(0)
    expect(box).to_be_hidden()
