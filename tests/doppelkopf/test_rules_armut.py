"""Scenario tests for poverty (Armut, dossier §4.5) and throwing in (Schmeißen, §4.6)."""

from __future__ import annotations

from typing import Any

import pytest

from stich.errors import IllegalActionError, OptionError
from stich.games.doppelkopf.state import DoppelkopfState

from .helpers import act, deal, deal_hands, fill, game, legal, public

P0 = "H10 H10 CQ CQ SQ SQ HQ HQ DQ DQ CJ CJ"
P1 = "DA HJ CA CA C10 C10 SA SA HA HA SK S9"  # two trumps: poor
P2 = "HJ SJ SJ DJ DJ DA CK CK C9 C9 S10 S10"
P3 = "D10 D10 DK DK D9 D9 SK S9 HK HK H9 H9"


def poverty(**options: Any) -> DoppelkopfState:
    s = deal(game(armut=True, **options), P0, P1, P2, P3)
    act(s, "gesund", "vorbehalt", "gesund", "gesund")
    return s


def given(**options: Any) -> DoppelkopfState:
    """Seat 1 declares poverty and hands over HJ, DA and SK."""
    s = poverty(**options)
    act(s, "armut", "discard HJ", "discard DA", "discard SK")
    return s


def discards(s: DoppelkopfState) -> set[str]:
    return {a.text.split()[1] for a in s.legal_actions() if a.kind == "discard"}


def test_poor_hand_may_declare_armut() -> None:
    # §4.5 [VAR] a player with at most 3 trumps may declare poverty
    s = poverty()
    assert "armut" in legal(s)
    s.apply("armut")
    assert (s.phase_name, s.current_player(), public(s)["poor"]) == ("armut_give", 1, 1)


def test_armut_needs_option_and_a_poor_hand() -> None:
    # §8.3 armut is off by default; armut_max_trumps bounds the trumps of a poor hand
    s = deal(game(), P0, P1, P2, P3)
    act(s, "gesund", "vorbehalt", "gesund", "gesund")
    assert "armut" not in legal(s)
    assert "armut" not in legal(poverty(armut_max_trumps=1))
    s = deal(game(armut=True), P0, P1, P2, P3)
    act(s, "gesund", "gesund", "vorbehalt", "gesund")  # seat 2 holds 6 trumps
    assert "armut" not in legal(s)


def test_give_trumps_first() -> None:
    # §4.5 the poor player hands over all trumps first, then fills up with other cards
    s = poverty()
    s.apply("armut")
    assert discards(s) == {"DA", "HJ"}
    with pytest.raises(IllegalActionError, match=r"§4.5"):
        s.apply("discard CA")
    act(s, "discard HJ", "discard DA")
    assert discards(s) == {"CA", "C10", "SA", "HA", "SK", "S9"}
    s.apply("discard SK")
    assert (s.phase_name, s.current_player()) == ("armut_offer", 2)
    assert public(s)["hand_sizes"]["1"] == 9


def test_offer_goes_clockwise_and_taker_returns_three() -> None:
    # §4.5 the offer goes clockwise from the poor player's left; the taker returns 3 cards
    s = given()
    assert legal(s) == {"accept", "decline"}
    s.apply("decline")
    assert s.current_player() == 3
    s.apply("accept")
    assert (s.phase_name, s.current_player(), public(s)["armut_taker"]) == ("armut_return", 3, 3)
    assert len(s.observation(3).hand) == 15
    assert discards(s) >= {"HJ", "DA", "SK", "D10"}  # any card, received ones included
    act(s, "discard D10", "discard D10", "discard DK")
    assert s.phase_name == "play"
    assert s.current_player() == 0  # the dealer's left neighbour leads
    assert {seat: len(s.observation(seat).hand) for seat in range(4)} == {0: 12, 1: 12, 2: 12, 3: 12}
    assert public(s)["armut_trumps_returned"] == 3


def test_parties_are_poor_and_taker() -> None:
    # §4.5 the poor player and the taker form Re; the queens of clubs no longer decide
    s = given()
    act(s, "decline", "accept", "discard D10", "discard D10", "discard DK")
    parties = {seat: s.observation(seat).private["party"] for seat in range(4)}
    assert parties == {0: "kontra", 1: "re", 2: "kontra", 3: "re"}  # seat 0 holds both queens of clubs
    assert public(s)["parties"] == {"0": "kontra", "1": "re", "2": "kontra", "3": "re"}
    assert public(s)["kind"] == "armut"


def test_exchanged_cards_are_private() -> None:
    # §4.5 the handed-over cards are known to the giver and the taker only
    s = given()
    act(s, "decline", "accept", "discard D10", "discard D10", "discard DK")
    poor, taker, other = s.observation(1), s.observation(3), s.observation(0)
    assert sorted(poor.private["armut_given"]) == ["DA", "HJ", "SK"]
    assert sorted(poor.private["armut_returned"]) == ["D10", "D10", "DK"]
    assert sorted(taker.private["armut_returned"]) == ["D10", "D10", "DK"]
    assert "armut_given" not in other.private and "armut_returned" not in other.private
    assert [t for _, t in other.events if t.startswith("discard")] == ["discard ?"] * 6
    handed = ["discard HJ", "discard DA", "discard SK", "discard D10", "discard D10", "discard DK"]
    assert [t for _, t in taker.events if t.startswith("discard")] == handed


def test_parties_unknown_while_poverty_is_offered() -> None:
    # §4.1 / §4.5 nobody's party is settled before a taker is found
    s = given()
    assert public(s)["parties"] == {}
    assert "party" not in s.observation(1).private


def test_nobody_takes_means_redeal() -> None:
    # §4.5 nobody accepts: the cards are redealt (armut_no_taker=redeal)
    s = given()
    act(s, "decline", "decline")
    assert s.current_player() == 0
    s.apply("decline")
    assert s.is_terminal()
    result = s.result()
    assert result.scores == (0, 0, 0, 0)
    assert (result.breakdown["redeal"], result.breakdown["reason"]) == (True, "armut_not_taken")
    assert public(s)["parties"] == {}


def test_last_must_take() -> None:
    # §4.5 [VAR] armut_no_taker=last_must_take: the last player asked must accept
    s = given(armut_no_taker="last_must_take")
    act(s, "decline", "decline")
    assert legal(s) == {"accept"}
    with pytest.raises(IllegalActionError, match=r"§4.5"):
        s.apply("decline")
    s.apply("accept")
    assert public(s)["armut_taker"] == 0


def test_left_only_offers_the_poverty_to_the_left_neighbour_alone() -> None:
    # §4.5, §8.3 [VAR] armut_offer=left_only: the poor player's left neighbour is the only one asked
    s = given(armut_offer="left_only")
    assert s.current_player() == 2
    s.apply("decline")
    assert s.is_terminal() and s.result().breakdown["reason"] == "armut_not_taken"
    forced = given(armut_offer="left_only", armut_no_taker="last_must_take")
    assert legal(forced) == {"accept"}  # the only one asked is also the last


def test_armut_offer_needs_armut() -> None:
    with pytest.raises(OptionError, match="armut_offer"):
        game(armut_offer="left_only")


def test_armut_before_hochzeit_by_default() -> None:
    # §3.2 / A-18 query order ... > Armut > Hochzeit; hochzeit_before_armut swaps the two
    s = deal(game(armut=True), P0, P1, P2, P3)
    act(s, "vorbehalt", "vorbehalt", "gesund", "gesund")
    assert legal(s) == {"pass"} | {a.text for a in s.legal_actions() if a.kind == "solo"}
    act(s, "pass")  # seat 0 declines the Pflichtsolo question
    act(s, "pass")  # seat 1 as well
    assert (s.current_player(), legal(s)) == (1, {"armut"})
    s = deal(game(armut=True, hochzeit_before_armut=True), P0, P1, P2, P3)
    act(s, "vorbehalt", "vorbehalt", "gesund", "gesund", "pass", "pass")
    assert (s.current_player(), legal(s)) == (0, {"hochzeit"})


# ----------------------------------------------------------------------------- Schmeißen

ALL_CONDITIONS = "five_nines+four_nines_four_kings+nine_of_each_suit+seven_full_cards+max_trump_le_dj+max_trump_le_da"
HIGH_TRUMPS = ["H10", "CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ"]


def reserve_seat_1(condition: str, fixed: str, avoid: list[str], nines: bool = True) -> DoppelkopfState:
    hands = fill({1: fixed}, avoid={1: avoid}, nines=nines)
    s = deal_hands(game(schmeissen=condition, nines=nines), hands)
    act(s, "gesund", "vorbehalt", "gesund", "gesund")
    return s


@pytest.mark.parametrize(
    ("condition", "yes", "no", "avoid"),
    [
        ("five_nines", "C9 C9 S9 S9 H9", "C9 C9 S9 S9", ["H9", "D9"]),
        ("four_nines_four_kings", "C9 C9 S9 S9 CK CK SK SK", "C9 C9 S9 S9 CK CK SK", ["H9", "D9", "HK", "DK"]),
        ("nine_of_each_suit", "C9 S9 H9 D9", "C9 C9 S9 H9", ["D9"]),
        ("seven_full_cards", "CA CA C10 C10 SA SA S10", "CA CA C10 C10 SA SA", ["S10", "HA", "DA", "D10", "H10"]),
        ("max_trump_le_dj", "DJ DA D9", "HJ DA D9", [*HIGH_TRUMPS[:7], "DJ"]),
        ("max_trump_le_da", "DA D10 D9", "DJ DA D9", [*HIGH_TRUMPS, "DJ"]),
    ],
)
def test_schmeissen_conditions(condition: str, yes: str, no: str, avoid: list[str]) -> None:
    # §4.6 [VAR] each throw-in condition, on a hand that meets it and on one that just misses it
    avoid_yes = avoid if condition.startswith("max_trump") else []
    s = reserve_seat_1(condition, yes, avoid_yes)
    assert "schmeissen" in legal(s)
    s = reserve_seat_1(condition, no, avoid)
    assert "schmeissen" not in legal(s)


def test_schmeissen_without_nines_counts_kings() -> None:
    # §4.6 [VAR] without nines "five nines" means five kings
    s = reserve_seat_1("five_nines", "CK CK SK SK HK", [], nines=False)
    assert "schmeissen" in legal(s)


def test_schmeissen_is_a_redeal_with_the_hand_shown() -> None:
    # §4.6 [VAR] throwing in ends the deal without score; the hand is shown to everyone
    s = reserve_seat_1("five_nines", "C9 C9 S9 S9 H9", [])
    hand = sorted(c.text for c in s.observation(1).hand)
    s.apply("schmeissen")
    assert s.is_terminal()
    result = s.result()
    assert result.scores == (0, 0, 0, 0)
    assert (result.breakdown["reason"], result.breakdown["seat"], result.breakdown["redeal"]) == ("five_nines", 1, True)
    shown = public(s, 3)["thrown"]
    assert (shown["seat"], sorted(shown["hand"])) == (1, hand)


def test_schmeissen_off_by_default() -> None:
    # §8.3 schmeissen is empty by default
    hands = fill({1: "C9 C9 S9 S9 H9 H9"})
    s = deal_hands(game(), hands)
    act(s, "gesund", "vorbehalt", "gesund", "gesund")
    assert "schmeissen" not in legal(s)


@pytest.mark.parametrize(("throw_first", "to_move", "expected"), [(False, 2, "solo"), (True, 1, "schmeissen")])
def test_throw_before_solo_option(throw_first: bool, to_move: int, expected: str) -> None:
    # §3.2 [VAR] solos outrank throwing in unless throw_before_solo
    hands = fill({1: "C9 C9 S9 S9 H9"})
    s = deal_hands(game(schmeissen=ALL_CONDITIONS, throw_before_solo=throw_first), hands)
    act(s, "gesund", "vorbehalt", "vorbehalt", "gesund")
    if not throw_first:
        s.apply("pass")  # seat 1 passes the solo question; seat 2's solo question binds
    assert s.current_player() == to_move
    assert any(a.kind == expected for a in s.legal_actions())


TWO_POOR = ("H10 H10 CQ CQ SQ SQ HQ HQ DQ DQ CJ CJ", P1, "HJ SJ SJ DJ DJ DA D10 D10 DK DK D9 D9", "CK CK C9 C9 S10 S10 SK S9 HK HK H9 H9")


def test_two_poor_hands_are_redealt() -> None:
    # §4.5 [VAR] with two poor players the usual answer is a redeal (armut_two_poor=redeal, the default)
    s = deal(game(armut=True), *TWO_POOR)
    act(s, "gesund", "vorbehalt", "gesund", "gesund", "armut")
    assert s.is_terminal()
    assert s.result().scores == (0, 0, 0, 0)
    assert dict(s.result().breakdown) == {"kind": "thrown", "reason": "two_poor", "seat": 1, "redeal": True}


def test_two_poor_hands_may_be_played() -> None:
    # §4.5 [VAR] armut_two_poor=play: the first poor player to declare plays the poverty
    s = deal(game(armut=True, armut_two_poor="play"), *TWO_POOR)
    act(s, "gesund", "vorbehalt", "gesund", "gesund", "armut")
    assert (s.phase_name, s.current_player()) == ("armut_give", 1)
