"""Shared builders for the Dobbm scenario tests: deals from text, scripted calls and play, snapshots.

Seats are 0..3 (0..4 at five players), numbered clockwise.  Most scenarios
use ``dealer=3`` so that seat 0, the dealer's left, speaks first.  Hands are
written in the card notation of :mod:`stich.cards` with the Dobbm mapping
(Eichel ``C``, Laub ``S``, Herz ``H``, Schellen ``D``; Sau ``A``, Ober ``Q``,
Unter ``J``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from stich.cards import Card, parse_cards
from stich.core.registry import make_game
from stich.games.dobbm.game import Dobbm
from stich.games.dobbm.pack import FACES
from stich.games.dobbm.state import DobbmState

# A standard deal (dealer 3): seat 0 strong in hearts, the Dobb holds low cards.
D0 = "HA H10 HK HQ CA C10 SA DA"
D1 = "HJ H9 CK CQ CJ SK SQ DK"
D2 = "H8 H7 C9 C8 S10 SJ S9 D10"
D3 = "H6 C7 C6 S8 S7 DQ DJ D9"
DOBB = "S6 D8 D7 D6"


def game(preset: str | None = None, **options: Any) -> Dobbm:
    """A Dobbm game for a preset (default ``pagat``) and option overrides."""
    g = make_game("dobbm", preset, options)
    assert isinstance(g, Dobbm)
    return g


def piles(g: Dobbm, fixed: Mapping[int, str], dobb: str | None = None, dealer: int = 3) -> list[list[Card]]:
    """The piles of a deal: ``fixed`` cards per seat and the Dobb; the rest of the pack fills the gaps in pack order."""
    n = g.num_seats
    hands: list[list[Card]] = [parse_cards(fixed.get(s, "")) for s in range(n)]
    talon = parse_cards(dobb or "")
    used = [c for h in hands for c in h] + talon
    if len(set(used)) != len(used):
        raise ValueError("a card is given twice")
    rest = [c for c in FACES if c not in used]
    for s in range(n):
        want = 0 if (n == 5 and s == dealer) else 8
        while len(hands[s]) < want:
            hands[s].append(rest.pop(0))
    while len(talon) < 4:
        talon.append(rest.pop(0))
    assert not rest
    return [*hands, talon]


def deal(
    g: Dobbm | None = None,
    fixed: Mapping[int, str] | None = None,
    dobb: str | None = None,
    *,
    dealer: int = 3,
    context: Mapping[str, Any] | None = None,
) -> DobbmState:
    """A deal from explicit hands (default: the standard deal D0..D3 + DOBB)."""
    g = g or game()
    if fixed is None:
        fixed = {0: D0, 1: D1, 2: D2, 3: D3}
        dobb = DOBB if dobb is None else dobb
    return g.new_state(hands=piles(g, fixed, dobb, dealer), dealer=dealer, context=context)


def act(state: DobbmState, *actions: str) -> DobbmState:
    """Apply actions given as text; returns the state."""
    for text in actions:
        state.apply(text)
    return state


def play(state: DobbmState, cards: str) -> DobbmState:
    """Play the given cards in turn (``"HA H9 H8 H6"``)."""
    for card in cards.split():
        state.apply(f"play {card}")
    return state


def discard(state: DobbmState, cards: str) -> DobbmState:
    """The declarer discards the given cards in turn."""
    for card in cards.split():
        state.apply(f"discard {card}")
    return state


def legal(state: DobbmState) -> set[str]:
    """Texts of the legal actions."""
    return {a.text for a in state.legal_actions()}


def legal_cards(state: DobbmState, verb: str = "play") -> set[str]:
    """Cards the player to move may play (or discard)."""
    return {a.text.split()[1] for a in state.legal_actions() if a.kind == verb}


def snapshot(state: DobbmState) -> dict[str, Any]:
    """A deep copy of everything the state holds (for 'unchanged' checks)."""
    return {k: copy.deepcopy(v) for k, v in vars(state).items() if k not in ("game", "_result")}


def accept_all(state: DobbmState) -> DobbmState:
    """Everybody to speak in the doubling round says accept (gut)."""
    while state.phase_name == "doubling":
        state.apply("accept")
    return state


def play_out(state: DobbmState) -> DobbmState:
    """Finish the deal with the first legal action each time (accepting in the doubling round)."""
    while not state.is_terminal():
        actions = state.legal_actions()
        quiet = [a for a in actions if a.text in ("accept", "pass")]
        state.apply((quiet or actions)[0])
    return state
