"""Scenario tests for trick play: following suit, trick winners, Dullen, Überstechen, Schweine.

Dealer 3 throughout, so seat 0 leads a normal game.
"""

from __future__ import annotations

from typing import Any

import pytest

from stich.errors import IllegalActionError
from stich.games.doppelkopf.state import DoppelkopfState

from .helpers import deal, fill, game, healthy, legal_plays, play, public, solo, winner_of_last_trick
from .helpers import deal_hands as deal_from

# Seats 0 and 1 hold one queen of clubs each (Re); every trick of SCRIPT below is won by the leader.
TWIN_RE = "H10 CQ SQ HQ DQ CJ SJ CA C10 SA S10 HA"
TWIN_KONTRA = "HJ DJ DA D10 DK D9 CK C9 SK S9 HK H9"
# Twelve tricks that are legal in the deal above, each led and won by seat 0; the last one holds both Dullen.
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

# Deal A: seats 0/1 alike, seats 2/3 alike.
A_HIGH = "H10 CQ SQ HQ DQ CJ CA C10 CK SA S10 HA"
A_LOW = "SJ HJ DJ DA D10 DK D9 C9 SK S9 HK H9"
# Deal B: seat 0 holds every club, seats 1-3 hold none.
B0 = "CA CA C10 C10 CK CK C9 C9 SA SA HA HA"
B1 = "HQ HQ DJ DJ D9 D9 S10 S10 SK SK S9 S9"
B2 = "H10 H10 CQ CQ SQ SQ DK DK HK HK H9 H9"


def normal_a() -> DoppelkopfState:
    return healthy(deal(game(), A_HIGH, A_HIGH, A_LOW, A_LOW))


def normal_b(**options: Any) -> DoppelkopfState:
    return healthy(deal(game(**options), B0, B1, B2))


def twin(**options: Any) -> DoppelkopfState:
    return deal(game(**options), TWIN_RE, TWIN_RE, TWIN_KONTRA, TWIN_KONTRA)


# ----------------------------------------------------------------------------- following


def test_plain_suit_led_holder_must_follow() -> None:
    # §6.1 a plain suit led: a player holding that suit must play it (TSR 5.2)
    s = play(normal_a(), "CA")
    assert legal_plays(s) == {"CA", "C10", "CK"}
    with pytest.raises(IllegalActionError, match=r"§6.1"):
        s.apply("play SA")


def test_heart_ten_does_not_follow_hearts_in_normal_game() -> None:
    # §6.1 the H10 is a trump in a normal game, so it cannot follow a heart lead (TSR 2.3.3, 5.2)
    s = play(normal_a(), "HA")
    assert legal_plays(s) == {"HA"}
    with pytest.raises(IllegalActionError, match=r"§6.1"):
        s.apply("play H10")
    play(s, "HA")
    assert legal_plays(s) == {"HK", "H9"}


def test_heart_ten_without_plain_hearts_is_free_on_heart_lead() -> None:
    # §6.1 a player without plain hearts may play any card on a heart lead, the H10 included
    hands = fill({0: "HA", 1: "H10 SA"}, avoid={1: ["HA", "HK", "H9"]})
    s = healthy(deal_from(game(), hands))
    play(s, "HA")
    held = {c.text for c in s.observation(1).hand}
    assert "H10" in held
    assert legal_plays(s) == held
    play(s, "SA")  # a plain discard: no duty to ruff
    assert s.current_player() == 2


def test_heart_lead_holder_of_plain_hearts_and_dullen_must_play_plain_heart() -> None:
    # §6.1 holding plain hearts and Dullen, a heart lead must be followed with a plain heart
    s = play(normal_b(), "HA S9")
    assert legal_plays(s) == {"HK", "H9"}


def test_trump_led_holder_must_play_trump() -> None:
    # §6.1 trumps led: a player holding a trump must play one (TSR 5.2)
    s = play(normal_a(), "CJ")
    assert legal_plays(s) == {"H10", "CQ", "SQ", "HQ", "DQ", "CJ"}
    play(s, "H10")
    assert legal_plays(s) == {"SJ", "HJ", "DJ", "DA", "D10", "DK", "D9"}
    with pytest.raises(IllegalActionError, match=r"§6.1"):
        s.apply("play C9")


def test_no_duty_to_beat_or_to_ruff() -> None:
    # §6.1 there is no duty to beat a trick or to ruff (TSR 5.2.3)
    s = play(normal_a(), "CJ")
    assert "CJ" in legal_plays(s)  # an equal card that cannot win is allowed
    s = play(normal_a(), "DQ")
    assert legal_plays(s) == {"H10", "CQ", "SQ", "HQ", "DQ", "CJ"}  # CJ goes under DQ, still allowed
    s = play(normal_b(), "CA")
    assert legal_plays(s) == {"HQ", "DJ", "D9", "S10", "SK", "S9"}  # void in clubs: discarding is allowed


def test_ueberstechen_trump_lead_must_beat() -> None:
    # §6.1 [VAR] Überstechen: on a trump lead a player must beat the trick when able
    s = healthy(deal(game(must_overtrump=True), A_HIGH, A_HIGH, A_LOW, A_LOW))
    play(s, "CJ")
    assert legal_plays(s) == {"H10", "CQ", "SQ", "HQ", "DQ"}
    with pytest.raises(IllegalActionError, match="Überstechen"):
        s.apply("play CJ")
    play(s, "HQ")
    # seat 2 holds no trump above HQ: any trump may be played
    assert legal_plays(s) == {"SJ", "HJ", "DJ", "DA", "D10", "DK", "D9"}


def test_ueberstechen_following_plain_suit_must_beat() -> None:
    # §6.1 [VAR] Überstechen: following a plain suit, a player must beat the trick when able
    s = healthy(deal(game(must_overtrump=True), A_HIGH, A_HIGH, A_LOW, A_LOW))
    play(s, "CK")
    assert legal_plays(s) == {"CA", "C10"}


def test_ueberstechen_void_may_discard_but_a_ruff_must_beat() -> None:
    # §6.1 [VAR] Überstechen: a void player may discard, but a ruff must beat the trick when able (SEED "Overstitch")
    s = normal_b(must_overtrump=True)
    play(s, "CA")
    assert legal_plays(s) == {"HQ", "DJ", "D9", "S10", "SK", "S9"}
    play(s, "DJ")
    # seat 2: discards HK/H9 allowed; of the trumps only those above DJ
    assert legal_plays(s) == {"H10", "CQ", "SQ", "HK", "H9"}
    with pytest.raises(IllegalActionError, match="Überstechen"):
        s.apply("play DK")


def test_ueberstechen_off_lower_trump_allowed() -> None:
    # §6.1 without Überstechen the same ruff may go under the trick
    s = normal_b()
    play(s, "CA DJ")
    assert legal_plays(s) == {"H10", "CQ", "SQ", "DK", "HK", "H9"}


# ----------------------------------------------------------------------------- winners


def test_highest_trump_wins() -> None:
    # §6.2 a trick with trumps goes to the highest trump; the H10 tops the queens (TSR 5.3.3, 2.3.3)
    s = play(normal_a(), "CQ H10 DA D9")
    assert winner_of_last_trick(s) == 1


def test_trump_beats_plain_ace() -> None:
    # §6.2 any trump beats every plain card (TSR 2.3.2)
    s = play(normal_b(), "CA D9 HK DA")
    assert winner_of_last_trick(s) == 3


def test_highest_card_of_led_suit_wins() -> None:
    # §6.2 without trumps the highest card of the suit led wins; the ten ranks under the ace (TSR 5.3.3)
    s = play(normal_a(), "CK C10 C9 C9")
    assert winner_of_last_trick(s) == 1


def test_discard_of_another_suit_never_wins() -> None:
    # §6.2 a discarded plain card of another suit cannot win, however high
    hands = fill({0: "C9", 1: "SA", 2: "HA", 3: "CK"}, avoid={1: ["CA", "C10", "CK", "C9"], 2: ["CA", "C10", "CK", "C9"]})
    s = healthy(deal_from(game(), hands))
    play(s, "C9 SA HA CK")
    assert winner_of_last_trick(s) == 3


def test_equal_cards_first_wins() -> None:
    # §1.2 of two equal cards in one trick the one played first wins (TSR 5.3.3)
    s = play(normal_a(), "CA CA C9 C9")
    assert winner_of_last_trick(s) == 0


def test_equal_dullen_first_wins_by_default() -> None:
    # §1.2 the first-wins rule also holds for the two H10 (TSR 5.3.3, last paragraph)
    s = play(normal_a(), "H10 H10 SJ SJ")
    assert winner_of_last_trick(s) == 0


def test_second_dulle_beats_first() -> None:
    # §1.2 [VAR] second_dulle_beats_first: the later H10 wins
    s = healthy(deal(game(second_dulle_beats_first=True), A_HIGH, A_HIGH, A_LOW, A_LOW))
    play(s, "H10 H10 SJ SJ")
    assert winner_of_last_trick(s) == 1


def test_second_dulle_rule_only_for_dullen() -> None:
    # §1.2 [VAR] every other equal pair is still won by the first copy
    s = healthy(deal(game(second_dulle_beats_first=True), A_HIGH, A_HIGH, A_LOW, A_LOW))
    play(s, "CQ CQ SJ SJ")
    assert winner_of_last_trick(s) == 0


@pytest.mark.parametrize(("options", "winner"), [({}, 0), ({"second_dulle_beats_first": True}, 1)])
def test_second_dulle_in_last_trick(options: dict[str, bool], winner: int) -> None:
    # §1.2 [VAR] the second Dulle also beats the first in the last trick unless except_last_trick is set
    s = healthy(twin(**options))
    for trick in SCRIPT:
        play(s, trick)
    assert winner_of_last_trick(s) == winner
    assert s.is_terminal()


def test_second_dulle_except_last_trick() -> None:
    # §1.2 [VAR] second_dulle_except_last_trick: in the final trick the first Dulle wins again
    s = healthy(twin(second_dulle_beats_first=True, second_dulle_except_last_trick=True))
    play(s, "H10 H10 HJ HJ")
    assert winner_of_last_trick(s) == 1  # not the last trick: the second wins
    s = healthy(twin(second_dulle_beats_first=True, second_dulle_except_last_trick=True))
    for trick in SCRIPT:
        play(s, trick)
    assert winner_of_last_trick(s) == 0


@pytest.mark.parametrize(("in_solo", "winner"), [(False, 0), (True, 1)])
def test_second_dulle_not_in_solos(in_solo: bool, winner: int) -> None:
    # §1.2 [VAR] the second-Dulle rule is suspended in solos unless second_dulle_in_solo
    s = twin(second_dulle_beats_first=True, second_dulle_in_solo=in_solo)
    solo(s, 0, "karo")
    play(s, "H10 H10 HJ HJ")
    assert winner_of_last_trick(s) == winner


@pytest.mark.parametrize(("in_solo", "winner"), [(False, 0), (True, 1)])
def test_second_dulle_silent_wedding_counts_as_solo(in_solo: bool, winner: int) -> None:
    # §1.2 [VAR] + OPEN-POINTS: a silent wedding is a solo for the second-Dulle rule
    g = game(second_dulle_beats_first=True, second_dulle_in_solo=in_solo)
    s = healthy(deal(g, "H10 CQ CQ HQ DQ CJ SJ CA C10 SA S10 HA", "H10 SQ SQ HQ DQ CJ SJ CA C10 SA S10 HA", TWIN_KONTRA))
    assert s.kind == "stille_hochzeit"
    play(s, "H10 H10 HJ HJ")
    assert winner_of_last_trick(s) == winner


def test_dullen_off_heart_ten_is_a_plain_heart() -> None:
    # §1.3 [VAR] dullen=false: the H10 is an ordinary heart ranking A 10 K 9 and follows hearts
    g = game(dullen=False)
    s = healthy(deal(g, A_HIGH, A_HIGH, A_LOW, A_LOW))
    play(s, "CQ")
    assert "H10" not in legal_plays(s)  # not a trump any more
    s = healthy(deal(g, A_HIGH, A_HIGH, A_LOW, A_LOW))
    play(s, "HA")
    assert legal_plays(s) == {"HA", "H10"}
    play(s, "H10 HK H9")
    assert winner_of_last_trick(s) == 0
    s = healthy(deal(g, A_HIGH, A_HIGH, A_LOW, A_LOW))
    play(s, "H10 HA HK H9")
    assert winner_of_last_trick(s) == 1
    s = healthy(deal(g, A_HIGH, A_HIGH, A_LOW, A_LOW))
    play(s, "CA C10 C9 C9 HA H10 HK H9")  # trick 2: H10 above HK, under HA
    assert winner_of_last_trick(s) == 0
    play(s, "H10")
    assert "HA" in legal_plays(s)
    play(s, "HA H9 HK")
    assert winner_of_last_trick(s) == 1


# ----------------------------------------------------------------------------- Schweine

S_HIGH = A_HIGH
S_PIGS = "SJ HJ DJ DA DA D10 D10 C9 SK S9 HK H9"  # both diamond aces
S_NINES = "SJ HJ DJ DK DK D9 D9 C9 SK S9 HK H9"  # both diamond nines


def test_schweine_both_aces_top_trumps() -> None:
    # §1.3 [VAR] schweine=both: both DA in one hand become the highest trumps, above the H10
    s = healthy(deal(game(schweine="both"), S_HIGH, S_HIGH, S_PIGS, S_NINES))
    assert public(s)["schweine"] == 2
    play(s, "H10 CQ DA D9")
    assert winner_of_last_trick(s) == 2


def test_schweine_off_by_default() -> None:
    # §8.2 default: no Schweine, the H10 beats the DA
    s = healthy(deal(game(), S_HIGH, S_HIGH, S_PIGS, S_NINES))
    assert public(s)["schweine"] is None
    play(s, "H10 CQ DA D9")
    assert winner_of_last_trick(s) == 0


def test_schweine_need_both_aces_in_one_hand() -> None:
    # §1.3 [VAR] Schweine exist only when one hand holds both DA
    s = healthy(deal(game(schweine="both"), A_HIGH, A_HIGH, A_LOW, A_LOW))
    assert public(s)["schweine"] is None
    play(s, "H10 CQ DA D9")
    assert winner_of_last_trick(s) == 0


def test_schweine_not_in_solos() -> None:
    # §1.3 [VAR] Schweine belong to the normal game: in a declared solo the DA ranks as usual
    s = deal(game(schweine="both"), S_HIGH, S_HIGH, S_PIGS, S_NINES)
    solo(s, 0, "karo")
    assert public(s)["schweine"] is None
    play(s, "H10 CQ DA D9")
    assert winner_of_last_trick(s) == 0


def test_superschweine_above_schweine() -> None:
    # §1.3 [VAR] Superschweine: both D9 in one hand, while Schweine exist, rank above the Schweine
    s = healthy(deal(game(schweine="both", superschweine=True), S_HIGH, S_HIGH, S_PIGS, S_NINES))
    assert public(s)["superschweine"] == 3
    play(s, "H10 CQ DA D9")
    assert winner_of_last_trick(s) == 3


def test_superschweine_need_schweine() -> None:
    # §1.3 [VAR] without Schweine both D9 stay the lowest trumps
    hands = fill({0: "D10", 1: "DA", 2: "DK", 3: "D9 D9"}, avoid={1: ["DA"]})
    s = healthy(deal_from(game(schweine="both", superschweine=True), hands))
    assert public(s)["superschweine"] is None
    play(s, "D10 DA DK D9")
    assert winner_of_last_trick(s) == 1


def test_superschweine_without_nines_are_the_diamond_kings() -> None:
    # §1.3 [VAR] without nines the Superschweine are the two DK (FD)
    hands = fill({0: "H10", 1: "CQ", 2: "DA DA", 3: "DK DK"}, nines=False, avoid={0: ["CQ"]})
    s = healthy(deal_from(game(nines=False, schweine="both", superschweine=True), hands))
    assert (public(s)["schweine"], public(s)["superschweine"]) == (2, 3)
    play(s, "H10 CQ DA DK")
    assert winner_of_last_trick(s) == 3
