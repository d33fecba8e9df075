"""The display hooks the terminal and the web client use (hand order, trick points, the result in words)."""

from __future__ import annotations

from stich.cards import format_cards, parse_cards

from .helpers import accept_all, act, deal, discard, game, play


def test_hand_is_shown_hearts_first_in_dobbm_rank_order() -> None:
    # §1 hearts are trumps; every suit ranks A 10 K O U 9 8 7 6
    g = game()
    groups = g.hand_groups(parse_cards("CK C10 H6 HA SJ D9 H10 CA"), {})
    assert [format_cards(grp) for grp in groups] == ["HA H10 H6", "CA C10 CK", "SJ", "D9"]


def test_trick_points() -> None:
    # §1 card points of a trick
    assert game().trick_points(parse_cards("HA C10 SK DJ")) == 27


def test_result_in_words() -> None:
    # §7 / §8 the count and the payment in words
    s = act(deal(), "bid dobbm", "accept", "accept", "accept")
    discard(s, "HK HQ D8 D7")
    accept_all(s)
    for trick in (
        "HA H9 H7 H6",
        "H10 HJ H8 C6",
        "CA CJ C8 C7",
        "C10 CQ C9 S7",
        "SA SK S9 S8",
        "D6 DK D10 DQ",
        "S10 D9 S6 SQ",
        "SJ DJ DA CK",
    ):
        play(s, trick)
    lines = s.game.describe_result(s.result().to_json())
    assert lines[0] == "Dobbm by seat 0 against seats 1, 2, 3."
    assert "declarer 71, defenders 49" in lines[1]
    assert "11 x 12 / 60 = 3 (rounded up)" in lines[2]
    assert lines[-1] == "Each opponent pays the declarer 3 units."
    s = act(deal(game(players=5), {}, dealer=0), "pass", "pass", "pass", "pass")
    assert s.game.describe_result(s.result().to_json()) == [
        "All passed: the cards are thrown in; seat 1 deals next.",
        "Stockerl: seat 1 collects 2 from each other player.",
    ]
