"""Shared builders for the Dappen scenario tests: deals from text, scripted bidding and play, snapshots.

Seats are numbered in the direction of play (anticlockwise at the table).
Most scenarios use six players and ``dealer=5``, so that seat 0 (the dealer's
right) speaks first, seat 4 (the dealer's left) is the second-to-last player
of rule (b), and the dealer speaks last.  Hands are written in the card
notation of :mod:`stich.cards`: trumps ``T1``..``T22``, black suits
``K Q C J 10 9 8 7``, red suits ``K Q C J 1 2 3 4``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from stich.cards import Card, format_cards, parse_cards
from stich.core.registry import make_game
from stich.games.dappen.game import Dappen
from stich.games.dappen.pack import FACES
from stich.games.dappen.state import DappenState


def game(preset: str | None = None, **options: Any) -> Dappen:
    """A Dappen game for a preset (default ``furtwangen``) and option overrides."""
    g = make_game("dappen", preset, options)
    assert isinstance(g, Dappen)
    return g


def rest_of_pack(*texts: str) -> str:
    """The cards of the pack that ``texts`` do not hold, in pack order."""
    used = [c for t in texts for c in parse_cards(t)]
    assert len(used) == len(set(used)), "a card is given twice"
    return format_cards([c for c in FACES if c not in used])


def deal(g: Dappen, hands: Mapping[int, str], dapp: str | None = None, dealer: int = 5) -> DappenState:
    """A deal from explicit hands (every receiving seat); the Dapp is given or gets the rest of the pack."""
    texts = [hands.get(seat, "") for seat in range(g.num_seats)]
    talon = dapp if dapp is not None else rest_of_pack(*texts)
    return g.new_state(hands=[parse_cards(t) for t in [*texts, talon]], dealer=dealer)


def fill(g: Dappen, fixed: Mapping[int, str], dapp: str = "", dealer: int = 5) -> DappenState:
    """A deal with the given cards fixed; the rest of the pack is dealt round-robin in pack order to the piles with room."""
    active = g.active_seats(dealer)
    piles: dict[int, list[Card]] = {seat: parse_cards(fixed.get(seat, "")) for seat in active}
    talon = parse_cards(dapp)
    used = [c for cards in piles.values() for c in cards] + talon
    assert len(used) == len(set(used)), "a card is given twice"
    left = [c for c in FACES if c not in used]
    order = [*active, -1]
    i = 0
    for card in left:
        while True:
            target = order[i % len(order)]
            i += 1
            pile = talon if target == -1 else piles[target]
            if len(pile) < (g.dapp_size if target == -1 else g.hand_size):
                pile.append(card)
                break
    hands = [piles.get(seat, []) for seat in range(g.num_seats)]
    return g.new_state(hands=[*hands, talon], dealer=dealer)


def act(state: DappenState, *actions: str) -> DappenState:
    """Apply actions given as text (``"pass"``, ``"bid dapp"``, ``"play T22"``); returns the state."""
    for text in actions:
        state.apply(text)
    return state


def play(state: DappenState, cards: str) -> DappenState:
    """Play the given cards in turn (``"T22 C7 S7 ..."``)."""
    for card in cards.split():
        state.apply(f"play {card}")
    return state


def discard(state: DappenState, cards: str) -> DappenState:
    """The lone player lays the given cards away."""
    for card in cards.split():
        state.apply(f"discard {card}")
    return state


def passes_until(state: DappenState, seat: int) -> DappenState:
    """Everybody passes until ``seat`` is to move (in the current round)."""
    while state.current_player() != seat:
        state.apply("pass")
    return state


def solo(state: DappenState, seat: int) -> DappenState:
    """Everybody before ``seat`` passes the Solo question, ``seat`` bids Solo."""
    assert state.phase_name == "solo"
    passes_until(state, seat)
    return act(state, "bid solo")


def begin_play(state: DappenState) -> DappenState:
    """The lone player passes the Ulti question, which every game with an Ulti asks (decision 0040)."""
    if state.phase_name == "ulti":
        state.apply("pass")
    assert state.phase_name == "play"
    return state


def dapp(state: DappenState, seat: int) -> DappenState:
    """All pass the Solo question; in the Dapp round ``seat`` dapps and everybody after passes."""
    if state.phase_name == "solo":
        for _ in state.active:
            state.apply("pass")
    passes_until(state, seat)
    state.apply("bid dapp")
    while state.phase_name == "dapp":
        state.apply("pass")
    return state


def legal(state: DappenState) -> set[str]:
    """Texts of the legal actions."""
    return {a.text for a in state.legal_actions()}


def legal_plays(state: DappenState) -> set[str]:
    """Cards the player to move may play (text)."""
    return {a.text.split()[1] for a in state.legal_actions() if a.kind == "play"}


def legal_discards(state: DappenState) -> set[str]:
    """Cards the lone player may lay away (text)."""
    return {a.text.split()[1] for a in state.legal_actions() if a.kind == "discard"}


def snapshot(state: DappenState) -> dict[str, Any]:
    """A deep copy of everything the state holds (for 'unchanged' checks)."""
    return {k: copy.deepcopy(v) for k, v in vars(state).items() if k not in ("game", "_result")}


def texts(cards: Sequence[Card]) -> set[str]:
    """Card texts of a card list."""
    return {c.text for c in cards}


def last_trick_winner(state: DappenState) -> int:
    """Seat that won the last completed trick."""
    return state.tricks[-1][2]
