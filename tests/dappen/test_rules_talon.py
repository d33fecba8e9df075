"""Scenario tests of the Dapp exchange and the seven five-pointers (dossier §4, §8.4)."""

from __future__ import annotations

import pytest

from stich.cards import parse_cards
from stich.errors import IllegalActionError
from stich.games.dappen.pack import DECK

from .helpers import act, dapp, deal, discard, game, legal_discards, snapshot, solo, texts
from .test_rules_bidding import NO_STOP


def parse_cards_text(text: str) -> list[str]:
    return [c.text for c in parse_cards(text)]


DAPP_OF_NO_STOP = "T22 T21 HJ H1 H2 H3 H4 DJ D1 D2 D3 D4"


def test_lone_player_takes_the_dapp_unseen() -> None:
    # §4: the lone player takes the 12 Dapp cards without showing them
    state = dapp(deal(game(), NO_STOP), 1)
    assert texts(state.observation(1).hand) >= set(DAPP_OF_NO_STOP.split())
    for seat in (0, 2, 3, 4, 5):
        known = texts(DECK.cards(state.knowable_cards(seat)))
        assert not known & set(DAPP_OF_NO_STOP.split())
        assert state.observation(seat).public["dapp_size"] == 0


def test_nobody_sees_the_dapp_before_it_is_settled() -> None:
    # §3.2.4: nobody looks at the Dapp until it is settled who plays alone
    state = deal(game(), NO_STOP)
    act(state, *["pass"] * 6, "bid dapp", "bid strecken")
    for seat in range(6):
        assert not texts(DECK.cards(state.knowable_cards(seat))) & set(DAPP_OF_NO_STOP.split())


def test_five_pointers_may_not_be_laid_away() -> None:
    # §4: no five-pointer (kings, Gstieß, Mund, Geiß) may be discarded
    state = dapp(deal(game(), NO_STOP), 1)
    allowed = legal_discards(state)
    assert not allowed & {"T22", "T21", "SK"}
    assert {"SQ", "T19", "H1"} <= allowed
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=r"§4"):
        state.apply("discard SK")
    assert snapshot(state) == before


def test_twelve_discards_then_play() -> None:
    # §4: the lone player lays 12 cards away face down, back to 7 cards
    state = dapp(deal(game(ulti="none"), NO_STOP), 1)
    discard(state, "HJ H1 H2 H3 H4 DJ D1 D2 D3 D4 SJ SC")
    assert state.hand_mask(1).bit_count() == 7
    assert state.card_places()["discards"].bit_count() == 12
    assert state.phase_name == "play" and state.current_player() == 1


def test_discards_are_hidden_from_the_others() -> None:
    # §4: discards are face down: the others see only that a card was laid away
    state = dapp(deal(game(ulti="none"), NO_STOP), 1)
    discard(state, "HJ H1")
    assert (1, "discard ?") in state.observation(0).events
    assert (1, "discard HJ") in state.observation(1).events
    assert state.observation(1).private["discards"] == ["HJ", "H1"]


def test_talon_is_shown_at_the_end() -> None:
    # §7: after the play the discards are counted for the lone player, so the table sees them
    state = dapp(deal(game(ulti="none"), NO_STOP), 1)
    discard(state, "HJ H1 H2 H3 H4 DJ D1 D2 D3 D4 SJ SC")
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    obs = state.observation(3)
    assert set(obs.public["talon"]) == set(parse_cards_text("HJ H1 H2 H3 H4 DJ D1 D2 D3 D4 SJ SC"))


def test_seven_five_pointers_after_the_dapp_is_a_marsch_without_play() -> None:
    # §4: holding all seven five-pointers after taking the Dapp: shown, no play, a Marsch won by the lone player
    hands = {
        0: "T20 T3 SQ CQ CC CJ C10",
        1: "T19 T4 T1 SK CK HK DK",
        2: "T18 T5 T6 T7 HQ HC HJ",
        3: "T17 T8 T9 T10 T11 DQ DC",
        4: "T16 T12 T13 T14 T15 T2 DJ",
        5: "C9 C8 C7 S8 S7 SC SJ",
    }
    state = dapp(deal(game(), hands, "T22 T21 H1 H2 H3 H4 D1 D2 D3 D4 S10 S9"), 1)
    assert state.is_terminal() and state.seven_fives
    result = state.result()
    assert result.breakdown["marsch"] == "lone" and result.breakdown["winner"] == "lone"
    assert result.scores == (-40, 200, -40, -40, -40, -40)
    assert set(state.observation(3).public["seven_fives"]) == {"T22", "T21", "T1", "CK", "SK", "HK", "DK"}


def test_seven_five_pointers_dealt_to_a_solo_player() -> None:
    # §4: the same applies to a 6-player Solo dealt all seven (a won Solo: doubled)
    hands = {
        0: "T22 T21 T1 CK SK HK DK",
        1: "T19 T4 T2 CQ SQ SC SJ",
        2: "T18 T5 T6 T7 HQ HC HJ",
        3: "T17 T8 T9 T10 T11 DQ DC",
        4: "T16 T12 T13 T14 T15 CC CJ",
        5: "C9 C8 C7 S10 S9 S8 S7",
    }
    state = solo(deal(game(), hands), 0)
    assert state.is_terminal()
    assert state.result().scores == (400, -80, -80, -80, -80, -80)


def test_no_show_without_the_option() -> None:
    # §8.4: the Jeu du Tarot notes do not know the show (seven_fives_marsch=false)
    hands = {
        0: "T22 T21 T1 CK SK HK DK",
        1: "T19 T4 T2 CQ SQ SC SJ",
        2: "T18 T5 T6 T7 HQ HC HJ",
        3: "T17 T8 T9 T10 T11 DQ DC",
        4: "T16 T12 T13 T14 T15 CC CJ",
        5: "C9 C8 C7 S10 S9 S8 S7",
    }
    state = deal(game("jeu_du_tarot"), hands)
    act(state, "bid dapp")
    assert not state.is_terminal() and state.phase_name == "discard"


JDT_HANDS = {
    0: "T22 T21 T1 CK SK HK T3",
    1: "T19 T4 T2 CQ SQ SC SJ",
    2: "T18 T5 T6 T7 HQ HC HJ",
    3: "T17 T8 T9 T10 T11 DQ DK",
    4: "T16 T12 T13 T14 T15 CC CJ",
    5: "C9 C8 C7 S10 S9 S8 S7",
}
"""Seat 0 holds three kings; the fourth is with seat 3, not in the Dapp."""


def test_jeu_du_tarot_honneurs_are_kings_and_five_point_trumps_stay() -> None:
    # §8.4 / §10.14: kings may be laid away only by a holder of all four; five-point trumps never
    state = deal(game("jeu_du_tarot"), JDT_HANDS)
    act(state, "bid dapp")
    allowed = legal_discards(state)
    assert not allowed & {"T22", "T21", "T1", "CK", "SK", "HK"}
    all_kings = {**JDT_HANDS, 0: "T22 T21 T1 CK SK HK DK", 3: "T17 T8 T9 T10 T11 DQ T3"}
    state = deal(game("jeu_du_tarot"), all_kings)
    act(state, "bid dapp")
    allowed = legal_discards(state)
    assert {"CK", "SK", "HK", "DK"} <= allowed and not allowed & {"T22", "T21", "T1"}


def test_jeu_du_tarot_seven_players_lift_only_the_honneurs_restriction() -> None:
    # §8.4: with seven players the honneurs (kings) may be laid away; §10.14: five-point trumps never
    # (issue 29 fix 2: seed 2657123233696958874, the lone player tried to lay away T1)
    g = game("jeu_du_tarot", players=7)
    state = act(g.new_state(seed=2657123233696958874, dealer=0), "pass", "pass", "bid dapp")
    lone = state.current_player()
    assert (state.phase_name, lone) == ("discard", 3)
    hand = texts(state.observation(lone).hand)
    assert "T1" in hand
    with pytest.raises(IllegalActionError, match="five-point trumps"):
        state.apply("discard T1")
    assert legal_discards(state) == hand - {"T22", "T21", "T1"}
    kings = {"CK", "SK", "HK", "DK"} & hand
    assert kings and len(kings) < 4  # kings free although the lone player does not hold all four


def test_jeu_du_tarot_seven_players_honneurs_fives_no_restriction() -> None:
    # §8.4 with honneurs read as all five-pointers (§10.14 alternative): seven players lift the restriction
    g = game("jeu_du_tarot", players=7, discard_rule="honneurs_fives")
    state = g.new_state(seed=2, dealer=6)
    act(state, "bid dapp")
    assert legal_discards(state) == texts(state.observation(0).hand)


def test_honneurs_fives_option() -> None:
    # §10.14 alternative: "honneurs" = the five-pointers, laid away only by a holder of four
    four = {
        0: "T22 T21 CK SK T6 T7 T3",
        1: "T19 T4 T2 CQ SQ SC SJ",
        2: "T18 T5 T1 HK HQ HC HJ",
        3: "T17 T8 T9 T10 T11 DQ DC",
        4: "T16 T12 T13 T14 T15 CC CJ",
        5: "C9 C8 C7 S10 S9 S8 S7",
    }
    state = deal(game("jeu_du_tarot", discard_rule="honneurs_fives"), four)
    act(state, "bid dapp")
    assert {"T22", "CK", "DK"} <= legal_discards(state)  # T22 T21 CK SK and DK from the Dapp
    three = {**four, 0: "T22 T21 CK C10 T6 T7 T3", 5: "C9 C8 C7 S10 S9 SK DK"}
    state = deal(game("jeu_du_tarot", discard_rule="honneurs_fives"), three)
    act(state, "bid dapp")
    assert not legal_discards(state) & {"T22", "T21", "CK"}
