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
    act(state, "announce ulti1")
    assert legal(state) == {"pass"}  # trumps 3 and 2 are not held, but the question is still asked (decision 0040)
    act(state, "pass")
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


ISSUE_41_DEAL = {
    0: "T11 T18 T21 CK C10 SJ S9",
    1: "T2 T8 T14 CC SK DK D4",
    3: "T1 T15 CQ CJ HQ H4 D2",
    4: "T7 T13 T20 SC HK HJ DJ",
    5: "T3 T9 T17 T22 DQ DC D1",
    2: "T5 T6 C7 SQ S10 S7 D3",
}
"""Issue 41's reproduction (furtwangen, dealer 2): seat 4 bids Solo without an Ulti trump."""


def _swapped(hands: dict[int, str], a: tuple[int, str], b: tuple[int, str]) -> dict[int, str]:
    """``hands`` with card ``a[1]`` of seat ``a[0]`` and card ``b[1]`` of seat ``b[0]`` exchanged."""
    out = dict(hands)
    out[a[0]] = " ".join(b[1] if c == a[1] else c for c in hands[a[0]].split())
    out[b[0]] = " ".join(a[1] if c == b[1] else c for c in hands[b[0]].split())
    return out


@pytest.mark.parametrize("preset", ["furtwangen", "waldau"])
def test_ulti_question_does_not_show_whether_the_lone_player_holds_a_trump(preset: str) -> None:
    # §5.1 / decision 0040 (issue 41): the others see the same phase and the same events whether or not the
    # Solo player holds an Ulti trump; only the lone player's own choices differ (it knows its hand)
    views = []
    own = []
    for hands in (ISSUE_41_DEAL, _swapped(ISSUE_41_DEAL, (3, "T1"), (4, "T13"))):
        state = act(deal(game(preset), hands, dealer=2), "pass", "bid solo")
        assert state.lone == 4
        views.append([(o.phase, o.public, o.events) for o in (state.observation(s) for s in (0, 1, 2, 3, 5))])
        own.append(legal(state))
        act(state, "pass")
        views.append([(o.phase, o.public, o.events) for o in (state.observation(s) for s in (0, 1, 2, 3, 5))])
    assert views[0] == views[2] and views[1] == views[3]
    assert views[0][0][0] == "ulti" and views[1][0][0] == "play"
    assert own == [{"pass"}, {"pass", "announce ulti1"}]


def test_ulti_question_goes_on_after_a_layout_until_pass_or_all_laid_out() -> None:
    # §5.1 / decision 0040: after laying out the 3 the question comes again, with or without the 2 and 1
    state = solo(deal(game(), ALL_THREE), 0)
    act(state, "announce ulti3")
    assert state.phase_name == "ulti" and legal(state) == {"pass", "announce ulti2", "announce ulti1"}
    act(state, "announce ulti1", "announce ulti2")
    assert state.phase_name == "play"  # every Ulti laid out: nothing left to ask
    state = solo(deal(game("waldau"), ALL_THREE), 0)
    act(state, "announce ulti1")
    assert state.phase_name == "play"  # Waldau: the Geiß is the only Ulti
