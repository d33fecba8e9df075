"""Scenario tests for the talon exchange (dossier §4).  Dealer seat 2: seat 0 forehand, 1 middlehand, 2 rearhand."""

from __future__ import annotations

import pytest

from stich.errors import IllegalActionError
from stich.games.tapp_tarock.state import cards_text

from .helpers import act, deal, game, legal, play_out, snapshot, to_play

# Seat 0: nearly all tarocks; with the lower half it holds a single suit card that may be laid away.
TAROCK_HAND = "T22 T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 CK HK"
# Seat 0: an ordinary hand with many suit cards.
NORMAL_HAND = "T22 T1 T20 T15 T10 T5 CK CQ CC C7 SK S7 HK H4 DQ D4"


def test_declarer_exposes_both_halves_and_takes_either() -> None:
    # §4.1: in a Dreier the declarer turns both halves face up and picks up either one
    state = act(deal(lower="T2 T3 T4", upper="S8 S9 S10"), "bid dreier", "pass", "pass")
    assert legal(state) == {"take lower", "take upper"}
    for seat in (1, 2):
        assert state.observation(seat).public["talon"] == {"lower": ["T2", "T3", "T4"], "upper": ["S10", "S9", "S8"]}
    act(state, "take upper")
    assert state.hand_mask(0).bit_count() == 19
    assert state.observation(1).public["talon_taken"] == "upper"


def test_free_choice_also_in_unterer_and_oberer() -> None:
    # §4.1, §10.1: by default the contracts differ only in value; the declarer chooses either half
    state = act(deal(), "bid dreier", "bid unterer", "bid oberer", "pass", "pass")
    assert state.declarer == 2 and legal(state) == {"take lower", "take upper"}


def test_fixed_half_unterer_takes_the_lower_half() -> None:
    # §4.1 option talon_half_rule=fixed: Unterer must take talon_lower
    state = act(deal(game(talon_half_rule="fixed")), "bid dreier", "bid unterer", "pass", "pass")
    assert state.declarer == 1 and legal(state) == {"take lower"}
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="lower half") as err:
        state.apply("take upper")
    assert err.value.rule == "§4.1"
    assert snapshot(state) == before


def test_fixed_half_oberer_takes_the_upper_half_and_dreier_chooses() -> None:
    # §4.1 option talon_half_rule=fixed: Oberer must take talon_upper; Dreier keeps the free choice
    g = game(talon_half_rule="fixed")
    state = act(deal(g), "bid dreier", "bid unterer", "bid oberer", "pass", "pass")
    assert legal(state) == {"take upper"}
    state = act(deal(g), "bid dreier", "pass", "pass")
    assert legal(state) == {"take lower", "take upper"}


def test_fixed_unexposed_talon_stays_hidden() -> None:
    # §4.1 option talon_half_rule=fixed_unexposed: the fixed half is taken without showing the talon
    state = act(
        deal(game(talon_half_rule="fixed_unexposed"), lower="T2 T3 T4", upper="S8 S9 S10"), "bid dreier", "bid unterer", "pass", "pass"
    )
    assert "talon" not in state.observation(0).public
    act(state, "take lower")
    talon = state.dealt[3] | state.dealt[4]
    assert not state.knowable_cards(0) & talon
    assert state.knowable_cards(1) & talon == state.dealt[3]  # the declarer knows the half he picked up
    assert state.observation(1).private["talon_half"] == ["T2", "T3", "T4"]


def test_kings_may_not_be_laid_away() -> None:
    # §4.1: no kings among the discards
    state = act(deal(fixed={0: NORMAL_HAND}), "bid dreier", "pass", "pass", "take lower")
    with pytest.raises(IllegalActionError, match="kings") as err:
        state.apply("discard CK")
    assert err.value.rule == "§4.1"
    assert "discard CK" not in legal(state)


def test_trull_cards_may_not_be_laid_away() -> None:
    # §4.1: no Trull cards (Sküs, Mond, Pagat) among the discards
    state = act(deal(fixed={0: NORMAL_HAND}), "bid dreier", "pass", "pass", "take lower")
    for card in ("T22", "T1"):
        with pytest.raises(IllegalActionError, match="Trull"):
            state.apply(f"discard {card}")


def test_tarocks_only_when_there_is_no_other_choice() -> None:
    # §4.1: tarocks II-XX may be laid away only if fewer than three other legal cards remain
    state = act(deal(fixed={0: NORMAL_HAND}), "bid dreier", "pass", "pass", "take lower")
    with pytest.raises(IllegalActionError, match="no other choice"):
        state.apply("discard T5")
    assert all(not text.startswith("discard T") for text in legal(state))


def test_forced_tarock_discards_are_shown() -> None:
    # §4.1: with one legal suit card and three discards, two tarocks must go, and they are shown to the defenders
    state = act(deal(fixed={0: TAROCK_HAND}, lower="T8 DK H4"), "bid dreier", "pass", "pass", "take lower")
    assert {"discard H4", "discard T8", "discard T10"} <= legal(state)
    act(state, "discard T8", "discard T9")
    assert legal(state) == {"discard H4"}  # the last suit card must go now
    act(state, "discard H4")
    obs = state.observation(1)
    assert obs.public["shown_tarocks"] == ["T8", "T9"]
    assert obs.events[-3:] == ((0, "discard T8"), (0, "discard T9"), (0, "discard ?"))
    assert state.knowable_cards(1) & state.shown == state.shown


def test_forced_tarock_discards_announced_by_count() -> None:
    # §4.1 option forced_tarock_discard=announce_count: only the number of tarocks is told
    g = game(forced_tarock_discard="announce_count")
    state = act(deal(g, fixed={0: TAROCK_HAND}, lower="T8 DK H4"), "bid dreier", "pass", "pass", "take lower")
    act(state, "discard T8", "discard T9", "discard H4")
    obs = state.observation(2)
    assert "shown_tarocks" not in obs.public and obs.public["discarded_tarocks"] == 2
    assert obs.events[-3:] == ((0, "discard tarock"), (0, "discard tarock"), (0, "discard ?"))
    assert "'T9'" not in str(obs.to_json())  # a tarock from the hand, not from the exposed talon


def test_discards_and_unused_half_count_for_their_sides() -> None:
    # §4.1, §7: the discards count for the declarer, the unused half for the defenders
    state = act(deal(fixed={0: NORMAL_HAND}, lower="T2 T3 T4", upper="SQ SC SJ"), "bid dreier", "pass", "pass")
    play_out(to_play(state, "CQ CC DQ"))
    facts = state.facts()
    declarer = {c.text for c in facts.declarer_cards}
    defenders = {c.text for c in facts.defender_cards}
    assert {"CQ", "CC", "DQ"} <= declarer
    assert {"SQ", "SC", "SJ"} <= defenders
    assert cards_text(state.discards) == ["CQ", "CC", "DQ"]


def test_solo_talon_stays_hidden_and_goes_to_the_defenders() -> None:
    # §4.2: in a Solo nobody sees the talon; it counts for the defenders
    state = act(deal(lower="T2 T3 T4", upper="SQ SC SJ"), "bid solo")
    assert state.phase_name == "announce"
    talon = state.dealt[3] | state.dealt[4]
    for seat in range(3):
        assert not state.knowable_cards(seat) & talon
        assert "talon" not in state.observation(seat).public
    play_out(to_play(state))
    defenders = {c.text for c in state.facts().defender_cards}
    assert {"T2", "T3", "T4", "SQ", "SC", "SJ"} <= defenders
    assert state.observation(0).public["piles"]["talon_upper"] == ["SQ", "SC", "SJ"]  # shown at the count [§7]
