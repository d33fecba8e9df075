"""A click on a card that may not be played says why, with the rule (issue 28: rules help), and changes nothing.

Ida plays Doppelkopf with three bots until, on her turn to play, one of her
cards is not allowed; she clicks it.  The engine's reason comes back (German:
worded by the client, with the rule's section), the deal does not move on,
and she still holds the card; then she plays a legal card as usual.
"""

from __future__ import annotations

from playwright.sync_api import expect

from .flows import GERMAN_LAPTOP_AND_ENGLISH_PHONE, ContextFactory, Screenshot, person
from .ui import Player, add_bots, create_table, play, snapshot, tid


@GERMAN_LAPTOP_AND_ENGLISH_PHONE
def test_an_illegal_card_click_says_why(make_context: ContextFactory, screenshot: Screenshot, lang: str, viewport: dict[str, int]) -> None:
    page = person(make_context, lang, viewport, "Ida")
    create_table(page, "doppelkopf", deals=1)
    add_bots(page, "heuristic")
    ida = Player("Ida", page)
    latest = play([ida], until=lambda shots: shots["Ida"].mine and 0 < len(shots["Ida"].legal) < len(shots["Ida"].hand), timeout=90)
    shot = latest["Ida"]
    illegal = next(card for card in shot.hand if card not in shot.legal)
    page.locator(f'{tid("hand")} {tid("card")}[data-card="{illegal}"][data-legal="false"]').first.click()
    toast = page.locator("#toast")
    expect(toast).to_be_visible()
    expect(toast).to_contain_text("§")  # the rule the card breaks
    text = toast.inner_text()
    if lang == "de":
        assert "must" not in text and "follow" not in text, text
    screenshot(page, f"illegal-card-{lang}", full_page=False)
    after = snapshot(page)
    assert after.step == shot.step and illegal in after.hand, "an illegal click changed the deal"
    assert after.mine and sorted(after.legal) == sorted(shot.legal)
