"""Dropping out and coming back in the browser: a stand-in bot plays the absent seat, the returning page takes over.

Mid-deal, when it is Bert's turn to play a card, Bert's page is closed.
After the grace period (2 s on the test server) Anna's page shows him away
and a stand-in bot plays for him.  Bert opens the table again in the same
browser context (his session cookie): the page is connected, his hand is
the hand he left minus exactly the cards the stand-in played (read from the
deal record afterwards), and both finish the deal.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from playwright.sync_api import Page, expect

from .flows import ContextFactory, Screenshot, check_finished_deal, finished_records, seat_two_people
from .knowledge import seat_actions
from .ui import Snapshot, all_evaluated, client_text, play, snapshot, tid


def _seat_status(page: Page, table_id: str, seat: int) -> dict[str, Any]:
    answer = page.request.get(f"/api/tables/{table_id}")
    assert answer.ok, answer.text()
    status: dict[str, Any] = answer.json()["seats"][seat]
    return status


def test_drop_and_reconnect_with_stand_in(make_context: ContextFactory, screenshot: Screenshot) -> None:
    table = seat_two_people(make_context, screenshot, "doppelkopf")
    anna, bert = table.anna, table.bert

    def bert_to_play_a_card(latest: dict[str, Snapshot]) -> bool:
        shot = latest["Bert"]
        settled = sorted(shot.hand) == sorted(shot.server_hand or [])
        return shot.on_table and shot.mine and bool(shot.legal) and 6 <= len(shot.hand) <= 11 and settled

    left = play(table.players, until=bert_to_play_a_card)["Bert"]
    hand_left = Counter(left.hand)
    clicks_before = len(bert.moves)
    table_url = bert.page.url
    bert_context = bert.page.context
    bert.page.close()

    # Anna's page: Bert's seat says a bot plays for him (after the grace period), and the stand-in's card moves the turn on.
    bert_plate = anna.page.locator(f'{tid("seat")}[data-seat="{table.bert_seat}"]')
    expect(bert_plate).to_have_attribute("data-occupant", "Bert")
    expect(bert_plate).to_contain_text(client_text(anna.page, "table.stand_in"), timeout=20_000)
    assert _seat_status(anna.page, table.id, table.bert_seat)["stand_in"]
    play([anna], until=lambda latest: latest["Anna"].mine or latest["Anna"].evaluation, timeout=30)
    screenshot(anna.page, "stand-in-playing")

    bert.page = bert_context.new_page()
    bert.page.goto(table_url)
    expect(bert.page.locator(tid("connection"))).to_have_attribute("data-state", "connected")
    expect(bert.page.locator(f"{tid('hand')} {tid('card')}").first).to_be_visible()
    back = snapshot(bert.page)
    attempts = 0
    while back.server_hand is None or sorted(back.hand) != sorted(back.server_hand):
        attempts += 1
        assert attempts < 100, f"Bert's page shows {back.hand}, the server sent {back.server_hand}"
        bert.page.wait_for_timeout(50)
        back = snapshot(bert.page)
    hand_back = Counter(back.hand)
    assert hand_back < hand_left, f"back with {sorted(hand_back.elements())}, left with {sorted(hand_left.elements())}"
    screenshot(bert.page, "reconnected")
    expect(bert.page.locator(tid("absence-note"))).to_be_visible()  # told on his return, while the table plays
    expect(bert_plate).not_to_contain_text(client_text(anna.page, "table.stand_in"))
    assert not _seat_status(anna.page, table.id, table.bert_seat)["away"]

    play(table.players, until=all_evaluated)
    records = finished_records(table)
    record = records[str(anna.snapshots[-1].deal)]
    assert table.bert_seat in record["meta"]["stand_in_seats"]
    recorded = seat_actions(record, table.bert_seat)
    stand_in_count = len(recorded) - len(bert.moves)  # Bert's actions that were not his clicks, between leaving and returning
    stand_in_plays = [text.split()[-1] for text in recorded[clicks_before : clicks_before + stand_in_count] if text.startswith("play ")]
    assert stand_in_plays, "the stand-in bot never played for Bert"
    assert Counter(stand_in_plays) == hand_left - hand_back, f"stand-in played {stand_in_plays}"
    check_finished_deal(table, records, stand_in={"Bert": (clicks_before, stand_in_count)})
    check_stand_in_marked(table.anna.page, bert.page, screenshot)


def check_stand_in_marked(anna_page: Page, bert_page: Page, screenshot: Screenshot) -> None:
    """Issue 28, defect 2: the deal is marked "played by a bot for Bert" in both sheets, his history and the replay,
    Bert was told on his return (not again at the finished table), and his statistics leave the deal out unless he asks for it."""
    for page in (anna_page, bert_page):
        mark = page.locator(f"{tid('score-sheet')} {tid('stand-in-mark')}")
        expect(mark).to_have_count(1)
        expect(mark).to_contain_text(client_text(page, "absence.played_for").replace("{names}", "Bert"))
    # the table is finished now: no "welcome back" any more (issue 40, defect 3); he was told on his return
    expect(bert_page.locator(tid("absence-note"))).to_be_hidden()
    screenshot(bert_page, "stand-in-marked")
    bert_page.goto("/#/history")
    expect(bert_page.locator(f"{tid('history-row')} {tid('stand-in-mark')}")).to_have_count(1)
    bert_page.goto("/#/stats")
    expect(bert_page.locator(tid("stats-stand-in-note"))).to_be_visible()
    expect(bert_page.locator(tid("stats-row"))).to_have_count(0)
    bert_page.locator(tid("stats-include-stand-in")).check()
    expect(bert_page.locator(tid("stats-row"))).to_have_count(1)
    screenshot(bert_page, "stats-with-stand-in")
    anna_page.locator(f"{tid('score-sheet')} .sheet-replay").first.click()
    expect(anna_page.locator(tid("replay"))).to_be_visible()
    expect(anna_page.locator(f".replay-stand-in {tid('stand-in-mark')}")).to_contain_text("Bert")
