"""The rules page of every game exists in German and English, section by section (issue 28: rules help).

``static/i18n/rules.{de,en}.json`` hold, per game, an introduction and the
deal, bidding, play, counting, scoring and a worked example, written in the
project's own words from the dossiers (``shared/rules``).  A game or a
section without its text in either language fails here, and so does a
German text that is the English one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stich.core.registry import game_names

I18N = Path(__file__).resolve().parents[2] / "src" / "stich" / "web" / "static" / "i18n"
SECTIONS = ("intro", "deal", "bidding", "play", "counting", "scoring", "example")


def _texts(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((I18N / f"rules.{lang}.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_game_has_every_section(lang: str) -> None:
    texts = _texts(lang)
    expected = {f"rules.{game}.{section}" for game in game_names() for section in SECTIONS}
    assert sorted(expected - set(texts)) == [] and sorted(set(texts) - expected) == []
    assert [key for key, text in texts.items() if len(text.split()) < 8] == []


def test_german_is_not_the_english_text() -> None:
    de, en = _texts("de"), _texts("en")
    assert [key for key in de if de[key] == en[key]] == []
