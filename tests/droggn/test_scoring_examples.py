"""Worked scoring examples for Droggn (dossier §7, §8), derived by hand.

Each example names the rule it pins and shows the arithmetic of the value V
(the change of the declarer's score); every other seat pays V, so at a table
of three the declarer scores 2V and each defender -V, at four 3V and -V each
(the idle dealer pays like a defender, §8.6).  Unless an example says
otherwise the declarer sits in seat 0 of a three-player table and every trick
was played (21 tricks).
"""

from __future__ import annotations

from typing import Any

import pytest

from stich.games.droggn.options import DroggnOptions
from stich.games.droggn.outcome import DECLARER, DEFENDERS, DealFacts, PagatFact
from stich.games.droggn.scoring import deal_value, evaluate, settle

from .helpers import bid, deal, game, play_out, to_play


def facts(contract: str, points: int, **kw: Any) -> DealFacts:
    """Facts of a fully played deal in which the declarer won a few tricks (not all) and counted ``points``."""
    values: dict[str, Any] = {"declarer_tricks": 10, "tricks_played": 21}
    values.update(kw)
    return DealFacts(contract=contract, declarer_points=points, **values)


def value(f: DealFacts, **options: Any) -> int:
    return deal_value(f, DroggnOptions(**options)).value


def silent_pagat_won(side: str) -> PagatFact:
    return PagatFact(side=side, last=True, won=True, winner_side=side)


def test_seed_example_solo_40_with_silent_pagat_ultimo_is_53() -> None:
    # SEED, §8.1, §8.4 a Solo won with 40 card points and the last trick taken by the Pagat unannounced: 40 + 3 + 10 = 53
    f = facts("solo", 40, pagat=silent_pagat_won(DECLARER), last_trick_side=DECLARER)
    assert value(f) == 53
    result = evaluate(f, DroggnOptions(), declarer=0, active=(0, 1, 2), num_seats=3)
    assert result.scores == (106, -53, -53)
    assert [(i["name"], i["points"]) for i in result.breakdown["items"]] == [("game", 40), ("overshoot", 3), ("pagat_ultimo", 10)]


def test_seed_example_super_mord_167_and_187() -> None:
    # SEED, §8.3, §10.2 a Super Mord made scores 167 (80 + 37 + 50), or 187 with the Pagat or the Gstieß laid out
    made = {"declarer_tricks": 21, "tricks_played": 21}
    assert value(facts("super_mord", 74, **made)) == 167
    assert value(facts("super_mord", 74, laid_out="gstiess", laid_out_side=DECLARER, **made)) == 187
    assert value(facts("super_mord", 74, laid_out="pagat", laid_out_side=DECLARER, **made)) == 187


def test_seed_example_matsch_is_game_value_plus_37() -> None:
    # SEED, §8.2 all tricks without a Mord bid: the game value plus 37 (p = 74); a Solo Matsch is 77
    f = facts("solo", 60, declarer_tricks=21)
    assert value(f) == 77
    assert deal_value(f, DroggnOptions()).matsch


def test_ansager_37_all_is_a_declarer_win() -> None:
    # §7, §10.1 37 : 37 is a declarer win with overshoot 0: 20
    assert value(facts("ansager", 37)) == 20


def test_ansager_lost_with_36() -> None:
    # §8.1 the defenders have 38: -(20 + 1) = -21
    assert value(facts("ansager", 36)) == -21


def test_super_won_with_schwacher_at_four_players() -> None:
    # §8.1, §5.4, §8.6 a Super with 50 card points doubled once: (80 + 13) x 2 = 186; at four the declarer gets 3 x 186
    f = facts("super", 50, multiplier=2)
    assert value(f) == 186
    result = evaluate(f, DroggnOptions(players=4), declarer=1, active=(1, 2, 3), num_seats=4)
    assert result.scores == (-186, 558, -186, -186)
    assert result.breakdown["idle"] == 0


def test_solo_lost_after_schwacher_and_retour() -> None:
    # §5.3, §5.4 Schwacher and Retour make x4; the declarer has 30, the defenders 44: -(40 + 7) x 4 = -188
    assert value(facts("solo", 30, multiplier=4)) == -188


def test_laid_out_pagat_won_is_doubled() -> None:
    # §8.4, §5.4 the declarer's laid-out Pagat wins the last trick; Ansager with 45, one Schwacher: (20 + 8 + 20) x 2 = 96
    f = facts("ansager", 45, multiplier=2, laid_out="pagat", laid_out_side=DECLARER, pagat=silent_pagat_won(DECLARER))
    assert value(f) == 96


def test_laid_out_pagat_forced_out_early_fails() -> None:
    # §8.4 a laid-out Pagat forced out before the last trick fails: -20; Ansager won with 40, doubled: (20 + 3 - 20) x 2 = 6
    forced = PagatFact(side=DECLARER, last=False, won=False, winner_side=DEFENDERS)
    f = facts("ansager", 40, multiplier=2, laid_out="pagat", laid_out_side=DECLARER, pagat=forced)
    assert value(f) == 6


def test_defenders_laid_out_pagat_won() -> None:
    # §8.4 a defender's laid-out Pagat wins the last trick: +20 for the defenders; Solo won with 38: 40 + 1 - 20 = 21
    f = facts("solo", 38, laid_out="pagat", laid_out_side=DEFENDERS, pagat=silent_pagat_won(DEFENDERS))
    assert value(f) == 21


def test_silent_pagat_captured_is_not_doubled() -> None:
    # §8.4, §5.4 the declarer captures the defenders' Pagat before the last trick: +5, not doubled; Super 41 doubled: 84 x 2 + 5 = 173
    captured = PagatFact(side=DEFENDERS, last=False, won=False, winner_side=DECLARER)
    assert value(facts("super", 41, multiplier=2, pagat=captured)) == 173


def test_silent_pagat_beaten_by_the_partner_in_the_last_trick() -> None:
    # §8.4, §10.8 a defender's Pagat beaten in the last trick, even by the partner: +10 for the declarer; Solo lost with 33: -44 + 10 = -34
    beaten = PagatFact(side=DEFENDERS, last=True, won=False, winner_side=DEFENDERS)
    assert value(facts("solo", 33, pagat=beaten)) == -34


def test_own_side_winning_the_pagat_early_scores_nothing() -> None:
    # §8.4 only the other side's capture scores; a Pagat won by its own side before the last trick is worth nothing
    own = PagatFact(side=DEFENDERS, last=False, won=False, winner_side=DEFENDERS)
    assert value(facts("ansager", 40, pagat=own)) == 23


def test_declarers_silent_pagat_lost_in_the_last_trick() -> None:
    # §8.4 the declarer's unannounced Pagat beaten in the last trick: -10; Ansager with 37: 20 - 10 = 10
    beaten = PagatFact(side=DECLARER, last=True, won=False, winner_side=DEFENDERS)
    assert value(facts("ansager", 37, pagat=beaten)) == 10


def test_super_mord_failed_with_laid_out_pagat_and_retour() -> None:
    # §8.3, §10.9 a Super Mord lost while the Pagat is laid out loses 187; Schwacher and Retour: -187 x 4 = -748
    f = facts("super_mord", 30, declarer_tricks=5, tricks_played=6, multiplier=4, laid_out="pagat", laid_out_side=DECLARER)
    assert value(f) == -748


def test_super_mord_not_doubled_option() -> None:
    # §10.9 super_mord_doubled=false: a Schwacher leaves the 167 as it is
    f = facts("super_mord", 74, declarer_tricks=21, multiplier=2)
    assert value(f) == 334
    assert value(f, super_mord_doubled=False) == 167


def test_super_mord_has_no_separate_pagat_scores() -> None:
    # §8.3 no Pagat capture or silent ultimo in a Super Mord (all_or_nothing)
    captured = PagatFact(side=DEFENDERS, last=False, won=False, winner_side=DECLARER)
    assert value(facts("super_mord", 74, declarer_tricks=21, pagat=captured)) == 167


def test_super_mord_additive_reading() -> None:
    # §9 super_mord_pagat_scoring=additive: the Pagat bonuses count on top, e.g. +172 / -162 with a captured Pagat
    captured = PagatFact(side=DEFENDERS, last=False, won=False, winner_side=DECLARER)
    assert value(facts("super_mord", 74, declarer_tricks=21, pagat=captured), super_mord_pagat_scoring="additive") == 172
    failed = facts("super_mord", 20, declarer_tricks=3, tricks_played=4, pagat=captured)
    assert value(failed, super_mord_pagat_scoring="additive") == -162


def test_threshold_38_option() -> None:
    # §10.1 win_threshold=38: 37 card points lose, -(20 + 0) = -20
    assert value(facts("ansager", 37), win_threshold="38") == -20
    assert value(facts("ansager", 38), win_threshold="38") == 21


def test_tie_goes_to_the_last_trick_option() -> None:
    # §9 win_threshold=37_tie_last_trick: at 37 : 37 the side that won the last trick wins
    assert value(facts("solo", 37, last_trick_side=DEFENDERS), win_threshold="37_tie_last_trick") == -40
    assert value(facts("solo", 37, last_trick_side=DECLARER), win_threshold="37_tie_last_trick") == 40


def test_78_card_pack() -> None:
    # §9 deck_size=78: 78 card points, 39 to win, Super Mord 80 + 39 + 50 = 169
    assert value(facts("solo", 45, pack_points=78, total_tricks=25, tricks_played=25)) == 46
    assert value(facts("super_mord", 78, pack_points=78, total_tricks=25, tricks_played=25, declarer_tricks=25)) == 169


def test_settle_is_zero_sum() -> None:
    # §8 every other seat pays V: zero-sum at three and at four
    assert settle(53, 2, 3) == (-53, -53, 106)
    assert settle(-21, 0, 4) == (-63, 21, 21, 21)


# ------------------------------------------------------------ played deals


def test_played_matsch_with_silent_pagat_ultimo() -> None:
    # §8.2, §8.4 a Super by the holder of every trump I-XXI: 21 tricks, the Pagat takes the last one: 80 + 37 + 10 = 127
    trumps = " ".join(f"T{n}" for n in range(1, 22))
    s = to_play(bid(deal(game(), {0: trumps, 1: "T22"}), 0, "super"))
    while not s.is_terminal():
        actions = s.legal_actions()
        s.apply(max(actions, key=lambda a: a.code) if s.current_player() == 0 else actions[0])
    result = s.result()
    assert result.breakdown["matsch"]
    assert result.breakdown["card_points"] == {"declarer": 74, "defenders": 0}
    assert result.breakdown["value"] == 127
    assert result.scores == (254, -127, -127)


@pytest.mark.parametrize("seed", range(12))
def test_card_points_recounted_from_the_piles(seed: int) -> None:
    # §7 slow reference: the declarer's points are his tricks (the Gstieß back with its side) plus discards or talon, counted in threes
    from stich.games.droggn.pack import face_of, pile_points

    g = game()
    s = g.new_state(seed=seed, dealer=seed % 3)
    contract = ("ansager", "solo", "super")[seed % 3]
    bid(s, s.active[seed % 3], contract)
    to_play(s, " ".join(sorted(_three_discards(s))) if contract != "super" else "")
    play_out(s)
    result = s.result()
    pile = s.discards | s.talon
    for seats, cards, winner in s.tricks:
        for seat, card in zip(seats, cards, strict=True):
            keeper = seat if card == face_of("T22") else winner
            if keeper == s.declarer:
                pile |= 1 << card
    expected = 74 if result.breakdown["matsch"] else pile_points(pile)
    assert result.breakdown["card_points"]["declarer"] == expected
    assert sum(result.breakdown["card_points"].values()) == 74


def _three_discards(s: Any) -> list[str]:
    """Three legal discards, taken greedily from the legal ones."""
    chosen: list[str] = []
    probe = s.clone()
    for _ in range(3):
        action = probe.legal_actions()[0]
        chosen.append(action.text.split()[1])
        probe.apply(action)
    return chosen


def _pagat_forced_out(lay_out: bool) -> dict[str, Any]:
    """A Super by seat 0, who leads the Mond; seat 1's only trump is the Pagat, so it falls at once."""
    no_trumps = "SK SQ SC SJ S10 S9 S8 S7 S6 S5 S4 HK HQ HC HJ H1 H2 H3 H4 H5"
    s = bid(deal(game(), {0: "T21", 1: "T1 " + no_trumps}), 0, "super")
    s.apply("liege")
    if lay_out:
        s.apply("lay_out T1")
    s.apply("pass")
    s.apply("schwacher")
    s.apply("pass")
    s.apply("play T21")
    assert [a.text for a in s.legal_actions()] == ["play T1"]
    play_out(s)
    items = {item["name"]: item for item in s.result().breakdown["items"]}
    return items


def test_played_silent_pagat_captured() -> None:
    # §8.4 a defender's Pagat falls to the declarer's Mond in trick 1: +5 for the declarer, not doubled by the Schwacher
    items = _pagat_forced_out(lay_out=False)
    assert items["pagat_captured"] == {"name": "pagat_captured", "side": "declarer", "base": 5, "doubled": False, "points": 5}


def test_played_laid_out_pagat_forced_out() -> None:
    # §8.4, §5.4 a defender's laid-out Pagat forced out in trick 1 fails: 20 x 2 for the declarer, no capture bonus
    items = _pagat_forced_out(lay_out=True)
    assert items["laid_out_pagat"] == {"name": "laid_out_pagat", "side": "declarer", "base": 20, "doubled": True, "points": 40}
    assert "pagat_captured" not in items
