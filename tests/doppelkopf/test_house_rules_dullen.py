"""Short-suit Dullen in colour solos (dossier §1.3 "Dullen moved in colour solos", §8.2 ``dullen_in_color_solo``,
A-8; decision 0027): the Dullen of an X-solo are the tens of the suit before X in Kreuz, Pik, Herz, Karo.

Seat 2 is the soloist of a compulsory solo (dealer 3), so seat 2 leads.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from stich.core.records import deal_record, replay_deal
from stich.errors import OptionError
from stich.games.doppelkopf.contracts import face
from stich.games.doppelkopf.state import DoppelkopfState

from .helpers import deal_hands, fill, game, legal_plays, play, play_out, solo, winner_of_last_trick

SHORT = {"dullen_in_color_solo": "short_suit"}


def herz_solo(**options: Any) -> DoppelkopfState:
    hands = fill({0: "CQ SA SK S10", 1: "SQ SA S10", 2: "HA HA H10 H10 HK HK H9"}, avoid={3: ["S10"]})
    return solo(deal_hands(game(**options), hands), 2, "herz")


def kreuz_solo(**options: Any) -> DoppelkopfState:
    hands = fill({0: "H10 HK CQ", 1: "SQ", 2: "HA D10 D10 CA CA"}, avoid={3: ["H10"]})
    return solo(deal_hands(game(**options), hands), 2, "kreuz")


def test_herz_solo_spades_tens_are_the_dullen() -> None:
    # §1.3 [VAR] SEED's example: in a Herz solo the Dullen are the spades tens; the hearts tens rank as the trump
    # suit's tens (A 10 K 9), so the solo has 26 trumps like the other colour solos; spades keep A K 9
    s = herz_solo(**SHORT)
    order = s.order
    strength = [order.strength[face(t)] for t in ("S10", "CQ", "DJ", "HA", "H10", "HK", "H9")]
    assert strength == sorted(strength, reverse=True)
    assert bin(order.trump_faces).count("1") == 13
    assert order.eff[face("S10")] == order.eff[face("CQ")]  # S10 is a trump, no spade
    default = herz_solo()
    assert default.order.strength[face("H10")] > default.order.strength[face("CQ")]
    assert default.order.eff[face("S10")] != default.order.eff[face("CQ")]


def test_herz_solo_a_spades_ten_lead_is_a_trump_lead() -> None:
    # §1.3, §6.1: the moved Dulle is a trump, so leading it asks for trumps, not spades
    s = herz_solo(**SHORT)
    play(s, "H10")  # seat 2 leads a trump
    play(s, sorted(legal_plays(s))[0])  # seat 3
    assert "S10" in legal_plays(s) and "SA" not in legal_plays(s)
    play(s, "S10")  # seat 0's Dulle
    play(s, "S10")  # seat 1's Dulle: the first wins (TSR 5.3.3)
    assert winner_of_last_trick(s) == 0


def test_second_moved_dulle_beats_the_first_with_the_second_dulle_rule() -> None:
    # §1.2 [VAR] second_dulle_beats_first / second_dulle_in_solo apply to the moved Dullen
    s = herz_solo(**SHORT, second_dulle_beats_first=True, second_dulle_in_solo=True)
    play(s, "H10")
    play(s, sorted(legal_plays(s))[0])
    play(s, "S10 S10")
    assert winner_of_last_trick(s) == 1


def test_kreuz_solo_diamond_tens_are_the_dullen_and_the_hearts_tens_plain() -> None:
    # §1.3 [VAR] SEED's second example: Kreuz solo -> D10; the hearts tens follow hearts
    s = kreuz_solo(**SHORT)
    play(s, "HA")
    play(s, sorted(legal_plays(s))[0])
    assert {"H10", "HK"} <= legal_plays(s)
    default = kreuz_solo()
    play(default, "HA")
    play(default, sorted(legal_plays(default))[0])
    assert "H10" not in legal_plays(default)  # by default the hearts tens are the Kreuz solo's top trumps


def test_kreuz_solo_diamond_ten_lead_wins_as_top_trump() -> None:
    # §1.3 [VAR] short_suit: the D10 heads the trumps; by default it is a plain diamond that any trump beats
    s = kreuz_solo(**SHORT)
    play(s, "D10")
    for _ in range(3):
        play(s, sorted(legal_plays(s))[0])
    assert winner_of_last_trick(s) == 2


def test_karo_solo_and_normal_game_keep_the_hearts_tens() -> None:
    # decision 0027: the suit before Karo is Herz, so the Karo solo (and the normal game) keep the DDV order
    hands = fill({2: "H10 H10"})
    s = solo(deal_hands(game(**SHORT), hands), 2, "karo")
    assert s.order.dulle == face("H10") and s.order.strength[face("H10")] > s.order.strength[face("CQ")]
    pik = solo(deal_hands(game(**SHORT), hands), 2, "pik")
    assert pik.order.dulle == face("C10") and pik.order.eff[face("H10")] != pik.order.eff[face("CQ")]


def test_short_suit_dullen_need_dullen() -> None:
    with pytest.raises(OptionError, match="dullen_in_color_solo"):
        game(dullen=False, **SHORT)


def test_short_suit_record_replays() -> None:
    # a deal under the option survives its record
    s = play_out(herz_solo(**SHORT))
    record = json.loads(json.dumps(deal_record(s)))
    assert replay_deal(record).result().to_json() == s.result().to_json()
