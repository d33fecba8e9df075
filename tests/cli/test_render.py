"""Rendering helpers: Doppelkopf hand order, tricks, and the evaluation explained from the breakdown."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from stich.cards import parse_cards
from stich.cli.render import action_markup, explain_result, hand_markup, item_text, sort_hand, trick_seat_order
from stich.core.game import TrickView
from stich.core.registry import make_game

HAND = parse_cards("D9 CA HA SQ H10 DA CQ HJ S10 HK D10 CJ")


def texts(cards: Any) -> str:
    return " ".join(c.text for c in cards)


def plain(markup: str) -> str:
    console = Console(width=300, color_system=None)
    with console.capture() as cap:
        console.print(markup, end="")
    return cap.get()


def test_normal_game_order_trumps_high_to_low_then_clubs_spades_hearts() -> None:
    game = make_game("doppelkopf")
    # Trumps: H10, queens, jacks, DA D10 D9; then clubs, spades, hearts (A 10 K 9).
    assert texts(sort_hand(HAND, game, {"contract": "normal"})) == "H10 CQ SQ CJ HJ DA D10 D9 CA S10 HA HK"


def test_solo_order_follows_the_contract() -> None:
    game = make_game("doppelkopf")
    assert texts(sort_hand(HAND, game, {"contract": "damen"})) == "CQ SQ CA CJ S10 HA H10 HK HJ DA D10 D9"
    assert texts(sort_hand(HAND, game, {"contract": "fleischlos"})) == "CA CQ CJ S10 SQ HA H10 HK HJ DA D10 D9"
    assert texts(sort_hand(HAND, game, {"contract": "herz"})) == "H10 CQ SQ CJ HJ HA HK CA S10 DA D10 D9"


def test_schweine_and_no_dullen_change_the_order() -> None:
    hand = parse_cards("DA DA H10 CQ")
    house = make_game("doppelkopf", "house_classic")
    assert texts(sort_hand(hand, house, {"contract": "normal", "schweine": 1})) == "DA DA H10 CQ"
    no_dullen = make_game("doppelkopf", options={"dullen": False})
    assert texts(sort_hand(hand, no_dullen, {"contract": "normal"})) == "CQ DA DA H10"


def test_hand_markup_separates_trumps_and_shows_symbols() -> None:
    game = make_game("doppelkopf")
    text = plain(hand_markup(HAND, game, {"contract": "normal"}))
    assert text == "♥10 ♣Q ♠Q ♣J ♥J ♦A ♦10 ♦9 | ♣A ♠10 ♥A ♥K"
    assert plain(hand_markup(HAND[:2], game, {"contract": "normal"}, german_suits=True)) == "S9 | EA"


def test_action_markup_shows_cards() -> None:
    assert plain(action_markup("play H10")) == "play ♥10"
    assert plain(action_markup("discard ?")) == "discard ?"
    assert plain(action_markup("announce re")) == "announce re"


def test_trick_seats_follow_the_active_seats() -> None:
    trick = TrickView(leader=3, cards=tuple(parse_cards("H10 CQ SQ DA")))
    assert trick_seat_order(trick, [1, 2, 3, 4]) == [3, 4, 1, 2]  # five players, dealer 0 sits out
    assert trick_seat_order(trick, [1, 2, 3, 0]) == [3, 0, 1, 2]


def test_item_texts() -> None:
    assert item_text("re_keine60_angesagt") == "Re announced keine 60"
    assert item_text("fuchs_gefangen").startswith("fox caught")
    assert item_text("something_new") == "something new"


def test_explain_result_walks_through_the_breakdown() -> None:
    game = make_game("doppelkopf")
    state = game.new_state(seed=4, dealer=0)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    result = state.result().to_json()
    names = ["You", "Seat 1", "Seat 2", "Seat 3"]
    lines = [plain(line) for line in explain_result(result, names)]
    assert lines[0].startswith("Game: ")
    assert f"Eyes: Re {result['eyes']['re']}, Kontra {result['eyes']['kontra']}" in lines[1]
    for item in result["items"]:
        assert any(item_text(item["name"]) in line for line in lines)
    assert lines[-2] == f"Value: {result['value']} for Re" + (" (the soloist scores it three times)" if result["solo"] else "")
    assert lines[-1] == "Scores: " + ", ".join(f"{n} {s:+d}" for n, s in zip(names, result["scores"], strict=True))


def test_explain_result_with_specials_and_no_winner() -> None:
    result = {
        "scores": [2, -2, 2, -2],
        "kind": "normal",
        "contract": "normal",
        "re": [0, 2],
        "kontra": [1, 3],
        "eyes": {"re": 130, "kontra": 110},
        "tricks": {"re": 7, "kontra": 5},
        "calls": {"re": "keine90", "kontra": "none"},
        "winner": None,
        "items": [{"name": "gegen_keine90", "party": "kontra", "points": 1}],
        "specials": [
            {"name": "doppelkopf", "party": "re", "points": 1, "trick": 4},
            {"name": "karlchen", "party": "re", "points": 1, "trick": 11},
        ],
        "multiplier": 2,
        "value": 0,
        "solo": False,
    }
    lines = [plain(line) for line in explain_result(result, ["A", "B", "C", "D"])]
    assert "Calls: Re party keine 90; Kontra party none" in lines
    assert "Winner: nobody (both parties missed their goal)" in lines
    assert "   1 120 eyes against a keine 90 (Kontra)" in lines
    assert "  × 2 (bock)" in lines
    assert "   1 Doppelkopf: a trick of 40 or more eyes (Re, trick 5)" in lines
    assert "   1 Karlchen: ♣J won the last trick (Re, trick 12)" in lines


def test_explain_a_thrown_deal() -> None:
    lines = [
        plain(x)
        for x in explain_result(
            {"scores": [0, 0, 0, 0], "kind": "thrown", "reason": "five_nines", "seat": 2, "redeal": True}, ["A", "B", "C", "D"]
        )
    ]
    assert lines == ["Thrown in by C (five nines): the deal is redealt and scores nothing.", "Scores: A +0, B +0, C +0, D +0"]
