"""Scenario tests for the card order of every game type (dossier §1.3).

``REFERENCE`` writes each order down again, straight from the dossier's tables,
independently of ``contracts.py``; one test compares the engine's tables with
it and the scenario tests play one decisive trick per solo type.
"""

from __future__ import annotations

import pytest

from stich.cards import parse_card
from stich.games.doppelkopf.contracts import CONTRACTS, SUITS, TRUMP, card_order, face
from stich.games.doppelkopf.options import ALL_SOLOS

from .helpers import deal_hands, fill, game, legal_plays, play, public, solo, winner_of_last_trick

_Q = ["CQ", "SQ", "HQ", "DQ"]
_J = ["CJ", "SJ", "HJ", "DJ"]
_K = ["CK", "SK", "HK", "DK"]


def _suit(letter: str, ranks: str) -> list[str]:
    return [letter + r for r in ranks.split()]


def _ref(trumps: list[str], plain: str, short_hearts: bool = False) -> tuple[list[str], dict[str, list[str]]]:
    """Reference order: trumps high to low, and per plain suit the cards (not trumps) high to low."""
    suits: dict[str, list[str]] = {}
    for letter in "CSHD":
        cards = [c for c in _suit(letter, plain) if c not in trumps]
        suits[letter] = cards
    return trumps, suits


_COLOUR_QJ = ["H10", *_Q, *_J]
REFERENCE: dict[str, tuple[list[str], dict[str, list[str]]]] = {
    # DDV game types [TSR 2.3.3-2.3.7]
    "normal": _ref([*_COLOUR_QJ, *_suit("D", "A 10 K 9")], "A 10 K 9"),
    "karo": _ref([*_COLOUR_QJ, *_suit("D", "A 10 K 9")], "A 10 K 9"),
    "kreuz": _ref([*_COLOUR_QJ, *_suit("C", "A 10 K 9")], "A 10 K 9"),
    "pik": _ref([*_COLOUR_QJ, *_suit("S", "A 10 K 9")], "A 10 K 9"),
    "herz": _ref([*_COLOUR_QJ, *_suit("H", "A K 9")], "A 10 K 9"),
    "damen": _ref(_Q, "A 10 K J 9"),
    "buben": _ref(_J, "A 10 K Q 9"),
    "fleischlos": _ref([], "A 10 K Q J 9"),
    # house solos [VAR]
    "koenig": _ref(_K, "A 10 Q J 9"),
    "damen_buben": _ref([*_Q, *_J], "A 10 K 9"),
    "koenig_damen": _ref([*_K, *_Q], "A 10 J 9"),
    "koenig_buben": _ref([*_K, *_J], "A 10 Q 9"),
    "koehler": _ref([*_K, *_Q, *_J], "A 10 9"),
    "zehner": _ref(["C10", "S10", "H10", "D10"], "A K Q J 9"),
    "rein_kreuz": _ref(_suit("C", "A 10 K Q J 9"), "A 10 K Q J 9"),
    "rein_pik": _ref(_suit("S", "A 10 K Q J 9"), "A 10 K Q J 9"),
    "rein_herz": _ref(_suit("H", "A 10 K Q J 9"), "A 10 K Q J 9"),
    "rein_karo": _ref(_suit("D", "A 10 K Q J 9"), "A 10 K Q J 9"),
}


def _engine_order(name: str, dullen: bool = True) -> tuple[list[str], dict[str, list[str]]]:
    order = card_order(CONTRACTS[name], dullen)
    faces = [c.text for c in (parse_card(t) for s in "CSHD" for t in _suit(s, "A 10 K Q J 9"))]

    def ranked(eff: int) -> list[str]:
        cards = [t for t in faces if order.eff[face(t)] == eff]
        return sorted(cards, key=lambda t: -order.strength[face(t)])

    return ranked(TRUMP), {s.letter: ranked(i) for i, s in enumerate(SUITS)}


def test_reference_covers_every_game_type() -> None:
    # §1.3 every game type of the engine has a reference order here
    assert set(REFERENCE) == set(CONTRACTS)
    assert set(ALL_SOLOS) == set(CONTRACTS) - {"normal"}


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_card_order_matches_dossier(name: str) -> None:
    # §1.3 trumps high to low and the plain suits' orders, per game type
    trumps, suits = _engine_order(name)
    assert trumps == REFERENCE[name][0]
    assert suits == REFERENCE[name][1]


def test_card_order_without_dullen() -> None:
    # §1.3 [VAR] normal game without Dullen: queens on top, H10 a plain heart between ace and king
    trumps, suits = _engine_order("normal", dullen=False)
    assert trumps == [*_Q, *_J, "DA", "D10", "DK", "D9"]
    assert suits["H"] == ["HA", "H10", "HK", "H9"]


def test_trump_counts() -> None:
    # §1.3 26/22 trumps/plain in colour solos (Herz 24), 8 in Damen/Buben, 0 in Fleischlos (with nines)
    counts = {name: len(REFERENCE[name][0]) for name in ("normal", "kreuz", "pik", "herz", "damen", "buben", "fleischlos")}
    assert counts == {"normal": 13, "kreuz": 13, "pik": 13, "herz": 12, "damen": 4, "buben": 4, "fleischlos": 0}


def _effective(name: str, card: str) -> str:
    trumps, suits = REFERENCE[name]
    if card in trumps:
        return "T"
    return next(letter for letter, cards in suits.items() if card in cards)


def _faces_of(name: str, eff: str) -> list[str]:
    trumps, suits = REFERENCE[name]
    return trumps if eff == "T" else suits[eff]


# (solo, the four cards of trick 1 as seats 0..3 play them, winner, the rule shown)
TRICKS = [
    ("karo", "CA D9 CK C9", 1, "the diamond nine is a trump and beats a plain ace"),
    ("karo", "DA H10 CQ D10", 1, "the Dulle tops the queens"),
    ("kreuz", "DJ CA C10 C9", 0, "the jacks rank above the club ace"),
    ("kreuz", "DA D10 C9 DK", 2, "diamonds are plain; the club nine ruffs"),
    ("pik", "SA DJ S9 SK", 1, "the jacks rank above the spade ace"),
    ("pik", "DA D10 S9 DK", 2, "diamonds are plain; the spade nine ruffs"),
    ("herz", "HA HQ H9 HK", 1, "the queens rank above the heart ace"),
    ("herz", "H10 CQ HA HK", 0, "the Dullen stay on top in a Herz solo"),
    ("herz", "DA D10 H9 DK", 2, "diamonds are plain; the heart nine ruffs"),
    ("damen", "CJ CA C9 CK", 1, "jacks are plain clubs"),
    ("damen", "HA H10 HK DQ", 3, "the H10 is a plain heart; the DQ ruffs"),
    ("damen", "SQ CQ HQ DQ", 1, "queens in suit order"),
    ("buben", "C9 CQ C9 CK", 3, "queens are plain, under the king"),
    ("buben", "HA DJ H10 HK", 1, "a jack ruffs the heart ace"),
    ("fleischlos", "CQ CJ C9 CK", 3, "no trumps: K Q J 9 within the suit"),
    ("fleischlos", "HA H10 HK DQ", 0, "the DQ is just a diamond; the H10 a plain heart"),
    ("koenig", "CA DK C10 CQ", 1, "a king ruffs"),
    ("koenig", "SK DK CK HK", 2, "the kings in suit order"),
    ("koenig", "CQ CJ C10 C9", 2, "queens are plain, under the ten"),
    ("damen_buben", "DJ DQ CJ SJ", 1, "every queen above every jack"),
    ("damen_buben", "HA H10 HK H9", 0, "the H10 is a plain heart"),
    ("koenig_damen", "CQ DK SQ HQ", 1, "every king above every queen"),
    ("koenig_damen", "CJ C10 C9 CA", 3, "jacks are plain"),
    ("koenig_buben", "CJ DK SJ HJ", 1, "every king above every jack"),
    ("koenig_buben", "CQ CA C9 C10", 1, "queens are plain"),
    ("koehler", "CQ DK SQ HQ", 1, "kings above queens"),
    ("koehler", "CJ DQ SJ HJ", 1, "queens above jacks"),
    ("zehner", "D10 C10 S10 H10", 1, "the tens in suit order C S H D"),
    ("zehner", "CA D10 CK CQ", 1, "a ten ruffs the ace"),
    ("rein_kreuz", "CQ CA CJ C9", 1, "pure clubs: the ace tops the suit"),
    ("rein_kreuz", "DA DQ D10 C9", 3, "the DQ is a plain diamond; the club nine ruffs"),
    ("rein_pik", "SJ SK SQ SA", 3, "pure spades: A 10 K Q J 9"),
    ("rein_pik", "HA HQ H10 S9", 3, "the H10 is a plain heart; the spade nine ruffs"),
    ("rein_herz", "HQ H10 HA HK", 2, "no Dullen: the heart ace tops the heart ten"),
    ("rein_herz", "CA CQ H9 C10", 2, "a heart ruffs; the CQ is a plain club"),
    ("rein_karo", "DQ DA DJ D9", 1, "pure diamonds: the ace tops the queen"),
    ("rein_karo", "CA CQ DQ C10", 2, "the DQ ruffs; the CQ is a plain club"),
    ("rein_karo", "H10 HA HK H9", 1, "the H10 is a plain heart under the ace"),
]


@pytest.mark.parametrize(("name", "cards", "winner", "why"), TRICKS, ids=[f"{t[0]}-{i}" for i, t in enumerate(TRICKS)])
def test_solo_trick(name: str, cards: str, winner: int, why: str) -> None:
    # §1.3 one decisive trick per solo type, played through the engine (soloist 0 leads a Pflichtsolo, §2.1)
    played = cards.split()
    led = _effective(name, played[0])
    avoid = {seat: _faces_of(name, led) for seat, card in enumerate(played) if seat and _effective(name, card) != led}
    hands = fill(dict(enumerate(played)), avoid=avoid)
    s = deal_hands(game(solos=list(ALL_SOLOS)), hands)
    solo(s, 0, name)
    assert public(s)["contract"] == name
    assert s.current_player() == 0
    play(s, played[0])
    for card in played[1:]:
        assert card in legal_plays(s), why
        play(s, card)
    assert winner_of_last_trick(s) == winner, why


def test_house_solo_needs_option() -> None:
    # §8.3 only the enabled solo types can be named (default: the seven DDV solos)
    s = deal_hands(game(), fill({}))
    for seat in s.active:
        s.apply("vorbehalt" if seat == 0 else "gesund")
    offered = {a.text.split()[1] for a in s.legal_actions() if a.kind == "solo"}
    assert offered == {"karo", "kreuz", "pik", "herz", "damen", "buben", "fleischlos"}
