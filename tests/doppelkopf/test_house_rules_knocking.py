"""Knocking (Klopfen, "Tuck"): an anonymous raise that reveals no party (dossier §5.5, §8.4 ``knocking``;
decision 0028).

Seats 0 and 1 are Re (one queen of clubs each), dealer 3, so seat 0 leads.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from stich.core.records import deal_record, replay_deal
from stich.errors import IllegalActionError, OptionError
from stich.games.doppelkopf.state import DoppelkopfState

from .helpers import act, deal, game, healthy, legal, play, play_out, public, snapshot

RE_HAND = "CQ SQ HQ DQ CJ SJ CA C10 CK SA S10 HA"
KONTRA_2 = "H10 H10 DA DA D10 D10 HJ HJ C9 S9 DJ SK"
KONTRA_3 = "DJ DK DK D9 D9 C9 S9 SK HK HK H9 H9"


def table(**options: Any) -> DoppelkopfState:
    return healthy(deal(game(**options), RE_HAND, RE_HAND, KONTRA_2, KONTRA_3))


def knocked_twice(**options: Any) -> DoppelkopfState:
    s = table(knocking=True, **options)
    act(s, "klopfen", "play CA", "klopfen")  # seat 0, then seat 1 before its first card
    return play_out(s)


def test_each_player_knocks_once_within_the_re_kontra_deadline() -> None:
    # decision 0028: a knock comes before one of the player's cards, once, while he may still say Re/Kontra (h >= 11)
    s = table(knocking=True)
    assert "klopfen" in legal(s)
    act(s, "klopfen")
    assert public(s)["knocks"] == [0]
    assert public(s, 2)["parties"] == {}  # a knock names no party
    assert public(s)["calls"] == {"re": 0, "kontra": 0}
    play(s, "CA CK C9")  # seat 0 leads, seats 1, 2 follow
    assert "klopfen" in legal(s)  # seat 3 still has 12 cards
    play(s, "C9")
    play(s, "SA S10 S9 S9")  # seat 0 wins both tricks; everyone now holds 10 cards
    play(s, "HA")
    assert s.current_player() == 1 and "klopfen" not in legal(s)  # seat 1 never knocked, but 10 < 11 cards


def test_knocking_twice_is_refused_and_changes_nothing() -> None:
    s = table(knocking=True)
    act(s, "klopfen", "play CA", "play CK", "play C9", "play C9")
    assert s.current_player() == 0 and "klopfen" not in legal(s)
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match="once"):
        s.apply("klopfen")
    assert snapshot(s) == before


def test_without_the_option_there_is_no_knock_and_no_key() -> None:
    s = table()
    assert "klopfen" not in legal(s) and "knocks" not in public(s)
    with pytest.raises(IllegalActionError, match="knocking"):
        s.apply("klopfen")


def test_each_knock_adds_two_points_to_the_winner() -> None:
    # decision 0028 with call_scoring=add_2: a knock counts like a call, 2 points for whoever wins the game
    plain = play_out(table()).result().breakdown
    knocked = knocked_twice().result().breakdown
    assert knocked["winner"] == plain["winner"] is not None
    items = [i for i in knocked["items"] if i["name"] == "geklopft"]
    assert items == [{"name": "geklopft", "party": plain["winner"], "points": 2}] * 2
    sign = 1 if plain["winner"] == "re" else -1
    assert knocked["value"] == plain["value"] + sign * 4


def test_each_knock_doubles_with_call_scoring_double() -> None:
    # §7.8 [VAR] call_scoring=double: each knock doubles the game value like a call
    plain = play_out(table(call_scoring="double")).result().breakdown
    knocked = knocked_twice(call_scoring="double").result().breakdown
    total = sum(i["points"] for i in plain["items"])
    assert sum(i["points"] for i in knocked["items"]) == 4 * total


def test_knocked_deal_record_replays() -> None:
    s = knocked_twice()
    record = json.loads(json.dumps(deal_record(s)))
    assert replay_deal(record).result().to_json() == s.result().to_json()


def test_knocking_needs_announcements() -> None:
    with pytest.raises(OptionError, match="knocking"):
        game(knocking=True, announcements=False)
