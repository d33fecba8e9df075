"""Tapp Tarock worlds consistent with one seat's observation (dossier sections in brackets).

Fixed cards
    the seat's hand; the cards played, by whom; an exposed talon (both
    halves as dealt) and the half left lying; tarocks shown on discarding;
    for the declarer its talon half and discards [§4.1, §4.2]; everything
    once the deal is counted [§7].

Hidden places
    the other players' hands; a talon half nobody has seen; the declarer's
    face-down discards, split into those the table knows are tarocks
    (``discard tarock``) and the suit cards (``discard ?``).

Where a card may lie
    * trick play: follow suit, else a tarock, else anything [§6], so a
      player who did not follow holds none of the suit led, and one who did
      not play a tarock either holds no tarock;
    * discards: suit cards other than kings, tarocks II..XX only; the cards
      of an exposed half the declarer picked up are in its hand or among
      its discards;
    * a tarock may be laid away only when too few other cards can go [§4.1]:
      each tarock discarded bounds the suit cards (kings aside) the declarer
      can have kept;
    * a declarer who announced Pagat ultimo held the Pagat [§5.1].

Nothing is left to verification.  Seen from outside, which three of the
declarer's cards came from a talon half nobody saw is unknowable and
irrelevant to play; the sampler picks three at random.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from stich.cards import Card, iter_bits
from stich.core.game import Observation, State
from stich.games.tapp_tarock import actions as A
from stich.games.tapp_tarock.pack import DECK, DISCARDABLE_SUIT_CARDS, HALVES, ORDER, PAGAT, PLAIN_TAROCKS, TAROCKS
from stich.games.tapp_tarock.state import TappTarockState
from stich.search.sampling import Allocation, Constraints, World, WorldSampler, follow_exclusions, trick_plays

if TYPE_CHECKING:
    from stich.games.tapp_tarock.game import TappTarock

DISCARDS = 3
HIDDEN_TAROCK = -1
"""Event code placeholder: a discarded tarock the seat knows only as a tarock."""
HIDDEN_CARD = -2
"""Event code placeholder: a discard the seat did not see."""


def _mask(cards: Any) -> int:
    """Card mask of cards given as texts or cards."""
    out = 0
    for card in cards:
        out |= 1 << DECK.face_index[card if isinstance(card, Card) else Card.parse(card)]
    return out


class TappTarockWorldSampler(WorldSampler):
    """Worlds for one Tapp Tarock observation; see the module docstring for what is modelled."""

    game: TappTarock

    def __init__(self, game: TappTarock, observation: Observation, **kwargs: Any) -> None:
        super().__init__(game, observation, **kwargs)
        obs = observation
        pub = obs.public
        self.seat = obs.seat
        self.dealer = int(pub["dealer"])
        self.active = [int(s) for s in pub["active"]]
        self.declarer: int | None = pub["declarer"]
        taken = pub["talon_taken"]
        self.taken: int | None = HALVES.index(taken) if taken is not None else None
        self.codes: list[int] = []
        for _actor, text in obs.events:
            if text == "discard ?":
                self.codes.append(HIDDEN_CARD)
            elif text == "discard tarock":
                self.codes.append(HIDDEN_TAROCK)
            else:
                self.codes.append(self.game.actions.parse(text).code)
        self.own = _mask(obs.hand)
        self.played = dict.fromkeys(self.active, 0)
        exclude = dict.fromkeys(self.active, 0)
        for plays in trick_plays(obs.tricks, self.active):
            indexed = [(s, DECK.face_index[c]) for s, c in plays]
            for s, i in indexed:
                self.played[s] |= 1 << i
            for s, gone in follow_exclusions(ORDER, indexed, must_trump=True).items():
                exclude[s] |= gone
        # The talon halves and the discards, as far as the seat knows them.
        self.half_known: list[int | None] = [None, None]
        self.discards_known = 0
        if "talon" in pub:
            self.half_known = [_mask(pub["talon"]["lower"]), _mask(pub["talon"]["upper"])]
        if "piles" in pub:
            piles = pub["piles"]
            self.discards_known = _mask(piles["discards"])
            for i, half in enumerate(HALVES):
                if i != self.taken:
                    self.half_known[i] = _mask(piles[f"talon_{half}"])
        if self.seat == self.declarer:
            if self.taken is not None:
                self.half_known[self.taken] = _mask(obs.private["talon_half"])
            self.discards_known = _mask(obs.private.get("discards", []))
        if "shown_tarocks" in pub:
            self.discards_known |= _mask(pub["shown_tarocks"])
        # Discards known (counted deal) but not tied to an event fill the placeholders first.
        shown_in_events = sum(1 << (code - A.DISCARD) for code in self.codes if A.DISCARD <= code < A.PASS)
        loose = self.discards_known & ~shown_in_events
        self.loose_tarocks = list(iter_bits(loose & TAROCKS))
        self.loose_cards = list(iter_bits(loose & ~TAROCKS))
        hidden_tarocks = self.codes.count(HIDDEN_TAROCK) - len(self.loose_tarocks)
        hidden_cards = self.codes.count(HIDDEN_CARD) - len(self.loose_cards)
        # Places: the other hands, unseen halves, hidden discards.
        sizes = {int(s): int(n) for s, n in pub["hand_sizes"].items()}
        self.hidden_seats = [s for s in self.active if s != self.seat]
        self.capacities = [sizes[s] for s in self.hidden_seats]
        self.half_place: list[int | None] = [None, None]
        for i in range(2):
            if i != self.taken and self.half_known[i] is None:
                self.half_place[i] = len(self.capacities)
                self.capacities.append(3)
        self.tarock_place = self._add_place(hidden_tarocks)
        self.card_place = self._add_place(hidden_cards)
        # The cards the seat saw in a talon half the declarer picked up: in its hand or discards.
        self.roaming = 0
        if self.taken is not None and self.seat != self.declarer and self.half_known[self.taken] is not None:
            self.roaming = (self.half_known[self.taken] or 0) & ~self.discards_known
        known = self.own | self.discards_known
        for mask in self.played.values():
            known |= mask
        for i in range(2):
            if i != self.taken:
                known |= self.half_known[i] or 0
        if self.seat == self.declarer and self.taken is not None:
            known |= self.half_known[self.taken] or 0
        self.roaming &= ~known
        unseen = DECK.full_mask & ~known
        self.items = list(iter_bits(unseen))
        full = (1 << len(self.capacities)) - 1
        allowed: dict[int, int] = {}
        declarer_place = self.hidden_seats.index(self.declarer) if self.declarer in self.hidden_seats else None
        for i in self.items:
            mask = full
            for k, s in enumerate(self.hidden_seats):
                if exclude[s] >> i & 1:
                    mask &= ~(1 << k)
            if self.tarock_place is not None and not PLAIN_TAROCKS >> i & 1:
                mask &= ~(1 << self.tarock_place)
            if self.card_place is not None and not DISCARDABLE_SUIT_CARDS >> i & 1:
                mask &= ~(1 << self.card_place)
            if self.roaming >> i & 1:
                keep = [p for p in (declarer_place, self.tarock_place, self.card_place) if p is not None]
                mask &= sum(1 << p for p in keep)
            if i == PAGAT and declarer_place is not None and A.ANNOUNCE in self.codes:
                mask &= 1 << declarer_place  # Pagat ultimo needs the Pagat in hand [§5.1]
            allowed[i] = mask
        c = Constraints()
        self._tarock_discards(c, declarer_place)
        self.allocation = Allocation(self.capacities, self.items, allowed, c.specs(), c.predicate())
        self.allocation.count()

    def _add_place(self, size: int) -> int | None:
        """A new hidden place of ``size`` cards (``None`` when empty)."""
        if not size:
            return None
        self.capacities.append(size)
        return len(self.capacities) - 1

    def _tarock_discards(self, c: Constraints, declarer_place: int | None) -> None:
        """Each tarock laid away bounds the other discardable cards the declarer held then [§4.1].

        Before the ``j``-th discard (0-based) with ``s`` suit cards laid away
        so far, a tarock may go only when fewer than ``3 - j`` discardable
        suit cards are in hand.  Those still held then are the ones laid
        away later plus the ones the declarer holds now or has played.
        """
        if declarer_place is None or self.declarer is None:
            return
        discards = [code for code in self.codes if code in (HIDDEN_CARD, HIDDEN_TAROCK) or A.DISCARD <= code < A.PASS]
        limit: int | None = None
        suits_after = sum(1 for code in discards if not _is_tarock(code))
        suits_before = 0
        for j, code in enumerate(discards):
            if _is_tarock(code):
                # discardable suit cards in hand before discard j: later suit discards + kept ones < 3 - j
                later = suits_after - suits_before
                bound = DISCARDS - j - 1 - later
                limit = bound if limit is None else min(limit, bound)
            else:
                suits_before += 1
        if limit is None:
            return
        items = sum(1 << i for i in self.items if DISCARDABLE_SUIT_CARDS >> i & 1)
        offset = (self.played[self.declarer] & DISCARDABLE_SUIT_CARDS).bit_count()
        c.bound(1 << declarer_place, items, offset, 0, limit)

    def propose(self, rng: random.Random) -> World | None:
        """Deal the unseen cards; rebuild the talon halves and the declarer's hand as dealt; fill in the discards."""
        assignment = self.allocation.sample(rng)
        n = self.game.num_seats
        dealt = [0] * n
        for k, s in enumerate(self.hidden_seats):
            dealt[s] = sum(1 << i for i in assignment[k]) | self.played[s]
        if self.seat in self.active:
            dealt[self.seat] = self.own | self.played[self.seat]
        halves = [self.half_known[i] or 0 for i in range(2)]
        for i in range(2):
            place = self.half_place[i]
            if place is not None:
                halves[i] = sum(1 << x for x in assignment[place])
        hidden_tarocks = list(assignment[self.tarock_place]) if self.tarock_place is not None else []
        hidden_cards = list(assignment[self.card_place]) if self.card_place is not None else []
        discards = self.discards_known | sum(1 << x for x in hidden_tarocks + hidden_cards)
        if self.declarer is not None and self.taken is not None:
            whole = dealt[self.declarer] | discards
            half = self.half_known[self.taken]
            if half is None:
                half = sum(1 << x for x in rng.sample(list(iter_bits(whole)), 3))
            halves[self.taken] = half
            dealt[self.declarer] = whole & ~half
        tarocks, cards = iter(self.loose_tarocks + hidden_tarocks), iter(self.loose_cards + hidden_cards)
        codes = []
        for code in self.codes:
            if code == HIDDEN_TAROCK:
                code = A.DISCARD + next(tarocks)
            elif code == HIDDEN_CARD:
                code = A.DISCARD + next(cards)
            codes.append(code)
        piles = [DECK.cards(m) for m in dealt] + [DECK.cards(halves[0]), DECK.cards(halves[1])]
        return World(piles, self.dealer, {}, codes)

    def admits(self, state: State) -> bool:
        """Whether the real state's unseen cards are among the allocations drawn from (a test hook)."""
        assert isinstance(state, TappTarockState)
        where = [state.hands[s] for s in self.hidden_seats]
        for i in range(2):
            if self.half_place[i] is not None:
                where.append(state.talon[i])
        hidden = state.discards & ~self.discards_known
        if self.tarock_place is not None:
            where.append(hidden & TAROCKS)
        if self.card_place is not None:
            where.append(hidden & ~TAROCKS)
        unseen = set(self.items)
        return self.allocation.admits([[x for x in iter_bits(m) if x in unseen] for m in where])


def _is_tarock(code: int) -> bool:
    """Whether a discard event (placeholder or visible) laid away a tarock."""
    return code == HIDDEN_TAROCK or (A.DISCARD <= code < A.PASS and bool(TAROCKS >> (code - A.DISCARD) & 1))
