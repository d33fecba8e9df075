"""Shared builders for the Tapp Tarock scenario tests: deals from text, scripted play, snapshots.

Most scenarios use ``dealer=2`` at a table of three, so seat 0 is forehand,
seat 1 middlehand and seat 2 the dealer (rearhand).  Hands are written in the
card notation of :mod:`stich.cards` (``"T22 T21 CK H1 ..."``); a deal names
some cards per seat and per talon half and the rest of the pack is shared out
deterministically (see :func:`deal`).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from stich.cards import Card, format_cards, parse_cards
from stich.core.registry import make_game
from stich.games.tapp_tarock.game import TappTarock
from stich.games.tapp_tarock.pack import FACES
from stich.games.tapp_tarock.state import TappTarockState

PACK = format_cards(list(FACES))
"""The whole pack in pack order: T1..T22, then clubs, spades, hearts, diamonds from king down."""


def game(preset: str | None = None, **options: Any) -> TappTarock:
    """A Tapp Tarock game for a preset (default ``standard``) and option overrides."""
    g = make_game("tapp_tarock", preset, options)
    assert isinstance(g, TappTarock)
    return g


def piles(
    g: TappTarock,
    fixed: Mapping[int, str],
    *,
    lower: str = "",
    upper: str = "",
    dealer: int = 2,
) -> list[list[Card]]:
    """Piles of an explicit deal: ``fixed`` cards per seat, the talon halves' cards; the rest of the pack
    fills the talon halves first (3 cards each), then the hands (16 cards each, seats in order), in pack order."""
    n = g.num_seats
    hands: list[list[Card]] = [parse_cards(fixed.get(s, "")) for s in range(n)]
    talon = [parse_cards(lower), parse_cards(upper)]
    used = [c for h in hands + talon for c in h]
    if len(set(used)) != len(used):
        raise ValueError("a card is given twice")
    rest = [c for c in FACES if c not in set(used)]
    for half in talon:
        while len(half) < 3:
            half.append(rest.pop(0))
    receivers = g.receivers(dealer)
    for seat in receivers:
        while len(hands[seat]) < 16:
            hands[seat].append(rest.pop(0))
    assert not rest, "the fixed cards leave too many cards over"
    return [*hands, *talon]


def deal(
    g: TappTarock | None = None,
    fixed: Mapping[int, str] | None = None,
    *,
    lower: str = "",
    upper: str = "",
    dealer: int = 2,
) -> TappTarockState:
    """A deal from explicit cards (see :func:`piles`)."""
    g = g or game()
    return g.new_state(hands=piles(g, fixed or {}, lower=lower, upper=upper, dealer=dealer), dealer=dealer)


def act(state: TappTarockState, *actions: str) -> TappTarockState:
    """Apply actions given as text (``"bid dreier"``, ``"take lower"``, ``"play T22"``); returns the state."""
    for text in actions:
        state.apply(text)
    return state


def play(state: TappTarockState, cards: str) -> TappTarockState:
    """Play the given cards in turn (``"CK C10 T5"``)."""
    for card in cards.split():
        state.apply(f"play {card}")
    return state


def legal(state: TappTarockState) -> set[str]:
    """Texts of the legal actions."""
    return {a.text for a in state.legal_actions()}


def legal_plays(state: TappTarockState) -> set[str]:
    """Cards the player to move may play (text)."""
    return {a.text.split()[1] for a in state.legal_actions() if a.kind == "play"}


def snapshot(state: TappTarockState) -> dict[str, Any]:
    """A deep copy of everything the state holds (for 'unchanged' checks)."""
    return {k: copy.deepcopy(v) for k, v in vars(state).items() if k not in ("game", "_result")}


def to_play(state: TappTarockState, discards: str = "") -> TappTarockState:
    """From the end of the bidding to the first lead: take the lower half (if a talon game), lay away
    ``discards`` (default: the first legal cards), no announcement, nobody doubles."""
    if state.phase_name == "talon":
        state.apply("take lower" if "take lower" in legal(state) else "take upper")
    given = discards.split()
    while state.phase_name == "discard":
        state.apply(f"discard {given.pop(0)}" if given else state.legal_actions()[0])
    while state.phase_name in ("announce", "kontra"):
        state.apply("pass")
    return state


def play_out(state: TappTarockState) -> TappTarockState:
    """Finish the trick play by always playing the first legal card (deterministic)."""
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    return state
