"""Call deadlines counted in cards on the table (dossier §5.5, §8.4 ``timing_mode``, A-22; decision 0002),
and why counting them in tricks needs no option of its own.

Seats 0 and 1 are Re (one queen of clubs each), dealer 3, so seat 0 leads.
"""

from __future__ import annotations

import json
import random

import pytest

from stich.core.records import deal_record, replay_deal
from stich.errors import IllegalActionError
from stich.games.doppelkopf.state import PLAY, DoppelkopfState

from .helpers import deal, game, healthy, legal_calls, play, play_out

RE_HAND = "CQ SQ HQ DQ CJ SJ CA C10 CK SA S10 HA"
KONTRA_2 = "H10 H10 DA DA D10 D10 HJ HJ C9 S9 DJ SK"
KONTRA_3 = "DJ DK DK D9 D9 C9 S9 SK HK HK H9 H9"


def table(mode: str) -> DoppelkopfState:
    return healthy(deal(game(timing_mode=mode), RE_HAND, RE_HAND, KONTRA_2, KONTRA_3))


def test_table_cards_re_until_before_the_fifth_card() -> None:
    # §5.5 [VAR] timing_mode=table_cards: Re/Kontra (11 cards) is open while at most 4 cards lie played,
    # so in trick 2 only its leader may still call; counted in hand, everyone may before his second card
    for mode in ("table_cards", "cards_in_hand"):
        s = table(mode)
        play(s, "CA CK C9")
        assert "kontra" in legal_calls(s)  # seat 3, 3 cards played: open in both modes
        play(s, "C9 SA")  # seat 0 won trick 1 and leads trick 2: the 5th card lies
        assert s.current_player() == 1 and s.hands[1].bit_count() == 11
        if mode == "table_cards":
            assert legal_calls(s) == set()
        else:
            assert "re" in legal_calls(s)


def test_table_cards_the_leader_of_trick_two_may_still_call() -> None:
    s = table("table_cards")
    play(s, "CA CK C9 C9")
    assert s.current_player() == 0 and "re" in legal_calls(s)


def test_table_cards_refusal_names_the_rule() -> None:
    s = table("table_cards")
    play(s, "CA CK C9 C9 SA")
    with pytest.raises(IllegalActionError, match="table_cards"):
        s.apply("announce re")


def test_table_cards_record_replays() -> None:
    s = table("table_cards")
    s.apply("announce re")
    play_out(s)
    record = json.loads(json.dumps(deal_record(s)))
    assert replay_deal(record).result().to_json() == s.result().to_json()


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"nines": False},
        {"players": 5},
        {"armut": True, "armut_two_poor": "play", "genscher": True},
        {"hochzeit_window_tricks": 3, "stille_hochzeit": False},
    ],
)
def test_counting_in_tricks_is_counting_in_hand(options: dict[str, object]) -> None:
    # decision 0002 / A-22: calls come just before the caller's own card (model A, §5.6), so the caller never has a
    # card in the open trick and holds exactly hand size - completed tricks cards (a poverty exchange gives back as
    # many as it takes; nobody else's card leaves a hand). A deadline "h >= N cards in hand" is therefore the deadline
    # "at most hand size - N tricks completed", at every decision point of every game type: a "tricks" timing mode
    # would allow exactly the same calls, and is not an option.
    g = game(**options)
    rng = random.Random(29)
    checked = 0
    for number in range(40):
        s = g.new_state(seed=rng.getrandbits(64), dealer=number % g.num_seats)
        while not s.is_terminal():
            p = s.current_player()
            if s.phase == PLAY:
                assert p not in s.trick_seats
                assert s.call_count(p) == s.hands[p].bit_count() == s.n_tricks - len(s.tricks)
                checked += 1
            codes = s.legal_codes()
            words = {s.game.actions.actions[c].text: c for c in codes}
            code = words["vorbehalt"] if "vorbehalt" in words and rng.random() < 0.3 else rng.choice(codes)
            s.apply(code)
    assert checked > 1000
