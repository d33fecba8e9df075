"""Worked evaluation examples for Doppelkopf (dossier §7), derived by hand.

Each example states the rule it pins (dossier section, TSR number) and the
hand arithmetic of the expected value.  The deals are synthetic: :func:`deal`
fills the tricks with ordinary cards (never a fox, a Karlchen or a Dulle, and
never 40 eyes in a trick) so that each party ends with the eyes and tricks
the example asks for; special tricks are written out with :func:`trick`.
Seats 0 and 1 are Re and seats 2 and 3 Kontra unless an example says otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from stich.cards import Card, parse_card
from stich.core.tricks import PlayedTrick
from stich.games.doppelkopf.contracts import FACES
from stich.games.doppelkopf.options import DoppelkopfOptions
from stich.games.doppelkopf.outcome import KEINE30, KEINE60, KEINE90, NONE, RE_KONTRA, SCHWARZ, DealFacts
from stich.games.doppelkopf.scoring import card_eyes, evaluate

# --- building synthetic deals

_FILLER_CARDS = {11: "CA", 10: "C10", 4: "CK", 3: "SQ", 2: "SJ", 0: "C9"}
_FOUR_CARDS: dict[int, tuple[int, ...]] = {}
for _combo in combinations_with_replacement(sorted(_FILLER_CARDS, reverse=True), 4):
    if sum(_combo) < 40:
        _FOUR_CARDS.setdefault(sum(_combo), _combo)


@cache
def _split(eyes: int, tricks: int) -> tuple[int, ...] | None:
    """Eyes per trick for ``tricks`` filler tricks that hold ``eyes`` in all (each trick under 40)."""
    if tricks == 0:
        return () if eyes == 0 else None
    for value in sorted(_FOUR_CARDS, key=lambda v: abs(v - eyes / tricks)):
        rest = _split(eyes - value, tricks - 1) if value <= eyes else None
        if rest is not None:
            return (value, *rest)
    return None


def trick(spec: str, winner: int) -> PlayedTrick:
    """A trick from ``"seat:card"`` words in play order, e.g. ``trick("2:DA 3:C9 0:DQ 1:C9", winner=0)``."""
    pairs = [word.split(":") for word in spec.split()]
    return PlayedTrick(tuple(int(seat) for seat, _ in pairs), tuple(parse_card(card) for _, card in pairs), winner)


def _filler(eyes: int, count: int, seats: tuple[int, ...], winner: int) -> list[PlayedTrick]:
    split = _split(eyes, count)
    assert split is not None, f"cannot fill {count} tricks with {eyes} eyes"
    cards = [tuple(parse_card(_FILLER_CARDS[e]) for e in _FOUR_CARDS[value]) for value in split]
    return [PlayedTrick(seats, four, winner) for four in cards]


def deal(
    re_eyes: int,
    re_tricks: int = 6,
    *,
    tricks: Sequence[PlayedTrick] = (),
    last: PlayedTrick | None = None,
    re_call: int = NONE,
    kontra_call: int = NONE,
    re_seats: tuple[int, ...] = (0, 1),
    active: tuple[int, ...] = (0, 1, 2, 3),
    num_seats: int = 4,
    kind: str = "normal",
    contract: str = "normal",
    multiplier: int = 1,
    schweine_seat: int | None = None,
) -> DealFacts:
    """A finished 12-trick deal: Re ends with ``re_eyes`` eyes in ``re_tricks`` tricks, Kontra with the rest of 240.

    ``tricks`` are played first and ``last`` is the last trick; filler tricks make up the totals.
    """
    explicit = [*tricks, *([last] if last else [])]
    kontra_seats = tuple(s for s in active if s not in re_seats)

    def own(t: PlayedTrick) -> bool:
        return t.winner in re_seats

    re_fill_eyes = re_eyes - sum(sum(card_eyes(c) for c in t.cards) for t in explicit if own(t))
    ko_fill_eyes = 240 - re_eyes - sum(sum(card_eyes(c) for c in t.cards) for t in explicit if not own(t))
    re_fill = re_tricks - sum(1 for t in explicit if own(t))
    ko_fill = 12 - re_tricks - sum(1 for t in explicit if not own(t))
    fill = _filler(re_fill_eyes, re_fill, active, min(re_seats)) + _filler(ko_fill_eyes, ko_fill, active, min(kontra_seats))
    return DealFacts(
        num_seats=num_seats,
        active_seats=active,
        kind=kind,
        contract=contract,
        re_seats=frozenset(re_seats),
        re_level=re_call,
        kontra_level=kontra_call,
        tricks=(*tricks, *fill, *([last] if last else [])),
        multiplier=multiplier,
        schweine_seat=schweine_seat,
    )


def scores(facts: DealFacts, **options: Any) -> tuple[int, ...]:
    """Scores of ``facts`` under DDV defaults changed by ``options``."""
    return evaluate(facts, DoppelkopfOptions(**options)).scores


def result(facts: DealFacts, **options: Any) -> dict[str, Any]:
    """The breakdown of ``facts`` under DDV defaults changed by ``options``."""
    return dict(evaluate(facts, DoppelkopfOptions(**options)).breakdown)


FOX_CAUGHT_BY_RE = trick("2:DA 3:C9 0:DQ 1:C9", winner=0)  # Kontra's fox (seat 2) won by Re seat 0; 14 eyes
DOPPELKOPF_KONTRA = trick("0:CA 1:C10 2:CA 3:C10", winner=2)  # 42 eyes, won by Kontra seat 2
DOPPELKOPF_RE = trick("0:CA 1:C10 2:CA 3:C10", winner=0)  # 42 eyes, won by Re seat 0


def test_helper_builds_the_requested_totals() -> None:
    # test scaffolding: the synthetic deal holds 240 eyes in 12 tricks, split as asked
    b = result(deal(121, 5, tricks=[FOX_CAUGHT_BY_RE], last=DOPPELKOPF_KONTRA))
    assert b["eyes"] == {"re": 121, "kontra": 119}
    assert b["tricks"] == {"re": 5, "kontra": 7}


# --- §7.1 win thresholds and §7.2 (a) without calls


def test_plain_re_win_at_121() -> None:
    # §7.1 row 1: no calls, Re needs 121 (TSR 7.1.1)
    # Re 121: gewonnen 1 = 1
    assert scores(deal(121)) == (1, 1, -1, -1)


def test_kontra_wins_120_to_120() -> None:
    # §7.1 row 1: no calls, Kontra needs 120 (TSR 7.1.1); §7.3 gegen die Alten
    # Kontra 120: gewonnen 1 + gegen die Alten 1 = 2 for Kontra
    assert result(deal(120))["winner"] == "kontra"
    assert scores(deal(120)) == (-2, -2, 2, 2)


def test_re_151_kontra_under_90() -> None:
    # §7.2 (a): loser under 90 (TSR 7.2.2 a)
    # Re 151, Kontra 89: gewonnen 1 + unter_90 1 = 2
    assert scores(deal(151)) == (2, 2, -2, -2)


def test_kontra_with_exactly_90_is_not_under_90() -> None:
    # §7.2 (a): "under 90" means fewer than 90 (TSR 7.2.2 a)
    # Re 150, Kontra 90: gewonnen 1 = 1
    assert scores(deal(150)) == (1, 1, -1, -1)


def test_re_181_kontra_under_60() -> None:
    # §7.2 (a): under 90 and under 60 are cumulative (TSR 7.2.2 a)
    # Re 181, Kontra 59: gewonnen 1 + unter_90 1 + unter_60 1 = 3
    assert scores(deal(181)) == (3, 3, -3, -3)


def test_re_211_kontra_under_30() -> None:
    # §7.2 (a): under 90/60/30 (TSR 7.2.2 a)
    # Re 211, Kontra 29: 1 + 1 + 1 + 1 = 4
    assert scores(deal(211)) == (4, 4, -4, -4)


def test_schwarz_played_without_announcement() -> None:
    # §7.2 (a): loser took no trick, "schwarz gespielt" (TSR 7.2.2 a)
    # Re 240 in 12 tricks: gewonnen 1 + unter 90/60/30 3 + schwarz 1 = 5
    assert scores(deal(240, 12)) == (5, 5, -5, -5)


def test_kontra_151_without_calls() -> None:
    # §7.2 (a) for Kontra; §7.3 gegen die Alten (TSR 7.2.2 a, 7.2.3)
    # Kontra 151, Re 89: gewonnen 1 + unter_90 1 + gegen die Alten 1 = 3 for Kontra
    assert scores(deal(89)) == (-3, -3, 3, 3)


# --- §7.1 rows with Re / Kontra called, §7.2 (b)


def test_re_called_and_won_at_121() -> None:
    # §7.1 row 2: Re called, Re needs 121; §7.2 (b) Re +2 (TSR 7.1.1, 7.2.2 b)
    # Re 121: gewonnen 1 + re_angesagt 2 = 3
    assert scores(deal(121, re_call=RE_KONTRA)) == (3, 3, -3, -3)


def test_re_called_and_lost_at_120() -> None:
    # §7.1 row 2: Re called, Kontra needs 120; (b) goes to the winner (TSR 7.2.2 b)
    # Kontra 120: gewonnen 1 + re_angesagt 2 + gegen die Alten 1 = 4 for Kontra
    assert scores(deal(120, re_call=RE_KONTRA)) == (-4, -4, 4, 4)


def test_only_kontra_called_re_wins_with_120() -> None:
    # §7.1 row 4: only Kontra called, Re needs 120 (TSR 7.1.1)
    # Re 120: gewonnen 1 + kontra_angesagt 2 = 3 for Re
    assert scores(deal(120, kontra_call=RE_KONTRA)) == (3, 3, -3, -3)


def test_only_kontra_called_kontra_needs_121() -> None:
    # §7.1 row 4: only Kontra called, Kontra needs 121 (TSR 7.1.1)
    # Kontra 121, Re 119: gewonnen 1 + kontra_angesagt 2 + gegen die Alten 1 = 4 for Kontra
    assert scores(deal(119, kontra_call=RE_KONTRA)) == (-4, -4, 4, 4)


def test_variant_re_needs_121_when_only_kontra_called() -> None:
    # §7.1 [VAR] re_needs_121_when_only_kontra (A-14; decision 0003 D1: Kontra then needs 120)
    # Re 120 fails, Kontra 120 wins: gewonnen 1 + kontra_angesagt 2 + gegen die Alten 1 = 4 for Kontra
    assert scores(deal(120, kontra_call=RE_KONTRA), re_needs_121_when_only_kontra=True) == (-4, -4, 4, 4)


def test_both_called_kontra_wins_120_to_120() -> None:
    # §7.1 row 3: both called, Re needs 121, Kontra 120 (TSR 7.1.1, A-26)
    # Kontra 120: gewonnen 1 + re_angesagt 2 + kontra_angesagt 2 + gegen die Alten 1 = 6 for Kontra
    assert scores(deal(120, re_call=RE_KONTRA, kontra_call=RE_KONTRA)) == (-6, -6, 6, 6)


def test_both_called_re_wins_at_121() -> None:
    # §7.1 row 3: both called; §7.2 (b) both +2 to the winner (TSR 7.2.2 b)
    # Re 121: gewonnen 1 + re_angesagt 2 + kontra_angesagt 2 = 5
    assert scores(deal(121, re_call=RE_KONTRA, kontra_call=RE_KONTRA)) == (5, 5, -5, -5)


# --- §7.1 absagen, §7.2 (c)-(f)


def test_re_keine90_made() -> None:
    # §7.1 case 1: own keine 90 needs 151; §7.2 (b)+(c) (TSR 7.1.2, 7.2.2)
    # Re 151, Kontra 89: gewonnen 1 + unter_90 1 + re_angesagt 2 + re_keine90 1 = 5
    b = result(deal(151, re_call=KEINE90))
    assert b["value"] == 5
    assert b["items"] == [
        {"name": "gewonnen", "party": "re", "points": 1},
        {"name": "unter_90", "party": "re", "points": 1},
        {"name": "re_angesagt", "party": "re", "points": 2},
        {"name": "re_keine90_angesagt", "party": "re", "points": 1},
    ]


def test_re_keine90_missed_by_one_eye() -> None:
    # §7.1 case 2: against Re's keine 90 Kontra needs only 90 (TSR 7.1.2)
    # Re 150 fails; Kontra 90 wins: gewonnen 1 + re_angesagt 2 + re_keine90 1 = 4 (90 < 120: no gegen_keine90)
    # + gegen die Alten 1 = 5 for Kontra
    assert scores(deal(150, re_call=KEINE90)) == (-5, -5, 5, 5)


def test_kontra_reaches_120_against_keine90() -> None:
    # §7.2 (e): 120 eyes against keine 90 (TSR 7.2.2 e)
    # Kontra 120: gewonnen 1 + re_angesagt 2 + re_keine90 1 + gegen_keine90 1 = 5, + gegen die Alten 1 = 6
    assert scores(deal(120, re_call=KEINE90)) == (-6, -6, 6, 6)


def test_kontra_wins_with_60_against_keine60() -> None:
    # §7.1 case 2: against keine 60 Kontra needs 60; winner below 90 gets no (a) item (TSR 7.1.2)
    # Re 180 fails (needs 181); Kontra 60: gewonnen 1 + re_angesagt 2 + re_keine90 1 + re_keine60 1 = 5
    # (60 < 120 and 60 < 90: no gegen items) + gegen die Alten 1 = 6 for Kontra
    assert scores(deal(180, re_call=KEINE60)) == (-6, -6, 6, 6)


def test_re_keine60_made() -> None:
    # §7.1 case 1: own keine 60 needs 181; levels are cumulative (TSR 6.4.3, 7.2.2 c)
    # Re 181, Kontra 59: 1 + unter_90 1 + unter_60 1 + re_angesagt 2 + keine90 1 + keine60 1 = 7
    assert scores(deal(181, re_call=KEINE60)) == (7, 7, -7, -7)


def test_re_keine30_made() -> None:
    # §7.1 case 1: own keine 30 needs 211 (TSR 7.1.2)
    # Re 211, Kontra 29: 1 + unter 90/60/30 3 + re_angesagt 2 + keine 90/60/30 3 = 9
    assert scores(deal(211, re_call=KEINE30)) == (9, 9, -9, -9)


def test_re_keine30_missed_kontra_wins_with_30() -> None:
    # §7.1 case 2: against keine 30 Kontra needs 30 (TSR 7.1.2)
    # Re 210 fails; Kontra 30: 1 + re_angesagt 2 + keine 90/60/30 3 = 6 (30 is below 120/90/60: no gegen items)
    # + gegen die Alten 1 = 7 for Kontra
    assert scores(deal(210, re_call=KEINE30)) == (-7, -7, 7, 7)


def test_re_schwarz_announced_and_made() -> None:
    # §7.1 case 1: own schwarz needs every trick (TSR 7.1.2)
    # Re 240, 12 tricks: 1 + unter 3 + schwarz 1 + re_angesagt 2 + keine90/60/30/schwarz 4 = 11
    assert scores(deal(240, 12, re_call=SCHWARZ)) == (11, 11, -11, -11)


def test_re_schwarz_lost_by_one_small_trick() -> None:
    # §7.1 case 2: against schwarz one trick wins; A-16: gegen_schwarz needs 30 eyes, not a trick
    # Kontra takes 1 trick of 20 eyes: gewonnen 1 + re_angesagt 2 + 4 absage levels = 7 (20 < 30: no gegen_schwarz)
    # + gegen die Alten 1 = 8 for Kontra
    b = result(deal(220, 11, re_call=SCHWARZ))
    assert b["winner"] == "kontra"
    assert b["value"] == -8


def test_re_schwarz_lost_kontra_reaches_30() -> None:
    # §7.2 (f): 30 eyes against schwarz (TSR 7.2.2 f, A-16)
    # Kontra 1 trick of 35 eyes: 1 + 2 + 4 + gegen_schwarz 1 = 8, + gegen die Alten 1 = 9 for Kontra
    assert scores(deal(205, 11, re_call=SCHWARZ)) == (-9, -9, 9, 9)


def test_kontra_keine90_only_re_wins_with_90() -> None:
    # §7.1 case 2: Re said nothing, Kontra said keine 90: Re needs 90 (TSR 7.1.2); (d) to the winner
    # Re 90 wins: gewonnen 1 + kontra_angesagt 2 + kontra_keine90 1 = 4 (90 < 120: no gegen_keine90)
    assert scores(deal(90, kontra_call=KEINE90)) == (4, 4, -4, -4)


def test_re_called_needs_only_90_against_kontra_absage() -> None:
    # §7.1: an opposing absage beats the 121 row: Re called, Kontra keine 90, Re needs 90 (TSR 7.1.2)
    # Re 100 wins: gewonnen 1 + re_angesagt 2 + kontra_angesagt 2 + kontra_keine90 1 = 6
    assert scores(deal(100, re_call=RE_KONTRA, kontra_call=KEINE90)) == (6, 6, -6, -6)


def test_re_keine90_against_kontra_call() -> None:
    # §7.1 case 1/2: Re keine 90 needs 151; Kontra (called, no absage) needs 90 (TSR 7.1.2)
    # Re 150 fails, Kontra 90 wins: 1 + re_angesagt 2 + kontra_angesagt 2 + re_keine90 1 = 6, + gegen die Alten 1 = 7
    assert scores(deal(150, re_call=KEINE90, kontra_call=RE_KONTRA)) == (-7, -7, 7, 7)


def test_kontra_schwarz_announced_re_wins_with_one_trick() -> None:
    # §7.1 case 2: against schwarz one trick is enough (TSR 7.1.2)
    # Re 1 trick, 10 eyes: gewonnen 1 + kontra_angesagt 2 + kontra keine90/60/30/schwarz 4 = 7 (10 < 30: no gegen_schwarz)
    assert scores(deal(10, 1, kontra_call=SCHWARZ)) == (7, 7, -7, -7)


# --- no winner (TSR 7.1.3, A-15)


def test_both_keine90_both_fail() -> None:
    # §7.2 no winner: each side keeps its own (a) and (e) items, netted (TSR 7.1.3, A-15); no gegen die Alten
    # Re 140 (needs 151), Kontra 100 (needs 151): Re gegen_keine90 (140 >= 120) 1; Kontra nothing (100 < 120, Re not < 90)
    # net 1 - 0 = 1
    b = result(deal(140, re_call=KEINE90, kontra_call=KEINE90))
    assert b["winner"] is None
    assert b["items"] == [{"name": "gegen_keine90", "party": "re", "points": 1}]
    assert b["specials"] == []
    assert scores(deal(140, re_call=KEINE90, kontra_call=KEINE90)) == (1, 1, -1, -1)


def test_no_winner_under_and_against_items_for_re() -> None:
    # §7.2 no winner, A-15: Re keine 60 (needs 181), Kontra keine 90 (needs 151)
    # Re 170, Kontra 70: Re unter_90 (70 < 90) 1 + gegen_keine90 (170 >= 120) 1 = 2; Kontra: 70 < 120 and < 90: 0
    # net 2 - 0 = 2
    assert scores(deal(170, re_call=KEINE60, kontra_call=KEINE90)) == (2, 2, -2, -2)


def test_no_winner_netting_with_special_point() -> None:
    # §7.2 no winner, A-15 netting; §7.3 specials still count without a winner (TSR 7.1.3, 7.2.3)
    # Re keine 60 (needs 181) 100, Kontra keine 90 (needs 151) 140: Re 0;
    # Kontra gegen_keine90 (140 >= 120) 1 + gegen_keine60 (140 >= 90) 1 = 2; Re Doppelkopf +1
    # net 0 - 2 + 1 = -1
    assert scores(deal(100, tricks=[DOPPELKOPF_RE], re_call=KEINE60, kontra_call=KEINE90)) == (-1, -1, 1, 1)


def test_no_winner_schwarz_against_keine30() -> None:
    # §7.2 no winner (TSR 7.1.3, A-15, A-16): Re schwarz, Kontra keine 30
    # Kontra takes 1 trick of 10 eyes: Re fails schwarz, Kontra (needs 211) fails
    # Re: unter 90/60/30 3 + gegen keine90/60/30 (230 >= 120/90/60) 3 = 6; Kontra: 10 < 30, nothing; net 6
    assert scores(deal(230, 11, re_call=SCHWARZ, kontra_call=KEINE30)) == (6, 6, -6, -6)


# --- §7.3 special points


def test_fox_caught() -> None:
    # §7.3 Fuchs gefangen: Kontra's DA won by Re (TSR 7.2.3)
    # Re 121: gewonnen 1 + fuchs 1 = 2
    b = result(deal(121, tricks=[FOX_CAUGHT_BY_RE]))
    assert b["specials"] == [{"name": "fuchs_gefangen", "party": "re", "points": 1, "trick": 0}]
    assert b["value"] == 2


def test_fox_won_by_partner_scores_nothing() -> None:
    # §7.3 Fuchs: a fox won by its own party scores nothing (TSR 7.2.3)
    # Re 121: gewonnen 1 = 1
    assert scores(deal(121, tricks=[trick("1:DA 2:C9 3:C9 0:DQ", winner=0)])) == (1, 1, -1, -1)


def test_schwein_is_not_a_fox() -> None:
    # §1.3 / A-24: the Schweine holder's diamond aces are not foxes
    # Re 121 with Kontra seat 2's DA won by Re: 1 + 1 = 2; when seat 2 holds the Schweine: 1
    assert scores(deal(121, tricks=[FOX_CAUGHT_BY_RE])) == (2, 2, -2, -2)
    assert scores(deal(121, tricks=[FOX_CAUGHT_BY_RE], schweine_seat=2)) == (1, 1, -1, -1)


def test_doppelkopf_for_the_losing_party() -> None:
    # §7.3 Doppelkopf: a trick of >= 40 eyes scores for the party that won it (TSR 7.2.3)
    # Re 121 wins 1; Kontra's 42-eye trick 1: net 1 - 1 = 0
    assert scores(deal(121, tricks=[DOPPELKOPF_KONTRA])) == (0, 0, 0, 0)


def test_karlchen_wins_last_trick() -> None:
    # §7.3 Karlchen: CJ wins the last trick, point to its player's party (TSR 7.2.3)
    # Re 121: gewonnen 1 + karlchen 1 = 2
    b = result(deal(121, last=trick("2:SJ 3:HJ 0:DJ 1:CJ", winner=1)))
    assert b["specials"] == [{"name": "karlchen", "party": "re", "points": 1, "trick": 11}]
    assert b["value"] == 2


def test_karlchen_for_the_losing_party() -> None:
    # §7.3 Karlchen for Kontra, netted against Re's win (TSR 7.2.3)
    # Re 121: 1 - karlchen 1 = 0
    assert scores(deal(121, last=trick("0:SJ 1:HJ 2:CJ 3:DJ", winner=2))) == (0, 0, 0, 0)


def test_karlchen_that_does_not_win_scores_nothing() -> None:
    # §7.3 Karlchen only when CJ wins; being caught scores nothing by DDV rules
    # Re 121: gewonnen 1 = 1
    assert scores(deal(121, last=trick("0:CJ 1:C9 2:DQ 3:C9", winner=2))) == (1, 1, -1, -1)


def test_specials_of_both_sides_are_netted() -> None:
    # §7.3 netting: S_re - S_ko added to the value (TSR 7.2.3)
    # Re 151: gewonnen 1 + unter_90 1 = 2; Re fox +1; Kontra Doppelkopf +1 and Karlchen +1: 2 + 1 - 2 = 1
    facts = deal(151, tricks=[FOX_CAUGHT_BY_RE, DOPPELKOPF_KONTRA], last=trick("0:SJ 1:HJ 2:CJ 3:DJ", winner=2))
    assert scores(facts) == (1, 1, -1, -1)


def test_gegen_die_alten_in_armut() -> None:
    # §7.3 gegen die Alten; A-10: in Armut when Kontra beats the poverty pair (Re = seats 1 and 2)
    # Kontra (0, 3) 120:120: gewonnen 1 + gegen die Alten 1 = 2
    assert scores(deal(120, re_seats=(1, 2), kind="armut")) == (2, -2, -2, 2)


def test_hochzeit_with_partner_scores_specials() -> None:
    # §7.3: an announced Hochzeit that found a partner is a normal game with special points (TSR 4.4.2)
    # Re = seats 0 and 2; Re 121: gewonnen 1 + Doppelkopf (won by seat 0) 1 = 2
    assert scores(deal(121, re_seats=(0, 2), kind="hochzeit", tricks=[DOPPELKOPF_RE])) == (2, -2, 2, -2)


# --- §7.4 solos


def test_solo_is_tripled_without_special_points() -> None:
    # §7.4 solo: soloist 3 x value, no special points (TSR 7.2.4, A-9)
    # soloist 0 with 121: gewonnen 1 (fox and Kontra's Doppelkopf ignored) -> 3, -1, -1, -1
    facts = deal(121, re_seats=(0,), kind="solo", contract="damen", tricks=[FOX_CAUGHT_BY_RE, DOPPELKOPF_KONTRA])
    b = result(facts)
    assert b["specials"] == []
    assert b["solo"] is True
    assert scores(facts) == (3, -1, -1, -1)


def test_lost_solo_with_re_called() -> None:
    # §7.4 solo; §7.1 row 2: the soloist called Re and needs 121 (TSR 7.2.4)
    # soloist 120: Kontra wins 1 + re_angesagt 2 = 3 (no gegen die Alten in a solo) -> -9, 3, 3, 3
    assert scores(deal(120, re_seats=(0,), kind="solo", contract="kreuz", re_call=RE_KONTRA)) == (-9, 3, 3, 3)


def test_silent_wedding_scored_as_solo() -> None:
    # §4.3 / §7.4: stille Hochzeit is a Karo solo scored tripled, no specials (TSR 4.4.5)
    # soloist 0 with 150, Kontra 90: gewonnen 1 (90 is not under 90; Kontra's Doppelkopf ignored) -> 3, -1, -1, -1
    facts = deal(150, re_seats=(0,), kind="stille_hochzeit", contract="karo", tricks=[DOPPELKOPF_KONTRA])
    assert scores(facts) == (3, -1, -1, -1)


def test_failed_wedding_scored_as_solo() -> None:
    # §4.2 / §7.4: a Hochzeit without partner is a Karo solo, scored tripled (TSR 4.4.3)
    # Hochzeiter seat 1 with 110: Kontra 130 wins 1 (no gegen die Alten in a solo) -> 1, -3, 1, 1
    assert scores(deal(110, re_seats=(1,), kind="hochzeit_solo", contract="karo")) == (1, -3, 1, 1)


def test_specials_in_solo_variant() -> None:
    # §7.3 [VAR] specials_in_solo
    # soloist 0 with 121 catches a fox: gewonnen 1 + fuchs 1 = 2 -> 6, -2, -2, -2
    facts = deal(121, re_seats=(0,), kind="solo", contract="karo", tricks=[FOX_CAUGHT_BY_RE])
    assert scores(facts, specials_in_solo=True) == (6, -2, -2, -2)


def test_specials_in_solo_has_no_gegen_die_alten() -> None:
    # §7.3 [VAR] specials_in_solo; decision 0003 D4: gegen die Alten stays a normal-game point
    # Kontra 120:120 beats the soloist: gewonnen 1 = 1 -> -3, 1, 1, 1
    assert scores(deal(120, re_seats=(0,), kind="solo", contract="buben"), specials_in_solo=True) == (-3, 1, 1, 1)


# --- §7.8 scoring variants and bock


def test_call_scoring_double() -> None:
    # §7.8 [VAR] call_scoring=double: each call doubles the value without specials; specials added after
    # Re 151, both called: (gewonnen 1 + unter_90 1) x 2 x 2 = 8, + Re fox 1 = 9
    facts = deal(151, tricks=[FOX_CAUGHT_BY_RE], re_call=RE_KONTRA, kontra_call=RE_KONTRA)
    assert scores(facts, call_scoring="double") == (9, 9, -9, -9)
    # same deal under add_2: 1 + 1 + 2 + 2 + 1 = 7
    assert scores(facts) == (7, 7, -7, -7)


def test_call_scoring_double_absage_points_are_doubled() -> None:
    # §7.8 [VAR] call_scoring=double: absage points belong to the doubled value
    # Re keine 90 made with 151: (gewonnen 1 + unter_90 1 + re_keine90 1) x 2 = 6
    assert scores(deal(151, re_call=KEINE90), call_scoring="double") == (6, 6, -6, -6)


def test_call_scoring_double_lost_call() -> None:
    # §7.8 [VAR] call_scoring=double: the winner gets the doubling, gegen die Alten is added after it
    # Re called, Re 120: Kontra gewonnen 1 x 2 = 2, + gegen die Alten 1 = 3 for Kontra
    assert scores(deal(120, re_call=RE_KONTRA), call_scoring="double") == (-3, -3, 3, 3)


def test_call_scoring_double_without_winner() -> None:
    # §7.8 [VAR] call_scoring=double with no winner; decision 0003 D2: calls expire, so no doubling (TSR 7.1.3)
    # both keine 90, Re 140, Kontra 100: Re gegen_keine90 1 = 1
    assert scores(deal(140, re_call=KEINE90, kontra_call=KEINE90), call_scoring="double") == (1, 1, -1, -1)


def test_bock_multiplies_game_value_not_specials() -> None:
    # §7.8 [VAR] bock: the game value is doubled, special points are not
    # Re called, Re 121: (gewonnen 1 + re_angesagt 2) x 2 = 6; Kontra Doppelkopf -1: 5
    b = result(deal(121, tricks=[DOPPELKOPF_KONTRA], re_call=RE_KONTRA, multiplier=2))
    assert b["multiplier"] == 2
    assert b["value"] == 5


# --- §2.1 / §7.5 the 5-player table


def test_five_player_table_idle_dealer_scores_zero() -> None:
    # §2.1 / §7.5: at a 5-table the dealer (seat 0) sits out and scores 0 (TSR 10.1)
    # Re = seats 1 and 3 with 121: gewonnen 1
    facts = deal(121, re_seats=(1, 3), active=(1, 2, 3, 4), num_seats=5)
    assert scores(facts) == (0, 1, -1, 1, -1)
    assert result(facts)["kontra"] == [2, 4]


def test_five_player_table_solo() -> None:
    # §7.4 + §2.1: solo at a 5-table, dealer seat 4 idle
    # soloist 2 with 90, Kontra 150 wins: gewonnen 1 (90 is not under 90) -> soloist -3, others +1, dealer 0
    facts = deal(90, re_seats=(2,), active=(0, 1, 2, 3), num_seats=5, kind="solo", contract="herz")
    assert scores(facts) == (1, 1, -3, 1, 0)


# --- §7.3 [VAR] house special points


def test_karlchen_gefangen() -> None:
    # §7.3 [VAR] sp_karlchen_gefangen: Kontra catches Re's CJ in the last trick
    # Re 121: gewonnen 1 - karlchen_gefangen 1 = 0
    facts = deal(121, last=trick("0:CJ 1:C9 2:DQ 3:C9", winner=2))
    assert scores(facts, sp_karlchen_gefangen=True) == (0, 0, 0, 0)


def test_karlchen_gefangen_counts_each_caught_jack() -> None:
    # §7.3 [VAR] sp_karlchen_gefangen; decision 0003 D5: one point per caught CJ, like foxes
    # Kontra's DQ catches both of Re's CJ: Re 121: 1 - 2 = -1
    facts = deal(121, last=trick("0:CJ 1:CJ 2:DQ 3:C9", winner=2))
    assert scores(facts, sp_karlchen_gefangen=True) == (-1, -1, 1, 1)


def test_double_karlchen() -> None:
    # §7.3 [VAR] sp_double_karlchen: both CJ of one party in the last trick, one wins: 2 points
    # Re 121: 1 + 2 = 3 with the variant; DDV: 1 + karlchen 1 = 2 (still one point, TSR 7.2.3)
    facts = deal(121, last=trick("0:CJ 1:CJ 2:C9 3:C9", winner=0))
    assert scores(facts, sp_double_karlchen=True) == (3, 3, -3, -3)
    assert scores(facts) == (2, 2, -2, -2)


def test_double_karlchen_needs_both_jacks_from_one_party() -> None:
    # §7.3 [VAR] sp_double_karlchen: CJ from both parties is a plain Karlchen; with sp_karlchen_gefangen Kontra's is caught
    # Re 121: 1 + karlchen 1 = 2; with karlchen_gefangen too: 1 + 1 + 1 = 3
    facts = deal(121, last=trick("0:CJ 1:C9 2:CJ 3:C9", winner=0))
    assert scores(facts, sp_double_karlchen=True) == (2, 2, -2, -2)
    assert scores(facts, sp_double_karlchen=True, sp_karlchen_gefangen=True) == (3, 3, -3, -3)


def test_fuchs_last_trick() -> None:
    # §7.3 [VAR] sp_fuchs_last_trick: a DA wins the last trick; a Schwein does not count (§1.3, A-24)
    # Re 121 with Re's DA winning the last trick: 1 + 1 = 2; when seat 1 holds the Schweine: 1
    facts_last = trick("0:C9 1:DA 2:C9 3:C9", winner=1)
    assert scores(deal(121, last=facts_last), sp_fuchs_last_trick=True) == (2, 2, -2, -2)
    assert scores(deal(121, last=facts_last, schweine_seat=1), sp_fuchs_last_trick=True) == (1, 1, -1, -1)


def test_dulle_gefangen() -> None:
    # §7.3 [VAR] sp_dulle_gefangen (with second_dulle_beats_first): Kontra's second H10 beats Re's first
    # Re 121: gewonnen 1 - dulle_gefangen 1 = 0
    opts = {"second_dulle_beats_first": True, "sp_dulle_gefangen": True}
    assert scores(deal(121, tricks=[trick("0:H10 1:C9 2:H10 3:C9", winner=2)]), **opts) == (0, 0, 0, 0)


def test_dulle_of_the_partner_is_not_caught() -> None:
    # §7.3 [VAR] sp_dulle_gefangen: both H10 from one party score nothing
    # Re 121: gewonnen 1 = 1
    opts = {"second_dulle_beats_first": True, "sp_dulle_gefangen": True}
    assert scores(deal(121, tricks=[trick("0:H10 1:H10 2:C9 3:C9", winner=1)]), **opts) == (1, 1, -1, -1)


# --- the breakdown


def test_breakdown_shape_and_json() -> None:
    # §7.5 record of a game: the breakdown is JSON and has exactly the documented keys
    # Kontra 120:120 with Re called: items gewonnen 1 + re_angesagt 2 for Kontra; special gegen die Alten
    b = result(deal(120, re_call=RE_KONTRA))
    keys = "kind contract re kontra eyes tricks calls winner items specials multiplier value solo"
    assert sorted(b) == sorted(keys.split())
    assert json.loads(json.dumps(b)) == b
    assert b["re"] == [0, 1] and b["kontra"] == [2, 3]
    assert b["calls"] == {"re": "re_kontra", "kontra": "none"}
    assert b["items"] == [
        {"name": "gewonnen", "party": "kontra", "points": 1},
        {"name": "re_angesagt", "party": "kontra", "points": 2},
    ]
    assert b["specials"] == [{"name": "gegen_die_alten", "party": "kontra", "points": 1, "trick": None}]
    assert b["value"] == -4


# --- §7.6 zero sum and parity over random deals

KINDS = ("normal", "hochzeit", "armut", "solo", "stille_hochzeit", "hochzeit_solo")
PACK: tuple[Card, ...] = FACES + FACES


@st.composite
def random_deal(draw: st.DrawFn) -> DealFacts:
    """A random finished deal: a shuffled 48-card pack in 12 tricks, random parties, calls and winners."""
    num_seats = draw(st.sampled_from((4, 5)))
    idle = draw(st.integers(0, 4)) if num_seats == 5 else None
    active = tuple(s for s in range(num_seats) if s != idle)
    kind = draw(st.sampled_from(KINDS))
    size = 1 if kind in ("solo", "stille_hochzeit", "hochzeit_solo") else 2
    re_seats = frozenset(draw(st.lists(st.sampled_from(active), min_size=size, max_size=size, unique=True)))
    cards = draw(st.permutations(PACK))
    tricks = tuple(
        PlayedTrick(active, tuple(cards[4 * i : 4 * i + 4]), draw(st.sampled_from(active), label=f"winner {i}")) for i in range(12)
    )
    return DealFacts(
        num_seats=num_seats,
        active_seats=active,
        kind=kind,
        contract="normal" if size == 2 else "karo",
        re_seats=re_seats,
        re_level=draw(st.integers(NONE, SCHWARZ)),
        kontra_level=draw(st.integers(NONE, SCHWARZ)),
        tricks=tricks,
        multiplier=draw(st.sampled_from((1, 2, 4))),
        schweine_seat=draw(st.none() | st.sampled_from(active)),
    )


@st.composite
def random_options(draw: st.DrawFn) -> DoppelkopfOptions:
    """Random scoring options (the other options do not affect evaluation)."""
    flags = "re_needs_121_when_only_kontra sp_gegen_die_alten sp_doppelkopf sp_fuchs sp_karlchen"
    flags += " sp_karlchen_gefangen sp_double_karlchen sp_fuchs_last_trick specials_in_solo"
    chosen: dict[str, Any] = {flag: draw(st.booleans(), label=flag) for flag in flags.split()}
    dulle = draw(st.booleans(), label="dulle")
    return DoppelkopfOptions(
        call_scoring=draw(st.sampled_from(("add_2", "double"))),
        second_dulle_beats_first=dulle,
        sp_dulle_gefangen=dulle,
        **chosen,
    )


@settings(max_examples=300, deadline=None)
@given(random_deal(), random_options())
def test_scores_are_zero_sum_with_equal_parity(facts: DealFacts, options: DoppelkopfOptions) -> None:
    # §7.6 zero-sum and parity checks (TSR 7.3.3); §2.1 the idle dealer scores 0
    res = evaluate(facts, options)
    assert sum(res.scores) == 0
    assert len({res.scores[s] % 2 for s in facts.active_seats}) == 1
    assert all(res.scores[s] == 0 for s in range(facts.num_seats) if s not in facts.active_seats)
    assert res.breakdown["eyes"]["re"] + res.breakdown["eyes"]["kontra"] == 240
    assert json.loads(json.dumps(res.breakdown)) == res.breakdown
