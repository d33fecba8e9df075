"""Turn timer, presence and the shared "Weiter" (issue 28), in German at 1366×768 and in English at 390×844.

* the lobby's turn timer is kept with the table; at a table with a 1-second limit (the test server allows limits
  from 1 s, ``Settings.min_limit_seconds``; the API's default minimum is 5 s) the player to move sees the
  clock (in the turn line and on their seat), and when it runs out a bot makes the move, the page says so, the
  player keeps the seat, and the score sheet marks those moves (not the deal: she was there);
* "Bert ist nicht verbunden" / "Bert ist zurück" on Anna's page when Bert's page closes and comes back, and
  the seat says "nicht verbunden" meanwhile;
* after a deal the next one waits until both people clicked "Weiter"; each page says whom it waits for.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .flows import ENGLISH_PHONE, GERMAN_LAPTOP, LOCALES, ContextFactory, Screenshot, person
from .ui import Player, client_text, join_first_free_seat, play, snapshot, tid


@ENGLISH_PHONE
def test_the_turn_clock_runs_out_and_a_bot_makes_that_move(
    make_context: ContextFactory, screenshot: Screenshot, lang: str, viewport: dict[str, int]
) -> None:
    page = person(make_context, lang, viewport, "Tara")
    # the lobby: the time limit chosen in the form is the table's
    page.goto("/#/")
    page.locator(tid("create-game")).select_option("doppelkopf")
    page.locator(tid("create-turn")).select_option("30")
    expect(page.locator("label[for=create-turn]")).to_have_text(client_text(page, "clock.turn_limit"))
    screenshot(page, f"lobby-turn-timer-{lang}")
    page.locator(tid("create-submit")).click()
    page.wait_for_url(re.compile(r".*#/table/[^/?]+"))
    made_in_lobby = page.url.split("#/table/")[1].split("?")[0]
    assert page.request.get(f"/api/tables/{made_in_lobby}").json()["turn_seconds"] == 30

    made = page.request.post("/api/tables", data={"game": "doppelkopf", "kind": "free", "deals": 1, "bots": "heuristic", "turn_seconds": 1})
    assert made.status == 201, made.text()
    table_id = made.json()["id"]
    page.goto(f"/#/table/{table_id}")
    expect(page.locator(tid("table-rules"))).to_contain_text(client_text(page, "clock.per_move").replace("{n}", "1"))
    clock = page.locator(tid("turn-clock"))
    expect(clock).to_be_visible()
    expect(page.locator(f'{tid("seat")}[data-seat="0"] {tid("seat-clock")}')).to_be_visible()
    screenshot(page, f"turn-clock-{lang}", full_page=False)
    # Tara does nothing: the server's bot makes her move, and the page says why
    expect(page.locator("#toast")).to_have_text(client_text(page, "clock.timeout_me"), timeout=15_000)
    screenshot(page, f"turn-timed-out-{lang}", full_page=False)
    # every move of hers runs out the same way; she keeps her seat throughout, and the sheet marks the deal
    expect(page.locator(tid("evaluation"))).to_be_visible(timeout=90_000)
    summary: dict[str, Any] = page.request.get(f"/api/tables/{table_id}").json()
    assert summary["seats"][0]["name"] == "Tara" and summary["seats"][0]["kind"] == "human"
    # timed-out moves mark those moves, not the deal: she was there (issue 40, defect 1)
    expect(page.locator(f"{tid('score-sheet')} {tid('timeout-mark')}")).to_be_visible()
    expect(page.locator(f"{tid('score-sheet')} {tid('stand-in-mark')}")).to_have_count(0)
    expect(page.locator(tid("absence-note"))).to_be_hidden()  # she was there all along: no "welcome back"
    expect(page.locator("body")).not_to_contain_text(client_text(page, "table.away"))  # a finished table: nobody "not connected"


@GERMAN_LAPTOP
def test_presence_notices_and_weiter_waits_for_everybody(
    make_context: ContextFactory, screenshot: Screenshot, lang: str, viewport: dict[str, int]
) -> None:
    anna_page = person(make_context, lang, viewport, "Anna")
    made = anna_page.request.post("/api/tables", data={"game": "doppelkopf", "kind": "free", "deals": 2, "seat": 0})
    assert made.status == 201, made.text()
    table_id = made.json()["id"]
    anna_page.goto(f"/#/table/{table_id}")
    bert_context = make_context(viewport=viewport, locale=LOCALES[lang])
    bert_page = bert_context.new_page()
    bert_page.goto("/#/login")
    bert_page.locator(tid("guest-name")).fill("Bert")
    bert_page.locator(tid("guest-submit")).click()
    bert_page.locator(tid("user-name")).filter(has_text="Bert").wait_for()
    bert_page.goto(f"/#/table/{table_id}")
    bert_seat = join_first_free_seat(bert_page)
    expect(bert_page.locator(tid("connection"))).to_have_attribute("data-state", "connected")

    # Bert's page closes: after the short grace, Anna reads that he is not connected, on the seat and in a notice
    bert_page.close()
    note = anna_page.locator(tid("presence-note"))
    expect(note).to_have_text(client_text(anna_page, "presence.gone").replace("{name}", "Bert"))
    plate = anna_page.locator(f'{tid("seat")}[data-seat="{bert_seat}"]')
    expect(plate).to_contain_text(client_text(anna_page, "table.away"))
    screenshot(anna_page, f"presence-gone-{lang}", full_page=False)
    bert_page = bert_context.new_page()
    bert_page.goto(f"/#/table/{table_id}")
    expect(note).to_have_text(client_text(anna_page, "presence.back").replace("{name}", "Bert"))
    expect(plate).not_to_contain_text(client_text(anna_page, "table.away"))
    screenshot(anna_page, f"presence-back-{lang}", full_page=False)

    added = anna_page.request.post(f"/api/tables/{table_id}/bots", data={"bot": "heuristic"})
    assert added.status == 200, added.text()
    anna, bert = Player("Anna", anna_page), Player("Bert", bert_page)
    play([anna, bert], until=lambda latest: any(shot.evaluation for shot in latest.values()))  # nobody clicks "Weiter" yet
    for page in (anna_page, bert_page):
        expect(page.locator(tid("evaluation"))).to_be_visible()
    first_deal = snapshot(anna_page).deal
    waiting_for = client_text(anna_page, "ready.waiting_for")
    expect(bert_page.locator(f"{tid('evaluation')} {tid('eval-waiting')}")).to_contain_text(waiting_for.replace("{names}", "Anna"))

    anna_page.locator(tid("eval-continue")).click()
    expect(anna_page.locator(tid("evaluation"))).to_be_hidden()
    expect(anna_page.locator(f".center-info {tid('eval-waiting')}")).to_have_text(waiting_for.replace("{names}", "Bert"))
    expect(bert_page.locator(f"{tid('evaluation')} {tid('eval-waiting')}")).to_have_text(client_text(bert_page, "ready.others_ready"))
    screenshot(anna_page, f"weiter-waiting-{lang}", full_page=False)
    screenshot(bert_page, f"weiter-last-reader-{lang}", full_page=False)
    anna_page.wait_for_timeout(1500)
    assert snapshot(anna_page).deal == first_deal, "the next deal started before Bert said Weiter"

    bert_page.locator(tid("eval-continue")).click()
    anna_page.wait_for_function("deal => window.__stichProbe && window.__stichProbe.deal !== deal", arg=first_deal)
    for page in (anna_page, bert_page):
        expect(page.locator(f"{tid('hand')} {tid('card')}").first).to_be_visible()
        expect(page.locator(tid("eval-waiting"))).to_have_count(0)
