"""Learning from a deal in the browser (issue 43): a hint at a learning table, marked on the score sheet, and the deal
played again from its end with the same cards, both results side by side."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .flows import LAPTOP, ContextFactory, Screenshot, person
from .ui import Player, all_evaluated, client_text, fetch_record, play, tid


@pytest.mark.parametrize(("lang", "viewport"), [("de", LAPTOP)], ids=["de-1366"])
def test_a_hint_then_the_same_deal_again(make_context: ContextFactory, screenshot: Screenshot, lang: str, viewport: dict[str, int]) -> None:
    page = person(make_context, lang, viewport, "Lea")
    made = page.request.post("/api/tables", data={"game": "doppelkopf", "deals": 1, "seat": 0, "bots": "heuristic", "learning": True})
    assert made.ok, made.text()
    table_id = made.json()["id"]
    page.goto(f"/#/table/{table_id}")
    expect(page.locator(tid("learning-mark"))).to_have_text(client_text(page, "learning.mode"))
    button = page.locator(tid("hint-button"))
    expect(button).to_be_visible(timeout=60_000)
    expect(button).to_have_text(client_text(page, "learning.hint"))
    button.click()
    answer = page.locator(tid("hint-answer"))
    expect(answer).to_be_visible(timeout=120_000)
    expect(answer).to_contain_text(client_text(page, "learning.hint_says"))
    why = page.locator(tid("hint-why")).inner_text().strip()
    assert why and "play " not in why, why  # the cards named in words, not in the server's notation
    screenshot(page, f"hint-{lang}")

    lea = Player("Lea", page)
    play([lea], all_evaluated, timeout=120)
    expect(page.locator(f"{tid('score-sheet')} {tid('hint-mark')}")).to_have_count(1)
    deal = page.locator(tid("replay-link")).get_attribute("href")
    assert deal is not None
    deal_id = re.search(r"/replay/(\d+)", deal)
    assert deal_id is not None
    original = fetch_record(page, deal_id.group(1))
    assert original["meta"]["hints"] == [0]

    again = page.locator(f"{tid('evaluation')} {tid('play-again')}")
    expect(again).to_be_visible()
    again.locator(tid("again-seat")).select_option("2")
    again.locator(tid("again-bots")).click()
    expect(page).not_to_have_url(re.compile(f"{table_id}$"), timeout=15_000)
    expect(page.locator(tid("hint-box"))).to_be_hidden()  # the replay is no learning table
    expect(page.locator(tid("replay-of"))).to_have_text(client_text(page, "learning.replay_of").replace("{deal}", deal_id.group(1)))
    play([Player("Lea", page)], all_evaluated, timeout=120)
    compare = page.locator(f"{tid('evaluation')} {tid('compare')}")
    expect(compare).to_be_visible(timeout=15_000)
    expect(compare.locator(tid("compare-side"))).to_have_count(2)
    expect(compare.locator(tid("compare-same"))).to_have_text(client_text(page, "learning.same_cards"))
    screenshot(page, f"compare-{lang}")
    replayed = page.locator(tid("replay-link")).get_attribute("href")
    assert replayed is not None
    replayed_id = re.search(r"/replay/(\d+)", replayed)
    assert replayed_id is not None
    record = fetch_record(page, replayed_id.group(1))
    assert record["deal"] == original["deal"] and record["meta"]["replay_of"]["deal"] == int(deal_id.group(1))

    page.goto(f"/#/replay/{replayed_id.group(1)}")
    expect(page.locator(f"{tid('replay')} {tid('compare')}")).to_be_visible(timeout=15_000)
    expect(page.locator(f"{tid('replay')} {tid('play-again')}")).to_be_visible()
