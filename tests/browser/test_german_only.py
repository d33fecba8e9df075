"""No English in the German interface (issue 28, defect 3).

With the browser set to German, every text a page shows is read (all
``<details>`` opened, every ``<select>``'s options included) and searched
for English words that German never uses: the lobby with the rules options
of every game, a server refusal, and the evaluation of a finished deal of
every game with its "Im Einzelnen" lines and the game log.  The games' own
terms (Pagat, Valat, Sküs, Re, Kontra...) are German words here.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .flows import LAPTOP, ContextFactory, Screenshot
from .ui import client_text, enter_as_guest, tid

ENGLISH = frozenset(
    [
        "the",
        "and",
        "of",
        "with",
        "when",
        "which",
        "is",
        "are",
        "by",
        "for",
        "from",
        "each",
        "may",
        "must",
        "not",
        "or",
        "to",
        "seat",
        "seats",
        "deal",
        "deals",
        "player",
        "players",
        "trick",
        "tricks",
        "wins",
        "discard",
        "take",
        "lower",
        "upper",
        "you",
        "your",
        "this",
        "that",
        "has",
        "have",
        "points",
        "card",
        "cards",
        "game",
        "games",
        "announced",
        "declarer",
        "defenders",
        "defender",
        "opponent",
        "opponents",
        "lone",
        "pays",
        "value",
        "none",
        "off",
        "both",
        "first",
        "only",
        "after",
        "before",
        "same",
        "next",
        "any",
        "every",
        "at",
        "it",
        "as",
        "be",
        "won",
        "lost",
        "round",
        "list",
        "free",
        "pass",
    ]
)
"""English words that are not German words (nor game terms): one of them in a German page is an untranslated text."""
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]+")
GAMES = ("doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen")


def english_words(page: Page) -> list[str]:
    """The English words in everything the page shows (details opened, select options included)."""
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    text: str = page.evaluate(
        "() => document.body.innerText + '\\n' + [...document.querySelectorAll('select option')].map((o) => o.textContent).join('\\n')"
    )
    lines = [line for line in text.splitlines() if any(word.lower() in ENGLISH for word in WORD.findall(line))]
    return lines


def test_no_english_in_the_german_lobby_and_its_refusals(make_context: ContextFactory, screenshot: Screenshot) -> None:
    page = make_context(viewport=LAPTOP, locale="de-DE").new_page()
    enter_as_guest(page, "Greta")
    page.goto("/#/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    for game in GAMES:
        page.locator(tid("create-game")).select_option(game)
        expect(page.locator(".option-row[data-option]").first).to_be_attached()
        assert english_words(page) == [], f"English in the German lobby with {game}'s options"
    screenshot(page, "lobby-options-de")
    # A refusal: a free Dobbm table cannot have the Mußrunde preset (field "kind").
    page.locator(tid("create-game")).select_option("dobbm")
    page.locator(tid("create-preset")).select_option("mussrunde")
    page.locator(tid("create-submit")).click()
    error = page.locator(".create-form .form-error")
    expect(error).to_have_text(client_text(page, "server_error.kind"))
    assert english_words(page) == []


def test_no_english_in_german_evaluations(make_context: ContextFactory, screenshot: Screenshot) -> None:
    """Bots play one deal of each game; a German spectator reads the evaluation, its lines, the sheet and the log.

    The five deals run at once, each watched from its own tab: the test waits for one deal, not for five in a row.
    """
    context = make_context(viewport=LAPTOP, locale="de-DE")
    first = context.new_page()
    enter_as_guest(first, "Greta")
    watching: dict[str, Page] = {}
    for game in GAMES:
        made = first.request.post("/api/tables", data={"game": game, "kind": "free", "deals": 1, "seat": None, "bots": "heuristic"})
        assert made.status == 201, made.text()
        page = watching[game] = first if not watching else context.new_page()
        page.goto(f"/#/table/{made.json()['id']}")
    for game, page in watching.items():
        expect(page.locator(tid("evaluation"))).to_be_visible(timeout=60_000)
        if game != "doppelkopf":
            expect(page.locator(".eval-lines li").first).to_be_attached()
        found = english_words(page)
        screenshot(page, f"evaluation-{game}-de")
        assert found == [], f"English in the German evaluation of {game}"
