"""Worked scoring examples for the scoring house rules of issue 29 (dossier §7.4, §7.8, §8.5):
counting modes ``plus_minus`` / ``plus`` / ``minus`` with ``solo_always_triple``, and
``bock_applies_to_specials``, ``specials_before_doubling``.  Synthetic deals as in test_evaluation_examples.
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from stich.errors import OptionError
from stich.games.doppelkopf.outcome import KEINE90, RE_KONTRA, SCHWARZ
from stich.games.doppelkopf.scoring import DealFacts, evaluate
from stich.games.doppelkopf.session import DoppelkopfSession

from .helpers import game
from .test_evaluation_examples import DOPPELKOPF_KONTRA, FOX_CAUGHT_BY_RE, deal, result, scores, trick


@pytest.mark.parametrize(
    ("counting", "expected"),
    [("plus_minus", (3, 3, -3, -3)), ("plus", (3, 3, 0, 0)), ("minus", (0, 0, -3, -3))],
)
def test_counting_modes_normal_game(counting: str, expected: tuple[int, ...]) -> None:
    # §7.8 counting: Re called and won with 121: gewonnen 1 + re_angesagt 2 = 3 for Re
    # plus books only the winners (+3 each), minus only the losers (-3 each)
    assert scores(deal(121, re_call=RE_KONTRA), counting=counting) == expected


@pytest.mark.parametrize(
    ("counting", "expected"),
    [("plus_minus", (-2, -2, 2, 2)), ("plus", (0, 0, 2, 2)), ("minus", (-2, -2, 0, 0))],
)
def test_counting_modes_kontra_wins(counting: str, expected: tuple[int, ...]) -> None:
    # §7.8 counting: Kontra wins 120:120: gewonnen 1 + gegen die Alten 1 = 2 for Kontra
    assert scores(deal(120), counting=counting) == expected


@pytest.mark.parametrize(
    ("counting", "triple", "won", "expected"),
    [
        ("plus", False, True, (3, 0, 0, 0)),  # soloist wins 1: 3 x 1 for the soloist only
        ("plus", False, False, (0, 1, 1, 1)),  # soloist loses 1: each opponent +1
        ("plus", True, False, (0, 3, 3, 3)),  # solo always triple: each opponent +3
        ("minus", False, False, (-3, 0, 0, 0)),  # soloist loses 1: -3 for the soloist only
        ("minus", False, True, (0, -1, -1, -1)),  # soloist wins 1: each opponent -1
        ("minus", True, True, (0, -3, -3, -3)),  # solo always triple: each opponent -3
    ],
)
def test_counting_modes_in_solos(counting: str, triple: bool, won: bool, expected: tuple[int, ...]) -> None:
    # §7.4 / §7.8: the soloist's entry stays triple; solo_always_triple (FreeDoko) triples the opponents' too
    facts = deal(121 if won else 120, re_seats=(0,), kind="solo", contract="damen")
    assert scores(facts, counting=counting, solo_always_triple=triple) == expected


def test_counting_no_winner_books_the_side_the_value_credits() -> None:
    # §7.2 A-15 without a winner the net value decides the side: both keine 90, Re 140 -> Re +1 (gegen_keine90)
    facts = deal(140, re_call=KEINE90, kontra_call=KEINE90)
    assert scores(facts, counting="plus") == (1, 1, 0, 0)
    assert scores(facts, counting="minus") == (0, 0, -1, -1)


def test_zero_value_books_nothing() -> None:
    # §7.8: a game worth 0 (Re wins 1, Kontra's Doppelkopf 1) books nothing in any mode
    facts = deal(121, tricks=[DOPPELKOPF_KONTRA])
    for counting in ("plus_minus", "plus", "minus"):
        assert scores(facts, counting=counting) == (0, 0, 0, 0)


def test_bock_applies_to_specials() -> None:
    # §7.8 [VAR] bock_applies_to_specials: Re called, Re 121, Kontra's Doppelkopf, bock x2
    # default: (1 + 2) x 2 - 1 = 5; with the option: (1 + 2 - 1) x 2 = 4
    facts = deal(121, tricks=[DOPPELKOPF_KONTRA], re_call=RE_KONTRA, multiplier=2)
    assert result(facts)["value"] == 5
    assert result(facts, bock=True, bock_applies_to_specials=True)["value"] == 4
    assert scores(facts, bock=True, bock_applies_to_specials=True) == (4, 4, -4, -4)


def test_specials_before_doubling() -> None:
    # §7.8 [VAR] call_scoring=double: specials are added after the doublings (default) or doubled with them
    # Re called, Re 121 and a fox caught by Re: after = 1 x 2 + 1 = 3; before = (1 + 1) x 2 = 4
    fox = deal(121, tricks=[FOX_CAUGHT_BY_RE], re_call=RE_KONTRA)
    assert result(fox, call_scoring="double")["value"] == 3
    assert scores(fox, call_scoring="double", specials_before_doubling=True) == (4, 4, -4, -4)
    # a special of the losing side is doubled against the winner: (1 - 1) x 2 = 0 instead of 1 x 2 - 1 = 1
    lost = deal(121, tricks=[DOPPELKOPF_KONTRA], re_call=RE_KONTRA)
    assert result(lost, call_scoring="double")["value"] == 1
    breakdown = result(lost, call_scoring="double", specials_before_doubling=True)
    assert breakdown["value"] == 0
    # Re's doubling adds what (gewonnen 1 - Kontra's Doppelkopf 1) comes to: nothing
    assert [i["points"] for i in breakdown["items"] if i["name"] == "re_angesagt"] == [0]


@pytest.mark.parametrize(
    ("options", "word"),
    [
        ({"solo_always_triple": True}, "solo_always_triple"),
        ({"bock_applies_to_specials": True}, "bock"),
        ({"specials_before_doubling": True}, "specials_before_doubling"),
    ],
)
def test_scoring_option_contradictions_named(options: dict[str, object], word: str) -> None:
    # an option that would be ignored is rejected with its name
    with pytest.raises(OptionError, match=word):
        game(**options)


@pytest.mark.parametrize("counting", ["plus", "minus"])
def test_session_books_one_sided_counting(counting: str) -> None:
    # §7.6 / §7.8: a list under counting plus (minus) checks one-signed entries instead of zero-sum and books them
    from .test_session import play_game

    session = DoppelkopfSession(game(counting=counting), seed=7, deals=6)
    booked = [session.rows[-1].scores for _ in range(6) if play_game(session) and session.rows]
    assert booked and any(any(row) for row in booked)
    sign = 1 if counting == "plus" else -1
    assert all(sign * entry >= 0 for row in booked for entry in row)
    assert session.totals == [sum(row[s] for row in booked) for s in range(4)]


def test_herzstich_special_point() -> None:
    # §7.3 [VAR] sp_herzstich (FreeDoko "heart trick"): a hearts trick nobody trumped, to the party that took it
    # Re 121 + Herzstich taken by Re (HA HK H9 H9, no trump) = 2; a hearts trick with a trump scores nothing
    hearts = trick("0:HA 1:HK 2:H9 3:H9", winner=0)
    assert scores(deal(121, tricks=[hearts]), sp_herzstich=True) == (2, 2, -2, -2)
    assert scores(deal(121, tricks=[hearts])) == (1, 1, -1, -1)
    ruffed = trick("0:HA 1:HK 2:H9 3:DJ", winner=3)
    assert [s["name"] for s in result(deal(121, tricks=[ruffed]), sp_herzstich=True)["specials"]] == []
    dulle = trick("0:HA 1:H10 2:H9 3:H9", winner=1)  # the Dulle is a trump: the trick was trumped
    assert [s["name"] for s in result(deal(121, tricks=[dulle]), sp_herzstich=True)["specials"]] == []


def test_repeat_if_value_le_repeats_a_cheap_game() -> None:
    # §7.8 [VAR] repeat_if_value_le=1: a game worth 1 is repeated by the same dealer and books nothing
    from .test_session import next_deal, play_out

    session = DoppelkopfSession(game(repeat_if_value_le=1), seed=3, deals=4)
    rows = []
    for _ in range(12):
        state = play_out(next_deal(session))
        rows.append((state.dealer, abs(state.result().breakdown.get("value", 0)), session.book(state)))
        if session.is_over():
            break
    repeats = [(dealer, row) for dealer, value, row in rows if row.notes.get("reason") == "repeat_if_value_le"]
    assert repeats, "no game was worth 1 or less in this list"
    for (dealer, value, row), (next_dealer, _, _) in pairwise(rows):
        if row.notes.get("reason") == "repeat_if_value_le":
            assert value <= 1 and row.scores == (0, 0, 0, 0) and next_dealer == dealer
        elif not row.notes.get("redeal"):
            assert value > 1


def undecided_solo() -> DealFacts:
    """A Damen solo in which both sides called schwarz and neither took every trick (TSR 7.1.3, no winner).

    The soloist has 200 eyes in 6 tricks: keine 90, keine 60 (2) and 120 / 90 / 60 / 30 against Kontra's
    schwarz (4) for him, 30 against his schwarz (1) for Kontra: a net value of 5 for the soloist (§7.2).
    """
    return deal(200, 6, re_call=SCHWARZ, kontra_call=SCHWARZ, re_seats=(0,), kind="solo", contract="damen")


@pytest.mark.parametrize(
    ("counting", "triple", "expected"),
    [
        ("plus_minus", False, (15, -5, -5, -5)),  # §7.4 zero-sum: 3 x 5 for the soloist
        ("plus", False, (5, 0, 0, 0)),  # decision 0043: nobody won, so the soloist's net is booked once
        ("plus", True, (15, 0, 0, 0)),  # solo_always_triple: triple all the same
        ("minus", False, (0, -5, -5, -5)),
        ("minus", True, (0, -15, -15, -15)),
    ],
)
def test_a_solo_nobody_wins_is_not_tripled_in_plus_or_minus_counting(counting: str, triple: bool, expected: tuple[int, ...]) -> None:
    # §7.4 [VAR] / §7.8 counting, decision 0043 (FreeDoko GameSummary::points): issue 40, rules 3
    facts = undecided_solo()
    assert result(facts)["winner"] is None and result(facts)["value"] == 5
    assert scores(facts, counting=counting, solo_always_triple=triple) == expected


@pytest.mark.parametrize(("counting", "expected"), [("plus", (0, 5, 5, 5)), ("minus", (-5, 0, 0, 0))])
def test_an_undecided_solo_in_the_opponents_favour(counting: str, expected: tuple[int, ...]) -> None:
    # the mirror image: soloist 40 eyes, a net of 5 for the opponents; minus books the soloist's -5 once, not -15
    facts = deal(40, 6, re_call=SCHWARZ, kontra_call=SCHWARZ, re_seats=(0,), kind="solo", contract="damen")
    assert result(facts)["winner"] is None and result(facts)["value"] == -5
    assert scores(facts) == (-15, 5, 5, 5)
    assert scores(facts, counting=counting) == expected


def test_undecided_solo_from_the_engine_issue_40_options() -> None:
    # the issue's table doppelkopf(preset=ddv, call_scoring=double, counting=plus): the same facts, the same booking
    options = game(call_scoring="double", counting="plus").options
    assert evaluate(undecided_solo(), options).scores == (5, 0, 0, 0)
