"""The language switch (German / English) and the table on a phone-sized screen."""

from __future__ import annotations

from playwright.sync_api import expect

from .flows import ContextFactory, Screenshot
from .ui import Player, add_bots, create_table, enter_as_guest, play, tid

PHONE = {"width": 390, "height": 844}
BOXES_SCRIPT = """
() => {
  const boxes = (selector) => [...document.querySelectorAll(selector)].map((element) => {
    const box = element.getBoundingClientRect();
    return {x: box.x, y: box.y, width: box.width, height: box.height};
  });
  return {
    hand: boxes('[data-testid="hand"]'),
    cards: boxes('[data-testid="hand"] [data-testid="card"]'),
    seats: boxes('[data-testid="seat"]'),
  };
}
"""
"""Viewport rectangles of the hand, its cards and the seats."""


def test_language_switch_changes_visible_texts(make_context: ContextFactory, screenshot: Screenshot) -> None:
    page = make_context().new_page()
    enter_as_guest(page, "Lena")
    page.goto("/#/")
    submit = page.locator(tid("create-submit"))
    expect(submit).to_be_visible()
    first_language = page.evaluate("document.documentElement.lang")
    assert first_language in ("de", "en"), first_language
    other_language = "en" if first_language == "de" else "de"
    first_label, first_text = submit.inner_text(), page.locator("body").inner_text()
    screenshot(page, f"lobby-{first_language}")

    page.locator(tid("lang-switch")).click()
    expect(page.locator("html")).to_have_attribute("lang", other_language)
    expect(submit).not_to_have_text(first_label)
    assert page.locator("body").inner_text() != first_text
    screenshot(page, f"lobby-{other_language}")

    page.locator(tid("lang-switch")).click()
    expect(page.locator("html")).to_have_attribute("lang", first_language)
    expect(submit).to_have_text(first_label)


def test_phone_sized_table_shows_the_hand(make_context: ContextFactory, screenshot: Screenshot) -> None:
    context = make_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    enter_as_guest(page, "Pia")
    create_table(page, "doppelkopf", deals=1)
    add_bots(page, "heuristic")
    cards = page.locator(f"{tid('hand')} {tid('card')}")
    expect(cards.first).to_be_visible()
    expect(cards).to_have_count(12)

    hand = page.locator(tid("hand"))
    hand.evaluate("element => element.scrollIntoView({block: 'nearest'})")  # as a person would scroll to their cards
    boxes: dict[str, list[dict[str, float]]] = page.evaluate(BOXES_SCRIPT)  # in one go: the hand re-renders as the bots play
    (hand_box,) = boxes["hand"]
    assert hand_box["height"] <= PHONE["height"], f"the hand is taller than the screen: {hand_box}"
    assert len(boxes["cards"]) == 12
    for index, box in enumerate(boxes["cards"]):
        assert box["x"] >= -1 and box["x"] + box["width"] <= PHONE["width"] + 1, f"card {index} sticks out sideways: {box}"
        assert box["y"] >= -1 and box["y"] + box["height"] <= PHONE["height"] + 1, f"card {index} is off the screen: {box}"
    assert len(boxes["seats"]) == 4
    for index, box in enumerate(boxes["seats"]):
        assert box["x"] >= -1 and box["x"] + box["width"] <= PHONE["width"] + 1, f"seat {index} is cut off at the side: {box}"
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the table page scrolls sideways by {overflow} px on a phone"
    screenshot(page, "phone-table", full_page=False)

    pia = Player("Pia", page)
    play([pia], until=lambda latest: 0 < len(latest["Pia"].hand) <= 10)  # tapping cards works on a touch screen
    screenshot(page, "phone-mid-deal", full_page=False)
