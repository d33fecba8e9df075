"""Dobbm worlds consistent with one seat's observation (dossier sections in brackets).

Fixed cards
    the seat's hand; the cards played, by whom; for a Dobbm declarer the Dobb
    it picked up and its discards [§4.2]; once the deal is counted the
    discards (Dobbm) or the untouched Dobb (Solo), shown to everybody [§7.1].

Hidden places
    the other players' hands; the Dobb while it lies in the centre; the
    Dobbm declarer's discards, face down.

Facts
    * trick play: follow suit, else trump (hearts), else anything [§6], so a
      player who did not follow holds none of the suit led, and one who did
      not trump either holds no heart;
    * the declarer's discards keep the Sow rule [§4.1, §10.4]: at most as
      many Sows as covering hearts, and while the exchange runs the
      shortfall can still be made up.

Nothing is left to verification: bidding and doubling depend on no card.
Seen from outside, which four of the declarer's cards were the Dobb is
unknowable and irrelevant to play; the sampler picks four at random.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from stich.cards import Card, iter_bits
from stich.core.game import Observation, State
from stich.games.dobbm import actions as A
from stich.games.dobbm.pack import CONTRACTS, DECK, DOBB_SIZE, HEARTS, NON_SOW_HEARTS, ORDER, PLAIN_SOWS, SOWS
from stich.games.dobbm.state import DobbmState
from stich.search.sampling import Allocation, Constraints, World, WorldSampler, follow_exclusions, trick_plays

if TYPE_CHECKING:
    from stich.games.dobbm.game import Dobbm


def _mask(cards: list[str] | tuple[Card, ...]) -> int:
    """Card mask of cards given as texts or cards."""
    out = 0
    for card in cards:
        out |= 1 << DECK.face_index[card if isinstance(card, Card) else Card.parse(card)]
    return out


class DobbmWorldSampler(WorldSampler):
    """Worlds for one Dobbm observation; see the module docstring for what is modelled."""

    game: Dobbm

    def __init__(self, game: Dobbm, observation: Observation, **kwargs: Any) -> None:
        super().__init__(game, observation, **kwargs)
        obs = observation
        pub = obs.public
        self.seat = obs.seat
        self.dealer = int(pub["dealer"])
        self.active = [int(s) for s in pub["active"]]
        self.declarer: int | None = pub["declarer"]
        contract = pub["contract"]
        self.exchanges = contract is not None and CONTRACTS[str(contract)].exchanges
        self.context: dict[str, Any] = {"mussrunde": bool(pub["mussrunde"])}
        if pub["forced_declarer"] is not None:
            self.context["forced_declarer"] = int(pub["forced_declarer"])
        self.codes: list[int | None] = []
        for _actor, text in obs.events:
            self.codes.append(None if text == "discard ?" else self.game.actions.parse(text).code)
        self.own = _mask(obs.hand)
        self.played = dict.fromkeys(self.active, 0)
        self.exclude = dict.fromkeys(self.active, 0)
        for plays in trick_plays(obs.tricks, self.active):
            indexed = [(s, DECK.face_index[c]) for s, c in plays]
            for s, i in indexed:
                self.played[s] |= 1 << i
            for s, gone in follow_exclusions(ORDER, indexed, must_trump=True).items():
                self.exclude[s] |= gone
        # What lies where, as far as the seat knows.
        laid = _mask(pub["laid_away"]) if "laid_away" in pub else None
        self.dobb_known: int | None = None
        self.discards_known: int | None = None
        if self.exchanges and self.seat == self.declarer:
            self.dobb_known = _mask(obs.private["dobb"])
            self.discards_known = _mask(obs.private["discards"])
        elif laid is not None:
            if self.exchanges:
                self.discards_known = laid
            else:
                self.dobb_known = laid
        sizes = {int(s): int(n) for s, n in pub["hand_sizes"].items()}
        self.hidden_seats = [s for s in self.active if s != self.seat]
        self.capacities = [sizes[s] for s in self.hidden_seats]
        self.dobb_place: int | None = None
        self.discard_place: int | None = None
        if int(pub["dobb_cards"]) and self.dobb_known is None:
            self.dobb_place = len(self.capacities)
            self.capacities.append(int(pub["dobb_cards"]))
        if self.exchanges and int(pub["discards_made"]) and self.discards_known is None:
            self.discard_place = len(self.capacities)
            self.capacities.append(int(pub["discards_made"]))
        known = self.own | (self.dobb_known or 0) | (self.discards_known or 0)
        for mask in self.played.values():
            known |= mask
        self.items = list(iter_bits(DECK.full_mask & ~known))
        allowed = {}
        full = (1 << len(self.capacities)) - 1
        for i in self.items:
            mask = full
            for k, s in enumerate(self.hidden_seats):
                if self.exclude[s] >> i & 1:
                    mask &= ~(1 << k)
            allowed[i] = mask
        c = Constraints()
        self._sow_rule(c, sizes)
        self.allocation = Allocation(self.capacities, self.items, allowed, c.specs(), c.predicate())
        self.allocation.count()

    def _sow_rule(self, c: Constraints, sizes: dict[int, int]) -> None:
        """The discards keep the Sow rule, and while the exchange runs it can still be kept [§4.1]."""
        if self.discard_place is None or self.declarer is None:
            return
        if self.game.options.sow_discard_rule == "any_heart_incl_sow":
            sows, cover = PLAIN_SOWS, HEARTS
        else:
            sows, cover = SOWS, NON_SOW_HEARTS
        made = self.capacities[self.discard_place]
        left = DOBB_SIZE - made
        pile = 1 << self.discard_place
        hand = 1 << self.hidden_seats.index(self.declarer)
        sow_items = sum(1 << i for i in self.items if sows >> i & 1)
        cover_items = sum(1 << i for i in self.items if cover >> i & 1)
        a = c.counter(pile, sow_items, DOBB_SIZE + 1)
        b = c.counter(pile, cover_items, DOBB_SIZE + 1)
        h = c.counter(hand, cover_items, DOBB_SIZE + 1)
        c.rule(lambda v: v[a] - v[b] <= min(left, v[h]))

    def propose(self, rng: random.Random) -> World | None:
        """Deal the unseen cards; split the declarer's cards into hand and Dobb; order the discards legally."""
        assignment = self.allocation.sample(rng)
        n = self.game.num_seats
        dealt = [0] * n
        for k, s in enumerate(self.hidden_seats):
            dealt[s] = sum(1 << i for i in assignment[k]) | self.played[s]
        if self.seat in self.active:
            dealt[self.seat] = self.own | self.played[self.seat]
        dobb = self.dobb_known if self.dobb_known is not None else 0
        if self.dobb_place is not None:
            dobb = sum(1 << i for i in assignment[self.dobb_place])
        discards = self.discards_known or 0
        if self.discard_place is not None:
            discards = sum(1 << i for i in assignment[self.discard_place])
        if self.exchanges and self.declarer is not None:
            whole = dealt[self.declarer] | discards
            if self.dobb_known is None:
                dobb = sum(1 << i for i in rng.sample(list(iter_bits(whole)), DOBB_SIZE))
            dealt[self.declarer] = whole & ~dobb
        sows = PLAIN_SOWS if self.game.options.sow_discard_rule == "any_heart_incl_sow" else SOWS
        order = iter(sorted(iter_bits(discards), key=lambda i: bool(sows >> i & 1)))
        codes = [code if code is not None else A.DISCARD + next(order) for code in self.codes]
        piles = [DECK.cards(m) for m in dealt] + [DECK.cards(dobb)]
        return World(piles, self.dealer, dict(self.context), codes)

    def admits(self, state: State) -> bool:
        """Whether the real state's unseen cards are among the allocations drawn from (a test hook)."""
        assert isinstance(state, DobbmState)
        where = [state.hands[s] for s in self.hidden_seats]
        if self.dobb_place is not None:
            where.append(state.talon)
        if self.discard_place is not None:
            where.append(state.discards)
        return self.allocation.admits([list(iter_bits(m)) for m in where])
