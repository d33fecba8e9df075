"""The analysis of a finished deal on the replay page (issue 43), in German and English, on a laptop and a phone.

Pia's deal is played by her stand-in while she is away (a bot plays at
once for an absent player), so the test does not wait for her clicks.  Her
replay offers the analysis (in German she opens it from the history, which
starts it at once); it runs on the server with progress and then
lists her costly decisions (the choice, the better one and the cost) and
marks them on the timeline, exactly as the API's analysis has them.  A
running deal offers none (the replay itself is refused while it is played).
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .flows import GERMAN_LAPTOP_AND_ENGLISH_PHONE, ContextFactory, Screenshot, person
from .ui import add_bots, client_text, create_table, tid


def _finished_deal(page: Any, table_id: str) -> int:
    """Wait (polling the API with the page's cookies) until the table's first deal is finished; its id."""
    for _ in range(600):
        deals = page.request.get(f"/api/tables/{table_id}/deals").json()["deals"]
        done = [d for d in deals if d["status"] == "finished"]
        if done:
            return int(done[0]["id"])
        page.wait_for_timeout(200)
    raise AssertionError("the deal did not finish")


@GERMAN_LAPTOP_AND_ENGLISH_PHONE
def test_the_replay_analyses_a_finished_deal_and_marks_its_costly_moments(
    make_context: ContextFactory, screenshot: Screenshot, lang: str, viewport: dict[str, int]
) -> None:
    page = person(make_context, lang, viewport, "Pia")
    table_id = create_table(page, "doppelkopf", deals=1)
    add_bots(page, "random")
    expect(page.locator(f"{tid('hand')} {tid('card')}").first).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())  # leaving a running table asks first
    page.goto("/#/")  # away: the stand-in plays her seat
    deal_id = _finished_deal(page, table_id)
    if lang == "de":  # from the history: its "Analyse" link opens the replay and starts the analysis at once
        page.goto("/#/history")
        link = page.locator(tid("history-analyse")).first
        expect(link).to_have_text(client_text(page, "analysis.open"))
        link.click()
        page.wait_for_url(f"**/#/replay/{deal_id}?analyse=1")
    else:  # from the replay: it offers the analysis
        page.goto(f"/#/replay/{deal_id}")
        start = page.locator(tid("analysis-start"))
        expect(start).to_have_text(client_text(page, "analysis.start"))
        start.click()
    items = page.locator(tid("analysis-item"))
    none = page.get_by_text(client_text(page, "analysis.none"))
    expect(items.first.or_(none)).to_be_visible(timeout=180_000)
    answer = page.request.get(f"/api/deals/{deal_id}/analysis").json()
    assert answer["status"] == "done"
    costly = [d for d in answer["analysis"]["decisions"] if d["costly"]]
    expect(items).to_have_count(len(costly))
    expect(page.locator(tid("analysis-mark"))).to_have_count(len(costly))
    for item, decision in zip(items.all(), costly, strict=True):
        text = item.inner_text()
        assert item.get_attribute("data-played") == decision["played"] and item.get_attribute("data-best") == decision["best"], text
        assert f"{decision['cost']:.2f}".rstrip("0").rstrip(".").replace(".", "," if lang == "de" else ".") in text, text
    if costly:
        page.locator(tid("analysis-mark")).first.click()
        expect(page.locator(tid("replay-step"))).to_contain_text(f"{costly[0]['index']} /")
    screenshot(page, f"analysis-{lang}")


def test_a_running_deal_offers_no_analysis(make_context: ContextFactory) -> None:
    page = person(make_context, "en", {"width": 1366, "height": 768}, "Rita")
    table_id = create_table(page, "doppelkopf", deals=1)
    add_bots(page, "random")
    expect(page.locator(f"{tid('hand')} {tid('card')}").first).to_be_visible()
    deals = page.request.get(f"/api/tables/{table_id}/deals").json()["deals"]
    playing = [d for d in deals if d["status"] == "playing"]
    assert playing, deals
    answer = page.request.post(f"/api/deals/{playing[0]['id']}/analysis")
    assert answer.status == 409 and answer.json()["field"] == "deal"
