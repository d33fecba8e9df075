"""Worked scoring examples for Dobbm (dossier §7, §8, §3.2), derived by hand.

Each example names the rule it pins and writes out the arithmetic.  Most are
plain facts (:func:`facts`): the declarer's card points in tricks, the points
of the discards (Dobbm) or of the Dobb (Solo), the declarer's tricks and the
number of Schwacher + Retours.  Two are whole deals played card by card.
Stake 12 with rounding up (the defaults) unless an example says otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest

from stich.games.dobbm.options import DobbmOptions
from stich.games.dobbm.outcome import DealFacts
from stich.games.dobbm.scoring import base_payment, evaluate, stockerl

from .helpers import accept_all, act, deal, discard, play

OPTS = DobbmOptions()


def facts(
    trick_points: int,
    talon_points: int = 0,
    *,
    contract: str = "dobbm",
    tricks: int = 4,
    doubles: int = 0,
    players: int = 4,
    declarer: int = 0,
) -> DealFacts:
    opponents = tuple(s for s in range(players) if s != declarer)
    return DealFacts(players, declarer, opponents, contract, trick_points, talon_points, tricks, doubles, idle=4 if players == 5 else None)


def score(f: DealFacts, **options: Any) -> tuple[tuple[int, ...], dict[str, Any]]:
    result = evaluate(f, DobbmOptions(**options))
    return result.scores, dict(result.breakdown)


def test_seed_example_71_points_pay_3_when_a_match_is_worth_12() -> None:
    # seed / §8.2: a Match is worth 12; the declarer scores 71 -> 11 over 60 -> ceil(11 x 12 / 60) = ceil(2.2) = 3 from each defender
    scores, info = score(facts(60, 11))
    assert info["points"] == {"declarer": 71, "defenders": 49}
    assert info["margin"] == 11 and info["base"] == 3 and info["payment"] == 3
    assert scores == (9, -3, -3, -3)


def test_61_is_the_smallest_win_and_pays_1() -> None:
    # §7.3 declarer >= 61 wins; §8.2 1 over 60 -> ceil(0.2) = 1 each; the declarer gets 3 x 1
    assert score(facts(61))[0] == (3, -1, -1, -1)


def test_band_edges_65_and_66() -> None:
    # §8.2 table: 61-65 pays 1, 66-70 pays 2 (5 -> ceil(1.0) = 1; 6 -> ceil(1.2) = 2)
    assert score(facts(65))[1]["payment"] == 1
    assert score(facts(66))[1]["payment"] == 2
    assert score(facts(70))[1]["payment"] == 2


def test_60_60_is_a_draw_even_after_doubling() -> None:
    # §7.3 60:60 is a draw (eingestellt): no payment, even after a Schwacher and two Retours
    scores, info = score(facts(50, 10, doubles=3))
    assert info["winner"] is None and info["margin"] == 0
    assert scores == (0, 0, 0, 0)


def test_59_loses_and_pays_1_to_each_defender() -> None:
    # §7.3 declarer <= 59 loses; §8.2 defenders have 61 -> margin 1 -> 1 each; the declarer pays 3
    scores, info = score(facts(59))
    assert info["winner"] == "defenders" and info["margin"] == 1
    assert scores == (-3, 1, 1, 1)


def test_losing_bands_55_and_54() -> None:
    # §8.2 table: declarer 55-59 pays 1, 50-54 pays 2 (defenders 65 -> 1; 66 -> ceil(1.2) = 2)
    assert score(facts(55))[0] == (-3, 1, 1, 1)
    assert score(facts(54))[0] == (-6, 2, 2, 2)


def test_table_extremes_116_and_115_and_4_and_5() -> None:
    # §8.2 table: 116-120 pays 12 (56 -> ceil(11.2) = 12), 115 pays 11 (55 -> 11); declarer 0-4 pays 12, 5 pays 11
    assert score(facts(116, tricks=7))[1]["payment"] == 12
    assert score(facts(115, tricks=7))[1]["payment"] == 11
    assert score(facts(4, tricks=1))[1]["payment"] == 12
    assert score(facts(5, tricks=1))[1]["payment"] == 11


def test_solo_won_pays_double() -> None:
    # §8.3 Solo doubles the payment: 75 -> 15 over -> 3 -> x2 = 6 each; declarer +18
    scores, info = score(facts(60, 15, contract="solo"))
    assert info["solo_factor"] == 2 and info["payment"] == 6
    assert scores == (18, -6, -6, -6)


def test_solo_lost_pays_double_too() -> None:
    # §8.3 the Solo doubling applies won or lost: declarer 50 -> defenders 70 -> 10 over -> 2 -> x2 = 4 each; declarer -12
    scores, _ = score(facts(40, 10, contract="solo"))
    assert scores == (-12, 4, 4, 4)


def test_schwacher_and_retour_double_twice() -> None:
    # §5.5 / §8.3 Schwacher + one Retour = x4: Dobbm 80 -> 20 over -> 4 -> 16 each; declarer +48
    scores, info = score(facts(70, 10, doubles=2))
    assert info["multiplier"] == 4 and info["payment"] == 16
    assert scores == (48, -16, -16, -16)


def test_doubling_comes_after_rounding() -> None:
    # §5.5 / §8.2 round first, then double: 71 with a Schwacher -> 3 x 2 = 6 (not ceil(2 x 2.2) = 5)
    assert score(facts(60, 11, doubles=1))[1]["payment"] == 6


def test_declarer_match_has_no_bonus() -> None:
    # §7.4 all 8 tricks: 120:0, a margin of 60 -> 12 each (the stake is the price of a Match); no extra bonus
    scores, info = score(facts(100, 20, tricks=8))
    assert info["match"] == "declarer" and info["payment"] == 12
    assert scores == (36, -12, -12, -12)


def test_declarer_without_a_trick_loses_the_discards() -> None:
    # §7.2 declarer takes no trick: the defenders get the discards too -> 120 -> 60 over -> 12 each; declarer -36
    scores, info = score(facts(0, 25, tricks=0))
    assert info["talon"] == {"points": 25, "to": "defenders"} and info["match"] == "defenders"
    assert info["points"] == {"declarer": 0, "defenders": 120}
    assert scores == (-36, 12, 12, 12)


def test_without_the_no_trick_rule_the_discards_stay_with_the_declarer() -> None:
    # §9 dobb_to_defenders_if_declarer_no_trick=false: declarer keeps 25 -> defenders 95 -> 35 over -> ceil(7.0) = 7 each
    scores, _ = score(facts(0, 25, tricks=0), dobb_to_defenders_if_declarer_no_trick=False)
    assert scores == (-21, 7, 7, 7)


def test_solo_without_a_trick_loses_the_dobb() -> None:
    # §10.8 the Dobb rule applies to Solo too: 120 to the defenders -> 12 x 2 = 24 each; declarer -72
    scores, info = score(facts(0, 14, contract="solo", tricks=0))
    assert info["talon"]["to"] == "defenders"
    assert scores == (-72, 24, 24, 24)


def test_solo_with_schwacher_lost_to_a_defenders_match() -> None:
    # §8.3 12 (Match) x 2 (Solo) x 2 (Schwacher) = 48 each; the declarer pays 3 x 48 = 144
    assert score(facts(0, 30, contract="solo", tricks=0, doubles=1))[0] == (-144, 48, 48, 48)


def test_five_players_the_idle_dealer_pays_like_a_defender() -> None:
    # §8.3 5 players: the sitting-out dealer pays the same as each defender, so the declarer gets 4 x 3 = 12 for 71
    scores, info = score(facts(60, 11, players=5))
    assert info["opponents"] == [1, 2, 3, 4] and info["idle"] == 4
    assert scores == (12, -3, -3, -3, -3)


def test_five_players_lost_solo_with_schwacher() -> None:
    # §8.3 / §10.7 doubling also affects the idle dealer: declarer 40 -> 80 -> 20 over -> 4 x 2 x 2 = 16 each; -64
    assert score(facts(30, 10, contract="solo", players=5, doubles=1))[0] == (-64, 16, 16, 16, 16)


def test_exact_payment_with_a_60_stake() -> None:
    # §8.2 exact mode: a 60-unit stake pays 1 per point; 73 -> 13 each
    scores, _ = score(facts(63, 10), match_stake=60, payment_rounding="exact")
    assert scores == (39, -13, -13, -13)


def test_exact_payment_with_a_120_stake() -> None:
    # §8.2 exact mode, stake 120: 2 units per point; 61 -> 2 each
    assert score(facts(61), match_stake=120, payment_rounding="exact")[1]["payment"] == 2


def test_six_unit_stake_pays_per_started_ten_points() -> None:
    # §8.2 stake 6: one unit per started 10 points: 70 -> 10 -> 1; 71 -> 11 -> ceil(1.1) = 2
    assert score(facts(70), match_stake=6)[1]["payment"] == 1
    assert score(facts(71), match_stake=6)[1]["payment"] == 2


@pytest.mark.parametrize(
    ("stake", "rounding", "value"),
    [(12, "ceil", 2), (6, "ceil", 1), (60, "exact", 10), (120, "exact", 20), (240, "exact", 40)],
)
def test_stockerl_is_what_10_points_over_pay(stake: int, rounding: str, value: int) -> None:
    # §3.2 Stockerl = the payment for 10 points over 60 after rounding: 12 -> 2, 60 -> 10
    assert stockerl(DobbmOptions(match_stake=stake, payment_rounding=rounding)) == value


def test_base_payment_bands_for_a_12_stake() -> None:
    # §8.2 the 12-unit table: one unit per 5 points or part of 5 over 60
    expected = {1: 1, 5: 1, 6: 2, 10: 2, 11: 3, 15: 3, 16: 4, 55: 11, 56: 12, 60: 12}
    assert {m: base_payment(m, OPTS) for m in expected} == expected


# --------------------------------------------------------------- whole deals
# Standard deal, dealer 3: seat 0 HA H10 HK HQ CA C10 SA DA; seat 1 HJ H9 CK CQ CJ SK SQ DK;
# seat 2 H8 H7 C9 C8 S10 SJ S9 D10; seat 3 H6 C7 C6 S8 S7 DQ DJ D9; Dobb S6 D8 D7 D6.
SEED_DEAL_TRICKS = [
    "HA H9 H7 H6",  # 11 to seat 0
    "H10 HJ H8 C6",  # 12 to seat 0
    "CA CJ C8 C7",  # 13 to seat 0
    "C10 CQ C9 S7",  # 13 to seat 0 (seat 3 has neither clubs nor hearts)
    "SA SK S9 S8",  # 15 to seat 0
    "D6 DK D10 DQ",  # 17 to seat 2 (D10 > DK > DQ)
    "S10 D9 S6 SQ",  # 13 to seat 2
    "SJ DJ DA CK",  # 19 to seat 2 (the only spade)
]


def _seed_deal(*doubling: str) -> Any:
    s = act(deal(), "bid dobbm", "accept", "accept", "accept")
    discard(s, "HK HQ D8 D7")  # 4 + 3 = 7 points banked
    act(s, *doubling)
    accept_all(s)
    for trick in SEED_DEAL_TRICKS:
        play(s, trick)
    return s


def test_whole_deal_reaching_71_pays_3() -> None:
    # seed example as a played deal: 7 (discards) + 11 + 12 + 13 + 13 + 15 = 71; defenders 17 + 13 + 19 = 49 -> 3 each
    s = _seed_deal()
    info = s.result().breakdown
    assert info["trick_points"] == 64 and info["talon"]["points"] == 7
    assert info["points"] == {"declarer": 71, "defenders": 49}
    assert info["tricks"] == {"declarer": 5, "defenders": 3}
    assert s.result().scores == (9, -3, -3, -3)


def test_whole_deal_71_with_a_schwacher() -> None:
    # §5 the same deal after a Schwacher by seat 1 that the declarer accepts: 3 x 2 = 6 each, declarer +18
    s = _seed_deal("double", "accept")
    assert s.result().scores == (18, -6, -6, -6)


def test_whole_deal_declarer_match_in_dobbm() -> None:
    # §7.4 all eight tricks: 63 + 25 + 13 + 19 = 120 (discards 0) -> a Match, 12 each, no bonus
    s = act(deal(), "bid dobbm", "accept", "accept", "accept")
    discard(s, "S6 D8 D7 D6")
    accept_all(s)
    for trick in (
        "HA H9 H7 H6",
        "H10 HJ H8 C6",
        "CA CJ C8 C7",
        "C10 CQ C9 S7",
        "SA SQ S9 S8",
        "DA DK D10 D9",
        "HK CK SJ DQ",
        "HQ SK S10 DJ",
    ):
        play(s, trick)
    info = s.result().breakdown
    assert info["points"]["declarer"] == 120 and info["match"] == "declarer"
    assert s.result().scores == (36, -12, -12, -12)
