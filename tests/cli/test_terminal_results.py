"""Every result text of a terminal sitting in the sitting's language, for all five games (issue 40, decision 0053).

The Tarock games' own ``describe_result`` is English and says "seat 2"; the terminal words their results
with the web's sentences (``static/i18n``) instead, so a German sitting shows no English result line and
both surfaces say the same.  Counts take the singular where there is one ("1 Punkt", "1 point").
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from stich.cli.play import TerminalGame
from stich.cli.render import named_seats
from stich.cli.result_lines import WRITERS, result_lines, sheet_label
from stich.cli.shared_texts import SHARED
from stich.cli.texts import Texts
from stich.core.game import State
from stich.core.registry import make_game

ROOT = Path(__file__).resolve().parents[2]

# Seeds whose sitting includes a thrown-in deal where the game has one within a few deals (tapp 5, dobbm 2).
SITTINGS = [("doppelkopf", 2, 1), ("tapp_tarock", 5, 1), ("dobbm", 2, 1), ("droggn", 2, 1), ("dappen", 2, 1)]

ENGLISH = re.compile(
    r"\b(declarer|defenders?|opponents?|seats?|wins?|won|lost|pays?|tricks?|points?|eyes|card points|winner|"
    r"thrown in|all passed|everybody|game|value|evaluation|score sheet|dealer|totals|you)\b",
    re.IGNORECASE,
)
"""English words a German result text must not contain (names such as "Pagat ultimo" or "Dreier" are the same in both)."""

GERMAN = re.compile(r"\b(Spieler|Gegenspieler|Gegner|Platz|Stiche?|Punkte?|Augen|gewinnt|zahlt|eingeworfen|Spiel|Abrechnung|Du)\b")
"""German words an English result text must not contain."""


def sitting(game_name: str, seed: int, deals: int, lang: str) -> tuple[str, list[dict[str, Any]], list[str]]:
    """Play a sitting with the human answering "1" throughout; its text, every booked deal's result JSON, the seat names."""
    out = io.StringIO()
    con = Console(file=out, width=500, color_system=None, highlight=False)
    game = make_game(game_name)
    bots = ["heuristic"] * game.num_seats
    table = TerminalGame(game, seat=0, bots=bots, seed=seed, deals=deals, console=con, input_fn=lambda p: "1", lang=lang)
    results: list[dict[str, Any]] = []
    book = table.session.book

    def booking(state: State) -> Any:
        results.append(state.result().to_json())
        return book(state)

    table.session.book = booking  # type: ignore[method-assign]
    assert table.run() == 0
    return out.getvalue(), results, list(table.names)


def evaluation_blocks(text: str, heading: str, scores: str) -> list[list[str]]:
    """The lines between each evaluation heading and its scores line."""
    blocks: list[list[str]] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line == heading:
            block = []
            for following in lines[i + 1 :]:
                if following.startswith(scores):
                    break
                block.append(following)
            blocks.append(block)
    return blocks


def sheet_labels(text: str) -> list[str]:
    """The game column of every score-sheet row printed (rows look like ``1 │ Platz 3 │ Dobbm (Platz 1) │ ...``)."""
    return [row.split("│")[2].strip() for row in text.splitlines() if row.count("│") >= 3 and row.split("│")[0].strip().isdigit()]


@pytest.mark.parametrize(("game_name", "seed", "deals"), SITTINGS)
def test_a_german_sitting_shows_no_english_result_line(game_name: str, seed: int, deals: int) -> None:
    text, results, names = sitting(game_name, seed, deals, "de")
    assert results, "the sitting booked no deal"
    blocks = evaluation_blocks(text, "Abrechnung", "Punkte: ")
    assert len(blocks) == len(results)
    game = make_game(game_name)
    for block, result in zip(blocks, results, strict=True):
        assert block, result
        english = [line for line in block if ENGLISH.search(line)]
        assert not english, (game_name, english)
        # none of the game's own English lines survives
        own = [named_seats(line, names) for line in game.describe_result(result)]
        assert not set(own) & set(block), (game_name, own)
        if game_name in WRITERS:
            # the web's German sentences, with the seat names
            assert block == result_lines(game_name, result, names, Texts("de"))
    assert "Abrechnung" in text and "Spielzettel" in text
    labels = sheet_labels(text)
    assert len(labels) == sum(range(1, len(results) + 1))  # the sheet is printed after every deal
    assert not [label for label in labels if ENGLISH.search(label)], labels
    if any(result.get("kind") in ("all_pass", "thrown") for result in results):
        assert "eingeworfen" in labels


@pytest.mark.parametrize(("game_name", "seed", "deals"), SITTINGS)
def test_an_english_sitting_shows_no_german_result_line(game_name: str, seed: int, deals: int) -> None:
    text, results, names = sitting(game_name, seed, deals, "en")
    blocks = evaluation_blocks(text, "Evaluation", "Scores: ")
    assert len(blocks) == len(results)
    for block, result in zip(blocks, results, strict=True):
        assert block
        assert not [line for line in block if GERMAN.search(line)], (game_name, block)
        if game_name in WRITERS:
            assert block == result_lines(game_name, result, names, Texts("en"))
    assert not [label for label in sheet_labels(text) if GERMAN.search(label)]


def test_a_trick_of_one_point_is_singular() -> None:
    # issue 40: "1 Punkte" -> "1 Punkt" (and "1 point"); other counts keep the plural
    for lang, one, many in (("de", "(1 Punkt)", "Punkte)"), ("en", "(1 point)", "points)")):
        text, _, _ = sitting("tapp_tarock", 5, 1, lang)
        tricks = [line for line in text.splitlines() if line.lstrip().startswith(("Stich ", "Trick "))]
        assert any(line.endswith(one) for line in tricks), lang
        assert not [line for line in tricks if re.search(r"\(1 (Punkte|points)\)", line)]
        assert any(line.endswith(many) and not line.endswith(one) for line in tricks)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_units_take_the_singular_for_one(lang: str) -> None:
    tr = Texts(lang)
    expected = {"en": ("point", "points", "eye", "eyes"), "de": ("Punkt", "Punkte", "Auge", "Augen")}[lang]
    assert (tr("unit.points", n=1), tr("unit.points", n=2), tr("unit.eyes", n=1), tr("unit.eyes", n=0)) == expected


def test_the_terminals_copy_of_the_web_wording_is_current() -> None:
    # the two surfaces say the same: shared_texts.py is generated from static/i18n and checked here
    tool = str(ROOT / "tools" / "gen_cli_texts.py")
    done = subprocess.run([sys.executable, tool, "--check"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert SHARED["de"]["detail.declarer_wins"] == "Der Spieler gewinnt."


def test_shared_texts_fill_like_the_web() -> None:
    tr = Texts("de")
    assert tr.shared("detail.each_defender_pays", n=3) == "Jeder Gegenspieler zahlt dem Spieler 3."
    assert tr.shared("item.no_such_item", "no such item") == "no such item"  # the web's fallback
    assert tr.shared("detail.by_against", contract="Solo") == "Solo von {name}{talon}, gegen {others}."


def test_tarock_results_the_terminal_words_without_a_deal() -> None:
    # result kinds no short sitting reaches: Dobbm's Stockerl, Dappen's penalty, Droggn's thrown-in deal
    names = ["Du", "Platz 1", "Platz 2", "Platz 3"]
    de = Texts("de")
    stockerl = result_lines("dobbm", {"kind": "all_pass", "next_dealer": 1, "collector": 2, "stockerl": 4}, names, de)
    assert stockerl == [
        "Alle haben gepasst: die Karten werden eingeworfen; Platz 1 gibt als Nächstes.",
        "Stockerl: Platz 2 bekommt 4 von jedem anderen Spieler.",
    ]
    assert result_lines("dappen", {"kind": "penalty", "seat": 3, "per_player": 5}, names, de) == [
        "Platz 3 hat trotz Trumpfhalt gepasst (Regel a) und zahlt jedem 5 Cent."
    ]
    thrown = result_lines("droggn", {"kind": "thrown", "seat": 2}, names, Texts("en"))
    assert thrown == ["All passed: the cards are thrown in; Platz 2 deals again."]
    assert result_lines("doppelkopf", {"kind": "normal"}, names, de) is None
    assert sheet_label("dobbm", {"redeal": True}, names, de) == "eingeworfen"
    assert sheet_label("dappen", {"kind": "penalty", "seat": 1}, names, de) == "Spiel (Platz 1)"
    assert sheet_label("tapp_tarock", {"contract": "unterer", "declarer": 2}, names, Texts("en")) == "Unterer (Platz 2)"


@pytest.mark.parametrize(
    ("lang", "one", "many"),
    [("de", "Gegner: 1 Stich,", "Alleinspieler: 7 Stiche,"), ("en", "Opponents: 1 trick,", "Lone player: 7 tricks,")],
)
def test_one_trick_is_singular(lang: str, one: str, many: str) -> None:
    # the count lines of Dappen (and the web's, which share the wording): "1 Stich", "7 Stiche"
    result = {
        "kind": "game",
        "contract": "dapp",
        "lone": 0,
        "bidders": [0],
        "counting": "pairs",
        "tricks": {"lone": 7, "opponents": 1},
        "cards": {"lone": 48, "opponents": 6},
        "face_points": {"lone": 92, "opponents": 14},
        "points": {"lone": 68, "opponents": 11},
        "winner": "lone",
        "losers_points": 11,
        "value": 30,
        "factor": 1,
        "per_opponent": 30,
        "diff": 29,
    }
    lines = result_lines("dappen", result, ["A", "B", "C", "D", "E", "F"], Texts(lang))
    assert lines is not None
    assert any(line.startswith(one) for line in lines) and any(line.startswith(many) for line in lines), lines
    dobbm = {
        "kind": "game",
        "contract": "dobbm",
        "declarer": 0,
        "opponents": [1, 2, 3],
        "points": {"declarer": 70, "defenders": 50},
        "tricks": {"declarer": 5, "defenders": 3},
        "talon": {"points": 1, "to": "declarer"},
        "winner": "declarer",
        "margin": 10,
        "base": 1,
        "solo_factor": 1,
        "doubles": 0,
        "payment": 1,
    }
    text = " ".join(result_lines("dobbm", dobbm, ["A", "B", "C", "D"], Texts(lang)) or [])
    assert ("der 1 Punkt der gedrückten Karten geht" if lang == "de" else "the 1 point of the discards goes") in text, text


def test_the_talon_halves_are_named_in_the_sittings_language() -> None:
    # Tapp's talon choice: "Talon untere Hälfte", not "Talon lower" (the web's talon.* words)
    out = io.StringIO()
    con = Console(file=out, width=300, color_system=None, highlight=False)
    answers = iter(["2"] * 3 + ["1"] * 400)  # seat 0 bids, so it chooses a talon half
    table = TerminalGame(
        make_game("tapp_tarock"), seat=0, bots=["heuristic"] * 3, seed=1, deals=1, console=con, input_fn=lambda p: next(answers), lang="de"
    )
    assert table.run() == 0
    halves = [line.split(":")[0].strip() for line in out.getvalue().splitlines() if line.startswith("  Talon")]
    assert halves[:2] == ["Talon untere Hälfte", "Talon obere Hälfte"], halves
