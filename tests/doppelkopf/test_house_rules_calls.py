"""Scenario tests for the announcement house rules of issue 29: ``call_min_cards`` and ``call_last_min_cards``
(dossier §5.2, §5.5, §8.4).

Same table as test_rules_announcements: seats 0 and 1 Re, 2 and 3 Kontra, seat 0
leads and wins every trick, so before trick i+1 every player holds 12 - i cards.
"""

from __future__ import annotations

import pytest

from stich.errors import IllegalActionError, OptionError
from stich.games.doppelkopf.state import DoppelkopfState

from .helpers import act, deal, deal_hands, fill, game, healthy, legal, legal_calls, play, public, solo
from .test_rules_announcements import SCRIPT, SCRIPT_40, before_trick, table
from .test_rules_armut import P0, P1, P2, P3

FREEDOKO = "11/9/6/3/3"


@pytest.mark.parametrize(
    ("level", "lower", "required"),
    [
        ("re", (), 11),
        ("keine90", ("re",), 9),
        ("keine60", ("re", "keine90"), 6),
        ("keine30", ("re", "keine90", "keine60"), 3),
        ("schwarz", ("re", "keine90", "keine60", "keine30"), 3),
    ],
)
def test_freedoko_deadlines_11_9_6_3_3(level: str, lower: tuple[str, ...], required: int) -> None:
    # §5.2 / §8.4 call_min_cards: FreeDoko's standard deadlines 11/9/6/3/3 are playable
    s = table(call_min_cards=FREEDOKO)
    act(s, *[f"announce {word}" for word in lower])
    before_trick(s, 13 - required)
    assert len(s.observation(0).hand) == required
    assert level in legal_calls(s)
    play(s, SCRIPT[12 - required])
    assert level not in legal_calls(s)
    with pytest.raises(IllegalActionError, match=r"§5.2"):
        s.apply(f"announce {level}")


def test_call_min_cards_shift_by_two_without_nines() -> None:
    # §5.2 / A-6 the configured counts drop by 2 without nines: keine 60 at 6 - 2 = 4 cards
    s = table(nines=False, call_min_cards=FREEDOKO)
    act(s, "announce re", "announce keine90")
    before_trick(s, 7, SCRIPT_40)
    assert len(s.observation(0).hand) == 4 and "keine60" in legal_calls(s)
    play(s, SCRIPT_40[6])
    assert "keine60" not in legal_calls(s)


def test_reply_follows_the_configured_deadline() -> None:
    # §5.3 a reply is allowed down to one card fewer than the opponent's call required (here keine 60 at 6 -> 5)
    s = table(call_min_cards=FREEDOKO)
    act(s, "announce re", "announce keine90", "announce keine60")
    before_trick(s, 8, cards_in_trick="C10 C10")
    assert s.current_player() == 2
    assert len(s.observation(2).hand) == 5 and legal_calls(s) == {"kontra"}
    play(s, "CK CK")
    before_trick(s, 9, cards_in_trick="SA SA")
    assert len(s.observation(2).hand) == 4 and legal_calls(s) == set()


def test_last_call_limit_stops_every_call() -> None:
    # §5.5 [VAR] call_last_min_cards=3: no call with fewer than 3 cards, not even a reply to schwarz
    s = table(call_min_cards=FREEDOKO, call_last_min_cards=3)
    act(s, "announce re", "announce keine90", "announce keine60", "announce keine30", "announce schwarz")
    before_trick(s, 10, cards_in_trick="S10 S10")
    assert len(s.observation(2).hand) == 3 and legal_calls(s) == {"kontra"}
    play(s, "SK SK")
    before_trick(s, 11, cards_in_trick="HA HA")
    assert len(s.observation(2).hand) == 2 and legal_calls(s) == set()
    with pytest.raises(IllegalActionError, match="call_last_min_cards"):
        s.apply("announce kontra")
    without_limit = table(call_min_cards=FREEDOKO)
    act(without_limit, "announce re", "announce keine90", "announce keine60", "announce keine30", "announce schwarz")
    before_trick(without_limit, 11, cards_in_trick="HA HA")
    assert legal_calls(without_limit) == {"kontra"}  # 3 - 1 = 2 cards suffice for the reply


def test_defaults_keep_the_ddv_deadlines() -> None:
    # §8.4 the defaults are the TSR's 11/10/9/8/7 and no last-call limit
    opts = game().options
    assert (opts.call_min_cards, opts.call_deadlines, opts.call_last_min_cards) == ("11/10/9/8/7", (0, 11, 10, 9, 8, 7), 0)


@pytest.mark.parametrize("bad", ["11/10/9/8", "11/10/x/8/7", "9/10/9/8/7", "13/10/9/8/7", "11/10/9/8/0"])
def test_malformed_call_min_cards_named(bad: str) -> None:
    # a malformed option names itself
    with pytest.raises(OptionError, match="call_min_cards"):
        game(call_min_cards=bad)


# ------------------------------------------------------------------ compulsory call after a first trick of 30 eyes

ARMUT_HANDS = (P0, P1, P2, P3)

RE_HAND_30 = "CQ SQ HQ DQ CJ SJ CA C10 CK SA S10 HA"
VOID_HEARTS = "H10 H10 DA DA D10 D10 HJ HJ C9 S9 DJ SK"
LOW_30 = "DJ DK DK D9 D9 C9 S9 SK HK HK H9 H9"


def thirty_eye_trick(**options: object) -> DoppelkopfState:
    s = healthy(deal(game(**options), RE_HAND_30, RE_HAND_30, VOID_HEARTS, LOW_30))
    play(s, "HA HA D10 HK")  # 11 + 11 + 10 + 4 = 36 eyes, seat 2 (Kontra) ruffs and wins
    return s


def test_compulsory_call_after_a_first_trick_of_30_eyes() -> None:
    # §5.5 [VAR] compulsory_call_first_trick_30 (FreeDoko): the winner must say his party's call before his next card
    s = thirty_eye_trick(compulsory_call_first_trick_30=True)
    assert s.current_player() == 2 and legal(s) == {"announce kontra"}
    with pytest.raises(IllegalActionError, match=r"30 eyes.*§5.5"):
        s.apply("play DA")
    act(s, "announce kontra")
    assert "play DA" in legal(s)
    assert public(s)["calls"]["kontra"] == 1


def test_no_compulsory_call_by_default_or_below_30_eyes() -> None:
    # §8.4 default off; with the option a first trick under 30 eyes obliges nobody
    s = thirty_eye_trick()
    assert "play DA" in legal(s)
    s = healthy(deal(game(compulsory_call_first_trick_30=True), RE_HAND_30, RE_HAND_30, VOID_HEARTS, LOW_30))
    play(s, "CA CK C9 C9")  # 11 + 4 = 15 eyes
    assert "play CQ" in legal(s)


def test_compulsory_call_not_when_the_party_has_called() -> None:
    # §5.5 [VAR]: a party that has already said its call owes nothing more
    s = healthy(deal(game(compulsory_call_first_trick_30=True), RE_HAND_30, RE_HAND_30, VOID_HEARTS, LOW_30))
    play(s, "HA HA")
    act(s, "announce kontra")
    play(s, "D10 HK")
    assert "play DA" in legal(s)


def test_compulsory_call_only_in_a_normal_game_issue_40_reproduction() -> None:
    # §5.5 [VAR] FreeDoko applies the duty call only in a normal game: seed 1, dealer 0, seat 1 plays a
    # Kreuz solo and wins a first trick of SA SA SK S10 (32 eyes); he owes no call (issue 40)
    s = game(compulsory_call_first_trick_30=True).new_state(seed=1, dealer=0)
    solo(s, 1, "kreuz")
    play(s, "SA SA SK S10")
    assert s.current_player() == 1 and public(s)["kind"] == "solo"
    assert "play CJ" in legal(s) and "announce keine90" in legal(s)


def test_the_compulsory_call_holds_in_a_silent_wedding_as_in_the_normal_game_it_looks_like() -> None:
    # §4.3, §5.5 [VAR], decision 0026: unlike FreeDoko, a silent wedding is not exempt, since the other
    # seats cannot know it: the Kontra winner's duty (his legal actions) must be the same as in a normal game
    wedding = fill({0: "CQ CQ DA SQ SQ HQ HQ CJ CJ SJ SJ HJ", 1: "D10", 2: "DA", 3: "D10"})
    s = healthy(deal_hands(game(compulsory_call_first_trick_30=True), wedding))
    assert s.kind == "stille_hochzeit"
    play(s, "HJ D10 DA D10")  # 33 eyes, won by the Hochzeiter's HJ: he must say Re, as in a normal game
    assert s.current_player() == 0 and legal(s) == {"announce re"}


def test_a_silent_wedding_offers_a_kontra_winner_what_a_normal_game_does() -> None:
    # The swap test of the duty call: seat 0's second CQ swapped for seat 3's DJ turns the silent wedding
    # into a normal game; seat 2, who wins the 30-eye first trick in both, is offered the same actions
    wedding = {0: "CQ CQ DA SQ SQ HQ HQ CJ CJ SJ SJ DK", 1: "D10 HJ", 2: "H10", 3: "D10"}
    normal = {**wedding, 0: wedding[0].replace("CQ CQ", "CQ HJ"), 1: "D10 CQ"}
    views = []
    for hands in (wedding, normal):
        s = healthy(deal_hands(game(compulsory_call_first_trick_30=True), fill(hands)))
        play(s, "DA D10 H10 D10")  # seat 2's H10 (the Dulle) wins 11+10+10+10 = 41 eyes
        assert s.current_player() == 2
        views.append((s.observation(2).hand, legal(s)))
    assert views[0] == views[1]
    assert views[0][1] == {"announce kontra"}


def test_no_compulsory_call_in_an_armut() -> None:
    # §4.5, §5.5 [VAR]: an Armut is not FreeDoko's normal game either
    s = deal(game(armut=True, compulsory_call_first_trick_30=True), *ARMUT_HANDS)
    act(s, "gesund", "vorbehalt", "gesund", "gesund", "armut", "discard HJ", "discard DA", "discard SK")
    act(s, "decline", "accept", "discard D10", "discard D10", "discard DK")
    assert public(s)["kind"] == "armut"
    play(s, "H10 D10 DA DA")  # 42 eyes for seat 0 (Kontra)
    assert s.current_player() == 0 and "play H10" in legal(s)


def test_a_refused_absage_under_the_compulsory_call_names_the_call_not_a_deadline() -> None:
    # §5.5 [VAR]: the winner holds 11 cards, so "too late" would be untrue; the duty call is the reason (issue 40)
    s = thirty_eye_trick(compulsory_call_first_trick_30=True)
    assert len(s.observation(2).hand) == 11
    with pytest.raises(IllegalActionError) as refused:
        s.apply("announce keine90")
    assert "too late" not in str(refused.value)
    assert "Kontra first" in str(refused.value) and "§5.5" in str(refused.value)
