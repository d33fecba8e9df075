"""``stich play`` driven by scripted input: a whole deal with bad inputs on the way, quitting, the CLI entry."""

from __future__ import annotations

import io
import sys

import pytest
from rich.console import Console

from stich.cli.common import UsageError
from stich.cli.play import TerminalGame
from stich.core.game import Game
from stich.core.registry import make_game
from stich.games.doppelkopf.contracts import FACES

from .helpers import run_cli


def console() -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, width=200, color_system=None, highlight=False), buffer


class Script:
    """Scripted player: some bad inputs first, then always the first legal choice."""

    def __init__(self, table: TerminalGame, opening: list[str]) -> None:
        self.table = table
        self.opening = list(opening)
        self.sent: list[str] = []
        self.bad_cards: list[str] = []

    def __call__(self, prompt: str) -> str:
        assert prompt == "> "
        state = self.table.state
        assert state is not None
        obs = state.observation(self.table.seat)
        answer = "1"
        if self.opening:
            answer = self.opening.pop(0)
        elif obs.phase == "play" and not self.bad_cards:
            # A card the player does not hold: illegal, and the engine says why.
            held = set(obs.hand)
            card = next(c for c in FACES if c not in held)
            answer = f"play {card.text}"
            self.bad_cards.append(card.text)
        elif obs.phase == "play" and len(self.bad_cards) == 1 and obs.tricks and obs.tricks[-1].winner is None:
            # A card held but not allowed (must follow suit), where there is one.
            legal = {a.text for a in obs.legal_actions}
            other = [c for c in obs.hand if f"play {c.text}" not in legal]
            if other:
                answer = other[0].text
                self.bad_cards.append(other[0].text)
        self.sent.append(answer)
        return answer


def make_table(
    game: Game, seed: int, opening: list[str], *, seat: int = 0, deals: int | None = 1
) -> tuple[TerminalGame, Script, io.StringIO]:
    con, buffer = console()
    names = ["random"] * game.num_seats
    table = TerminalGame(game, seat=seat, bots=names, seed=seed, deals=deals, console=con, input_fn=lambda p: "")
    script = Script(table, opening)
    table.input_fn = script
    return table, script, buffer


def test_a_whole_deal_with_bad_inputs_ends_with_the_evaluation() -> None:
    game = make_game("doppelkopf")
    table, script, buffer = make_table(game, 3, ["help", "what now", "99", "hand", "last", "score"])
    assert table.run() == 0
    text = buffer.getvalue()
    state = table.state
    assert state is not None and state.is_terminal()
    assert len(table.session.rows) == 1
    # Bad inputs got one explaining line each and the game went on.
    assert "Commands: help this text" in text
    assert "Not understood: 'what now' is no choice, action or command." in text
    assert "No choice 99: type a number from 1 to" in text
    assert "No trick has been completed yet." in text
    assert "No deal has been scored yet." in text
    bad = script.bad_cards[0]
    assert f"Not allowed: play {bad}: {bad} is not in your hand [§6.1]. Allowed: 1)" in text
    if len(script.bad_cards) > 1:
        assert f"Not allowed: play {script.bad_cards[1]}: you must follow the suit led" in text
    # Bots' actions, tricks and the evaluation from the result breakdown.
    assert "Seat 1 (random): " in text
    assert "Trick 12: " in text
    result = state.result().to_json()
    tail = text[text.index("Evaluation") :]
    assert f"Eyes: Re {result['eyes']['re']}, Kontra {result['eyes']['kontra']}" in tail
    assert f"Tricks: Re {result['tricks']['re']}, Kontra {result['tricks']['kontra']}" in tail
    assert f"Value: {result['value']} for Re" in tail
    scores = result["scores"]
    assert "Scores: You {:+d}, Seat 1 {:+d}, Seat 2 {:+d}, Seat 3 {:+d}".format(*scores) in tail
    assert "Score sheet" in tail
    assert f"Game over. Totals: You {scores[0]:+d}" in tail
    assert "Traceback" not in text


def test_follow_suit_message_names_the_rule() -> None:
    """Over a few seeds the script also tries a held card that does not follow suit."""
    game = make_game("doppelkopf")
    for seed in range(1, 8):
        table, script, buffer = make_table(game, seed, [])
        table.run()
        if len(script.bad_cards) > 1:
            assert "you must follow the suit led (trumps count as one suit) [§6.1, TSR 5.2]" in buffer.getvalue()
            return
    pytest.fail("no seed offered a chance to try a card that does not follow suit")


def test_action_texts_are_understood() -> None:
    game = make_game("doppelkopf")
    table, _, _ = make_table(game, 3, [])
    state = game.new_state(seed=1, dealer=3)
    options = state.legal_actions()
    assert table.resolve("gesund", state, options) == state.to_action("gesund")
    assert table.resolve("2", state, options) == options[1]
    assert table.resolve("re", state, options) == state.to_action("announce re")
    assert table.resolve("damen", state, options) == state.to_action("solo damen")
    assert table.resolve("h10", state, options) == state.to_action("play H10")
    assert table.resolve("Play h10", state, options) == state.to_action("play H10")
    assert table.resolve("T21", state, options) is None
    assert table.resolve("nonsense words", state, options) is None


def test_quit_and_end_of_input_leave_cleanly() -> None:
    game = make_game("doppelkopf")
    table, _, buffer = make_table(game, 5, ["quit"])
    assert table.run() == 0
    assert "Game abandoned. Totals: You +0" in buffer.getvalue()

    def eof(prompt: str) -> str:
        raise EOFError

    con, buffer = console()
    table = TerminalGame(game, seat=2, bots=["random"] * 4, seed=5, deals=1, console=con, input_fn=eof)
    assert table.run() == 0
    assert "Game abandoned." in buffer.getvalue()

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    con, buffer = console()
    table = TerminalGame(game, seat=1, bots=["random"] * 4, seed=5, deals=1, console=con, input_fn=interrupt)
    assert table.run() == 0
    assert "Game abandoned." in buffer.getvalue()


def test_several_deals_keep_a_running_sheet() -> None:
    game = make_game("doppelkopf", options={"players": 5})
    table, _, buffer = make_table(game, 21, [], seat=3, deals=3)
    assert table.run() == 0
    assert len(table.session.rows) == 3
    text = buffer.getvalue()
    assert text.count("Evaluation") == 3
    totals = table.session.totals
    assert sum(totals) == 0
    assert "Game over. Totals: " + ", ".join(f"{n} {t:+d}" for n, t in zip(table.names, totals, strict=True)) in text


def test_german_suits() -> None:
    game = make_game("doppelkopf")
    con, buffer = console()
    table = TerminalGame(game, seat=0, bots=["random"] * 4, seed=3, deals=1, german_suits=True, console=con, input_fn=lambda p: "quit")
    table.run()
    hand_line = next(line for line in buffer.getvalue().splitlines() if line.startswith("Your hand:"))
    assert "♥" not in hand_line and "♣" not in hand_line
    assert any(token in hand_line for token in ("H10", "EO", "LO", "HO", "SO"))  # Herz-Zehn, the Ober


def test_main_play_reads_stdin_until_the_deal_is_over(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("garbage\n" + "1\n" * 200))
    status, out, err = run_cli(capsys, "play", "doppelkopf", "--seed", "8", "--bots", "heuristic", "--seat", "2")
    assert status == 0 and err == ""
    assert "You are seat 2; seat 0 heuristic, seat 1 heuristic, seat 3 heuristic. Seed 8" in out
    assert "Not understood: 'garbage'" in out
    assert "Evaluation" in out and "Game over." in out


def test_main_play_without_input_quits(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status, out, err = run_cli(capsys, "play", "doppelkopf", "--list", "--bots", "random")
    assert status == 0 and "Game abandoned." in out and "Traceback" not in err


def test_games_without_list_rules_play_plain_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("stich.cli.play.SESSIONS", {})
    game = make_game("doppelkopf")
    table, _, _ = make_table(game, 4, [], deals=2)
    assert table.run() == 0
    rows = table.session.sheet()
    assert [row["dealer"] for row in rows] == [0, 1]
    assert rows[-1]["totals"] == [a + b for a, b in zip(rows[0]["scores"], rows[1]["scores"], strict=True)]
    with pytest.raises(UsageError, match="no list rules"):
        make_table(game, 4, [], deals=None)


def test_a_thrown_in_deal_is_redealt_and_not_counted() -> None:
    # Tapp Tarock seed 3: everybody passes the first deal; --deals 1 still plays one deal out
    game = make_game("tapp_tarock")
    con, _buffer = console()
    table = TerminalGame(game, seat=0, bots=["heuristic"] * 3, seed=3, deals=1, console=con, input_fn=lambda p: "1")
    assert table.run() == 0
    rows = table.session.rows
    assert len(rows) == 2
    assert rows[0].notes.get("redeal") is True
    assert "Redeal" not in rows[1].label


def test_tapp_tarock_shows_the_talon_halves_and_names_you_in_the_result() -> None:
    """Issue 28, item 11: "take lower / take upper" comes after the two halves; the result says "You", not "seat 0"."""
    game = make_game("tapp_tarock")
    table, _, buffer = make_table(game, 3, [])

    def declare_and_take_lower(prompt: str) -> str:
        assert table.state is not None
        texts = [a.text for a in table.state.observation(0).legal_actions]
        return next((text for text in texts if text in ("take lower", "bid unterer")), texts[0])

    table.input_fn = declare_and_take_lower
    assert table.run() == 0
    text = buffer.getvalue()
    talon = table.state.observation(0).public["talon"] if table.state is not None else {}
    # the halves are named in the sitting's words ("lower half", as the web says; "untere Hälfte" in German)
    lower, choices = text.index("Talon lower half: "), text.index("1) take lower")
    assert lower < text.index("Talon upper half: ") < choices, text
    for half in ("lower", "upper"):
        shown = text[text.index(f"Talon {half} half: ") :].splitlines()[0].split(": ")[1].split()
        assert len(shown) == len(talon[half]) == 3, (half, shown, talon[half])
    tail = text[text.index("Evaluation") :]
    assert "by You" in tail and "seat 0" not in tail.lower()
    assert "(You)" in tail  # the score sheet's label
