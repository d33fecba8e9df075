"""Leaving a running table warns first (issue 28, defect 2), in German and English, on a laptop and a phone.

Following a link away from a table at which one sits, while it plays, asks
whether to leave (a bot will play on, those deals are marked and not
counted); declining keeps the page on the table.  Closing or reloading the
tab is guarded by the browser's own leave dialog.  A spectator or a finished
table is never asked.
"""

from __future__ import annotations

from playwright.sync_api import Dialog, expect

from .flows import GERMAN_LAPTOP_AND_ENGLISH_PHONE, ContextFactory, Screenshot, person
from .ui import add_bots, client_text, create_table, tid


@GERMAN_LAPTOP_AND_ENGLISH_PHONE
def test_leaving_a_running_table_warns_first(
    make_context: ContextFactory, screenshot: Screenshot, lang: str, viewport: dict[str, int]
) -> None:
    page = person(make_context, lang, viewport, "Pia")
    table_id = create_table(page, "doppelkopf", deals=2)
    add_bots(page, "heuristic")
    expect(page.locator(f"{tid('hand')} {tid('card')}").first).to_be_visible()
    warning = client_text(page, "absence.leave_warning")
    seen: list[Dialog] = []

    def decline(dialog: Dialog) -> None:
        seen.append(dialog)
        dialog.dismiss()

    page.once("dialog", decline)
    page.locator('.mainnav a[data-route="lobby"]').click()
    expect(page.locator(tid("hand"))).to_be_visible()
    assert seen and seen[0].type == "confirm" and seen[0].message == warning, [(d.type, d.message) for d in seen]
    hash_now = page.evaluate("location.hash")
    assert hash_now.startswith(f"#/table/{table_id}"), hash_now

    page.once("dialog", decline)
    page.close(run_before_unload=True)
    for _ in range(200):  # the browser's own dialog comes a moment later: on a loaded machine, seconds later
        if len(seen) == 2:
            break
        page.wait_for_timeout(50)
    page.wait_for_timeout(300)  # declined: the page must stay open, not close a moment after the dialog
    assert len(seen) == 2 and seen[1].type == "beforeunload", [(d.type, d.message) for d in seen]
    assert not page.is_closed()

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator('.mainnav a[data-route="lobby"]').click()
    expect(page.locator(tid("table-list"))).to_be_visible()
    screenshot(page, f"left-{lang}")
