"""Scenario tests of the Ulti: laying out trumps 3, 2, 1 for the last tricks (dossier §5.1)."""

from __future__ import annotations

import pytest

from stich.errors import IllegalActionError

from .helpers import act, dapp, deal, discard, game, legal, legal_plays, play, solo

ALL_THREE = {
    0: "T22 T21 T20 T4 T3 T2 T1",
    1: "CQ CC CJ C10 C9 C8 C7",
    2: "SK SQ SC SJ S10 S9 S8",
    3: "HK HQ HC HJ H1 H2 H3",
    4: "DK DQ DC DJ D1 D2 D3",
    5: "T19 T18 T17 CK S7 H4 D4",
}
"""Seat 0 can draw every outstanding trump (seat 5's three) and bring the 3, 2 and 1 home."""

FORCED = {
    0: "T22 T1 C10 C9 C8 C7 CJ",
    1: "CK CQ CC SK SQ SC SJ",
    2: "S10 S9 S8 S7 HK HQ HC",
    3: "HJ H1 H2 H3 H4 DK DQ",
    4: "DC DJ D1 D2 D3 D4 T2",
    5: "T3 T4 T5 T6 T7 T8 T9",
}
"""Seat 0 lays out the Geiß; seat 5 draws trumps until the Geiß is the only one left."""


def test_lone_player_may_lay_out_trumps_3_2_1() -> None:
    # §5.1: before the first lead the lone player may lay out one, two or three of the trumps 3, 2, 1 held
    state = solo(deal(game(), ALL_THREE), 0)
    assert state.phase_name == "ulti"
    assert legal(state) == {"pass", "announce ulti3", "announce ulti2", "announce ulti1"}
    act(state, "announce ulti3", "announce ulti1")
    assert legal(state) == {"pass", "announce ulti2"}
    act(state, "pass")
    obs = state.observation(4)
    assert obs.public["ulti"] == [3, 1] and set(obs.public["ulti_cards"]) == {"T3", "T1"}
    assert obs.public["ulti_tricks"] == {"3": 6, "1": 7}  # double Ulti: penultimate with 3, last with 1


def test_laid_out_cards_only_when_nothing_else_is_allowed() -> None:
    # §5.1: laid-out cards may be played only when the lone player has no other option
    state = solo(deal(game(), ALL_THREE), 0)
    act(state, "announce ulti3", "announce ulti2", "announce ulti1")
    assert state.phase_name == "play"
    assert legal_plays(state) == {"T22", "T21", "T20", "T4"}
    with pytest.raises(IllegalActionError, match=r"§5.1"):
        state.apply("play T1")


def test_triple_ulti_won() -> None:
    # §5.1: the last three tricks won with 3, 2, 1 in descending order: every Ulti is won
    state = solo(deal(game(), ALL_THREE), 0)
    act(state, "announce ulti3", "announce ulti2", "announce ulti1")
    play(state, "T22 C7 S8 H3 D3 T17")
    play(state, "T21 C8 S9 H2 D2 T18")
    play(state, "T20 C9 S10 H1 D1 T19")
    play(state, "T4 CJ SJ HJ DJ H4")
    assert legal_plays(state) == {"T3"}  # in the Ulti tricks they go highest first
    play(state, "T3 C10 SC HC DC D4")
    play(state, "T2 CC SQ HQ DQ S7")
    play(state, "T1 CQ SK HK DK CK")
    result = state.result()
    assert [(u["trump"], u["won"]) for u in result.breakdown["ulti"]] == [(3, True), (2, True), (1, True)]
    # a won Solo Marsch: 40 doubled to 80 per opponent; Ultis 10 + 20 + 30 never doubled
    assert result.scores == (700, -140, -140, -140, -140, -140)


def test_forced_out_early_ulti_fails() -> None:
    # §5.1: if a laid-out card is forced out before its trick, that Ulti fails
    state = solo(deal(game(), FORCED), 0)
    assert legal(state) == {"pass", "announce ulti1"}
    act(state, "announce ulti1")  # nothing else to lay out: play begins
    play(state, "C7 CK S7 H4 T2 T3")
    assert state.current_player() == 5
    play(state, "T4")
    assert legal_plays(state) == {"T22"}  # a trump is required: the Geiß waits while the Gstieß can go
    play(state, "T22 SJ S8 H3 D4")
    play(state, "C8 CC S9 H2 D3 T5")
    play(state, "T6")
    assert legal_plays(state) == {"T1"}  # the only trump left is the laid-out Geiß
    play(state, "T1")
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    result = state.result()
    assert result.breakdown["ulti"] == [{"trump": 1, "won": False, "cents": 30}]
    assert result.breakdown["payments"]["ulti"] == [-150, 30, 30, 30, 30, 30]


def test_ulti_in_a_dapp_game() -> None:
    # §5.1: the lone player may lay out after taking the Dapp (Furtwangen)
    g = game()
    hands = {
        0: "T20 T3 CK CQ CC CJ C10",
        1: "T19 T4 T2 SK SQ SC SJ",
        2: "T18 T5 T6 T7 HK HQ HC",
        3: "T17 T8 T9 T10 T11 DK DQ",
        4: "T16 T12 T13 T14 T15 T1 DC",
        5: "C9 C8 C7 S10 S9 S8 S7",
    }
    state = dapp(deal(g, hands), 1)
    discard(state, "HJ H1 H2 H3 H4 DJ D1 D2 D3 D4 SJ SC")
    assert state.phase_name == "ulti" and legal(state) == {"pass", "announce ulti2"}


def test_ulti_1_only_offers_the_geiss_alone() -> None:
    # §3.6 / §9: Waldau's Ulti is with trump 1 only, and only in a Solo
    state = solo(deal(game("waldau"), ALL_THREE), 0)
    assert legal(state) == {"pass", "announce ulti1"}
    state = dapp(deal(game("waldau"), ALL_THREE), 0)
    discard(state, "T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16")
    assert state.phase_name == "play"  # a dapper with the Geiß is not offered the Ulti in Waldau


def test_no_ulti_where_the_version_has_none() -> None:
    # §3.5 / §8.2: Schollach and Breitnau know no Ulti
    for preset in ("schollach", "breitnau"):
        state = solo(deal(game(preset), ALL_THREE), 0)
        assert state.phase_name == "play"


def test_half_ulti_scale() -> None:
    # §5.1: a "half" Ulti is worth half a cent per point: 5, 10, 15
    state = solo(deal(game(ulti_scale="half"), ALL_THREE), 0)
    act(state, "announce ulti1")
    act(state, "pass")
    play(state, "T22 C7 S8 H3 D3 T17")
    play(state, "T21 C8 S9 H2 D2 T18")
    play(state, "T20 C9 S10 H1 D1 T19")
    play(state, "T4 CJ SJ HJ DJ H4")
    play(state, "T3 C10 SC HC DC D4")
    play(state, "T2 CC SQ HQ DQ S7")
    play(state, "T1 CQ SK HK DK CK")
    assert state.result().breakdown["ulti"] == [{"trump": 1, "won": True, "cents": 15}]
