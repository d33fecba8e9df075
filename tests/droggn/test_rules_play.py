"""Scenario tests: trick play, the Gstieß, the laid-out Pagat and Gstieß, Super Mord (dossier §6, §5, §8.3).

Most deals are Supers declared by seat 0 (dealer 2), so no exchange comes
between the bidding and the first lead; the talon holds cards the scenario
wants out of play.
"""

from __future__ import annotations

import pytest

from stich.errors import IllegalActionError
from stich.games.droggn.state import DroggnState

from .helpers import act, bid, deal, game, hand_text, legal_cards, play, snapshot, to_play

SPADES_HEARTS = "SK SQ SC SJ S10 S9 S8 S7 S6 S5 S4 HK HQ HC HJ H1 H2 H3 H4 H5 H6"
"""21 cards without a club, a trump or the Gstieß."""


def super_by_0(fixed: dict[int, str], talon: str = "D5 D6 D7", *, avoid: dict[int, str] | None = None, **options: object) -> DroggnState:
    s = bid(deal(game(**options), fixed, talon=talon, avoid=avoid), 0, "super")
    return to_play(s)


def test_declarer_leads_the_first_trick() -> None:
    # §6.1 the declarer leads to the first trick, whoever dealt
    s = to_play(bid(deal(game(), {}), 1, "super"))
    assert s.current_player() == 1


def test_follow_suit() -> None:
    # §6.1 follow suit if able
    s = super_by_0({0: "C10 T22", 1: "C9 CK T5"})
    play(s, "C10")
    assert legal_cards(s) == {c for c in hand_text(s, 1) if c.startswith("C")}
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match=r"follow suit.*§6.1"):
        s.apply("play T5")
    assert snapshot(s) == before


def test_no_obligation_to_beat() -> None:
    # §6.1 there is no obligation to beat the cards already played
    s = super_by_0({0: "C9 T22", 1: "C4 CK"})
    play(s, "C9")
    assert {"C4", "CK"} <= legal_cards(s)


def test_must_trump_when_void() -> None:
    # §6.1 void in the suit led, you must trump
    s = super_by_0({0: "C10 T22", 1: "T5"}, avoid={1: "CK CQ CC CJ C9 C8 C7 C6 C5 C4"})
    play(s, "C10")
    assert legal_cards(s) == {c for c in hand_text(s, 1) if c.startswith("T")}
    with pytest.raises(IllegalActionError, match=r"must play a trump.*§6.1"):
        s.apply("play " + next(c for c in hand_text(s, 1) if c[0] in "SHD"))


def test_trumps_led_must_follow_with_a_trump() -> None:
    # §6.1 if trumps are led, follow with a trump if you have one
    s = super_by_0({0: "T21 T22", 1: "T5 CK"})
    play(s, "T21")
    assert legal_cards(s) == {c for c in hand_text(s, 1) if c.startswith("T")}


def test_void_without_trumps_plays_anything() -> None:
    # §6.1 with neither the suit led nor a trump, any card
    s = super_by_0({0: "C10 T22", 2: SPADES_HEARTS})
    play(s, "C10")
    play(s, next(c for c in sorted(legal_cards(s))))
    assert legal_cards(s) == hand_text(s, 2)


def test_gstiess_may_be_played_to_any_trick() -> None:
    # §6.2 the Gstieß ignores following suit and trumping
    s = super_by_0({0: "C10", 1: "C9 T22"})
    play(s, "C10")
    assert "T22" in legal_cards(s)


def test_gstiess_never_wins_and_goes_back_to_its_side() -> None:
    # §6.2 the trick goes to the better of the other two cards; the Gstieß goes to the pile of the side that played it
    s = super_by_0({0: "T22 T21", 1: "C10 CK", 2: "C4"})
    play(s, "T22 C10 C4")
    _seats, _cards, winner = s.tricks[-1]
    assert winner == 1  # seat 1's C10 beats seat 2's C4; the led Gstieß cannot win
    assert s.decl_pile == 1 << 21  # the Gstieß went back to the declarer's pile
    assert s.def_pile.bit_count() == 2
    assert s.observation(2).public["gstiess_to"] == "declarer"


def test_led_gstiess_second_card_sets_the_suit() -> None:
    # §6.2 after a led Gstieß the second player may play any card; that card sets what the third must follow
    s = super_by_0({0: "T22 T21", 1: "C10 SK T5", 2: "C4 S4 T6"})
    play(s, "T22")
    assert legal_cards(s) == hand_text(s, 1)
    play(s, "SK")
    assert legal_cards(s) == {c for c in hand_text(s, 2) if c.startswith("S")}


def test_defenders_gstiess_stays_with_defenders() -> None:
    # §6.2 the Gstieß is never captured, even when the declarer wins the trick
    s = super_by_0({0: "CK T21", 1: "T22 C10", 2: "C4"})
    play(s, "CK T22 C4")
    assert s.tricks[-1][2] == 0
    assert s.def_pile == 1 << 21
    assert s.decl_pile.bit_count() == 2


def test_laid_out_pagat_kept_while_other_cards_are_legal() -> None:
    # §5.1, §6.3 a laid-out Pagat must not be played while its holder has any other legal card
    s = bid(deal(game(), {0: "T21 T22", 1: "T1 T5"}), 0, "super")
    act(s, "liege", "lay_out T1", "pass", "pass")
    play(s, "T21")
    assert "T1" not in legal_cards(s)
    with pytest.raises(IllegalActionError, match=r"laid-out Pagat.*§6.3"):
        s.apply("play T1")


def test_laid_out_pagat_forced_out_when_it_is_the_only_legal_card() -> None:
    # §6.3 the laid-out Pagat is played when nothing else is legal
    no_trumps = "SK SQ SC SJ S10 S9 S8 S7 S6 S5 S4 HK HQ HC HJ H1 H2 H3 H4 H5"
    s = bid(deal(game(), {0: "T21 T22", 1: "T1 " + no_trumps}, talon="H6 D6 D7"), 0, "super")
    act(s, "liege", "lay_out T1", "pass", "pass")
    play(s, "T21")
    assert legal_cards(s) == {"T1"}


def super_mord_all_trumps(lay_out: str = "T22") -> DroggnState:
    """Seat 0 holds T2..T22 and declares Super Mord; seat 1 holds the Pagat."""
    trumps = " ".join(f"T{n}" for n in range(2, 23))
    s = bid(deal(game(), {0: trumps, 1: "T1"}), 0, "super_mord")
    act(s, f"lay_out {lay_out}" if lay_out else "liege", "pass", "pass")
    return s


def test_laid_out_gstiess_bound_to_the_last_trick() -> None:
    # §5.2, OPEN-POINTS a Gstieß laid out in a Super Mord may not be played before the last trick
    s = super_mord_all_trumps()
    assert "T22" not in legal_cards(s)
    with pytest.raises(IllegalActionError, match=r"last trick.*§5.2"):
        s.apply("play T22")


def test_laid_out_gstiess_wins_the_last_trick_of_a_super_mord() -> None:
    # §5.2 the laid-out Gstieß wins the last trick when the declarer won every earlier trick: +187
    s = super_mord_all_trumps()
    while not s.is_terminal():
        legal = sorted(s.legal_actions(), key=lambda a: -a.code) if s.current_player() == 0 else s.legal_actions()
        s.apply(legal[0])
    assert s.tricks[-1][2] == 0
    assert 21 in s.tricks[-1][1]
    result = s.result()
    assert result.breakdown["value"] == 187
    assert result.scores == (374, -187, -187)


def test_super_mord_stops_at_the_first_lost_trick() -> None:
    # §8.3, OPEN-POINTS a Super Mord is lost at the first trick the declarer does not win; play stops there
    s = to_play(bid(deal(game(), {0: "C4", 1: "CK"}), 0, "super_mord"))
    play(s, "C4 CK")
    play(s, sorted(legal_cards(s))[0])
    assert s.is_terminal()
    assert s.stopped
    assert s.result().breakdown["value"] == -167
    assert s.result().breakdown["stopped_after_trick"] == 1


def test_gstiess_in_the_last_trick_allowed_by_default() -> None:
    # §6.2 by default the Gstieß may be played to the last trick
    s = _to_last_two(game(), holder=1)
    other = next(c for c in legal_cards(s) if c != "T22")
    play(s, other)
    while s.current_player() != 1:
        s.apply(s.legal_actions()[0])
    assert s.hand_mask(1).bit_count() == 1
    assert legal_cards(s) == {"T22"}
    play(s, "T22")


def test_gstiess_last_trick_illegal_option() -> None:
    # §6.2 [VAR] gstiess_last_trick_illegal: with two cards left the Gstieß must be played now
    s = _to_last_two(game(gstiess_last_trick_illegal=True), holder=1)
    assert legal_cards(s) == {"T22"}
    other = next(c for c in hand_text(s, 1) if c != "T22")
    with pytest.raises(IllegalActionError, match=r"gstiess_last_trick_illegal.*§6.2"):
        s.apply(f"play {other}")


def _to_last_two(g: object, holder: int) -> DroggnState:
    """A Super by seat 0 played (lowest card first, never the Gstieß) until ``holder`` has two cards and is to play."""
    from stich.games.droggn.game import Droggn

    assert isinstance(g, Droggn)
    s = to_play(bid(deal(g, {holder: "T22"}), 0, "super"))
    while not (s.current_player() == holder and s.hand_mask(holder).bit_count() == 2):
        actions = [a for a in s.legal_actions() if a.text != "play T22"] or s.legal_actions()
        s.apply(actions[0])
    return s


def test_four_players_idle_dealer_never_moves() -> None:
    # §2 at four the dealer sits out the whole deal
    g = game(players=4)
    s = g.new_state(seed=4, dealer=1)
    movers = set()
    while not s.is_terminal():
        movers.add(s.current_player())
        s.apply(s.legal_actions()[-1] if s.phase_name == "bidding" and s.current_player() == 2 else s.legal_actions()[0])
    assert 1 not in movers
    assert s.hand_mask(1) == 0
