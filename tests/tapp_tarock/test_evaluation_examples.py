"""Worked scoring examples for Tapp Tarock (dossier §7, §8), derived by hand.

Each example names the rule it pins and shows the arithmetic.  Amounts are
per defender: the declarer receives (or pays) twice the net amount, each
defender pays (or receives) it once [§8].  The piles are synthetic: the
declarer's pile is made of the given number of cards worth the given points
(:func:`split`), the defenders hold the rest of the pack.  Seat 0 declares
and seats 1 and 2 defend unless an example says otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from stich.cards import Card, parse_card, parse_cards
from stich.games.tapp_tarock.options import TappTarockOptions
from stich.games.tapp_tarock.outcome import DealFacts, PlayedTrick
from stich.games.tapp_tarock.pack import FACES, card_points, thirds
from stich.games.tapp_tarock.scoring import evaluate

from .helpers import act, deal, game, play_out, to_play

DEFAULTS = TappTarockOptions()


def split(points: int, cards: int, avoid: str = "") -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The declarer's pile of ``cards`` cards worth exactly ``points`` (face values add up to
    ``points + 2 * cards / 3``): the lowest cards, upgraded one swap at a time; the defenders get the rest."""
    target = points + 2 * cards // 3
    assert 3 * target - 2 * cards == 3 * points
    banned = set(parse_cards(avoid))
    pool = sorted((c for c in FACES if c not in banned), key=card_points)
    mine, rest = pool[:cards], pool[cards:]
    need = target - sum(card_points(c) for c in mine)
    while need > 0:
        swaps = [(u, c) for u in rest for c in mine if 0 < card_points(u) - card_points(c) <= need]
        up, down = max(swaps, key=lambda pair: card_points(pair[0]) - card_points(pair[1]))
        mine[mine.index(down)] = up
        rest[rest.index(up)] = down
        need -= card_points(up) - card_points(down)
    assert need == 0
    return tuple(mine), tuple(c for c in FACES if c not in set(mine))


def trick(spec: str, winner: int) -> PlayedTrick:
    """A trick from ``"seat:card"`` words in play order."""
    pairs = [word.split(":") for word in spec.split()]
    return PlayedTrick(tuple(int(s) for s, _ in pairs), tuple(parse_card(c) for _, c in pairs), winner)


PLAIN_LAST = trick("0:T20 1:T19 2:T18", 0)
"""A last trick without the Pagat, won by the declarer."""


def facts(
    contract: str,
    points: int,
    *,
    tricks: int = 8,
    announced: str = "",
    doubling: tuple[int, int, int] = (0, 0, 0),
    last: PlayedTrick = PLAIN_LAST,
    bonus: Mapping[int, str] | None = None,
    declarer: int = 0,
    active: tuple[int, ...] = (0, 1, 2),
    num_seats: int = 3,
) -> DealFacts:
    """Facts of a played deal: the declarer took ``tricks`` tricks (plus three discards outside a Solo) worth ``points``."""
    cards = 3 * tricks + (0 if contract == "solo" else 3)
    mine, theirs = split(points, cards)
    hands = {seat: parse_cards(text) for seat, text in (bonus or {}).items()}
    return DealFacts(
        num_seats=num_seats,
        active_seats=active,
        declarer=declarer,
        contract=contract,
        declarer_cards=mine,
        defender_cards=theirs,
        declarer_tricks=tricks,
        last_trick=last,
        announced=frozenset(announced.split()),
        doubling=doubling,
        bonus_hands=tuple(tuple(hands.get(s, [])) for s in range(num_seats)),
        talon_taken=None if contract == "solo" else "lower",
    )


def scores(f: DealFacts, **options: object) -> tuple[int, ...]:
    opts = TappTarockOptions(**options) if options else DEFAULTS  # type: ignore[arg-type]
    result = evaluate(f, opts)
    assert sum(result.scores) == 0
    return result.scores


# ----------------------------------------------------------------------- counting (§7)


def test_example_01_whole_pack_counts_70() -> None:
    # §1, §7: 106 face points in 54 cards = 18 packets of three: 106 - 18 * 2 = 70
    assert thirds(list(FACES)) == 210


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("SK SC S10", 7),  # 5 + 3 + 1 - 2
        ("SK SQ T22", 12),  # 5 + 4 + 5 - 2
        ("T21 T1 HK", 13),  # 5 + 5 + 5 - 2
        ("CQ SQ HQ", 10),  # 4 + 4 + 4 - 2
        ("CQ SQ HC", 9),  # 4 + 4 + 3 - 2
        ("CJ SJ HJ", 4),  # 2 + 2 + 2 - 2
        ("T2 T3 C7", 1),  # three Blatt: 1 + 1 + 1 - 2
    ],
)
def test_example_02_packets_of_three(cards: str, points: int) -> None:
    # §7: each packet of three counts its face values minus 2
    assert thirds(parse_cards(cards)) == 3 * points


def test_example_03_leftover_blatt_is_a_third() -> None:
    # seed (Card points), §7, §10.12: one or two Blatt left over are worth a third of a point each
    assert thirds(parse_cards("T2")) == 1
    assert thirds(parse_cards("T2 C7")) == 2


# ------------------------------------------------------------------- game values (§8.1)


def test_example_04_dreier_won_with_36() -> None:
    # §7, §8.1: 36 of 70 (107 thirds or more) wins; a Dreier is worth 3 from each defender
    f = facts("dreier", 36)
    result = evaluate(f, DEFAULTS)
    assert result.breakdown["points"] == {"declarer": 36, "defenders": 34}
    assert result.breakdown["won"] is True
    assert result.scores == (6, -3, -3)


def test_example_05_dreier_lost_35_35() -> None:
    # §7: 35 : 35 is a loss for the declarer, there is no draw: 3 to each defender
    f = facts("dreier", 35)
    assert scores(f) == (-6, 3, 3)


def test_example_06_unterer_won() -> None:
    # §8.1: Unterer won 41 : 29 -> 4 from each defender
    assert scores(facts("unterer", 41)) == (8, -4, -4)


def test_example_07_oberer_lost() -> None:
    # §8.1: Oberer lost 20 : 50 -> the declarer pays 5 to each defender
    assert scores(facts("oberer", 20)) == (-10, 5, 5)


def test_example_08_solo_won_with_kontra_and_rekontra() -> None:
    # §8.1, §8.4: Solo won 40 : 30, Kontra and Rekontra on the game: 8 x 4 = 32 from each defender
    f = facts("solo", 40, tricks=10, doubling=(2, 0, 0))
    result = evaluate(f, DEFAULTS)
    assert result.breakdown["items"] == [{"name": "game", "to": "declarer", "value": 8, "doubling": "rekontra", "factor": 4, "amount": 32}]
    assert result.scores == (64, -32, -32)


def test_example_09_dreier_lost_with_subkontra() -> None:
    # §8.4: Dreier lost 30 : 40 with Kontra, Rekontra, Subkontra: 3 x 8 = 24 to each defender
    assert scores(facts("dreier", 30, doubling=(3, 0, 0))) == (-48, 24, 24)


# ------------------------------------------------------------------------- Valat (§8.2)


def test_example_10_silent_valat_replaces_the_game() -> None:
    # §8.2: all 16 tricks unannounced: 12 replaces the Unterer's 4
    f = facts("unterer", 60, tricks=16)
    result = evaluate(f, DEFAULTS)
    assert [item["name"] for item in result.breakdown["items"]] == ["valat"]
    assert result.scores == (24, -12, -12)


def test_example_11_announced_valat_made() -> None:
    # §8.2: announced Valat made: 24 replaces the Dreier's 3
    assert scores(facts("dreier", 60, tricks=16, announced="valat")) == (48, -24, -24)


def test_example_12_announced_valat_failed() -> None:
    # §8.2: announced Valat failed in an Oberer won 50 : 20: the game (+5) and the failed Valat (-24): -19 per defender
    f = facts("oberer", 50, tricks=13, announced="valat")
    result = evaluate(f, DEFAULTS)
    assert [(i["name"], i["amount"]) for i in result.breakdown["items"]] == [("game", 5), ("valat_announced", -24)]
    assert result.scores == (-38, 19, 19)


def test_example_13_valat_as_multiple_of_the_game() -> None:
    # §8.2 option valat_mode=multiplier_4_8: silent Valat in an Oberer 4 x 5 = 20; announced in a Dreier 8 x 3 = 24
    assert scores(facts("oberer", 60, tricks=16), valat_mode="multiplier_4_8") == (40, -20, -20)
    assert scores(facts("dreier", 60, tricks=16, announced="valat"), valat_mode="multiplier_4_8") == (48, -24, -24)


def test_example_14_valat_added_to_the_game() -> None:
    # §8.2 option valat_replaces_game=false: silent Valat in a Dreier: 3 + 12 = 15
    assert scores(facts("dreier", 60, tricks=16), valat_replaces_game=False) == (30, -15, -15)


def test_example_15_defender_valat() -> None:
    # §8.2 option defender_valat: the declarer took no trick in a Dreier (only the discards, 1 point) and pays 12 instead of 3
    f = facts("dreier", 1, tricks=0)
    assert scores(f) == (-6, 3, 3)
    assert scores(f, defender_valat=True) == (-24, 12, 12)


def test_example_16_silent_valat_takes_the_games_doubling() -> None:
    # §8.2, §8.4 (decision 0010): a silent Valat in a Solo under Kontra: 12 x 2 = 24 per defender
    assert scores(facts("solo", 60, tricks=16, doubling=(1, 0, 0))) == (48, -24, -24)


# ---------------------------------------------------------------------- Pagat ultimo (§8.3)


def test_example_17_announced_ultimo_in_solo_made() -> None:
    # §8.3: Solo won and the announced Pagat ultimo made: 8 + 16 = 24 per defender
    f = facts("solo", 45, tricks=11, announced="ultimo", last=trick("1:T5 2:C7 0:T1", 0))
    assert scores(f) == (48, -24, -24)


def test_example_18_announced_ultimo_failed_pagat_played_early() -> None:
    # §8.3: the Pagat was played before the last trick: the announced ultimo fails (-8) whatever the game (+3)
    f = facts("dreier", 40, tricks=10, announced="ultimo")
    assert scores(f) == (-10, 5, 5)


def test_example_19_announced_ultimo_with_kontra() -> None:
    # §5.2, §8.4: Kontra on the announced ultimo only: game 3, ultimo 8 x 2 = 16, per defender 19
    f = facts("dreier", 38, tricks=9, announced="ultimo", doubling=(0, 1, 0), last=trick("0:T1 1:C7 2:H4", 0))
    assert scores(f) == (38, -19, -19)


def test_example_20_announced_ultimo_in_solo_8_24() -> None:
    # §8.3, §10.3 option pagat_solo_values=8/24: Solo won, announced ultimo made: 8 + 24 = 32
    f = facts("solo", 45, tricks=11, announced="ultimo", last=trick("1:T5 2:C7 0:T1", 0))
    assert scores(f, pagat_solo_values="8/24") == (64, -32, -32)


def test_example_21_silent_ultimo_of_the_declarer_in_solo() -> None:
    # §8.3: silent Pagat ultimo in a Solo is worth 8: Solo won 8 + 8 = 16 per defender
    f = facts("solo", 40, tricks=10, last=trick("2:C7 0:T1 1:C8", 0))
    assert scores(f) == (32, -16, -16)


def test_example_22_silent_ultimo_of_a_defender() -> None:
    # §8.3: a defender's Pagat wins the last trick: the declarer pays 4 to each defender; Dreier won: 3 - 4 = -1
    f = facts("dreier", 40, tricks=10, last=trick("1:T1 2:C7 0:H4", 1))
    assert scores(f) == (-2, 1, 1)


def test_example_23_defenders_pagat_lost_to_the_partner() -> None:
    # §8.3, §10.9: a defender's Pagat in the last trick beaten by the partner: the declarer's side scores the 4
    f = facts("dreier", 30, tricks=7, last=trick("1:T1 2:T2 0:H4", 2))
    assert scores(f) == (2, -1, -1)  # game lost -3, ultimo +4


# ----------------------------------------------------------------------- hand bonuses (§8.3)


def test_example_24_trull_of_a_defender_holder_collects() -> None:
    # §8.3, §10.7: a defender dealt the Trull collects 3 from each other player; the Dreier (won) pays 3 as usual
    f = facts("dreier", 40, tricks=10, bonus={1: "T22 T21 T1"})
    result = evaluate(f, DEFAULTS)
    assert result.breakdown["hand_bonuses"] == [{"name": "trull", "seat": 1, "value": 3, "settlement": "holder"}]
    assert result.scores == (6 - 3, -3 + 6, -3 - 3)


def test_example_25_trull_of_a_defender_side_based() -> None:
    # §8.3, §10.7 option hand_bonus_settlement=side_based: the declarer pays the defender's Trull to each defender
    f = facts("dreier", 40, tricks=10, bonus={1: "T22 T21 T1"})
    assert scores(f, hand_bonus_settlement="side_based") == (6 - 6, -3 + 3, -3 + 3)


def test_example_26_koepfe_and_royal_trull_add_up() -> None:
    # §8.3: two Trull cards (Köpfe, 1) and four kings (Royal Trull, 3) in the declarer's hand; Solo lost 30 : 40
    f = facts("solo", 30, tricks=6, bonus={0: "T22 T1 CK SK HK DK"})
    assert scores(f) == (-16 + 8, 8 - 4, 8 - 4)


def test_example_27_trull_excludes_koepfe_and_is_never_doubled() -> None:
    # §8.3: the whole Trull scores 3, not Köpfe as well; Kontra doubles the game only
    f = facts("unterer", 40, tricks=10, doubling=(1, 0, 0), bonus={0: "T22 T21 T1"})
    result = evaluate(f, DEFAULTS)
    assert [b["name"] for b in result.breakdown["hand_bonuses"]] == ["trull"]
    assert result.scores == (16 + 6, -8 - 3, -8 - 3)


def test_example_28_valat_with_ultimo_and_trull() -> None:
    # §8.3: with a Valat, Pagat ultimo and hand bonuses are added: Solo, Valat and ultimo announced and made:
    # 24 + 16 = 40 per defender, and the declarer's Trull 3 from each
    f = facts("solo", 60, tricks=16, announced="valat ultimo", last=trick("0:T1 1:C7 2:H4", 0), bonus={0: "T22 T21 T1"})
    assert scores(f) == (80 + 6, -40 - 3, -40 - 3)


def test_example_29_fourth_player_scores_nothing() -> None:
    # §2: at a table of four the dealer sits out and neither pays nor receives
    f = facts("oberer", 40, tricks=10, declarer=1, active=(1, 2, 0), num_seats=4, bonus={2: "T22 T21"})
    assert scores(f, fourth_player="dealer_sits_out") == (-5 - 1, 10 - 1, -5 + 2, 0)


# ----------------------------------------------------------------- one deal played out


def test_example_30_played_solo_valat_with_koepfe() -> None:
    # §8.2, §8.3: forehand holds XXII..VIII and the club king and leads them all: a silent Valat in a Solo
    # (12 replaces 8) and Köpfe (Sküs and Mond, 1 from each): +24 + 2 = 26, the others -12 - 1 = -13
    g = game()
    state = deal(g, {0: "T22 T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 CK"}, lower="C7 S7 H4", upper="D4 D3 D2")
    act(state, "bid solo")
    to_play(state)
    while not state.is_terminal():
        if state.current_player() == 0:
            state.apply(state.legal_actions()[-1])  # the highest card the declarer holds
        else:
            state.apply(state.legal_actions()[0])
    play_out(state)
    result = state.result()
    assert result.breakdown["tricks"] == {"declarer": 16, "defenders": 0}
    assert [i["name"] for i in result.breakdown["items"]] == ["valat"]
    assert result.scores == (26, -13, -13)


# ----------------------------------------------------------------------- properties


@given(st.sets(st.sampled_from(FACES)))
def test_counting_splits_the_70_points(pile: set[Card]) -> None:
    # §7: however the pack is split, the two sides' thirds add up to 210 (70 points)
    rest = [c for c in FACES if c not in pile]
    assert thirds(list(pile)) + thirds(rest) == 210


@settings(max_examples=200)
@given(
    contract=st.sampled_from(["dreier", "unterer", "oberer", "solo"]),
    points=st.integers(min_value=5, max_value=60),
    tricks=st.integers(min_value=1, max_value=16),
    announced=st.sets(st.sampled_from(["ultimo", "valat"])),
    doubling=st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)),
    bonus=st.sampled_from(["", "T22 T21", "T22 T21 T1", "CK SK HK DK", "T1 T21 CK SK HK DK"]),
    holder=st.integers(0, 2),
    side_based=st.booleans(),
)
def test_scores_are_zero_sum(
    contract: str,
    points: int,
    tricks: int,
    announced: set[str],
    doubling: tuple[int, int, int],
    bonus: str,
    holder: int,
    side_based: bool,
) -> None:
    # §8: every payment is zero-sum, whatever the items
    cards = 3 * tricks + (0 if contract == "solo" else 3)
    values = sorted(card_points(c) for c in FACES)
    assume(sum(values[:cards]) - 2 * cards // 3 <= points <= sum(values[-cards:]) - 2 * cards // 3)
    f = facts(contract, points, tricks=tricks, announced=" ".join(sorted(announced)), doubling=doubling, bonus={holder: bonus})
    result = evaluate(f, TappTarockOptions(hand_bonus_settlement="side_based" if side_based else "holder_collects"))
    assert sum(result.scores) == 0
    assert result.scores[1] == result.scores[2] or bonus
