"""Scenario tests of the bidding: Solo round, Dapp round, overcalls, holding, compulsion (dossier §3).

The standard deal :data:`NO_STOP` gives nobody a trump stop (the Gstieß and
the Mund lie in the Dapp), so only rule (b) compels; :data:`STOP_AT_2` gives
seat 2 the Gstieß.  The dealer is seat 5: seat 0 speaks first, seat 4 is
second-to-last.
"""

from __future__ import annotations

import pytest

from stich.errors import IllegalActionError
from stich.games.dappen.state import DappenState

from .helpers import act, dapp, deal, game, legal, passes_until, snapshot, solo

NO_STOP = {
    0: "T20 T3 CK CQ CC CJ C10",
    1: "T19 T4 T2 SK SQ SC SJ",
    2: "T18 T5 T6 T7 HK HQ HC",
    3: "T17 T8 T9 T10 T11 DK DQ",
    4: "T16 T12 T13 T14 T15 T1 DC",
    5: "C9 C8 C7 S10 S9 S8 S7",
}
"""Six hands without a trump stop (T + H <= 22 for each); the Dapp holds T22 T21 and the red leftovers."""

STOP_AT_2 = {**NO_STOP, 2: "T22 T5 T6 T7 HK HQ HC"}
STOP_AT_2_DAPP = "T18 T21 HJ H1 H2 H3 H4 DJ D1 D2 D3 D4"

BUCHENBACH = {
    0: "CK T20 T3 CQ CC CJ C10",
    1: "SK T19 T4 T2 SQ SC SJ",
    2: "HK DK T18 T5 T6 HQ HC",
    3: "T17 T8 T9 T10 T11 T7 DQ",
    4: "T16 T12 T13 T14 T15 T1 DC",
    5: "C9 C8 C7 S10 S9 S8 S7",
}
"""Kings: seat 0 one, seat 1 one, seat 2 two, seat 3 none; seat 4 holds the Geiß."""


def all_pass_solo(state: DappenState) -> DappenState:
    for _ in state.active:
        state.apply("pass")
    return state


# ------------------------------------------------------------------ Solo round


def test_solo_question_starts_on_the_dealers_right() -> None:
    # §3.1: both rounds start with the player on the dealer's right
    state = deal(game(), NO_STOP)
    assert state.phase_name == "solo" and state.current_player() == 0
    assert legal(state) == {"pass", "bid solo"}


def test_first_solo_ends_the_bidding_and_leaves_the_dapp() -> None:
    # §3.1: the first Solo ends all bidding; the Solo player does not pick up the Dapp
    state = solo(deal(game(), NO_STOP), 1)
    assert state.lone == 1 and state.contract == "solo"
    assert state.card_places()["dapp"].bit_count() == 12
    assert state.phase_name == "ulti"  # seat 1 holds T2 and T4: it may lay out an Ulti first


def test_all_pass_the_solo_question_opens_the_dapp_round() -> None:
    # §3.2: the Dapp round follows, again from the dealer's right
    state = all_pass_solo(deal(game(), NO_STOP))
    assert state.phase_name == "dapp" and state.current_player() == 0
    assert legal(state) == {"pass", "bid dapp"}


# ------------------------------------------------------------------ Dapp round


def test_a_dapp_without_overcall_makes_the_dapper_lone_player() -> None:
    # §3.2.1: a dapp stands when nobody stretches; the dapper takes the Dapp
    state = dapp(deal(game(), NO_STOP), 1)
    assert (state.lone, state.contract, state.phase_name) == (1, "dapp", "discard")
    assert state.hand_mask(1).bit_count() == 19


def test_later_players_may_stretch() -> None:
    # §3.2.2: once someone has dapped, later players may pass or strecken
    state = all_pass_solo(deal(game(), NO_STOP))
    act(state, "pass", "bid dapp")
    assert state.current_player() == 2
    assert legal(state) == {"pass", "bid strecken"}


def test_first_stretch_ends_the_round_and_the_dapper_may_hold() -> None:
    # §3.2.2-3: the first stretch ends the round for everyone else; the dapper holds ("selber")
    state = all_pass_solo(deal(game(), NO_STOP))
    act(state, "pass", "bid dapp", "pass", "bid strecken")
    assert state.phase_name == "answer" and state.current_player() == 1
    assert legal(state) == {"hold", "pass"}
    act(state, "hold")
    assert (state.lone, state.contract, state.bidders) == (1, "strecken", [1, 3])
    assert state.phase_name == "discard"


def test_dapper_may_cede_to_the_stretcher() -> None:
    # §3.2.3: the dapper cedes ("gut"): the stretcher plays alone; either way the game is doubled
    state = all_pass_solo(deal(game(), NO_STOP))
    act(state, "pass", "bid dapp", "pass", "bid strecken", "pass")
    assert (state.lone, state.contract) == (3, "strecken")
    assert state.hand_mask(3).bit_count() == 19 and state.hand_mask(1).bit_count() == 7


def test_nothing_above_strecken_in_furtwangen() -> None:
    # §3.2: Furtwangen knows only Dappen and Strecken
    state = all_pass_solo(deal(game(), NO_STOP))
    act(state, "bid dapp", "bid strecken")
    with pytest.raises(IllegalActionError):
        state.apply("bid stupfen")


# ------------------------------------------------------------------ compulsion


def test_rule_b_second_to_last_must_dapp() -> None:
    # §3.2.5 (b): if all before passed, the second-to-last player (dealer's left) must dapp
    state = all_pass_solo(deal(game(), NO_STOP))
    passes_until(state, 4)
    assert legal(state) == {"bid dapp"}
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=r"§3.2.5 \(b\)"):
        state.apply("pass")
    assert snapshot(state) == before
    assert state.observation(4).private["must_dapp"] == "b"


def test_rule_b_at_eight_players_is_two_seats_left_of_the_dealer() -> None:
    # §3.2.5 (b): with 8 at the table the idle dealer is not asked; seat dealer-2 must dapp
    g = game(players=8, compulsory_a=False)
    state = g.new_state(seed=4, dealer=7)
    all_pass_solo(state)
    passes_until(state, 5)
    assert legal(state) == {"bid dapp"}


def test_rule_a_trump_stop_must_dapp() -> None:
    # §3.2.5 (a): the Gstieß is a stop (T+H>22): its holder must dapp while nobody has
    state = all_pass_solo(deal(game(), STOP_AT_2, STOP_AT_2_DAPP))
    act(state, "pass", "pass")
    assert state.current_player() == 2 and legal(state) == {"bid dapp"}
    with pytest.raises(IllegalActionError, match=r"§3.2.5 \(a\)"):
        state.apply("pass")


def test_rule_a_holder_may_still_bid_solo_first() -> None:
    # §3.2.5 (a): "must dappen (or have bid Solo earlier)"
    state = deal(game(), STOP_AT_2, STOP_AT_2_DAPP)
    act(state, "pass", "pass")
    assert legal(state) == {"pass", "bid solo"}


def test_rule_a_lapses_once_somebody_has_dapped() -> None:
    # §3.2.5: the compulsion applies only while nobody has dapped
    state = all_pass_solo(deal(game(), STOP_AT_2, STOP_AT_2_DAPP))
    act(state, "bid dapp", "pass")
    assert legal(state) == {"pass", "bid strecken"}


def test_childrens_variant_drops_rule_a_only() -> None:
    # §3.2.5 "Kindervariante": without rule (a); rule (b) still applies
    state = all_pass_solo(deal(game(compulsory_a=False), STOP_AT_2, STOP_AT_2_DAPP))
    act(state, "pass", "pass", "pass", "pass")
    assert legal(state) == {"bid dapp"}


def test_penalty_mode_wrong_pass_ends_the_deal() -> None:
    # §3.2.5 / §10.3: at an honour-system table a wrong pass under (a) ends the deal; the offender pays each a Marsch
    state = all_pass_solo(deal(game(compulsory_enforcement="penalty_marsch"), STOP_AT_2, STOP_AT_2_DAPP))
    act(state, "pass", "pass", "pass")
    assert state.is_terminal()
    result = state.result()
    assert result.scores == (40, 40, -200, 40, 40, 40)
    assert result.breakdown["kind"] == "penalty"
    shown = state.game.deck.cards(state.knowable_cards(0))
    assert {c.text for c in shown} >= {"T22", "HK"}


def test_breitnau_all_pass_is_thrown_in() -> None:
    # §3.3: no compulsory dapp; if everyone passes "das Spiel kommt ins Loch": no payment
    state = all_pass_solo(deal(game("breitnau"), STOP_AT_2, STOP_AT_2_DAPP))
    for _ in range(6):
        state.apply("pass")
    assert state.is_terminal()
    assert state.result().scores == (0,) * 6
    assert state.result().breakdown["kind"] == "thrown"


# ------------------------------------------------------------------ Breitnau ladder


def test_breitnau_stupfen_held() -> None:
    # §3.3: dapp, strecken, selber, stupfen, selber: the dapper plays at the Stupfen level
    state = all_pass_solo(deal(game("breitnau"), NO_STOP))
    act(state, "pass", "bid dapp", "pass", "bid strecken", "hold")
    assert state.phase_name == "raise" and state.current_player() == 3
    assert legal(state) == {"pass", "bid stupfen"}
    act(state, "bid stupfen")
    assert state.current_player() == 1 and legal(state) == {"pass", "hold"}
    act(state, "hold")
    assert (state.lone, state.contract) == (1, "stupfen")


def test_breitnau_stretcher_gives_up_after_a_hold() -> None:
    # §3.3: after "selber" the stretcher may pass: the dapper plays the held Strecken
    state = all_pass_solo(deal(game("breitnau"), NO_STOP))
    act(state, "pass", "bid dapp", "pass", "bid strecken", "hold", "pass")
    assert (state.lone, state.contract) == (1, "strecken")


def test_breitnau_dapper_gives_way_to_stupfen() -> None:
    # §3.3: the dapper may pass on the Stupfen; nothing is higher
    state = all_pass_solo(deal(game("breitnau"), NO_STOP))
    act(state, "pass", "bid dapp", "pass", "bid strecken", "hold", "bid stupfen", "pass")
    assert (state.lone, state.contract, state.bidders) == (3, "stupfen", [1, 3])


# ------------------------------------------------------------------ Buchenbach


def test_buchenbach_stretch_against_a_solo() -> None:
    # §3.4: after a Solo a later player may strecken and take the Dapp; the Solo bidder cannot reply
    state = deal(game("buchenbach"), BUCHENBACH)
    act(state, "bid solo")
    assert state.phase_name == "solo_stretch" and legal(state) == {"pass", "bid strecken"}
    act(state, "pass", "bid strecken")
    assert (state.lone, state.contract, state.bidders) == (2, "solo_strecken", [0, 2])
    assert state.phase_name == "discard"


def test_buchenbach_solo_stands_without_a_stretch() -> None:
    # §3.4: if nobody stretches, the Solo is played
    state = deal(game("buchenbach"), BUCHENBACH)
    act(state, "pass", "bid solo", "pass", "pass", "pass", "pass")
    assert (state.lone, state.contract, state.phase_name) == (1, "solo", "play")


def test_buchenbach_hannes_ladder_with_a_third_bidder() -> None:
    # §3.4 / OPEN-POINTS: minimum overcalls, holding only with the named cards, a third player may join
    state = all_pass_solo(deal(game("buchenbach"), BUCHENBACH))
    act(state, "bid dapp")
    assert legal(state) == {"pass", "bid ein_hannes"}  # seat 1 holds a king
    with pytest.raises(IllegalActionError, match="jump"):
        state.apply("bid zwei_hannes")
    act(state, "bid ein_hannes")
    assert state.current_player() == 0 and legal(state) == {"pass", "hold"}  # seat 0 holds CK
    act(state, "hold")
    # seat 1 has one king only: it cannot raise to Zwei Hannes, but it is asked all the same (decision 0052)
    assert (state.phase_name, state.current_player(), legal(state)) == ("raise", 1, {"pass"})
    with pytest.raises(IllegalActionError, match="king"):
        state.apply("bid zwei_hannes")
    act(state, "pass")
    # the turn moves on to seat 2
    assert state.phase_name == "dapp" and state.current_player() == 2
    assert legal(state) == {"pass", "bid zwei_hannes"}
    act(state, "bid zwei_hannes")
    # seat 0 cannot hold Zwei Hannes with one king: it is asked and can only give way (decision 0052)
    assert (state.phase_name, state.current_player(), legal(state)) == ("answer", 0, {"pass"})
    with pytest.raises(IllegalActionError, match="king"):
        state.apply("hold")
    act(state, "pass")
    assert state.current_player() == 3 and legal(state) == {"pass"}
    with pytest.raises(IllegalActionError, match=r"§3.4"):
        state.apply("bid geiss")
    act(state, "pass", "bid geiss")
    # the Geiß cannot be held; nothing is higher
    assert (state.lone, state.contract, state.bidders) == (4, "geiss", [0, 1, 2, 4])


def test_buchenbach_ein_hannes_needs_a_king() -> None:
    # §3.4: Ein Hannes — the bidder must hold at least one king
    state = all_pass_solo(deal(game("buchenbach"), BUCHENBACH))
    act(state, "pass", "pass", "pass", "bid dapp")
    assert state.current_player() == 4 and legal(state) == {"pass"}  # seat 4 holds no king
    with pytest.raises(IllegalActionError, match="king"):
        state.apply("bid ein_hannes")


def test_buchenbach_all_pass_is_thrown_in() -> None:
    # §3.4 / §10.12: no compulsion in Buchenbach; all pass gives a throw-in
    state = all_pass_solo(deal(game("buchenbach"), BUCHENBACH))
    for _ in range(6):
        state.apply("pass")
    assert state.is_terminal() and state.result().breakdown["kind"] == "thrown"


# ------------------------------------------------------------------ other versions


def test_jeu_du_tarot_has_no_solo_round_and_a_dapp_ends_the_bidding() -> None:
    # §8.4: the notes know only the dapp (assumed Dapp-style bidding, dapp only)
    state = deal(game("jeu_du_tarot"), NO_STOP)
    assert state.phase_name == "dapp" and legal(state) == {"pass", "bid dapp"}
    act(state, "pass", "bid dapp")
    assert (state.lone, state.contract, state.phase_name) == (1, "dapp", "discard")


def test_waldau_has_no_compulsion() -> None:
    # §3.6: Waldau: no compulsory dapp
    state = all_pass_solo(deal(game("waldau"), STOP_AT_2, STOP_AT_2_DAPP))
    act(state, "pass", "pass")
    assert legal(state) == {"pass", "bid dapp"}


def test_observation_shows_bids_to_everybody() -> None:
    # §3: bids are spoken aloud: every seat sees them, and the current holder
    state = all_pass_solo(deal(game(), NO_STOP))
    act(state, "pass", "bid dapp")
    obs = state.observation(5)
    assert (1, "bid dapp") in obs.events
    assert obs.public["holder"] == 1 and obs.public["bid"] == "dapp"
