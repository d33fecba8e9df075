"""Illegal actions in every phase raise IllegalActionError naming the rule and change nothing (dossier §1-§7)."""

from __future__ import annotations

import re

import pytest

from stich.errors import IllegalActionError, NotationError
from stich.games.droggn.state import DroggnState

from .helpers import act, bid, deal, game, play_out, snapshot, to_play


def refused(state: DroggnState, action: str, rule: str) -> None:
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=re.escape(rule)) as info:
        state.apply(action)
    assert info.value.rule.startswith(rule)
    assert snapshot(state) == before


def test_wrong_verbs_per_phase() -> None:
    # §3.2, §4.1, §4.2, §5.3, §6.1 each phase refuses what belongs to another
    s = deal(game(), {0: "C4 C5 C6 T1"})
    refused(s, "play C4", "§3.2")
    refused(s, "schwacher", "§3.2")
    bid(s, 0, "ansager")
    refused(s, "pass", "§4.1")
    refused(s, "play C4", "§4.1")
    act(s, "discard C4", "discard C5", "discard C6")
    refused(s, "liege", "§4.2")
    refused(s, "offer C4", "§4.2")
    act(s, "pass")
    refused(s, "schwacher", "§5.1")
    act(s, "liege")
    refused(s, "play T1", "§5.3")
    refused(s, "lay_out T22", "§5.2")
    act(s, "pass", "pass")
    refused(s, "pass", "§6.1")
    refused(s, "bid solo", "§6.1")


def test_card_outside_the_pack() -> None:
    # §1 the 66-card pack has no C1 or H10
    s = to_play(bid(deal(game(), {}), 0, "super"))
    refused(s, "play C1", "§1")
    refused(s, "play H10", "§1")


def test_card_not_in_hand() -> None:
    # §6.1 only cards of one's own hand can be played
    s = to_play(bid(deal(game(), {1: "SK"}), 0, "super"))
    refused(s, "play SK", "§6.1")


def test_nothing_after_the_end() -> None:
    # §7 a finished deal takes no more actions
    s = play_out(to_play(bid(deal(game(), {}), 0, "super")))
    refused(s, "pass", "§7")


def test_malformed_action_text() -> None:
    # card verbs read the card in any case; text that names no action is a notation error
    s = deal(game(), {})
    with pytest.raises(NotationError):
        s.apply("bid grand")
    assert s.to_action("BID Solo").text == "bid solo"
    assert s.to_action("lay_out t1").text == "lay_out T1"
    assert s.to_action("buy sk").text == "buy SK"
