"""The display hooks the terminal and the web client use (hand order, trick points, the result in words)."""

from __future__ import annotations

from stich.cards import format_cards, parse_cards

from .helpers import act, deal, game, play_out, to_play


def test_hand_is_shown_tarocks_first_in_rank_order() -> None:
    # §1: tarocks Sküs .. Pagat, then each suit from the king; red pips 1 2 3 4, black 10 9 8 7
    groups = game().hand_groups(parse_cards("H4 T1 CK H1 T22 C7 C10 DJ H2 T21 SQ"), {})
    assert [format_cards(g) for g in groups] == ["T22 T21 T1", "CK C10 C7", "SQ", "H1 H2 H4", "DJ"]


def test_trick_points_count_one_packet() -> None:
    # §7: a trick is a packet of three: face values minus 2
    assert game().trick_points(parse_cards("T21 T1 HK")) == 13
    assert game().trick_points(parse_cards("T2 T3 C7")) == 1


def test_result_in_words() -> None:
    # §7, §8: the count and the payments in words
    state = deal(game(), {0: "T22 T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 CK"}, lower="C7 S7 H4", upper="D4 D3 D2")
    act(state, "bid solo")
    to_play(state)
    while not state.is_terminal():
        state.apply(state.legal_actions()[-1] if state.current_player() == 0 else state.legal_actions()[0])
    play_out(state)
    lines = state.game.describe_result(state.result().to_json())
    assert lines[0] == "Solo by seat 0, against seat 1 and seat 2."
    assert lines[1].startswith("Card points: declarer ") and "(tricks 16:0): the declarer wins the game." in lines[1]
    assert "Valat (silent): 12 to the declarer." in lines
    assert "Each defender pays the declarer 12." in lines
    assert lines[-1] == "Köpfe dealt to seat 0: 1 from each other player."


def test_thrown_in_deal_in_words() -> None:
    # §3.3: everybody passed
    state = act(deal(), "pass", "pass", "pass")
    assert state.game.describe_result(state.result().to_json()) == ["All passed: the cards are thrown in; seat 2 deals again."]
