"""Layout at the sizes people play on (issue 28, defect 6): 1366×768, 900×800 and a 390×844 phone.

* a Droggn declarer's 24 cards stay on the screen in one row, or in the two deliberate rows, never more;
* the score sheet of six Dappen players fits beside the table at 1366 px;
* the top seat's name is inside the felt on a phone, not cut off at its edge.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .flows import ContextFactory, Screenshot
from .ui import add_bots, create_table, enter_as_guest, tid

DROGGN_HAND = """
async () => {
  const {renderHand, layoutHand} = await import('/static/js/table/hand.js');
  const hand = document.createElement('div');  // a hand of its own: the live page re-renders its own as the table changes
  hand.className = 'hand';
  hand.dataset.testid = 'layout-hand';
  document.querySelector('.play-area').append(hand);
  const trumps = ['T22', 'T21', 'T20', 'T19', 'T18', 'T17', 'T16', 'T15', 'T14', 'T13', 'T12', 'T11', 'T10', 'T9', 'T8'];
  const cards = [...trumps, 'CK', 'CQ', 'CC', 'CJ', 'SK', 'SQ', 'HK', 'HQ', 'DK'];
  const groups = [trumps, ['CK', 'CQ', 'CC', 'CJ'], ['SK', 'SQ'], ['HK', 'HQ'], ['DK']];
  renderHand(hand, {hand: cards, groups, cardActions: new Map(), myTurn: false, busy: false, gameName: 'droggn', pack: 'tarock',
    onPlay: () => {}});
  layoutHand(hand);
  hand.scrollIntoView({block: 'nearest'});
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  return {
    twoRows: hand.classList.contains('two-rows'),
    cards: [...hand.querySelectorAll('[data-testid="card"]')].map((card) => {
      const r = card.getBoundingClientRect();
      return {x: r.x, y: r.y, width: r.width, height: r.height, top: card.offsetTop};
    }),
  };
}
"""


@pytest.mark.parametrize("width", [1366, 900, 390])
def test_a_droggn_declarers_24_cards_stay_on_the_screen(make_context: ContextFactory, screenshot: Screenshot, width: int) -> None:
    height = 844 if width == 390 else 800
    page = make_context(viewport={"width": width, "height": height}, locale="de-DE").new_page()
    enter_as_guest(page, "Dora")
    create_table(page, "droggn", deals=1)
    expect(page.locator(tid("seat")).first).to_be_visible()
    laid: dict[str, Any] = page.evaluate(DROGGN_HAND)
    cards = laid["cards"]
    assert len(cards) == 24
    rows = {card["top"] for card in cards}
    assert len(rows) <= (2 if laid["twoRows"] else 1), f"the hand wrapped into {len(rows)} rows at {width} px"
    for index, card in enumerate(cards):
        assert card["x"] >= -1 and card["x"] + card["width"] <= width + 1, f"card {index} leaves the screen at {width} px: {card}"
    screenshot(page, f"droggn-24-{width}", full_page=False)


def test_six_players_sheet_fits_at_1366(make_context: ContextFactory, screenshot: Screenshot) -> None:
    page = make_context(viewport={"width": 1366, "height": 768}, locale="de-DE").new_page()
    enter_as_guest(page, "Maximiliane")
    create_table(page, "dappen", deals=6)
    add_bots(page, "heuristic")
    expect(page.locator(tid("score-sheet"))).to_be_visible()
    overflow = page.locator(".sheet-scroll").evaluate("el => el.scrollWidth - el.clientWidth")
    assert overflow <= 1, f"the six-player score sheet is cut off by {overflow} px at 1366 px"
    screenshot(page, "dappen-sheet-1366", full_page=False)


def test_the_top_seat_is_inside_the_felt_on_a_phone(make_context: ContextFactory, screenshot: Screenshot) -> None:
    page = make_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True).new_page()
    enter_as_guest(page, "Pia")
    create_table(page, "doppelkopf", deals=1)
    add_bots(page, "heuristic")
    expect(page.locator(f"{tid('hand')} {tid('card')}").first).to_be_visible()
    # The seats are drawn anew with each state, so both boxes are read in one frame, once the plate is laid out.
    boxes = page.wait_for_function(
        """selector => {
            const felt = document.querySelector(".felt"), plate = document.querySelector(selector);
            if (!felt || !plate) return null;
            const f = felt.getBoundingClientRect(), p = plate.getBoundingClientRect();
            if (!p.width || !p.height) return null;
            return {felt: {x: f.x, y: f.y, width: f.width, height: f.height}, top: {x: p.x, y: p.y, width: p.width, height: p.height}};
        }""",
        arg=f"{tid('seat')}.edge-top .plate",
    ).json_value()
    felt, top = boxes["felt"], boxes["top"]
    assert top["y"] >= felt["y"] and top["x"] >= felt["x"] and top["x"] + top["width"] <= felt["x"] + felt["width"], (felt, top)
    screenshot(page, "phone-top-seat", full_page=False)
