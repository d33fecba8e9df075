"""Scenario tests for the Dobb: the exchange, the Sow rule, who sees what, Solo (dossier §4, §10.4).

Standard deal, dealer 3: seat 0 holds HA H10 HK HQ CA C10 SA DA, the Dobb S6 D8 D7 D6.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stich.cards import parse_cards
from stich.errors import IllegalActionError
from stich.games.dobbm.pack import DECK

from .helpers import accept_all, act, deal, discard, game, legal_cards, play_out, snapshot


def test_declarer_takes_up_the_dobb() -> None:
    # §4.1 the declarer picks up the 4 Dobb cards: 12 cards in hand, the centre is empty
    s = act(deal(), "bid dobbm", "accept", "accept", "accept")
    assert s.hand_mask(0).bit_count() == 12
    assert set(parse_cards("S6 D8 D7 D6")) <= set(DECK.cards(s.hand_mask(0)))
    assert s.talon == 0
    assert s.current_player() == 0


def test_declarer_discards_four_then_says_ich_liege() -> None:
    # §4.1 the declarer discards 4 cards face down; §5.1 then the doubling round starts
    s = act(deal(), "bid dobbm", "accept", "accept", "accept")
    discard(s, "S6 D8 D7")
    assert s.phase_name == "exchange"
    discard(s, "D6")
    assert s.phase_name == "doubling"
    assert s.hand_mask(0).bit_count() == 8
    assert s.discards.bit_count() == 4


def test_tens_kings_and_trumps_may_be_discarded_freely() -> None:
    # §4.1 tens, kings and every other card may be discarded, trumps included
    s = act(deal(), "bid dobbm", "accept", "accept", "accept")
    assert {"C10", "H10", "HK", "HQ", "S6"} <= legal_cards(s, "discard")
    discard(s, "C10 H10 HK HQ")
    assert s.phase_name == "doubling"


def test_a_sow_needs_a_trump_discarded_with_it() -> None:
    # §4.1 a Sow may be discarded only if a heart is discarded with it
    s = act(deal(), "bid dobbm", "accept", "accept", "accept")
    discard(s, "CA S6 D8")
    assert legal_cards(s, "discard") == {"H10", "HK", "HQ"}
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match=r"Sow.*§4.1"):
        s.apply("discard D7")
    assert snapshot(s) == before
    discard(s, "HQ")
    assert s.phase_name == "doubling"


def test_two_sows_need_two_trumps_and_a_third_sow_cannot_go() -> None:
    # §4.1 two Sows need two trumps; with 4 discards at most 2 Sows can go
    s = act(deal(), "bid dobbm", "accept", "accept", "accept")
    discard(s, "CA SA")
    assert legal_cards(s, "discard") == {"H10", "HK", "HQ"}
    discard(s, "HK")
    assert legal_cards(s, "discard") == {"H10", "HQ"}
    with pytest.raises(IllegalActionError, match=r"§4.1"):
        s.apply("discard DA")


def test_the_heart_sow_needs_a_heart_that_is_no_sow() -> None:
    # §4.1 / §10.4 default: every Sow, the heart Sow too, needs a different discarded heart that is no Sow (t >= s)
    s = act(deal(), "bid dobbm", "accept", "accept", "accept")
    discard(s, "HA S6 D8")
    assert legal_cards(s, "discard") == {"H10", "HK", "HQ"}
    s = act(deal(), "bid dobbm", "accept", "accept", "accept")
    discard(s, "CA HA")
    assert legal_cards(s, "discard") == {"H10", "HK", "HQ"}
    discard(s, "H10")
    assert legal_cards(s, "discard") == {"HK", "HQ"}


def test_any_heart_option_lets_the_heart_sow_cover_a_sow() -> None:
    # §10.4 alternative (sow_discard_rule=any_heart_incl_sow): any heart covers, the heart Sow itself needs none
    s = act(deal(game(sow_discard_rule="any_heart_incl_sow")), "bid dobbm", "accept", "accept", "accept")
    discard(s, "CA HA S6 D8")
    assert s.phase_name == "doubling"
    s = act(deal(game(sow_discard_rule="any_heart_incl_sow")), "bid dobbm", "accept", "accept", "accept")
    discard(s, "HA S6 D8")
    assert "D7" in legal_cards(s, "discard")


def test_discards_are_hidden_from_the_others() -> None:
    # §4.2 only the declarer sees the Dobb and the discards; they stay face down until the count
    s = act(deal(), "bid dobbm", "accept", "accept", "accept")
    discard(s, "S6 D8 D7 D6")
    for seat in (1, 2, 3):
        obs = s.observation(seat)
        text = json.dumps(obs.to_json())
        assert "discard ?" in text
        for card in ("S6", "D8", "D7", "D6"):
            assert f'"{card}"' not in text and f"discard {card}" not in text
        assert not s.knowable_cards(seat) & s.discards
    mine = s.observation(0)
    assert set(mine.private["discards"]) == {"S6", "D8", "D7", "D6"}
    assert set(mine.private["dobb"]) == {"S6", "D8", "D7", "D6"}


def test_discards_are_shown_at_the_count() -> None:
    # §7.1 the discards count for the declarer: once the deal is over they are shown to all
    s = act(deal(), "bid dobbm", "accept", "accept", "accept")
    discard(s, "S6 D8 D7 D6")
    play_out(accept_all(s))
    assert set(s.observation(2).public["laid_away"]) == {"S6", "D8", "D7", "D6"}


def test_solo_leaves_the_dobb_untouched_and_unseen() -> None:
    # §4.3 in a Solo the Dobb stays face down and untouched; the declarer may not look at it
    s = act(deal(), "bid solo")
    assert s.talon.bit_count() == 4 and s.hand_mask(0).bit_count() == 8
    assert not s.knowable_cards(0) & s.talon
    assert "dobb" not in s.observation(0).private
    with pytest.raises(IllegalActionError, match=r"§4.1"):
        s.apply("discard S6")


def test_solo_dobb_counts_for_the_declarer() -> None:
    # §4.3 / §4.4 the Dobb's points count for the Solo declarer at the end
    s = act(deal(fixed={0: "HA H10 HK HQ CA C10 SA DA"}, dobb="C9 C8 D10 DK"), "bid solo")
    play_out(accept_all(s))
    info = s.result().breakdown
    assert info["talon"] == {"points": 14, "to": "declarer" if info["tricks"]["declarer"] else "defenders"}
    assert info["points"]["declarer"] == info["trick_points"] + 14


def _reference_offer(hand: list[str], done: list[str], rule: str) -> set[str]:
    """Slow reference: a card may go next iff some legal set of four discards contains it and the discards so far."""
    from itertools import combinations

    def ok(four: tuple[str, ...]) -> bool:
        if rule == "any_heart_incl_sow":
            sows = sum(1 for c in four if c.endswith("A") and c[0] != "H")
            cover = sum(1 for c in four if c[0] == "H")
        else:
            sows = sum(1 for c in four if c.endswith("A"))
            cover = sum(1 for c in four if c[0] == "H" and not c.endswith("A"))
        return cover >= sows

    offered = set()
    for card in hand:
        rest = [c for c in hand if c != card]
        need = 3 - len(done)
        if any(ok((*done, card, *more)) for more in combinations(rest, need)):
            offered.add(card)
    return offered


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from(["distinct_heart_per_sow", "any_heart_incl_sow"]), st.data())
def test_offered_discards_match_a_brute_force_reference(seed: int, rule: str, data: st.DataObject) -> None:
    # §4.1 / §10.4 step by step, the offered discards are exactly those that can still end in a legal set of four
    g = game(sow_discard_rule=rule)
    s = g.new_state(seed=seed, dealer=3)
    act(s, "bid dobbm", "accept", "accept", "accept")
    done: list[str] = []
    while s.phase_name == "exchange":
        hand = [c.text for c in DECK.cards(s.hand_mask(0))]
        offered = legal_cards(s, "discard")
        assert offered == _reference_offer(hand, done, rule)
        card = data.draw(st.sampled_from(sorted(offered)))
        s.apply(f"discard {card}")
        done.append(card)
    assert len(done) == 4
