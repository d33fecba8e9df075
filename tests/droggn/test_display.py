"""Display hooks of the Droggn game: the hand as players hold it, results in words (dossier §1, §8)."""

from __future__ import annotations

from stich.cards import parse_cards
from stich.games.droggn.options import DroggnOptions
from stich.games.droggn.outcome import DECLARER, DealFacts, PagatFact
from stich.games.droggn.scoring import evaluate

from .helpers import game


def test_hand_groups_gstiess_trumps_then_suits() -> None:
    # §1 the Gstieß apart, trumps XXI..I, then each suit from the king down, the red ace above the red 2
    g = game()
    groups = g.hand_groups(parse_cards("H2 T1 C4 T22 H1 T21 CK HK D7"), {})
    assert [[c.text for c in grp] for grp in groups] == [["T22"], ["T21", "T1"], ["CK", "C4"], ["HK", "H1", "H2"], ["D7"]]


def test_describe_result_in_words() -> None:
    # §8 the seed's Solo: 40 + 3 + 10 = 53, every other seat pays 53
    facts = DealFacts(
        contract="solo",
        declarer_points=40,
        declarer_tricks=11,
        tricks_played=21,
        pagat=PagatFact(DECLARER, True, True, DECLARER),
        last_trick_side=DECLARER,
    )
    result = evaluate(facts, DroggnOptions(), declarer=1, active=(1, 2, 0), num_seats=3).to_json()
    lines = game().describe_result(result)
    assert lines[0] == "Solo by seat 1 against seats 2 and 0."
    assert "Card points: declarer 40, defenders 34" in lines[1]
    assert "  +10 Pagat ultimo (not laid out)" in lines
    assert lines[-1] == "Value +53 for the declarer: every other seat pays 53 points."


def test_describe_thrown_in() -> None:
    # §3.2 all passed
    s = game().new_state(seed=1, dealer=0)
    for _ in range(3):
        s.apply("pass")
    assert game().describe_result(s.result().to_json()) == ["All passed: the cards are thrown in and seat 0 deals again."]
