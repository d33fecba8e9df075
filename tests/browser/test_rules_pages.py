"""The rules pages (issue 28: rules help): opened from the lobby, every game's page in German and English, on a
laptop and a phone; the German pages hold no English word; the table links to its game's rules in a new tab."""

from __future__ import annotations

from playwright.sync_api import expect

from .flows import GERMAN_LAPTOP_AND_ENGLISH_PHONE, LAPTOP, ContextFactory, Screenshot, person
from .test_german_only import GAMES, english_words
from .ui import client_text, create_table, enter_as_guest, tid


@GERMAN_LAPTOP_AND_ENGLISH_PHONE
def test_every_games_rules_page_opens_from_the_lobby(
    make_context: ContextFactory, screenshot: Screenshot, lang: str, viewport: dict[str, int]
) -> None:
    page = person(make_context, lang, viewport, "Rita")
    for game in GAMES:
        page.goto("/#/")
        page.locator(tid("create-game")).select_option(game)
        page.locator(f".create-form {tid('rules-link')}").click()
        rules = page.locator(tid("rules-page"))
        expect(rules).to_have_attribute("data-game", game)
        expect(rules).to_contain_text(client_text(page, f"rules.{game}.scoring"))
        expect(page.locator(".rules-section")).to_have_count(7)
        if lang == "de":
            assert english_words(page) == [], f"English on the German rules page of {game}"
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the rules page of {game} scrolls sideways by {overflow} px"
        screenshot(page, f"rules-{game}-{lang}")


def test_the_table_links_its_rules_in_a_new_tab(make_context: ContextFactory) -> None:
    page = make_context(viewport=LAPTOP, locale="de-DE").new_page()
    enter_as_guest(page, "Rita")
    create_table(page, "dobbm", deals=1)
    link = page.locator(f".table-title {tid('rules-link')}")
    expect(link).to_have_attribute("href", "/#/rules/dobbm")
    expect(link).to_have_attribute("target", "_blank")
