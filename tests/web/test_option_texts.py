"""Every rules option has its name, explanation and choices in German and English (issue 28, defect 3).

The lobby's options form is generated from ``GET /api/games``; its texts come
from ``static/i18n/options.{de,en}.json``, keyed by game and option name:
``option.GAME.NAME`` (the name, both languages), ``optdoc.GAME.NAME`` (the
explanation in German; English shows the server's own doc) and
``choice.GAME.NAME.CHOICE`` (each choice, both languages).  A new option, or a
new choice, without these texts fails here; so does a text left behind for
an option that no longer exists.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stich.core.registry import game_class, game_names

I18N = Path(__file__).resolve().parents[2] / "src" / "stich" / "web" / "static" / "i18n"


def _texts(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((I18N / f"options.{lang}.json").read_text(encoding="utf-8"))
    return data


def _expected_keys(lang: str) -> set[str]:
    keys = set()
    for game in game_names():
        for info in game_class(game).option_table.infos:
            keys.add(f"option.{game}.{info.name}")
            if lang == "de":
                keys.add(f"optdoc.{game}.{info.name}")
            for choice in info.choices or ():
                keys.add(f"choice.{game}.{info.name}.{choice}")
    return keys


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_option_and_choice_has_its_text(lang: str) -> None:
    texts = _texts(lang)
    expected = _expected_keys(lang)
    assert sorted(expected - set(texts)) == [], f"options without {lang} text"
    assert sorted(set(texts) - expected) == [], f"{lang} texts of options that do not exist"
    assert [key for key, text in texts.items() if not text.strip()] == []


def test_the_german_explanations_are_not_the_english_ones() -> None:
    """A German doc copied from the server's English doc would still be English in the German interface."""
    de = _texts("de")
    same = []
    for game in game_names():
        for info in game_class(game).option_table.infos:
            english = info.doc.removeprefix("[VAR]").strip()
            if de[f"optdoc.{game}.{info.name}"].strip() == english:
                same.append(f"{game}.{info.name}")
    assert same == []


def test_the_games_own_terms_stay_german_in_english() -> None:
    """Pflichtsolo, Vorführung, Hochzeit, Armut, Schweine, Mußrunde are the games' words in both languages."""
    de, en = _texts("de"), _texts("en")
    for key in (
        "option.doppelkopf.pflichtsolo",
        "option.doppelkopf.vorfuehrung",
        "option.doppelkopf.hochzeit",
        "option.doppelkopf.armut",
        "option.doppelkopf.schweine",
        "option.dobbm.mussrunde_at_end",
    ):
        assert de[key] == en[key], key
