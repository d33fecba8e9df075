"""Scenario tests: laying out the Pagat and the Gstieß, Schwacher and Retour (dossier §5)."""

from __future__ import annotations

import pytest

from stich.errors import IllegalActionError

from .helpers import act, bid, deal, game, legal, snapshot


def test_declarer_lays_out_the_pagat_after_the_exchange() -> None:
    # §5.1 the declarer may lay out the Pagat after exchanging, discarding and buying
    s = bid(deal(game(), {0: "T1 C4 C5 C6"}), 0, "solo")
    act(s, "discard C4", "discard C5", "discard C6")
    assert legal(s) == {"lay_out T1", "liege"}
    act(s, "lay_out T1")
    assert s.phase_name == "doubling"
    public = s.observation(2).public
    assert public["laid_out"] == "T1" and public["laid_out_by"] == 0
    assert s.knowable_cards(2) >> 0 & 1  # the Pagat is face up on the table


def test_no_pagat_no_lay_out() -> None:
    # §5.1 only the holder of the Pagat can lay it out
    s = bid(deal(game(), {0: "T2", 1: "T1"}), 0, "super")
    assert legal(s) == {"liege"}
    with pytest.raises(IllegalActionError, match=r"§5.1"):
        s.apply("lay_out T1")


def test_gstiess_laid_out_only_in_super_mord() -> None:
    # §5.2 only in a Super Mord may the declarer lay out the Gstieß, and not both it and the Pagat
    s = bid(deal(game(), {0: "T1 T22"}), 0, "super")
    with pytest.raises(IllegalActionError, match=r"Super Mord.*§5.2"):
        s.apply("lay_out T22")
    s = bid(deal(game(), {0: "T1 T22"}), 0, "super_mord")
    assert legal(s) == {"lay_out T1", "lay_out T22", "liege"}
    act(s, "lay_out T22")
    assert s.phase_name == "doubling"
    assert s.observation(1).public["laid_out"] == "T22"


def test_liege_opens_the_doubling_round_left_of_the_declarer() -> None:
    # §5.3 after "ich liege" the defender to the declarer's left speaks first, then the other
    s = bid(deal(game(), {}), 1, "super")
    act(s, "liege")
    assert s.current_player() == 2
    assert legal(s) >= {"pass", "schwacher"}
    act(s, "pass")
    assert s.current_player() == 0
    act(s, "pass")
    assert s.phase_name == "play"
    assert s.current_player() == 1  # §6.1 the declarer leads


def test_schwacher_doubles_and_the_declarer_answers() -> None:
    # §5.3 a Schwacher doubles the stakes for both defenders; the declarer says gut (pass) or Retour
    s = act(bid(deal(game(), {}), 1, "super"), "liege", "pass", "schwacher")
    assert s.multiplier == 2
    assert s.current_player() == 1
    assert legal(s) == {"pass", "retour"}
    act(s, "pass")
    assert s.phase_name == "play"
    assert s.observation(0).public["multiplier"] == 2


def test_retour_and_defenders_speak_again() -> None:
    # §5.3, OPEN-POINTS after a Retour the defenders speak again from the declarer's left, each once per level
    s = act(bid(deal(game(), {}), 1, "super"), "liege", "schwacher", "retour")
    assert s.multiplier == 4
    assert s.current_player() == 2
    assert "retour" in legal(s) and "schwacher" not in legal(s)
    act(s, "pass")
    assert s.current_player() == 0
    act(s, "retour")
    assert s.multiplier == 8
    assert s.current_player() == 1
    act(s, "retour")
    assert s.multiplier == 16
    act(s, "pass", "pass")
    assert s.phase_name == "play"


def test_retour_limit() -> None:
    # §9 retour_limit: no more Retours once the limit is reached (default: no limit)
    s = act(bid(deal(game(retour_limit=1), {}), 1, "super"), "liege", "schwacher", "retour")
    assert legal(s) == {"pass"}
    with pytest.raises(IllegalActionError, match=r"retour_limit"):
        s.apply("retour")


def test_only_defenders_give_a_schwacher() -> None:
    # §5.3 the Schwacher is the defenders' double; a Retour answers it
    s = act(bid(deal(game(), {}), 1, "super"), "liege")
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match=r"§5.3"):
        s.apply("retour")
    assert snapshot(s) == before
    act(s, "schwacher")
    with pytest.raises(IllegalActionError, match=r"only a defender.*§5.3"):
        s.apply("schwacher")


def test_defender_lays_out_the_pagat_in_the_doubling_round() -> None:
    # §5.1, §10.7, OPEN-POINTS a defender holding the Pagat may lay it out on its turn in the doubling round
    s = act(bid(deal(game(), {0: "T1", 1: "C4 C5 C6"}), 1, "solo"), "discard C4", "discard C5", "discard C6")
    act(s, "liege", "pass")
    assert s.current_player() == 0
    assert "lay_out T1" in legal(s)
    act(s, "lay_out T1")
    assert s.current_player() == 0  # still the defender's turn
    assert "lay_out T1" not in legal(s)
    act(s, "schwacher")
    assert s.observation(1).public["laid_out_by"] == 0


def test_defender_lay_out_can_be_switched_off() -> None:
    # §9 defender_may_lay_out_pagat=false
    s = act(bid(deal(game(defender_may_lay_out_pagat=False), {2: "T1"}), 1, "super"), "liege")
    assert "lay_out T1" not in legal(s)
    with pytest.raises(IllegalActionError, match=r"defender_may_lay_out_pagat"):
        s.apply("lay_out T1")


def test_no_defender_lay_out_in_super_mord() -> None:
    # §5.2, decision 0012: in a Super Mord only the declarer lays out (a defender's Pagat could only win after the Mord failed)
    s = act(bid(deal(game(), {2: "T1"}), 1, "super_mord"), "liege")
    assert "lay_out T1" not in legal(s)
