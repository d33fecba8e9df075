"""Issue 44, "The end of a table", in the browser: final standings, Revanche, and the score sheet as CSV and on paper.

Anna and Bert sit at a one-deal Doppelkopf table with random bots and never
open it, so the stand-ins play the deal (the live server's grace is 2 s).
Then Anna opens the finished table: the final standings name the winner and
every total, read against the stored record; the CSV link downloads the
sheet and the printable page shows it without the page's header when
printed.  Anna asks for a Revanche and lands at the new table in her seat;
Bert, on the old table's page, goes to the Revanche, takes his seat, and the
new table starts with both of them.
"""

from __future__ import annotations

import csv
import io

from playwright.sync_api import expect

from .flows import LAPTOP, ContextFactory, Screenshot, person
from .ui import client_text, table_finished, tid


def test_final_standings_revanche_and_the_printable_sheet(make_context: ContextFactory, screenshot: Screenshot) -> None:
    anna = person(make_context, "de", LAPTOP, "Anna")
    bert = person(make_context, "de", LAPTOP, "Bert")
    made = anna.request.post("/api/tables", data={"game": "doppelkopf", "kind": "free", "deals": 1})
    assert made.status == 201, made.text()
    table_id = made.json()["id"]
    assert bert.request.post(f"/api/tables/{table_id}/join", data={"seat": 1}).status == 200
    assert anna.request.post(f"/api/tables/{table_id}/bots", data={"bot": "random"}).status == 200
    table_finished(anna, table_id)
    deal = anna.request.get(f"/api/tables/{table_id}/deals").json()["deals"][0]
    record = anna.request.get(deal["record_url"]).json()
    scores = [int(x) for x in record["result"]["scores"]]

    anna.goto(f"/#/table/{table_id}")
    standings = anna.locator(tid("final-standings"))
    expect(standings).to_be_visible()
    best = max(scores)
    winners = [name for name, score in zip(["Anna", "Bert", "Bot 3", "Bot 4"], scores, strict=True) if score == best]
    expect(anna.locator(tid("winner-line"))).to_contain_text(winners[0])
    totals = [int(x.replace("\u2212", "-")) for x in anna.locator(tid("ranking-total")).all_inner_texts()]
    assert totals == sorted(scores, reverse=True)
    screenshot(anna, "final-standings")

    csv_answer = anna.request.get(anna.locator(tid("sheet-csv")).get_attribute("href") or "")
    rows = list(csv.reader(io.StringIO(csv_answer.text())))
    assert rows[0][3:5] == ["Anna", "Bert"] and [int(x) for x in rows[1][3:7]] == scores

    printer = anna.context.new_page()
    printer.goto(f"/#/sheet/{table_id}")
    expect(printer.locator(tid("print-sheet"))).to_be_visible()
    expect(printer.locator(f"{tid('print-rows')} tbody tr")).to_have_count(1)
    printer.emulate_media(media="print")
    expect(printer.locator(".topbar")).to_be_hidden()
    expect(printer.locator(tid("print-now"))).to_be_hidden()
    screenshot(printer, "printable-sheet")
    printer.close()

    rematch = anna.locator(tid("rematch"))
    expect(rematch).to_have_text(client_text(anna, "standings.rematch"))
    rematch.click()
    anna.wait_for_url(lambda url: "#/table/" in url and table_id not in url)
    new_id = anna.url.split("#/table/")[1].split("?")[0]
    expect(anna.locator(f'{tid("seat")}[data-seat="0"]')).to_have_attribute("data-occupant", "Anna")

    bert.goto(f"/#/table/{table_id}")
    go = bert.locator(tid("rematch"))
    expect(go).to_have_text(client_text(bert, "standings.rematch_join"))
    go.click()
    bert.wait_for_url(f"**/#/table/{new_id}**")
    for page in (anna, bert):  # Bert's seat was the last free one: the Revanche starts with both of them
        expect(page.locator(f"{tid('hand')} {tid('card')}").first).to_be_visible()
    new = anna.request.get(f"/api/tables/{new_id}").json()
    assert [s["name"] for s in new["seats"][:2]] == ["Anna", "Bert"] and [s["bot"] for s in new["seats"][2:]] == ["random", "random"]
    screenshot(bert, "revanche-started")
