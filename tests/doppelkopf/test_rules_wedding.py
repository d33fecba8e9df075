"""Scenario tests for the announced wedding (Hochzeit, dossier §4.2, §5.4).

Seat 0 holds both queens of clubs and announces a wedding; dealer 3, so seat 0 leads.
Tricks available at the start (each legal in this deal):

* ``PLAIN_OWN``  "CA C10 C9 S9": a plain trick won by the Hochzeiter (seat 0);
* ``TRUMP_1``    "HQ H10 CJ DJ": a trump trick won by seat 1;
* ``RUFF_3``     "HA HK H9 D9": a plain trick that seat 3 ruffs and wins;
* ``TRUMP_OWN``  "CQ DQ SJ DA": a trump trick won by the Hochzeiter;
* ``SPADES_OWN`` "SA S10 SK S9": a plain trick won by the Hochzeiter.
"""

from __future__ import annotations

from typing import Any

import pytest

from stich.errors import IllegalActionError
from stich.games.doppelkopf.state import DoppelkopfState

from .helpers import act, deal, game, legal_calls, play, play_out, public, winner_of_last_trick

W0 = "CQ CQ SQ SQ HQ HQ CA CA SA SA HA HA"
W1 = "H10 H10 DQ DQ C10 C10 CK CK S10 S10 HK HK"
W2 = "CJ CJ SJ SJ HJ HJ C9 C9 SK SK H9 H9"
W3 = "DJ DJ DA DA D10 D10 DK DK D9 D9 S9 S9"

PLAIN_OWN = "CA C10 C9 S9"
TRUMP_1 = "HQ H10 CJ DJ"
RUFF_3 = "HA HK H9 D9"
TRUMP_OWN = "CQ DQ SJ DA"
SPADES_OWN = "SA S10 SK S9"
ALL_CALLS = {"keine90", "keine60", "keine30", "schwarz"}


def wedding(**options: Any) -> DoppelkopfState:
    s = deal(game(**options), W0, W1, W2, W3)
    act(s, "vorbehalt", "gesund", "gesund", "gesund", "hochzeit")
    assert (s.phase_name, s.current_player()) == ("play", 0)
    return s


def re_party(s: DoppelkopfState) -> set[int]:
    return {int(seat) for seat, party in public(s)["parties"].items() if party == "re"}


def test_partner_is_first_foreign_trick_winner_trick_1() -> None:
    # §4.2 the partner is the first other player to win a trick, trumps or plain (TSR 4.4.2)
    s = wedding()
    assert public(s)["parties"] == {"0": "re"}
    play(s, TRUMP_1)
    view = public(s)
    assert (view["kind"], view["clarification_trick"]) == ("hochzeit", 1)
    assert re_party(s) == {0, 1}
    assert s.observation(1).private["party"] == "re"


def test_partner_found_in_trick_2() -> None:
    # §4.2 tricks the Hochzeiter wins do not decide; the first foreign winner in trick 2 does
    s = wedding()
    play(s, PLAIN_OWN)
    assert public(s)["clarification_trick"] is None
    assert "party" not in s.observation(3).private  # not yet known to seat 3 itself
    play(s, RUFF_3)
    assert public(s)["clarification_trick"] == 2
    assert re_party(s) == {0, 3}


def test_partner_found_in_trick_3() -> None:
    # §4.2 the clarification window is three tricks (TSR 4.4.2)
    s = wedding()
    play(s, PLAIN_OWN)
    play(s, TRUMP_OWN)
    play(s, RUFF_3)
    assert (public(s)["kind"], public(s)["clarification_trick"]) == ("hochzeit", 3)
    assert re_party(s) == {0, 3}


def test_hochzeiter_wins_three_tricks_falls_back_to_karo_solo() -> None:
    # §4.2 the Hochzeiter wins tricks 1-3: a Karo solo, scored as a solo (TSR 4.4.3)
    s = wedding()
    play(s, PLAIN_OWN)
    play(s, TRUMP_OWN)
    play(s, SPADES_OWN)
    view = public(s)
    assert (view["kind"], view["contract"], view["soloist"], view["clarification_trick"]) == ("hochzeit_solo", "karo", 0, 3)
    assert re_party(s) == {0}
    play_out(s)
    scores = s.result().scores
    assert scores[0] == -3 * scores[1] != 0
    assert s.result().breakdown["kind"] == "hochzeit_solo"


def test_window_option() -> None:
    # §4.2 [VAR] hochzeit_window_tricks=1: only trick 1 can find the partner
    s = wedding(hochzeit_window_tricks=1)
    play(s, PLAIN_OWN)
    assert public(s)["kind"] == "hochzeit_solo"


def test_first_plain_rule_ignores_trump_tricks() -> None:
    # §4.2 [VAR] first_plain: only a plain-suit trick won by another player finds the partner
    s = wedding(hochzeit_rule="first_plain")
    play(s, TRUMP_1)  # seat 1 wins a trump trick: does not count
    assert public(s)["clarification_trick"] is None
    play(s, "C10 C9 S9 CA")  # seat 1 leads, the Hochzeiter wins
    play(s, RUFF_3)  # seat 3 wins a plain trick
    assert public(s)["clarification_trick"] == 3
    assert re_party(s) == {0, 3}


def test_first_plain_rule_fallback() -> None:
    # §4.2 [VAR] first_plain: without a qualifying trick in the window the Hochzeiter plays alone
    s = wedding(hochzeit_rule="first_plain")
    play(s, TRUMP_1)
    play(s, "C10 C9 S9 CA")
    play(s, TRUMP_OWN)
    assert public(s)["kind"] == "hochzeit_solo"


def test_first_trump_rule_ignores_plain_tricks() -> None:
    # §4.2 [VAR] first_trump: only a trump trick won by another player finds the partner
    s = wedding(hochzeit_rule="first_trump")
    play(s, RUFF_3)  # plain suit led: does not count
    assert public(s)["clarification_trick"] is None
    play(s, "DJ HQ H10 CJ")  # seat 3 leads a trump, seat 1 wins it
    assert winner_of_last_trick(s) == 1
    assert public(s)["clarification_trick"] == 2
    assert re_party(s) == {0, 1}


def test_announcements_blocked_until_clarification() -> None:
    # §5.4 in a wedding the first call comes only after the clarification trick (TSR 4.4.4)
    s = wedding()
    assert legal_calls(s) == set()
    play(s, PLAIN_OWN)
    assert legal_calls(s) == set()  # 11 cards: a normal game would allow Re here
    with pytest.raises(IllegalActionError, match=r"§5.4"):
        s.apply("announce re")
    play(s, "HA HK H9")
    assert legal_calls(s) == set()


def test_deadlines_shift_by_clarification_trick_minus_one() -> None:
    # §5.4 clarification in trick 2: every required count drops by 1, Re/Kontra at 10 cards (TSR 6.4.2)
    s = wedding()
    play(s, PLAIN_OWN)
    play(s, RUFF_3)
    assert s.current_player() == 3  # seat 3, now Re, leads with 10 cards
    assert legal_calls(s) == {"re"} | ALL_CALLS
    play(s, "DK")
    assert legal_calls(s) == {"re"} | ALL_CALLS  # seat 0
    play(s, "CQ")
    assert legal_calls(s) == {"kontra"} | ALL_CALLS  # seat 1
    play(s, "DQ")
    play(s, "CJ")
    assert s.current_player() == 0
    assert legal_calls(s) == set()  # 9 cards: too late for a first call


def test_deadlines_after_clarification_in_trick_3() -> None:
    # §5.4 clarification in trick 3: Re/Kontra at 9 cards, keine 90 at 8
    s = wedding()
    play(s, PLAIN_OWN)
    play(s, TRUMP_OWN)
    play(s, RUFF_3)
    assert legal_calls(s) == {"re"} | ALL_CALLS
    act(s, "announce re", "play D10", "play CQ", "play DQ", "play CJ")
    assert s.current_player() == 0
    assert legal_calls(s) == ALL_CALLS  # 8 cards: keine 90 (8) still open


def test_fallback_solo_deadlines_shift_by_two() -> None:
    # §5.4 the Karo-solo fallback counts as clarification in trick 3 (Re at 9 cards)
    s = wedding()
    play(s, PLAIN_OWN)
    play(s, TRUMP_OWN)
    play(s, SPADES_OWN)
    assert s.current_player() == 0
    assert legal_calls(s) == {"re"} | ALL_CALLS


def test_schweine_in_wedding_settled_after_clarification() -> None:
    # §1.3 [VAR] + OPEN-POINTS: Schweine status is fixed when the game type is settled, not at the deal
    s = wedding(schweine="both")
    assert public(s)["schweine"] is None
    play(s, TRUMP_1)  # partner found: a normal game; seat 3 still holds both DA
    assert public(s)["schweine"] == 3
    play(s, "DQ SJ DA CQ")  # seat 1 leads; the Schwein beats the queen of clubs
    assert winner_of_last_trick(s) == 3


def test_no_schweine_during_window_or_in_fallback_solo() -> None:
    # §1.3 [VAR] + OPEN-POINTS: in the window the DA is an ordinary trump; the fallback solo has no Schweine
    s = wedding(schweine="both")
    play(s, PLAIN_OWN)
    play(s, TRUMP_OWN)  # seat 3's DA goes under the CQ
    assert winner_of_last_trick(s) == 0
    play(s, SPADES_OWN)
    assert (public(s)["kind"], public(s)["schweine"]) == ("hochzeit_solo", None)


def test_normal_with_conversion_allows_re_and_kontra_before_clarification() -> None:
    # §5.4 [VAR] normal_with_conversion: Re/Kontra keep their normal deadlines before clarification; absagen wait for it
    s = wedding(hochzeit_announcement_timing="normal_with_conversion")
    assert legal_calls(s) == {"re"}
    with pytest.raises(IllegalActionError, match=r"§5.4"):
        s.apply("announce keine90")
    play(s, PLAIN_OWN)
    play(s, "HA HK H9")
    assert s.current_player() == 3
    assert legal_calls(s) == {"kontra"}


def test_normal_with_conversion_turns_the_partners_kontra_into_re() -> None:
    # §5.4 [VAR] a player who said Kontra and then becomes the partner has that Kontra turned into a Re
    s = wedding(hochzeit_announcement_timing="normal_with_conversion")
    play(s, PLAIN_OWN)
    play(s, "HA HK H9")
    act(s, "announce kontra", "play D9")  # seat 3 ruffs trick 2 and becomes the partner
    view = public(s)
    assert view["calls"] == {"re": 1, "kontra": 0}
    assert re_party(s) == {0, 3}
    # normal (unshifted) deadlines after clarification: seat 3 leads with 10 cards, keine 90 needs 10
    assert s.current_player() == 3
    assert legal_calls(s) == ALL_CALLS


def test_normal_with_conversion_keeps_a_true_kontra() -> None:
    # §5.4 [VAR] a Kontra said by a player who stays Kontra is not converted
    s = wedding(hochzeit_announcement_timing="normal_with_conversion")
    play(s, PLAIN_OWN)
    act(s, "play HA", "play HK")
    assert s.current_player() == 2
    act(s, "announce kontra", "play H9", "play D9")  # seat 3 wins trick 2 and becomes the partner
    assert public(s)["calls"] == {"re": 0, "kontra": 1}
    assert re_party(s) == {0, 3}
