"""Shared builders for the Doppelkopf scenario tests: hands from text, scripted play, snapshots.

Seats are 0..3 (0..4 at a five-player table).  Most scenarios use ``dealer=3``
so that seat 0, the dealer's left neighbour, speaks first and leads a normal
game.  Hands are written in the card notation of :mod:`stich.cards`
(``"CQ CQ H10 SA ..."``).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from stich.cards import Card, format_cards, parse_cards
from stich.core.game import TrickView
from stich.core.registry import make_game
from stich.games.doppelkopf.game import Doppelkopf
from stich.games.doppelkopf.state import DoppelkopfState

SUITS = "CSHD"
RANKS = ("A", "10", "K", "Q", "J", "9")


def game(preset: str | None = None, **options: Any) -> Doppelkopf:
    """A Doppelkopf game for a preset (default ``ddv``) and option overrides."""
    g = make_game("doppelkopf", preset, options)
    assert isinstance(g, Doppelkopf)
    return g


def pack(nines: bool = True) -> list[Card]:
    """Every physical card of the pack (two copies of each face), in a fixed order."""
    ranks = RANKS if nines else RANKS[:-1]
    return parse_cards(" ".join(f"{s}{r} {s}{r}" for s in SUITS for r in ranks))


def rest_of_pack(hands: Sequence[str], nines: bool = True) -> str:
    """The cards of the pack that ``hands`` do not hold, as text."""
    left = Counter(pack(nines))
    for text in hands:
        left.subtract(parse_cards(text))
    if any(n < 0 for n in left.values()):
        raise ValueError("the given hands hold a card more often than the pack does")
    out = []
    for card in pack(nines):
        if left[card] > 0:
            out.append(card)
            left[card] -= 1
    return format_cards(out)


def fill(
    fixed: Mapping[int, str],
    *,
    seats: int = 4,
    dealer: int = 3,
    nines: bool = True,
    avoid: Mapping[int, Sequence[str]] | None = None,
) -> list[list[Card]]:
    """Hands with the given cards fixed; the rest of the pack is shared out deterministically.

    No seat gets a face its ``avoid`` list names.  The most constrained cards
    go first, each to the allowed seat with the most room left (the lower seat
    on a tie).  At a five-player table the dealer gets nothing.
    """
    size = 12 if nines else 10
    avoid_faces = {s: set(parse_cards(" ".join(v))) for s, v in (avoid or {}).items()}
    hands: list[list[Card]] = [parse_cards(fixed.get(s, "")) for s in range(seats)]
    left = Counter(pack(nines))
    for hand in hands:
        left.subtract(hand)
    if any(n < 0 for n in left.values()):
        raise ValueError("the fixed cards hold a card more often than the pack does")
    receivers = [s for s in range(seats) if seats == 4 or s != dealer]
    remaining: list[Card] = []
    for card in pack(nines):
        if left[card] > 0:
            remaining.append(card)
            left[card] -= 1

    def allowed(card: Card) -> list[int]:
        return [s for s in receivers if card not in avoid_faces.get(s, set())]

    for card in sorted(remaining, key=lambda c: len(allowed(c))):
        seats_free = [s for s in allowed(card) if len(hands[s]) < size]
        if not seats_free:
            raise ValueError(f"no seat can take {card}")
        hands[max(seats_free, key=lambda s: (size - len(hands[s]), -s))].append(card)
    return hands


def deal(
    g: Doppelkopf,
    *hands: str,
    dealer: int = 3,
    context: Mapping[str, Any] | None = None,
) -> DoppelkopfState:
    """A deal from explicit hand texts, one per seat; a missing last hand gets the rest of the pack."""
    texts = list(hands)
    expected = g.num_seats
    if len(texts) == expected - 1:
        texts.append(rest_of_pack(texts, g.options.nines))
    return g.new_state(hands=[parse_cards(t) for t in texts], dealer=dealer, context=context)


def deal_hands(g: Doppelkopf, hands: list[list[Card]], dealer: int = 3, context: Mapping[str, Any] | None = None) -> DoppelkopfState:
    """A deal from hands already parsed (e.g. built by :func:`fill`)."""
    return g.new_state(hands=hands, dealer=dealer, context=context)


def act(state: DoppelkopfState, *actions: str) -> DoppelkopfState:
    """Apply actions given as text (``"gesund"``, ``"play H10"``, ``"announce re"``); returns the state."""
    for text in actions:
        state.apply(text)
    return state


def play(state: DoppelkopfState, cards: str) -> DoppelkopfState:
    """Play the given cards in turn (``"CA C9 CK C10"``)."""
    for card in cards.split():
        state.apply(f"play {card}")
    return state


def healthy(state: DoppelkopfState) -> DoppelkopfState:
    """Everyone says gesund."""
    for _ in state.active:
        state.apply("gesund")
    return state


def solo(state: DoppelkopfState, seat: int, name: str) -> DoppelkopfState:
    """``seat`` reserves, everybody else is healthy, and ``seat`` names the solo ``name``."""
    for s in state.active:
        assert state.current_player() == s
        state.apply("vorbehalt" if s == seat else "gesund")
    state.apply(f"solo {name}")
    return state


def legal(state: DoppelkopfState) -> set[str]:
    """Texts of the legal actions."""
    return {a.text for a in state.legal_actions()}


def legal_plays(state: DoppelkopfState) -> set[str]:
    """Cards the player to move may play (text)."""
    return {a.text.split()[1] for a in state.legal_actions() if a.kind == "play"}


def legal_calls(state: DoppelkopfState) -> set[str]:
    """Announcements the player to move may make (``re``, ``keine90``...)."""
    return {a.text.split()[1] for a in state.legal_actions() if a.kind == "announce"}


def last_trick(state: DoppelkopfState) -> TrickView:
    """The last completed trick as the table sees it."""
    done = [t for t in state.observation(0).tricks if t.winner is not None]
    assert done, "no trick completed yet"
    return done[-1]


def winner_of_last_trick(state: DoppelkopfState) -> int:
    """Seat that won the last completed trick."""
    w = last_trick(state).winner
    assert w is not None
    return w


def public(state: DoppelkopfState, seat: int = 0) -> Mapping[str, Any]:
    """Public facts of the observation of ``seat``."""
    return state.observation(seat).public


def snapshot(state: DoppelkopfState) -> dict[str, Any]:
    """A deep copy of everything the state holds (for 'unchanged' checks)."""
    return {k: copy.deepcopy(v) for k, v in vars(state).items() if k not in ("game", "_result")}


def play_out(state: DoppelkopfState) -> DoppelkopfState:
    """Finish the deal by always taking the first legal non-announcement action (deterministic)."""
    while not state.is_terminal():
        actions = state.legal_actions()
        quiet = [a for a in actions if a.kind != "announce"]
        state.apply((quiet or actions)[0])
    return state
