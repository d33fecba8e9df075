"""Steps shared by the browser tests: seating two people at a new table with bots, and checking a finished deal.

A "person" is a browser context of its own (its own session cookie); the
two people of a test are Anna, who creates the table, and Bert, who comes
in through the invite link.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from stich.core.registry import game_from_string

from .knowledge import assert_pages_showed_only_knowable_cards, seat_actions
from .ui import Player, add_bots, click_made, create_table, enter_as_guest, fetch_record, invite_url, join_first_free_seat, tid


class Screenshot(Protocol):
    """The ``screenshot`` fixture: ``screenshot(page, step)`` saves ``artifacts/screenshots/<test>-<step>.png``."""

    def __call__(self, page: Page, step: str, *, full_page: bool = True) -> Path: ...


ContextFactory = Callable[..., BrowserContext]

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
LOCALES = {"de": "de-DE", "en": "en-GB"}
GERMAN_LAPTOP_AND_ENGLISH_PHONE = pytest.mark.parametrize(("lang", "viewport"), [("de", LAPTOP), ("en", PHONE)], ids=["de-1366", "en-390"])
"""Run a test in German at 1366×768 and in English at 390×844 (issue 28 asks for both languages and both sizes)."""
GERMAN_LAPTOP = pytest.mark.parametrize(("lang", "viewport"), [("de", LAPTOP)], ids=["de-1366"])
ENGLISH_PHONE = pytest.mark.parametrize(("lang", "viewport"), [("en", PHONE)], ids=["en-390"])
"""One of the two, for a slow flow (20 s) whose steps are the same in both: the flows of one file take turns, so
each file still runs both languages and both sizes, and the suite stays within its time."""


def person(make_context: ContextFactory, lang: str, viewport: dict[str, int], name: str | None = None) -> Page:
    """A new page of a person of their own (cookies), in ``lang`` at ``viewport``; a guest called ``name`` if given."""
    page = make_context(viewport=viewport, locale=LOCALES[lang]).new_page()
    if name is not None:
        enter_as_guest(page, name)
    return page


@dataclass
class Table:
    """A started table with Anna and Bert on it (pages open on the table) and bots in the other seats."""

    id: str
    anna: Player
    bert: Player
    bert_seat: int

    @property
    def players(self) -> list[Player]:
        """Both people, Anna first."""
        return [self.anna, self.bert]


def seat_two_people(
    make_context: ContextFactory,
    screenshot: Screenshot,
    game: str,
    *,
    bot: str = "heuristic",
    anna_prefers: tuple[str, ...] = ("gesund", "pass"),
    bert_prefers: tuple[str, ...] = ("gesund", "pass"),
) -> Table:
    """Anna creates a one-deal table of ``game``, Bert joins by the invite link, Anna fills the rest with ``bot``."""
    anna_page = make_context().new_page()
    bert_page = make_context().new_page()
    enter_as_guest(anna_page, "Anna")
    enter_as_guest(bert_page, "Bert")
    anna_page.goto("/#/")
    anna_page.locator(tid("table-list")).wait_for()
    screenshot(anna_page, "lobby")

    table_id = create_table(anna_page, game, deals=1)
    link = invite_url(anna_page)
    assert f"#/table/{table_id}" in link and "invite=" in link, link
    bert_page.goto(link)
    bert_seat = join_first_free_seat(bert_page)
    expect(anna_page.locator(f'{tid("seat")}[data-seat="{bert_seat}"]')).to_have_attribute("data-occupant", "Bert")
    add_bots(anna_page, bot)
    for page in (anna_page, bert_page):
        expect(page.locator(f"{tid('hand')} {tid('card')}").first).to_be_visible()
    return Table(table_id, Player("Anna", anna_page, anna_prefers), Player("Bert", bert_page, bert_prefers), bert_seat)


def finished_records(table: Table) -> dict[str, dict[str, Any]]:
    """The records of every deal the pages saw end, fetched through Anna's page."""
    deals = {str(deal) for player in table.players for shot in player.snapshots for deal in shot.ended}
    assert deals, "no page received the end of a deal"
    return {deal: fetch_record(table.anna.page, deal) for deal in sorted(deals)}


def check_finished_deal(
    table: Table, records: dict[str, dict[str, Any]], *, stand_in: dict[str, tuple[int, int]] | None = None
) -> dict[str, Any]:
    """After the evaluation: no refused message, the clicks are the record's moves, no page showed an unknowable card.

    ``stand_in`` maps a person to ``(first, count)``: their recorded actions
    ``first .. first + count - 1`` were made by a stand-in bot, not clicked.
    Returns the record of the (last) deal.
    """
    for player in table.players:
        errors = [error for shot in player.snapshots for error in shot.errors]
        assert not errors, f"{player.name}'s page was answered with errors: {errors[:3]}"
    record = records[str(table.anna.snapshots[-1].deal)]
    for player in table.players:
        seats = {shot.seat for shot in player.snapshots if shot.seat is not None}
        assert len(seats) == 1, f"{player.name}'s page saw the seats {seats}"
        recorded = seat_actions(record, seats.pop())
        first, count = (stand_in or {}).get(player.name, (0, 0))
        del recorded[first : first + count]
        assert len(player.moves) == len(recorded) and all(map(click_made, player.moves, recorded)), (
            f"{player.name}'s clicks {player.moves} are not the moves the record holds: {recorded}"
        )
    checked = assert_pages_showed_only_knowable_cards([shot for player in table.players for shot in player.snapshots], records)
    assert checked >= 10, f"only {checked} page snapshots could be checked against the record"
    return record


def check_score_sheet(page: Page, record: dict[str, Any]) -> None:
    """The score sheet has a row for the finished deal: its last numbers are the record's scores, seat by seat."""
    sheet = page.locator(tid("score-sheet"))
    expect(sheet).to_be_visible()
    scores = [int(score) for score in record["result"]["scores"]]
    rows: list[list[str]] = sheet.locator("tr").evaluate_all(
        "rows => rows.map(row => [...row.querySelectorAll('td, th')].map(cell => cell.innerText.trim()))"
    )
    numbers = [[int(cell.replace("\u2212", "-")) for cell in row if re.fullmatch(r"[+\-\u2212]?\d+", cell)] for row in rows]
    assert any(row[-len(scores) :] == scores for row in numbers if len(row) >= len(scores)), (
        f"no row of the score sheet shows the scores {scores}: {rows}"
    )


def cards_of(page: Page, selector: str) -> list[str]:
    """``data-card`` of every card inside the elements matching ``selector``."""
    cards: list[str] = page.locator(f"{selector} {tid('card')}").evaluate_all("cards => cards.map(card => card.dataset.card)")
    return cards


def check_replay(page: Page, record: dict[str, Any], screenshot: Screenshot) -> None:
    """Open the replay from the table page; every seat's hand is shown, and stepping goes through every action.

    At step 0 each ``replay-hand`` holds exactly the cards the record dealt to
    that seat; after the last step the step counter reads ``n / n``.
    """
    page.locator(tid("replay-link")).first.click()
    expect(page.locator(tid("replay"))).to_be_visible()
    assert "#/replay/" in page.url, page.url
    seats = game_from_string(record["game"]).num_seats
    hands = page.locator(tid("replay-hand"))
    expect(hands).to_have_count(seats)
    total = len(record["actions"])
    step_text = page.locator(tid("replay-step"))
    expect(step_text).to_contain_text(f"/ {total}")
    for _ in range(total + 1):
        if step_text.inner_text().strip().startswith("0 "):
            break
        page.locator(tid("replay-prev")).click()
    expect(step_text).to_contain_text(f"0 / {total}")
    for seat in range(seats):
        shown = cards_of(page, f'{tid("replay-hand")}[data-seat="{seat}"]')
        assert Counter(shown) == Counter(record["deal"][seat]), f"replay shows seat {seat} holding {shown}, dealt {record['deal'][seat]}"
    screenshot(page, "replay-start")
    for step in range(1, total + 1):
        page.locator(tid("replay-next")).click()
        expect(step_text).to_contain_text(f"{step} / {total}")
        if step == total // 2:
            screenshot(page, "replay-middle")
    screenshot(page, "replay-end")
