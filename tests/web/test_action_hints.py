"""Every bid, answer and call of every game has a tooltip in German and English (issue 28: rules help).

The table's buttons take their ``title`` from ``hint.GAME.ACTION`` (or a
generic ``hint.ACTION``) in ``static/i18n/{de,en}.json``; card actions
(play, discard, offer, buy, lay out) name their card instead.  A new action
without a tooltip fails here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stich.core.registry import game_names, make_game

I18N = Path(__file__).resolve().parents[2] / "src" / "stich" / "web" / "static" / "i18n"
CARD_VERBS = {"play", "discard", "offer", "buy", "lay_out"}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_non_card_action_has_a_tooltip(lang: str) -> None:
    texts: dict[str, str] = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    missing = []
    for game in game_names():
        for action in make_game(game).actions:
            if action.text.split(" ")[0] in CARD_VERBS:
                continue
            key = action.text.replace(" ", ".")
            if not (texts.get(f"hint.{game}.{key}") or texts.get(f"hint.{key}")):
                missing.append(f"{game}: {action.text}")
    assert missing == []
