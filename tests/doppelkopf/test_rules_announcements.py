"""Scenario tests for announcements and absagen (dossier §5).

Seats 0 and 1 are Re (one queen of clubs each), seats 2 and 3 Kontra; dealer 3.
``SCRIPT[i]`` is trick i+1; seat 0 leads and wins every trick, so before trick
i+1 every player holds 12 - i cards (10 - i without nines).
"""

from __future__ import annotations

from typing import Any

import pytest

from stich.errors import IllegalActionError
from stich.games.doppelkopf.state import DoppelkopfState

from .helpers import act, deal, game, healthy, legal_calls, play, public, solo

RE_HAND = "H10 CQ SQ HQ DQ CJ SJ CA C10 SA S10 HA"
KONTRA_HAND = "HJ DJ DA D10 DK D9 CK C9 SK S9 HK H9"
SCRIPT = [
    "CQ CQ HJ HJ",
    "SQ SQ DJ DJ",
    "HQ HQ DA DA",
    "DQ DQ D10 D10",
    "CJ CJ DK DK",
    "SJ SJ D9 D9",
    "CA CA C9 C9",
    "C10 C10 CK CK",
    "SA SA S9 S9",
    "S10 S10 SK SK",
    "HA HA H9 H9",
    "H10 H10 HK HK",
]
# The same idea without nines (10 cards each, 10 tricks).
RE_HAND_40 = "H10 CQ SQ HQ DQ CJ SJ CA SA HA"
KONTRA_HAND_40 = "HJ DJ DA D10 DK C10 CK S10 SK HK"
SCRIPT_40 = [
    "CQ CQ HJ HJ",
    "SQ SQ DJ DJ",
    "HQ HQ DA DA",
    "DQ DQ D10 D10",
    "CJ CJ DK DK",
    "SJ SJ C10 C10",
    "CA CA CK CK",
    "SA SA S10 S10",
    "HA HA HK HK",
    "H10 H10 SK SK",
]
LEVELS = ("keine90", "keine60", "keine30", "schwarz")
ALL_ABSAGEN = set(LEVELS)


def table(**options: Any) -> DoppelkopfState:
    if options.get("nines") is False:
        return healthy(deal(game(**options), RE_HAND_40, RE_HAND_40, KONTRA_HAND_40, KONTRA_HAND_40))
    return healthy(deal(game(**options), RE_HAND, RE_HAND, KONTRA_HAND, KONTRA_HAND))


def before_trick(s: DoppelkopfState, number: int, script: list[str] = SCRIPT, cards_in_trick: str = "") -> DoppelkopfState:
    """Play the script up to trick ``number`` (1-based), then the given cards of that trick."""
    played = len(s.observation(0).tricks) if s.phase_name == "play" else 0
    for trick in script[played : number - 1]:
        play(s, trick)
    if cards_in_trick:
        play(s, cards_in_trick)
    return s


@pytest.mark.parametrize(
    ("level", "lower", "required"),
    [
        ("re", (), 11),
        ("keine90", ("re",), 10),
        ("keine60", ("re", "keine90"), 9),
        ("keine30", ("re", "keine90", "keine60"), 8),
        ("schwarz", ("re", "keine90", "keine60", "keine30"), 7),
    ],
)
def test_deadlines_in_cards_in_hand(level: str, lower: tuple[str, ...], required: int) -> None:
    # §5.2 a call needs at least 11/10/9/8/7 cards in the caller's hand (TSR 6.2.2, 6.3.4)
    s = table()
    act(s, *[f"announce {word}" for word in lower])
    before_trick(s, 13 - required)
    assert len(s.observation(0).hand) == required
    assert level in legal_calls(s)
    play(s, SCRIPT[12 - required])
    assert len(s.observation(0).hand) == required - 1
    assert level not in legal_calls(s)
    with pytest.raises(IllegalActionError, match=r"§5.2"):
        s.apply(f"announce {level}")


@pytest.mark.parametrize(
    ("level", "lower", "required"),
    [
        ("re", (), 9),
        ("keine90", ("re",), 8),
        ("keine60", ("re", "keine90"), 7),
        ("keine30", ("re", "keine90", "keine60"), 6),
        ("schwarz", ("re", "keine90", "keine60", "keine30"), 5),
    ],
)
def test_deadlines_without_nines_two_fewer(level: str, lower: tuple[str, ...], required: int) -> None:
    # §5.2 / A-6 without nines every count drops by 2: 9/8/7/6/5 cards
    s = table(nines=False)
    act(s, *[f"announce {word}" for word in lower])
    before_trick(s, 11 - required, SCRIPT_40)
    assert len(s.observation(0).hand) == required
    assert level in legal_calls(s)
    play(s, SCRIPT_40[10 - required])
    assert level not in legal_calls(s)


def test_deadline_counts_own_hand_within_a_trick() -> None:
    # §5.2 later players in a trick keep the window open longer: each counts its own hand
    s = before_trick(table(), 2, cards_in_trick="SQ SQ")
    assert s.current_player() == 2
    assert "kontra" in legal_calls(s)  # seat 2 still holds 11 cards
    play(s, "DJ DJ")
    assert legal_calls(s) == set()  # seat 0 now holds 10 cards


def test_calls_belong_to_own_party() -> None:
    # §5.1 Re is said by the Re party, Kontra by the Kontra party
    s = table()
    assert legal_calls(s) == {"re"} | ALL_ABSAGEN
    with pytest.raises(IllegalActionError, match=r"§5.1"):
        s.apply("announce kontra")
    s = before_trick(table(), 1, cards_in_trick="CQ CQ")
    assert legal_calls(s) == {"kontra"} | ALL_ABSAGEN


def test_announcing_keeps_the_turn_and_is_public() -> None:
    # §5.6 model A: the player to move may make calls before the card; calls are public
    s = table()
    act(s, "announce re", "announce keine90")
    assert s.current_player() == 0
    assert public(s, 3)["calls"] == {"re": 2, "kontra": 0}
    assert public(s, 3)["parties"] == {"0": "re"}


def test_skip_levels_while_every_skipped_level_is_legal() -> None:
    # §5.2 a party may jump levels if every skipped level is still legal (TSR 6.4.3)
    s = table()
    s.apply("announce keine60")
    assert public(s)["calls"]["re"] == 3  # Re, keine 90 and keine 60
    s = before_trick(table(), 2)
    assert "keine90" in legal_calls(s)  # 11 cards: Re's deadline still open
    s.apply("announce keine90")
    assert public(s)["calls"]["re"] == 2


def test_skip_levels_blocked_by_a_passed_deadline() -> None:
    # §5.2 a missed level cannot be recovered by a higher call (TSR 6.4.3)
    s = before_trick(table(), 3)
    assert legal_calls(s) == set()  # 10 cards and no Re yet: keine 90 would imply the missed Re
    with pytest.raises(IllegalActionError, match=r"§5.2"):
        s.apply("announce keine90")
    s = table()
    s.apply("announce re")
    before_trick(s, 4)
    assert legal_calls(s) == set()  # 9 cards: keine 60 would imply the missed keine 90
    s = table()
    s.apply("announce re")
    before_trick(s, 3)
    assert legal_calls(s) == ALL_ABSAGEN  # 10 cards: keine 90 still open, so keine 60 may skip it


def test_no_skipping_when_option_off() -> None:
    # §8.4 skip_levels=false: one level at a time
    s = table(skip_levels=False)
    assert legal_calls(s) == {"re"}
    s.apply("announce re")
    assert legal_calls(s) == {"keine90"}
    with pytest.raises(IllegalActionError, match="skip"):
        s.apply("announce keine60")


def test_partner_cannot_repeat_a_call() -> None:
    # §5.1 no repeats: the partner may not say Re again (TSR 6.4.7, A-3)
    s = table()
    act(s, "announce re", "play CQ")
    assert s.current_player() == 1
    assert legal_calls(s) == ALL_ABSAGEN
    with pytest.raises(IllegalActionError, match=r"6.4.7"):
        s.apply("announce re")
    s.apply("announce keine90")  # the partner may raise
    assert public(s)["calls"]["re"] == 2


def test_reply_one_card_after_the_opponents_requirement() -> None:
    # §5.3 a reply to Re (required 11) is allowed while the replier holds 10 cards (TSR 6.4.4)
    s = table()
    s.apply("announce re")
    before_trick(s, 3, cards_in_trick="HQ HQ")
    assert s.current_player() == 2
    assert legal_calls(s) == {"kontra"}  # only Re/Kontra is a reply
    play(s, "DA DA")
    before_trick(s, 4, cards_in_trick="DQ DQ")
    assert legal_calls(s) == set()


def test_reply_measured_against_the_highest_call() -> None:
    # §5.3 / A-4 after Re and keine 90 (required 10) the reply is open while 9 cards are held
    s = table()
    act(s, "announce re", "announce keine90")
    before_trick(s, 4, cards_in_trick="DQ DQ")
    assert legal_calls(s) == {"kontra"}
    play(s, "D10 D10")
    before_trick(s, 5, cards_in_trick="CJ CJ")
    assert legal_calls(s) == set()


def test_late_reply_forbids_absagen() -> None:
    # §5.3 after a late reply the replying party may make no absagen (TSR 6.4.4)
    s = table()
    s.apply("announce re")
    before_trick(s, 3, cards_in_trick="HQ HQ")
    s.apply("announce kontra")
    assert legal_calls(s) == set()  # keine 90 needs 10 cards and seat 2 holds 10, but the reply was late
    with pytest.raises(IllegalActionError, match="late reply"):
        s.apply("announce keine90")
    play(s, "DA")
    assert legal_calls(s) == set()  # seat 3, the partner, is bound as well


def test_timely_reply_keeps_absagen() -> None:
    # §5.3 a reply inside the normal window keeps the normal absage deadlines
    s = table()
    s.apply("announce re")
    before_trick(s, 2, cards_in_trick="SQ SQ")
    s.apply("announce kontra")
    play(s, "DJ DJ")
    before_trick(s, 3, cards_in_trick="HQ HQ")
    assert legal_calls(s) == ALL_ABSAGEN


def test_reply_option_off() -> None:
    # §8.4 reply_allowed=false: no reply after the own deadline
    s = table(reply_allowed=False)
    s.apply("announce re")
    before_trick(s, 3, cards_in_trick="HQ HQ")
    assert legal_calls(s) == set()


def test_absage_after_opponent_absage_off() -> None:
    # §5.5 [VAR] absage_after_opponent_absage=false: once one side made an absage the other makes none
    s = table(absage_after_opponent_absage=False)
    act(s, "announce re", "announce keine90")
    play(s, "CQ CQ")
    assert legal_calls(s) == {"kontra"}
    with pytest.raises(IllegalActionError, match=r"§5.5"):
        s.apply("announce keine90")
    s = table()
    act(s, "announce re", "announce keine90")
    play(s, "CQ CQ")
    assert legal_calls(s) == {"kontra"} | ALL_ABSAGEN


def test_absage_after_opponent_absage_off_binds_re_too() -> None:
    # §5.5 [VAR] the rule holds for either side: Kontra's absage shuts Re's
    s = table(absage_after_opponent_absage=False)
    play(s, "CQ CQ")
    act(s, "announce kontra", "announce keine90")
    play(s, "HJ HJ")
    assert legal_calls(s) == {"re"}


def test_announcements_off() -> None:
    # §8.4 announcements=false: no calls at all
    s = table(announcements=False)
    assert legal_calls(s) == set()
    with pytest.raises(IllegalActionError, match=r"§8.4"):
        s.apply("announce re")


def test_soloist_calls_re_and_opponents_kontra() -> None:
    # §4.4 / A-19 in a solo the soloist is Re; the three opponents call Kontra
    s = deal(game(), RE_HAND, RE_HAND, KONTRA_HAND, KONTRA_HAND)
    solo(s, 2, "buben")
    assert s.current_player() == 2
    assert legal_calls(s) == {"re"} | ALL_ABSAGEN
    s.apply("announce re")
    play(s, "HJ")
    assert legal_calls(s) == {"kontra"} | ALL_ABSAGEN


def test_silent_wedding_call_keeps_the_secret() -> None:
    # §4.3 / A-21 a silent-wedding soloist calls Re with normal deadlines; the table still sees a normal game
    s = healthy(deal(game(), "H10 CQ CQ HQ DQ CJ SJ CA C10 SA S10 HA", "H10 SQ SQ HQ DQ CJ SJ CA C10 SA S10 HA", KONTRA_HAND))
    assert legal_calls(s) == {"re"} | ALL_ABSAGEN
    s.apply("announce re")
    view = public(s, 2)
    assert (view["kind"], view["calls"]["re"], view["parties"]) == ("normal", 1, {"0": "re"})
