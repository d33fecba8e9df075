"""Worked evaluation examples for Dappen (dossier §7, §8), derived by hand.

Each example gives the two piles after the ownership rules of §7.1 (face
points and card count), works out the count in pairs (``F - ceil(n/2)``) or
in exact thirds (``F - 2n/3``), the win test, the difference to 40 and the
rounding of the version, and pins the payments.  Seat 0 is the lone player
and seats 1..5 the opponents unless an example says otherwise.  The seed's
own examples are the two cent tables (full and half game, with the "36"
typo read as 35), the totals 79 / 78, the 39:39 tie and the Marsch as a
difference of 40; the English page adds 4.00 € / 4.80 € for a Marsch paid by
the other bidder and Breitnau's 12 → 20, 8 → 10.
"""

from __future__ import annotations

from typing import Any

import pytest

from stich.core.game import DealResult
from stich.games.dappen.options import OPTION_TABLE, DappenOptions
from stich.games.dappen.outcome import DealFacts
from stich.games.dappen.scoring import evaluate, nearest5_min5


def options(preset: str = "furtwangen", **overrides: Any) -> DappenOptions:
    _preset, opts = OPTION_TABLE.build(preset, overrides)
    assert isinstance(opts, DappenOptions)
    return opts


def facts(
    contract: str,
    lone: tuple[int, int],
    opp: tuple[int, int],
    *,
    tricks: tuple[int, int] = (4, 3),
    seats: int = 6,
    bidders: tuple[int, ...] = (0,),
    **extra: Any,
) -> DealFacts:
    """Facts of a deal: ``lone``/``opp`` are (face points, cards) of the two piles."""
    return DealFacts(
        num_seats=seats,
        lone=0,
        opponents=tuple(range(1, seats)) if extra.get("idle") is None else tuple(s for s in range(1, seats) if s != extra["idle"]),
        contract=contract,
        bidders=bidders,
        lone_face=lone[0],
        lone_cards=lone[1],
        opp_face=opp[0],
        opp_cards=opp[1],
        lone_tricks=tricks[0],
        opp_tricks=tricks[1],
        **extra,
    )


def check_totals(f: DealFacts, total: int = 106) -> None:
    assert f.lone_face + f.opp_face == total
    assert f.lone_cards + f.opp_cards == 54


def score(f: DealFacts, opts: DappenOptions | None = None) -> DealResult:
    check_totals(f)
    result = evaluate(f, opts or options())
    assert sum(result.scores) == 0
    return result


# ------------------------------------------------------------------ Furtwangen


def test_example_01_simple_dapp_won() -> None:
    # §7.3 / §8.1: lone 68 in 40 cards -> 48; opponents 38 in 14 -> 31 (< 40): lone wins; diff 9 -> 10 cents (28-32 row)
    result = score(facts("dapp", (68, 40), (38, 14)))
    b = result.breakdown
    assert b["points"] == {"lone": 48, "opponents": 31} and b["winner"] == "lone" and b["diff"] == 9
    assert result.scores == (50, -10, -10, -10, -10, -10)


def test_example_02_simple_dapp_lost_smallest_payment() -> None:
    # §7.3 / §8.1: lone 50 in 30 -> 35; opponents 56 in 24 -> 44: opponents win; diff 5 -> 5 cents (33-39 row)
    result = score(facts("dapp", (50, 30), (56, 24)))
    assert result.breakdown["winner"] == "opponents" and result.breakdown["losers_points"] == 35
    assert result.scores == (-25, 5, 5, 5, 5, 5)


def test_example_03_seed_typo_3_to_7_points_is_35() -> None:
    # §10.1: opponents on 5 (8 in 6 cards): diff 35 -> 35 cents, not the seed's "36"
    result = score(facts("dapp", (98, 48), (8, 6), tricks=(6, 1)))
    assert result.breakdown["points"]["opponents"] == 5 and result.breakdown["per_opponent"] == 35
    assert result.scores[0] == 175


def test_example_04_two_points_pays_a_full_40() -> None:
    # §8.1: losers on 0-2 pay as a Marsch: opponents 5 in 6 cards -> 2; diff 38 -> 40 cents
    result = score(facts("dapp", (101, 48), (5, 6), tricks=(6, 1)))
    assert result.breakdown["diff"] == 38 and result.breakdown["per_opponent"] == 40 and result.breakdown["marsch"] is None


def test_example_05_won_solo_doubles() -> None:
    # §8.1: a won Solo doubles: opponents 30 in 20 -> 20; diff 20 -> 20 cents, x2 = 40 per opponent
    result = score(facts("solo", (76, 34), (30, 20)))
    assert (result.breakdown["value"], result.breakdown["factor"]) == (20, 2)
    assert result.scores == (200, -40, -40, -40, -40, -40)


def test_example_06_lost_solo_counts_single() -> None:
    # §8.1: a lost Solo is not doubled: lone 37 in 24 -> 25; diff 15 -> 15 cents
    result = score(facts("solo", (37, 24), (69, 30)))
    assert result.breakdown["points"] == {"lone": 25, "opponents": 54} and result.breakdown["factor"] == 1
    assert result.scores == (-75, 15, 15, 15, 15, 15)


def test_example_07_two_bidders_double_even_when_lost() -> None:
    # §8.1: dappen + strecken doubles, won or lost: lone 53 in 30 -> 38; opponents 53 in 24 -> 41; diff 2 -> min 5, x2 = 10
    result = score(facts("strecken", (53, 30), (53, 24), bidders=(2, 0)))
    assert result.breakdown["winner"] == "opponents" and result.breakdown["per_opponent"] == 10
    assert result.scores == (-50, 10, 10, 10, 10, 10)


@pytest.mark.parametrize(
    ("losers", "cents"),
    [
        (39, 5),
        (33, 5),
        (32, 10),
        (28, 10),
        (27, 15),
        (23, 15),
        (22, 20),
        (18, 20),
        (17, 25),
        (13, 25),
        (12, 30),
        (8, 30),
        (7, 35),
        (3, 35),
        (2, 40),
        (0, 40),
    ],
)
def test_example_08_seed_full_game_table(losers: int, cents: int) -> None:
    # §8.1 seed table "Volles Spiel": 1 cent per point of difference to 40, to the nearest 5, at least 5
    assert nearest5_min5(40 - losers, 1, 1) == cents


@pytest.mark.parametrize(("losers", "cents"), [(39, 5), (26, 5), (25, 10), (16, 10), (15, 15), (6, 15), (5, 20), (0, 20)])
def test_example_09_seed_half_game_table(losers: int, cents: int) -> None:
    # §8.1 seed table "Halbes Spiel": half a cent per point, to the nearest 5 (halves and less than 5 up)
    assert nearest5_min5(40 - losers, 1, 2) == cents


def test_example_10_half_game_dapp() -> None:
    # §8.1: a half game: opponents 22 in 12 -> 16; diff 24 -> 12 half-cents -> 10 cents
    result = score(facts("dapp", (84, 42), (22, 12)), options(game_scale="half"))
    assert result.breakdown["per_opponent"] == 10 and result.scores[0] == 50


def test_example_11_seven_players_tie_39_39() -> None:
    # §1 / §7.3: with seven players both piles odd: 53 in 27 -> 39 each (78 in all); the lone player wins the tie
    f = facts("dapp", (53, 27), (53, 27), seats=7)
    result = score(f)
    assert result.breakdown["points"] == {"lone": 39, "opponents": 39} and result.breakdown["winner"] == "lone"
    assert result.scores == (30, -5, -5, -5, -5, -5, -5)


def test_example_12_marsch_paid_by_the_other_bidder() -> None:
    # §8.1: seat 0 stretched over seat 2's dapp and marched: 40 doubled = 80 x 5 = 4.00 € paid by seat 2 alone
    result = score(facts("strecken", (106, 54), (0, 0), tricks=(7, 0), bidders=(2, 0)))
    assert result.breakdown["marsch"] == "lone" and result.breakdown["liability"]["responsible"] == [2]
    assert result.scores == (400, 0, -400, 0, 0, 0)


def test_example_13_marsch_paid_by_the_other_bidder_seven_players() -> None:
    # §8.1: the same with seven players: 80 x 6 = 4.80 €
    result = score(facts("strecken", (106, 54), (0, 0), tricks=(6, 0), bidders=(0, 3), seats=7))
    assert result.scores == (480, 0, 0, -480, 0, 0, 0)


def test_example_14_half_liability() -> None:
    # §8.1 marsch_liability=half: the bidder pays half of 400 alone and everybody shares the other half (40 each)
    result = score(facts("strecken", (106, 54), (0, 0), tricks=(7, 0), bidders=(2, 0)), options(marsch_liability="half"))
    assert result.scores == (400, -40, -240, -40, -40, -40)


def test_example_15_bidder_and_gstiess_keeper_share() -> None:
    # §8.1: the other bidder and a different opponent who kept the Gstieß back share the Marsch equally
    result = score(facts("strecken", (106, 54), (0, 0), tricks=(7, 0), bidders=(2, 0), gstiesierer=4))
    assert result.scores == (400, 0, -200, 0, -200, 0)


def test_example_16_seven_fives_shared_option() -> None:
    # §8.1 / §10.10: a Marsch by seven five-pointers after a stretch: normal liability, or every opponent pays (option)
    shown = facts("strecken", (0, 0), (0, 0), tricks=(0, 0), bidders=(0, 1), seven_fives=True)
    assert evaluate(shown, options()).scores == (400, -400, 0, 0, 0, 0)
    assert evaluate(shown, options(seven_fives_liability="shared")).scores == (400, -80, -80, -80, -80, -80)


def test_example_17_opponents_marsch() -> None:
    # §7.1: a lone player without a trick loses the Dapp too: 0 against 79; a simple dapp pays 40 to each opponent
    result = score(facts("dapp", (0, 0), (106, 54), tricks=(0, 7)))
    assert result.breakdown["marsch"] == "opponents" and result.breakdown["points"] == {"lone": 0, "opponents": 79}
    assert result.scores == (-200, 40, 40, 40, 40, 40)


def test_example_18_ultis_are_separate_and_never_doubled() -> None:
    # §5.1: a won Solo (opponents 16 in 12 -> 10; 30 x 2 = 60) with Ulti 1 won (+30) and Ulti 2 lost (-20): +70 from each
    f = facts("solo", (90, 42), (16, 12), ulti=((2, False), (1, True)))
    result = score(f)
    assert result.breakdown["per_opponent"] == 60
    assert result.breakdown["payments"]["ulti"] == [50, -10, -10, -10, -10, -10]
    assert result.scores == (350, -70, -70, -70, -70, -70)


def test_example_19_idle_dealer_who_shares() -> None:
    # §2 / §8: at 8 players the idle dealer (seat 7) shares the opponents' payment when agreed
    f = DealFacts(8, 0, (1, 2, 3, 4, 5, 6), "dapp", (0,), 68, 40, 38, 14, 4, 2, idle=7)
    assert evaluate(f, options(players=8)).scores == (60, -10, -10, -10, -10, -10, -10, 0)
    assert evaluate(f, options(players=8, idle_dealer_pays=True)).scores == (70, -10, -10, -10, -10, -10, -10, -10)


# ------------------------------------------------------------------ Breitnau, Buchenbach


def test_example_20_breitnau_rounds_up_to_10() -> None:
    # §8.2: diff x factor rounded up to the next 10: a dapp with diff 12 -> 20, with diff 8 -> 10
    breitnau = options("breitnau")
    assert score(facts("dapp", (71, 40), (35, 14)), breitnau).breakdown["diff"] == 12
    assert score(facts("dapp", (71, 40), (35, 14)), breitnau).breakdown["per_opponent"] == 20
    assert score(facts("dapp", (67, 40), (39, 14)), breitnau).breakdown["per_opponent"] == 10  # opponents 32: diff 8
    result = score(facts("dapp", (74, 40), (32, 14)), breitnau)
    assert result.breakdown["diff"] == 15 and result.breakdown["per_opponent"] == 20


def test_example_21_breitnau_exact_multiple_stays() -> None:
    # §8.2 / §10.5: an exact multiple is not bumped: Strecken diff 10 x 2 = 20 stays 20; Stupfen diff 7 x 3 = 21 -> 30
    breitnau = options("breitnau")
    assert score(facts("strecken", (69, 40), (37, 14)), breitnau).breakdown["per_opponent"] == 20
    assert score(facts("stupfen", (67, 42), (39, 12)), breitnau).breakdown["per_opponent"] == 30


def test_example_22_breitnau_solo_factor_2_even_lost() -> None:
    # §8.2: Solo x2 won or lost: lone 51 in 28 -> 37 loses; diff 3 x 2 = 6 -> 10 cents
    result = score(facts("solo", (51, 28), (55, 26)), options("breitnau"))
    assert result.breakdown["winner"] == "opponents" and result.scores == (-50, 10, 10, 10, 10, 10)


def test_example_23_buchenbach_factors() -> None:
    # §8.3: Geiß x4: opponents 27 -> diff 13 x 4 = 52 -> 60; a won Solo x1: 13 -> 20; a lost Solo x2: 13 x 2 = 26 -> 30
    buchenbach = options("buchenbach")
    assert score(facts("geiss", (72, 40), (34, 14), bidders=(3, 0)), buchenbach).breakdown["per_opponent"] == 60
    assert score(facts("solo", (72, 40), (34, 14)), buchenbach).breakdown["per_opponent"] == 20
    lost = score(facts("solo", (41, 28), (65, 26)), buchenbach)
    assert lost.breakdown["losers_points"] == 27 and lost.breakdown["per_opponent"] == 30


def test_example_24_breitnau_marsch_everybody_pays() -> None:
    # §8.2: no sole liability outside Furtwangen (marsch_liability=none): Strecken Marsch 40 x 2 = 80 from each
    result = score(facts("strecken", (106, 54), (0, 0), tricks=(7, 0), bidders=(2, 0)), options("breitnau"))
    assert result.scores == (400, -80, -80, -80, -80, -80)


# ------------------------------------------------------------------ Jeu du Tarot


def test_example_25_jeu_du_tarot_in_exact_thirds() -> None:
    # §8.4: lone 80 in 40 -> 53 1/3, opponents 26 in 14 -> 16 2/3 (70 in all); value floor((35 - 16 2/3) / 5) + 1 = 4
    result = score(facts("dapp", (80, 40), (26, 14)), options("jeu_du_tarot"))
    b = result.breakdown
    assert b["points"] == {"lone": 53.33, "opponents": 16.67} and b["value"] == 4
    assert result.scores == (20, -4, -4, -4, -4, -4)


def test_example_26_jeu_du_tarot_35_is_not_enough() -> None:
    # §8.4 / §10.15: the lone player needs "35 and one card": exactly 35 (55 in 30 cards) loses; value 1
    result = score(facts("dapp", (55, 30), (51, 24)), options("jeu_du_tarot"))
    assert result.breakdown["points"] == {"lone": 35.0, "opponents": 35.0}
    assert result.breakdown["winner"] == "opponents" and result.scores == (-5, 1, 1, 1, 1, 1)


def test_example_27_jeu_du_tarot_thirds_decide_where_leftovers_would_not() -> None:
    # OPEN-POINTS: 56 in 31 cards is 35 1/3 in exact thirds (a win), though the leftover rule gives 56 - 20 - 1 = 35
    result = score(facts("dapp", (56, 31), (50, 23)), options("jeu_du_tarot", jdt_stake=5))
    assert result.breakdown["winner"] == "lone" and result.breakdown["value"] == 1
    assert result.scores == (25, -5, -5, -5, -5, -5)


def test_example_28_jeu_du_tarot_marsch_is_worth_8() -> None:
    # §8.4: losers on 0 -> floor(35 / 5) + 1 = 8 game points
    result = score(facts("dapp", (106, 54), (0, 0), tricks=(7, 0)), options("jeu_du_tarot"))
    assert result.breakdown["value"] == 8 and result.scores[0] == 40
