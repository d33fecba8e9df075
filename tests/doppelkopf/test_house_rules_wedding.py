"""Scenario tests for the wedding's named-suit rule (issue 29; dossier §4.2 [VAR], FreeDoko "marriage first
single color"): the bride names a plain suit when announcing, and the partner is the first other player to
win a trick led in that suit within the window.  Hands and tricks as in test_rules_wedding (seat 0 is the bride).
"""

from __future__ import annotations

import pytest

from stich.errors import IllegalActionError
from stich.games.doppelkopf.state import DoppelkopfState

from .helpers import act, deal, game, legal, play, public
from .test_rules_wedding import RUFF_3, TRUMP_1, W0, W1, W2, W3, re_party

NAMED = {"hochzeit kreuz", "hochzeit pik", "hochzeit herz"}


def named_wedding(suit: str) -> DoppelkopfState:
    s = deal(game(hochzeit_rule="named_suit"), W0, W1, W2, W3)
    act(s, "vorbehalt", "gesund", "gesund", "gesund")
    assert legal(s) >= NAMED and "hochzeit" not in legal(s)
    with pytest.raises(IllegalActionError):
        s.apply("hochzeit")
    act(s, f"hochzeit {suit}")
    assert public(s)["hochzeit_suit"] == suit
    return s


def test_named_suit_trick_finds_the_partner() -> None:
    # §4.2 [VAR] named_suit: a hearts trick (named herz) won by seat 3 makes seat 3 the partner
    s = named_wedding("herz")
    play(s, RUFF_3)
    assert (public(s)["kind"], public(s)["clarification_trick"]) == ("hochzeit", 1)
    assert re_party(s) == {0, 3}


def test_other_tricks_do_not_decide() -> None:
    # §4.2 [VAR] named_suit: a foreign winner of a trick in another suit (hearts, trumps) is not the partner
    s = named_wedding("pik")
    play(s, RUFF_3)
    assert public(s)["clarification_trick"] is None and re_party(s) == {0}
    s = named_wedding("kreuz")
    play(s, TRUMP_1)
    assert public(s)["clarification_trick"] is None and re_party(s) == {0}


def test_plain_wedding_keeps_the_single_action() -> None:
    # §4.2 default first_foreign: the wedding is declared with the single action "hochzeit"
    s = deal(game(), W0, W1, W2, W3)
    act(s, "vorbehalt", "gesund", "gesund", "gesund")
    assert "hochzeit" in legal(s) and not NAMED & legal(s)
