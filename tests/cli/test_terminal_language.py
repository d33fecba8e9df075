"""The terminal in English and German (issue 40): cards typed as they are printed, one language per sitting,
and the calls line of the evaluation."""

from __future__ import annotations

import io
import re
import sys

import pytest
from rich.console import Console

from stich.cli.play import TerminalGame
from stich.cli.render import doppelkopf_sheet_label, explain_result
from stich.cli.texts import CATALOGUE, Texts
from stich.core.registry import make_game

from .helpers import run_cli
from .test_render import plain


def quiet_table(game_name: str = "doppelkopf", *, german_suits: bool = False, lang: str = "en") -> TerminalGame:
    con = Console(file=io.StringIO(), width=200, color_system=None, highlight=False)
    game = make_game(game_name)
    bots = ["random"] * game.num_seats
    return TerminalGame(game, seat=0, bots=bots, seed=1, deals=1, console=con, input_fn=lambda p: "", german_suits=german_suits, lang=lang)


def test_every_key_exists_in_both_languages() -> None:
    # every text a player sees exists in German and English
    assert set(CATALOGUE["en"]) == set(CATALOGUE["de"])
    for key, text in CATALOGUE["en"].items():
        assert set(re.findall(r"{(\w+)}", text)) == set(re.findall(r"{(\w+)}", CATALOGUE["de"][key])), key


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("♠A", "play SA"),
        ("♥10", "play H10"),
        ("♦9", "play D9"),
        ("♣q", "play CQ"),
        ("♥\ufe0f10", "play H10"),
        ("play ♠A", "play SA"),
        ("♤A", "play SA"),
    ],
)
def test_suit_symbols_as_printed_are_understood(typed: str, meant: str) -> None:
    # issue 40: the CLI prints ♠A; typing it back means the same card (before: "Not understood")
    table = quiet_table()
    state = table.game.new_state(seed=1, dealer=3)
    options = state.legal_actions()
    assert table.resolve(typed, state, options) == state.to_action(meant)
    assert table.resolve("S7", state, options) is None  # not a card of this pack: still not understood


def test_german_suit_spelling_as_printed_wins() -> None:
    # with --german-suits the screen shows SA for the Schellen (diamond) ace and LA for the Laub (spade) ace
    table = quiet_table(german_suits=True)
    state = table.game.new_state(seed=1, dealer=3)
    options = state.legal_actions()
    assert table.resolve("SA", state, options) == state.to_action("play DA")
    assert table.resolve("la", state, options) == state.to_action("play SA")
    assert table.resolve("EO", state, options) == state.to_action("play CQ")
    assert table.resolve("HU", state, options) == state.to_action("play HJ")
    assert table.resolve("DA", state, options) == state.to_action("play DA")  # the notation where nothing printed matches


def test_tarock_names_as_printed_are_understood() -> None:
    table = quiet_table("tapp_tarock")
    state = table.game.new_state(seed=1, dealer=0)
    options = state.legal_actions()
    for typed, card in (("Pagat", "T1"), ("mond", "T21"), ("Sküs", "T22"), ("SKUS", "T22")):
        assert table.resolve(f"play {typed}", state, options) == state.to_action(f"play {card}")


def test_calls_line_names_each_partys_call() -> None:
    # issue 40: "Calls: Re Re/Kontra" -> each party with its own call word
    result = {
        "scores": [3, 3, -3, -3],
        "kind": "normal",
        "contract": "normal",
        "re": [0, 1],
        "kontra": [2, 3],
        "eyes": {"re": 130, "kontra": 110},
        "tricks": {"re": 7, "kontra": 5},
        "calls": {"re": "re_kontra", "kontra": "re_kontra"},
        "winner": "re",
        "items": [],
        "specials": [],
        "multiplier": 1,
        "value": 3,
        "solo": False,
    }
    en = [plain(line) for line in explain_result(result, ["A", "B", "C", "D"])]
    assert "Calls: Re party Re; Kontra party Kontra" in en
    assert not any("Re/Kontra" in line for line in en)
    de = [plain(line) for line in explain_result(result, ["A", "B", "C", "D"], texts=Texts("de"))]
    assert "Ansagen: Re-Partei Re; Kontra-Partei Kontra" in de
    assert de[0] == "Spiel: Normalspiel — Re: A, B; Kontra: C, D"


def test_sheet_labels_follow_the_language() -> None:
    # issue 40: no "Normalspiel" on the English sheet beside "normal game" in the evaluation
    notes = {"kind": "solo", "contract": "damen", "soloist": 2, "pflicht": True, "forced": False, "multiplier": 2}
    names = ["You", "Seat 1", "Seat 2", "Seat 3"]
    assert doppelkopf_sheet_label(notes, names, Texts("en")) == "bock ×2: compulsory solo Damen-Solo, Seat 2"
    assert doppelkopf_sheet_label({"kind": "normal"}, names, Texts("en")) == "normal game"
    assert doppelkopf_sheet_label({"kind": "normal"}, ["Du", "Platz 1", "Platz 2", "Platz 3"], Texts("de")) == "Normalspiel"
    armut = {"kind": "armut", "poor": 1, "armut_taker": 3}
    german = ["Du", "Platz 1", "Platz 2", "Platz 3"]
    assert doppelkopf_sheet_label(armut, german, Texts("de")) == "Armut von Platz 1, übernommen von Platz 3"


GERMAN_ONLY = ("Normalspiel", "Spielzettel", "Abrechnung", "Augen")
ENGLISH_ONLY = ("normal game", "Score sheet", "Evaluation", "Your turn", "Your hand", "eyes", "Totals", "dealer")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_sitting_speaks_one_language(lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 40: --lang de gives a German terminal (as the web offers German); neither language borrows the other's words
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    status, out, err = run_cli(capsys, "play", "doppelkopf", "--seed", "8", "--bots", "heuristic", "--deals", "2", "--lang", lang)
    assert status == 0 and err == ""
    if lang == "de":
        assert "Du sitzt auf Platz 0" in out and "Abrechnung" in out and "Spielzettel" in out and "Spielende." in out
        assert not [word for word in ENGLISH_ONLY if word in out]
    else:
        assert "You are seat 0" in out and "Evaluation" in out and "Score sheet" in out and "Game over." in out
        assert not [word for word in GERMAN_ONLY if word in out]


def test_german_commands_work() -> None:
    out = io.StringIO()
    con = Console(file=out, width=200, color_system=None, highlight=False)
    answers = iter(["hilfe", "letzter", "stand", "ende"])
    game = make_game("doppelkopf")
    table = TerminalGame(game, seat=0, bots=["random"] * 4, seed=3, deals=1, console=con, input_fn=lambda p: next(answers), lang="de")
    assert table.run() == 0
    text = out.getvalue()
    assert "Befehle: hilfe dieser Text" in text
    assert "Noch ist kein Stich vollständig." in text
    assert "Noch ist kein Spiel abgerechnet." in text
    assert "Spiel abgebrochen. Stand: Du +0" in text


def test_every_phase_has_a_german_name() -> None:
    # the "Your turn (phase)" line of a German sitting names the phase in German for every game
    from stich.cli.texts import PHASES_DE
    from stich.core.registry import game_class, game_names

    for name in game_names():
        state_phases = type(make_game(name).new_state(seed=1, dealer=0)).PHASE_NAMES
        shown = {phase.replace("_", " ") for phase in state_phases} - {"play", "end"}
        assert shown <= set(PHASES_DE), (name, shown - set(PHASES_DE))
        assert game_class(name).title
