"""Shared builders for the Droggn scenario tests: deals from text, scripted bidding and play, snapshots.

At a table of three the scenarios use ``dealer=2``, so seat 0 (the dealer's
left) speaks first and the active order is 0, 1, 2.  Hands are written in
the card notation of :mod:`stich.cards` (``"T21 T20 SK H1 ..."``); cards a
scenario does not fix are shared out deterministically by :func:`fill`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from stich.cards import Card, parse_cards
from stich.core.registry import make_game
from stich.games.droggn.game import Droggn
from stich.games.droggn.state import DroggnState


def game(preset: str | None = None, **options: Any) -> Droggn:
    """A Droggn game for a preset (default ``stubai``) and option overrides."""
    g = make_game("droggn", preset, options)
    assert isinstance(g, Droggn)
    return g


def pack(g: Droggn) -> list[Card]:
    """Every card of the game's pack, in face order (T1..T22, then C S H D from the top)."""
    return g.deck.cards(g.deck.full_mask)


def fill(
    g: Droggn,
    fixed: Mapping[int, str],
    *,
    talon: str = "",
    dealer: int = 2,
    avoid: Mapping[int, str] | None = None,
) -> list[list[Card]]:
    """Piles (one per seat, then the talon) with the given cards fixed; the rest shared out deterministically.

    The talon gets ``talon`` and then, if it is short, the last cards of the
    pack's face order (the lowest diamonds) that nobody fixed.  No seat gets a card its ``avoid`` text names.  The most
    constrained cards go first, each to the allowed seat with the most room
    (the lower seat on a tie).  At a table of four the dealer gets nothing.
    """
    size = g.options.hand_size
    n = g.num_seats
    piles: list[list[Card]] = [parse_cards(fixed.get(s, "")) for s in range(n)] + [parse_cards(talon)]
    used = {c for pile in piles for c in pile}
    if len(used) != sum(len(p) for p in piles):
        raise ValueError("a card is fixed twice")
    rest = [c for c in pack(g) if c not in used]
    avoid_cards = {s: set(parse_cards(t)) for s, t in (avoid or {}).items()}
    receivers = list(g.active_seats(dealer))

    def allowed(card: Card) -> list[int]:
        return [s for s in receivers if card not in avoid_cards.get(s, set())]

    while len(piles[n]) < 3:
        piles[n].append(rest.pop())
    for card in sorted(rest, key=lambda c: len(allowed(c))):
        free = [s for s in allowed(card) if len(piles[s]) < size]
        if not free:
            raise ValueError(f"no seat can take {card}")
        piles[max(free, key=lambda s: (size - len(piles[s]), -s))].append(card)
    return piles


def deal(g: Droggn, fixed: Mapping[int, str], *, talon: str = "", dealer: int = 2, avoid: Mapping[int, str] | None = None) -> DroggnState:
    """A deal with the given cards fixed (see :func:`fill`)."""
    return g.new_state(hands=fill(g, fixed, talon=talon, dealer=dealer, avoid=avoid), dealer=dealer)


def act(state: DroggnState, *actions: str) -> DroggnState:
    """Apply actions given as text (``"pass"``, ``"bid solo"``, ``"discard C4"``); returns the state."""
    for text in actions:
        state.apply(text)
    return state


def play(state: DroggnState, cards: str) -> DroggnState:
    """Play the given cards in turn (``"C10 C9 C8"``)."""
    for card in cards.split():
        state.apply(f"play {card}")
    return state


def bid(state: DroggnState, seat: int, contract: str) -> DroggnState:
    """Everybody passes except ``seat``, who bids ``contract``."""
    for _ in range(3):
        p = state.current_player()
        state.apply(f"bid {contract}" if p == seat else "pass")
    return state


def to_play(state: DroggnState, discards: str = "", lay_out: str = "") -> DroggnState:
    """From after the bidding to the first lead: discard, no buy, optional lay-out (or liege), all pass."""
    for card in discards.split():
        state.apply(f"discard {card}")
    if state.phase_name == "buy":
        state.apply("pass")
    state.apply(f"lay_out {lay_out}" if lay_out else "liege")
    while state.phase_name == "doubling":
        state.apply("pass")
    assert state.phase_name == "play"
    return state


def legal(state: DroggnState) -> set[str]:
    """Texts of the legal actions."""
    return {a.text for a in state.legal_actions()}


def legal_cards(state: DroggnState, verb: str = "play") -> set[str]:
    """Cards of the legal actions with ``verb`` (``play``, ``discard``, ``offer``, ``buy``)."""
    return {a.text.split()[1] for a in state.legal_actions() if a.kind == verb}


def snapshot(state: DroggnState) -> dict[str, Any]:
    """A deep copy of everything the state holds (for 'unchanged' checks)."""
    return {k: copy.deepcopy(v) for k, v in vars(state).items() if k not in ("game", "_result")}


def play_out(state: DroggnState) -> DroggnState:
    """Finish the deal by always taking the first legal action (deterministic)."""
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    return state


def cards(text: str) -> list[Card]:
    """Cards from text."""
    return parse_cards(text)


def hand_text(state: DroggnState, seat: int) -> set[str]:
    """The cards ``seat`` holds, as texts."""
    return {c.text for c in state.game.deck.cards(state.hand_mask(seat))}


def seats_in_order(seats: Sequence[int]) -> list[int]:
    """A list copy (for readable asserts)."""
    return list(seats)
