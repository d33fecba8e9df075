"""Scenario tests for the Schweine variants of issue 29 (dossier §1.3, §8.2, A-24).

Seats 0 and 1 are Re (one queen of clubs each), dealer 3, so seat 0 leads.
Seat 2 holds both diamond aces and is void in hearts.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from stich.core.records import deal_record, replay_deal
from stich.errors import IllegalActionError, OptionError
from stich.games.doppelkopf.state import DoppelkopfState

from .helpers import act, deal, fill, game, healthy, legal, play, play_out, public, snapshot, solo, winner_of_last_trick
from .helpers import deal_hands as deal_from
from .test_rules_wedding import TRUMP_OWN, wedding

RE_HAND = "CQ SQ HQ DQ CJ SJ CA C10 CK SA S10 HA"
PIGS = "H10 H10 DA DA D10 D10 HJ HJ C9 S9 DJ SK"
LOW = "DJ DK DK D9 D9 C9 S9 SK HK HK H9 H9"


def table(**options: Any) -> DoppelkopfState:
    return healthy(deal(game(**options), RE_HAND, RE_HAND, PIGS, LOW))


def fox_tricks(s: DoppelkopfState) -> list[int]:
    return [sp["trick"] for sp in play_out(s).result().breakdown["specials"] if sp["name"] == "fuchs_gefangen"]


def test_first_played_only_the_first_ace_is_a_schwein() -> None:
    # §1.3 [VAR] schweine=first_played: the first DA played is the top trump, the second an ordinary fox
    s = table(schweine="first_played")
    assert (public(s)["schweine"], public(s)["schweine_cards"]) == (2, ["DA"])
    play(s, "CQ SQ DA D9")
    assert winner_of_last_trick(s) == 2
    assert public(s)["schweine_cards"] == []
    play(s, "DA DK HQ HQ")  # seat 2 leads the second DA: now under the queens
    assert winner_of_last_trick(s) == 0
    assert fox_tricks(s) == [1]  # the Schwein of trick 1 was no fox, the DA of trick 2 is


def test_both_keeps_both_aces_on_top() -> None:
    # §1.3 [VAR] schweine=both (comparison): the second DA still beats the queens
    s = table(schweine="both")
    play(s, "CQ SQ DA D9 DA DK HQ HQ")
    assert winner_of_last_trick(s) == 2


def test_second_if_first_won_makes_the_second_a_schwein() -> None:
    # §1.3 [VAR] second_if_first_won: the first DA wins its trick for its party, so the second is a Schwein
    s = table(schweine="second_if_first_won")
    assert public(s)["schweine"] is None
    play(s, "HA HA DA H9")  # seat 2 ruffs with an ordinary DA and wins for Kontra
    assert winner_of_last_trick(s) == 2
    assert (public(s)["schweine"], public(s)["schweine_cards"]) == (2, ["DA"])
    play(s, "DA D9 CQ SQ")
    assert winner_of_last_trick(s) == 2


def test_second_if_first_won_no_schwein_after_a_lost_ace() -> None:
    # §1.3 [VAR] second_if_first_won: the first DA is taken by Re, so the second stays an ordinary DA (a fox)
    s = table(schweine="second_if_first_won")
    play(s, "CQ SQ DA D9")
    assert winner_of_last_trick(s) == 0
    play(s, "HQ HQ DA DK")
    assert winner_of_last_trick(s) == 0
    assert public(s)["schweine"] is None
    assert fox_tricks(s) == [0, 1]


def test_announce_on_play_hides_the_schweine_until_the_first_falls() -> None:
    # §1.3 [VAR] schweine_announce=on_play: nobody learns of the Schweine before one is played
    s = table(schweine="both", schweine_announce="on_play")
    assert (public(s)["schweine"], public(s)["schweine_cards"]) == (None, [])
    assert s.observation(2).public["schweine"] is None
    play(s, "CQ SQ DA")
    assert public(s)["schweine"] == 2
    play(s, "D9")
    assert winner_of_last_trick(s) == 2


def test_fixed_at_reservation_in_a_wedding() -> None:
    # §1.3 [VAR] schweine_fixed=reservation (OPEN-POINTS alternative): judged on the dealt hands when the
    # game is named, so in a wedding the Schweine rank on top already in the clarification window
    s = wedding(schweine="both", schweine_fixed="reservation")
    assert public(s)["schweine"] == 3
    play(s, TRUMP_OWN)  # seat 3's DA beats the Hochzeiter's queen of clubs
    assert winner_of_last_trick(s) == 3
    default = wedding(schweine="both")
    play(default, TRUMP_OWN)
    assert winner_of_last_trick(default) == 0


def kreuz_solo(**options: Any) -> DoppelkopfState:
    hands = fill({0: "H10 CQ", 1: "SQ", 2: "CA CA C9 C9 DA DA"})
    return solo(deal_from(game(**options), hands), 2, "kreuz")


def test_schweine_in_colour_solo_trump_suit_aces() -> None:
    # §1.3 [VAR] schweine_in_solo=trump_suit_aces: in a Kreuz solo both club aces beat the Dulle
    s = kreuz_solo(schweine="both", schweine_in_solo="trump_suit_aces")
    assert (public(s)["schweine"], public(s)["schweine_cards"]) == (2, ["CA"])
    play(s, "CA")
    play(s, next(a.text.split()[1] for a in s.legal_actions()))
    play(s, "H10 SQ")
    assert winner_of_last_trick(s) == 2
    plain = kreuz_solo(schweine="both")
    assert public(plain)["schweine"] is None  # §1.3 default: no Schweine in solos


def test_schweine_in_colour_solo_diamond_aces() -> None:
    # §1.3 [VAR] schweine_in_solo=diamond_aces: the diamond aces become the top trumps of the Kreuz solo
    s = kreuz_solo(schweine="both", schweine_in_solo="diamond_aces")
    assert public(s)["schweine_cards"] == ["DA"]
    play(s, "DA")
    play(s, next(a.text.split()[1] for a in s.legal_actions()))
    play(s, "H10 SQ")
    assert winner_of_last_trick(s) == 2


def test_superschweine_in_colour_solo() -> None:
    # §1.3 [VAR] superschweine_in_solo: the trump suit's nines rank above its Schwein aces
    s = kreuz_solo(schweine="both", schweine_in_solo="trump_suit_aces", superschweine=True, superschweine_in_solo=True)
    assert (public(s)["superschweine"], public(s)["schweine_cards"]) == (2, ["C9", "CA"])
    without = kreuz_solo(schweine="both", schweine_in_solo="trump_suit_aces", superschweine=True)
    assert public(without)["schweine_cards"] == ["CA"]


@pytest.mark.parametrize(
    "options",
    [
        {"schweine_announce": "on_play"},
        {"schweine_fixed": "reservation"},
        {"schweine_in_solo": "diamond_aces"},
        {"schweine": "both", "superschweine_in_solo": True},
    ],
)
def test_schweine_sub_options_need_schweine(options: dict[str, object]) -> None:
    # an option that would be ignored is rejected, naming it
    with pytest.raises(OptionError, match="schweine"):
        game(**options)


# ----------------------------------------------------------------------------- holder_choice (decision 0002)


def test_holder_choice_the_holder_shows_them_mid_trick() -> None:
    # §1.3, §8.2 [VAR] schweine=holder_choice (decision 0002): nothing is known until the holder shows them,
    # before one of his cards; from then on both aces rank on top, and the open trick is judged anew
    s = table(schweine="holder_choice")
    assert (public(s)["schweine"], public(s)["schweine_cards"]) == (None, [])
    assert "schweine" not in legal(s)  # seat 0 holds no diamond ace
    play(s, "CQ SQ")
    assert "schweine" in legal(s)
    act(s, "schweine")
    assert (public(s)["schweine"], public(s)["schweine_cards"]) == (2, ["DA"])
    assert public(s, 3)["schweine"] == 2  # the whole table sees the show
    play(s, "H10 D9")  # the Dulle still beats the queen of clubs played before the show
    assert winner_of_last_trick(s) == 2
    play(s, "DA D9 HQ HQ")
    assert winner_of_last_trick(s) == 2
    assert "schweine" not in legal(s)  # shown once
    assert fox_tricks(s) == []  # a Schwein is no fox


def test_holder_choice_not_shown_the_aces_stay_foxes() -> None:
    # §1.3 [VAR] holder_choice: an ace played before the show is an ordinary fox, and the chance is gone
    s = table(schweine="holder_choice")
    play(s, "CQ SQ DA D9")
    assert winner_of_last_trick(s) == 0
    play(s, "HQ HQ")
    assert "schweine" not in legal(s)
    play(s, "DA DK")
    assert winner_of_last_trick(s) == 0
    assert public(s)["schweine"] is None
    assert fox_tricks(s) == [0, 1]


def test_holder_choice_refused_for_another_player() -> None:
    # §1.3 [VAR] holder_choice: only the holder of both aces may show them; a refusal names the rule and changes nothing
    s = table(schweine="holder_choice")
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match="holder_choice"):
        s.apply("schweine")
    assert snapshot(s) == before


def test_holder_choice_with_superschweine_and_a_replayable_record() -> None:
    # §1.3 [VAR]: Superschweine come with the show if a hand still holds both nines; the record replays
    s = table(schweine="holder_choice", superschweine=True)
    act(s, "play CQ", "play SQ", "schweine")
    assert (public(s)["schweine"], public(s)["superschweine"], public(s)["schweine_cards"]) == (2, 3, ["D9", "DA"])
    play(s, "DA D9")
    assert winner_of_last_trick(s) == 3
    play_out(s)
    record = json.loads(json.dumps(deal_record(s)))
    assert replay_deal(record).result().to_json() == s.result().to_json()


def test_holder_choice_leaves_the_announcement_to_the_holder() -> None:
    # decision 0002: with holder_choice the show is the announcement, so schweine_announce=on_play is refused
    with pytest.raises(OptionError, match="holder_choice"):
        game(schweine="holder_choice", schweine_announce="on_play")


@pytest.mark.parametrize(("card", "holder", "top"), [("nine", 3, "D9"), ("ten", 2, "D10"), ("king", 3, "DK")])
def test_superschweine_card_picks_the_pair(card: str, holder: int, top: str) -> None:
    # §1.3, §8.2 [VAR] superschweine_card: the diamond nines (FreeDoko), or the tens or kings (SEED)
    s = table(schweine="both", superschweine=True, superschweine_card=card)
    assert (public(s)["superschweine"], public(s)["schweine_cards"]) == (holder, [top, "DA"])
    play(s, "CQ SQ DA " + (top if holder == 3 else "D9"))  # seat 3's Superschwein beats the Schwein
    assert winner_of_last_trick(s) == holder


def test_superschweine_card_needs_superschweine() -> None:
    # an option that would be ignored is rejected, naming it
    with pytest.raises(OptionError, match="superschweine_card"):
        game(schweine="both", superschweine_card="ten")
