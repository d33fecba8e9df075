"""One-line reasons for a costly decision, in German and English, where one can be given.

A reason never rests on a card the seat could not know at the time, except
where it tells what then happened in the finished deal (the whole record is
the owner's once the deal is over):

* **the Fuchs was caught** (Doppelkopf): the seat played a diamond ace and
  the record's result credits its catch in that trick to the other party;
* **the partner was void**: the search's choice leads a suit in which the
  seat's partner (its partner in every sampled world) had shown a void:
  it played another suit to a trick of that suit;
* **the trick went to the other side**: the played card's trick went to the
  other side in the deal, while the search's card, with the trick finished
  by the rollout bots, wins it for the seat's side in most worlds.

The checks run in this order; the first that holds is the reason.  Where
none holds, :func:`better_in` says in how many of the sampled worlds the
better action scored more and in how many less (a bid, a call, a discard).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

from stich.core.game import Action, Observation, State
from stich.core.tricks import EXCUSE, TRUMP
from stich.search.perfect_info import teams
from stich.search.policy import Policy

SUIT_SIGNS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
"""Suit letters of the French-suited packs and their signs, for the reasons' texts."""

_ORDERS: dict[str, str] = {
    "tapp_tarock": "stich.games.tapp_tarock.pack",
    "dobbm": "stich.games.dobbm.pack",
    "dappen": "stich.games.dappen.pack",
}
"""Games whose suit order is fixed for the whole game (their pack module's ``ORDER``); the others keep it on the state."""


def _follow_masks(state: State) -> Sequence[int] | None:
    """Per effective suit, the physical cards that follow it in ``state``'s contract (``None``: unknown)."""
    order = getattr(state, "order", None)  # the contract's order, public on the states that change it (Doppelkopf, Droggn)
    if order is None and state.game.name in _ORDERS:
        order = importlib.import_module(_ORDERS[state.game.name]).ORDER
    follow = getattr(order, "follow", None)
    return tuple(follow) if follow is not None else None


def _suit_sign(face: str) -> str:
    """The suit of a card as a sign where the pack has French suits, else the card itself."""
    return SUIT_SIGNS.get(face[:1], face) if len(face) >= 2 else face


def fuchs_caught(game: str, seat: int, played: Action, trick: int | None, result: Mapping[str, Any]) -> dict[str, str] | None:
    """ "The Fuchs was caught": the seat's diamond ace went to the other party in trick ``trick`` (Doppelkopf)."""
    if game != "doppelkopf" or trick is None or played.text != "play DA":
        return None
    own = "re" if seat in result.get("re", ()) else "kontra"
    for special in result.get("specials", ()):
        if special.get("name") == "fuchs_gefangen" and special.get("trick") == trick and special.get("party") != own:
            return {"de": f"Der Fuchs (♦A) wurde in Stich {trick + 1} gefangen.", "en": f"The Fuchs (♦A) was caught in trick {trick + 1}."}
    return None


def partner_void(seat: int, before: State, best: Action, worlds: Sequence[State], played: Action | None = None) -> dict[str, str] | None:
    """ "The partner was void in ♠": the best action leads a plain suit in which the seat's partner has shown a void.

    The partner is who plays with the seat in every world (so the seat knew
    it); the void is one the seat saw (the partner played another suit to a
    trick of that suit), never one the worlds merely happen to deal.  Not
    said when the seat's own card led the same suit.
    """
    if best.kind != "play" or not worlds or not _leading(before):
        return None
    follow = _follow_masks(before)
    if follow is None:
        return None
    face = best.text.split(" ", 1)[1]
    suit = _suit_of(before, face, follow)
    if suit is None or suit in (TRUMP, EXCUSE):
        return None
    if played is not None and played.kind == "play" and _suit_of(before, played.text.split(" ", 1)[1], follow) == suit:
        return None
    partners: set[int] | None = None
    for world in worlds:
        side = teams(world)
        mates = {s for s in range(len(side)) if s != seat and side[s] == side[seat]}
        partners = mates if partners is None else partners & mates
    voids = shown_voids(before.observation(seat), before, follow)
    if not partners or not any(suit in voids.get(p, set()) for p in partners):
        return None
    sign = _suit_sign(face)
    return {
        "de": f"Der Partner war in {sign} frei (er konnte stechen): {face} ausspielen.",
        "en": f"The partner was void in {sign} (could trump): lead {face}.",
    }


def _suit_of(state: State, face: str, follow: Sequence[int]) -> int | None:
    """The effective suit of the card ``face`` in ``state``'s contract."""
    deck = state.game.deck
    for suit, mask in enumerate(follow):
        probe = mask
        while probe:
            low = probe & -probe
            if deck.card(low.bit_length() - 1).text == face:
                return suit
            probe ^= low
    return None


def shown_voids(observation: Observation, state: State, follow: Sequence[int]) -> dict[int, set[int]]:
    """Per seat, the effective suits it has shown a void in: it played another suit (not an excuse) to a trick of that suit."""
    plays = [(mover, text.split(" ", 1)[1]) for mover, text in observation.events if text.startswith("play ")]
    voids: dict[int, set[int]] = {}
    position = 0
    for trick in observation.tricks:
        cards = plays[position : position + len(trick.cards)]
        position += len(trick.cards)
        led = next((_suit_of(state, face, follow) for _, face in cards if _suit_of(state, face, follow) != EXCUSE), None)
        if led is None:
            continue
        for mover, face in cards:
            suit = _suit_of(state, face, follow)
            if suit not in (led, EXCUSE, None):
                voids.setdefault(mover, set()).add(led)
    return voids


def _leading(state: State) -> bool:
    """Whether the mover of ``state`` leads a trick (no trick in progress holds a card)."""
    tricks = state.observation(state.current_player()).tricks
    return not (tricks and tricks[-1].winner is None and tricks[-1].cards)


def trick_lost(
    seat: int,
    trick: int | None,
    played: Action,
    best: Action,
    final: State,
    worlds: Sequence[State],
    players: Sequence[Policy],
) -> dict[str, str] | None:
    """ "The trick went to the other side; X wins it in k of n worlds": a card that lost a trick the search's card wins."""
    if played.kind != "play" or best.kind != "play" or trick is None or not worlds:
        return None
    finished = final.observation(seat).tricks
    winner = finished[trick].winner if trick < len(finished) else None
    side = teams(final)
    if winner is None or side[winner] == side[seat]:
        return None
    won = sum(1 for world in worlds if _wins_trick(world, seat, best, players))
    if 2 * won <= len(worlds):
        return None
    face = best.text.split(" ", 1)[1]
    return {
        "de": f"Der Stich ging an die Gegenseite (Platz {winner}); {face} gewinnt ihn in {won} von {len(worlds)} Welten.",
        "en": f"The trick went to the other side (seat {winner}); {face} wins it in {won} of {len(worlds)} worlds.",
    }


def _wins_trick(world: State, seat: int, card: Action, players: Sequence[Policy]) -> bool:
    """Whether ``seat``'s side takes the current trick of ``world`` after ``card``, the rollout bots playing the rest of it."""
    state = world.clone()
    done = len(state.observation(seat).tricks)
    if state.observation(seat).tricks and state.observation(seat).tricks[-1].winner is None:
        done -= 1
    state.apply(card.code)
    while not state.is_terminal():
        views = state.observation(seat).tricks
        if len(views) > done and views[done].winner is not None:
            break
        codes = state.legal_codes()
        mover = state.current_player()
        state.apply(codes[0] if len(codes) == 1 else players[mover].choose(state.observation(mover)))
    views = state.observation(seat).tricks
    taker = views[done].winner if len(views) > done else None
    side = teams(state)
    return taker is not None and side[taker] == side[seat]


def better_in(played: Action, best: Action, diffs: Sequence[float]) -> dict[str, str] | None:
    """ "X scores more than Y in k of n worlds (less in m)": the paired comparison behind the cost, in words."""
    if not diffs:
        return None
    more = sum(1 for d in diffs if d > 0)
    less = sum(1 for d in diffs if d < 0)
    n = len(diffs)
    return {
        "de": f"{best.text} bringt in {more} von {n} Welten mehr als {played.text}, in {less} weniger.",
        "en": f"{best.text} scores more than {played.text} in {more} of {n} worlds, less in {less}.",
    }
