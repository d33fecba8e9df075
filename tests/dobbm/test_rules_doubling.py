"""Scenario tests for Schwacher and Retour (dossier §5, §10.1, OPEN-POINTS).

Standard deal, dealer 3.  ``solo_by(seat)`` settles a Solo of ``seat`` so the
doubling round starts at once.
"""

from __future__ import annotations

from typing import Any

import pytest

from stich.errors import IllegalActionError
from stich.games.dobbm.state import DobbmState

from .helpers import act, deal, game, legal, snapshot


def solo_by(seat: int, **options: Any) -> DobbmState:
    s = deal(game(**options))
    for _ in range(seat):
        s.apply("pass")
    s.apply("bid solo")
    return s


def test_defenders_speak_from_the_declarers_left() -> None:
    # §5.2 defenders in clockwise order from the first active player on the declarer's left
    s = solo_by(1)
    assert s.phase_name == "doubling"
    assert s.current_player() == 2
    act(s, "accept")
    assert s.current_player() == 3
    act(s, "accept")
    assert s.current_player() == 0


def test_dealer_left_option_starts_with_the_dealers_left() -> None:
    # §10.1 seed variant (doubling_first_speaker=dealer_left): the player on the dealer's left speaks first
    s = solo_by(1, doubling_first_speaker="dealer_left")
    assert s.current_player() == 0
    act(s, "accept")
    assert s.current_player() == 2


def test_all_defenders_accept_and_play_begins() -> None:
    # §5.2 if all three pass (gut), play begins with no doubling
    s = solo_by(0)
    assert legal(s) == {"accept", "double"}
    act(s, "accept", "accept", "accept")
    assert s.phase_name == "play" and s.doubles == 0


def test_the_first_schwacher_ends_the_defenders_round() -> None:
    # §5.2 a single Schwacher doubles for all defenders, so their round ends at the first one; §5.3 the declarer answers
    s = solo_by(0)
    act(s, "accept", "double")
    assert s.current_player() == 0
    assert legal(s) == {"accept", "retour"}
    act(s, "accept")
    assert s.phase_name == "play" and s.doubles == 1
    assert s.observation(3).public["multiplier"] == 2


def test_after_a_retour_any_defender_may_retour_from_the_declarers_left() -> None:
    # §5.4 / OPEN-POINTS after the declarer's Retour the defenders speak again from the declarer's left, each once
    s = solo_by(0)
    act(s, "accept", "accept", "double", "retour")
    assert s.current_player() == 1  # not only the Schwacher giver (seat 3)
    assert legal(s) == {"accept", "retour"}
    act(s, "accept", "retour")
    assert s.current_player() == 0
    act(s, "retour")
    assert s.current_player() == 1
    act(s, "accept", "accept", "accept")
    assert s.phase_name == "play"
    assert s.doubles == 4  # Schwacher + 3 Retours
    assert [w for _, w in s.calls] == [
        "accept",
        "accept",
        "schwacher",
        "retour",
        "accept",
        "retour",
        "retour",
        "accept",
        "accept",
        "accept",
    ]


def test_retours_after_the_dealer_left_start_still_follow_the_declarer() -> None:
    # OPEN-POINTS with doubling_first_speaker=dealer_left: only the Schwacher round starts at the dealer's left
    s = solo_by(1, doubling_first_speaker="dealer_left")
    act(s, "double", "retour")
    assert s.current_player() == 2


def test_retour_is_unlimited_by_default() -> None:
    # §5.4 there is no limit (retour_limit=0)
    s = solo_by(0)
    act(s, "double")
    for _ in range(6):
        act(s, "retour", "retour")
    assert s.doubles == 13 and s.phase_name == "doubling"


def test_retour_limit_option_caps_the_retours() -> None:
    # §5.4 an engine may offer a cap: with retour_limit=1 the declarer's Retour is the last word
    s = solo_by(0, retour_limit=1)
    act(s, "double", "retour")
    assert s.phase_name == "play" and s.doubles == 2


def test_declarer_cannot_give_a_schwacher_and_defenders_cannot_retour_first() -> None:
    # §5.2 the Schwacher is the defenders'; §5.3 a Retour answers it
    s = solo_by(0)
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match=r"§5.2"):
        s.apply("retour")
    assert snapshot(s) == before
    act(s, "double")
    with pytest.raises(IllegalActionError, match=r"§5.3"):
        s.apply("double")


def test_dobbm_doubling_comes_after_the_exchange() -> None:
    # §5.1 when the exchange is finished the declarer says ich liege; only then may the defenders double
    s = act(deal(), "bid dobbm", "accept", "accept", "accept")
    with pytest.raises(IllegalActionError, match=r"§4.1"):
        s.apply("double")
    act(s, "discard S6", "discard D8", "discard D7", "discard D6")
    assert s.phase_name == "doubling" and s.current_player() == 1


def test_idle_dealer_does_not_speak_in_the_doubling_round() -> None:
    # §2 / §5.2 at five players the sitting-out dealer is no defender in the round (but pays like one, §8.3)
    g = game(players=5)
    s = g.new_state(seed=4, dealer=4)
    act(s, "bid solo")
    assert s.current_player() == 1
    act(s, "accept", "accept", "accept")
    assert s.phase_name == "play"
