"""Shared builders of the sampling tests: explicit deals, a keen random player, world checks."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from stich.cards import Card, parse_cards
from stich.core.game import Game, State
from stich.core.registry import make_game
from stich.games.doppelkopf import actions as A
from stich.games.doppelkopf.contracts import CQ
from stich.games.doppelkopf.game import Doppelkopf
from stich.games.doppelkopf.state import DoppelkopfState, count_face


def doppelkopf(preset: str | None = None, **options: Any) -> Doppelkopf:
    """A Doppelkopf game for a preset and option overrides."""
    game = make_game("doppelkopf", preset, options)
    assert isinstance(game, Doppelkopf)
    return game


def complete(game: Game, fixed: Mapping[int, str], dealer: int = 3) -> list[list[Card]]:
    """Piles (``game.deal_parts`` order) with ``fixed`` ones given as text; the rest of the pack dealt round robin."""
    sizes = [mask.bit_count() for mask in game.deal(0, dealer)]
    piles = [parse_cards(fixed.get(i, "")) for i in range(len(sizes))]
    left = Counter(game.deck.cards(game.deck.full_mask))
    for pile in piles:
        left.subtract(pile)
    assert all(n >= 0 for n in left.values()), "a fixed pile holds a card too often"
    rest = [card for card in sorted(left) for _ in range(left[card])]
    open_piles = [i for i in range(len(sizes)) if i not in fixed and sizes[i]]
    k = 0
    for card in rest:
        while len(piles[open_piles[k % len(open_piles)]]) >= sizes[open_piles[k % len(open_piles)]]:
            k += 1
        piles[open_piles[k % len(open_piles)]].append(card)
        k += 1
    assert [len(p) for p in piles] == sizes, "the fixed piles do not fit the deal"
    return piles


def keen_choice(state: State, rng: random.Random) -> int:
    """A random legal action that likes reservations, poverty, weddings and calls (to reach every phase)."""
    assert isinstance(state, DoppelkopfState)
    legal = state.legal_codes()
    if state.phase_name == "reservation":
        hand = state.hands[state.current_player()]
        keen = state._poor(hand) or count_face(hand, CQ) == 2 or state._throw_reason(hand) is not None
        if A.VORBEHALT in legal and rng.random() < (0.9 if keen else 0.15):
            return A.VORBEHALT
        return legal[0]
    for code, chance in ((A.ARMUT, 0.9), (A.HOCHZEIT, 0.8), (A.SCHMEISSEN, 0.5), (A.ACCEPT, 0.6)):
        if code in legal and rng.random() < chance:
            return code
    if state.phase_name == "play":
        calls = [c for c in legal if c >= A.ANNOUNCE]
        if calls and rng.random() < 0.15:
            return rng.choice(calls)
        return rng.choice([c for c in legal if c < A.ANNOUNCE])
    return rng.choice(legal)


def positions(game: Doppelkopf, rng: random.Random, deals: int) -> list[DoppelkopfState]:
    """Every state of ``deals`` random deals played with :func:`keen_choice`."""
    out = []
    for _ in range(deals):
        state = game.new_state(seed=rng.getrandbits(64), dealer=rng.randrange(game.num_seats))
        out.append(state.clone())
        while not state.is_terminal():
            state.apply(keen_choice(state, rng))
            out.append(state.clone())
    return out


def check_world(world: State, real: State, seat: int, rng: random.Random) -> None:
    """The world is indistinguishable for ``seat``, conserves the cards and plays on to the end."""
    assert world.observation(seat).to_json() == real.observation(seat).to_json()
    assert world.current_player() == real.current_player()
    if real.current_player() == seat:
        assert world.legal_codes() == real.legal_codes()
    union = 0
    for mask in world.card_places().values():
        assert not union & mask, "a card lies in two places"
        union |= mask
    assert union == world.game.deck.full_mask, "cards were lost or created"
    twin = world.clone()
    while not twin.is_terminal():
        twin.apply(rng.choice(twin.legal_codes()))
    assert len(twin.result().scores) == world.game.num_seats
