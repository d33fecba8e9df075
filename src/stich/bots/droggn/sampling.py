"""Droggn worlds consistent with one seat's observation (dossier sections in brackets).

Fixed cards
    the seat's hand; the cards played, by whom; a laid-out Pagat or Gstieß
    with its owner [§5.1, §5.2]; the bought card, now the declarer's [§4.2];
    for the declarer its talon, discards and offered card, for the defender
    who sold a card the card it received; with ``expose_talon`` an Ansager's
    talon (its cards then lie with the declarer, among the discards, or as
    the offered card with the seller).

Hidden places
    the other hands; the talon while it lies; the declarer's discards; the
    offered card while it lies face down.

Facts
    * trick play: follow suit, else a trump, else anything; the Gstieß (an
      excuse) tells nothing [§6.1, §6.2]; with ``gstiess_last_trick_illegal``
      a player who kept two cards and did not play the Gstieß holds none; a
      laid-out Pagat played by its owner shows it had no other legal card
      [§5.1, §6.3];
    * discards: never the Gstieß, Mond or Pagat; kings only with trumps
      II..XX (``king_discard_rule``), and while the exchange runs the rule
      can still be kept [§4.1, §10.5].

Nothing is left to verification.  Seen from outside, which of the
declarer's cards came from an unseen talon, and which card the seller got
for the bought one, is unknowable and irrelevant to play; the sampler picks
them at random.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from stich.cards import Card, iter_bits
from stich.core.game import Observation, State
from stich.core.tricks import EXCUSE, NO_SUIT, TRUMP, led_suit
from stich.games.droggn import actions as A
from stich.games.droggn.pack import BARRED_DISCARDS, CONTRACTS, GSTIESS, KINGS, PAGAT, TRUMPS_2_20, deck_for, play_order
from stich.games.droggn.state import DroggnState
from stich.search.sampling import Allocation, Constraints, World, WorldSampler, follow_exclusions, trick_plays

if TYPE_CHECKING:
    from stich.games.droggn.game import Droggn

TALON = 3
HIDDEN_DISCARD = -1
HIDDEN_OFFER = -2


class DroggnWorldSampler(WorldSampler):
    """Worlds for one Droggn observation; see the module docstring for what is modelled."""

    game: Droggn

    def __init__(self, game: Droggn, observation: Observation, **kwargs: Any) -> None:
        super().__init__(game, observation, **kwargs)
        obs = observation
        pub = obs.public
        opts = game.options
        self.deck = deck_for(opts.pack_size)
        self.seat = obs.seat
        self.dealer = int(pub["dealer"])
        self.active = [int(s) for s in pub["active"]]
        self.declarer: int | None = pub["declarer"]
        contract = next((c for c in CONTRACTS if c.name == pub["contract"]), None)
        self.exchange = contract is not None and contract.exchange
        self.codes: list[int] = []
        for _actor, text in obs.events:
            placeholder = {"discard ?": HIDDEN_DISCARD, "offer ?": HIDDEN_OFFER}.get(text)
            self.codes.append(placeholder if placeholder is not None else game.actions.parse(text).code)
        index = self.deck.face_index
        self.own = self._mask(obs.hand)
        self.bought = index[Card.parse(pub["bought"])] if pub["bought"] is not None else None
        self.seller: int | None = pub["bought_from"]
        self.offered_known = index[Card.parse(obs.private["offered"])] if "offered" in obs.private else None
        self.offer_made = any(c == HIDDEN_OFFER or A.OFFER <= c < A.BUY for c in self.codes)
        laid = (index[Card.parse(pub["laid_out"])], int(pub["laid_out_by"])) if pub["laid_out"] is not None else None
        # Cards played, and what trick play shows.
        order = play_order(opts.pack_size)
        self.played = dict.fromkeys(self.active, 0)
        exclude = dict.fromkeys(self.active, 0)
        for plays in trick_plays(obs.tricks, self.active):
            indexed = [(s, index[c]) for s, c in plays]
            for k, (s, i) in enumerate(indexed):
                before = opts.hand_size - self.played[s].bit_count()
                self.played[s] |= 1 << i
                owner_laid = laid is not None and laid[1] == s
                if (
                    opts.gstiess_last_trick_illegal
                    and before == 2
                    and i != GSTIESS
                    and not (owner_laid and laid is not None and laid[0] == GSTIESS)
                ):
                    exclude[s] |= 1 << GSTIESS  # it would have had to go now [§6.2 VAR]
                led = led_suit(order, [card for _s, card in indexed[:k]])
                if owner_laid and laid is not None and laid[0] == PAGAT == i and led != NO_SUIT:
                    # nothing else was legal: no card of the suit led, no other trump, no Gstieß [§5.1, §6.3]
                    exclude[s] |= order.follow[led] | order.follow[TRUMP] | order.follow[EXCUSE]
            for s, gone in follow_exclusions(order, indexed, must_trump=True).items():
                exclude[s] |= gone
        # Fixed cards in other hands.
        known_in = dict.fromkeys(self.active, 0)
        if laid is not None:
            known_in[laid[1]] |= 1 << laid[0]
        if self.bought is not None and self.declarer is not None:
            known_in[self.declarer] |= 1 << self.bought
        if self.offered_known is not None and self.seller is not None:
            known_in[self.seller] |= 1 << self.offered_known
        for s in self.active:
            known_in[s] &= ~self.played[s]
        known_in[self.seat] = 0
        self.known_in = known_in
        # Talon and discards as far as the seat knows them.
        self.talon_known: int | None = None
        self.discards_known: int | None = None
        if self.seat == self.declarer and self.exchange:
            self.talon_known = self._mask(obs.private["talon"])
            self.discards_known = self._mask(obs.private["discards"])
        elif "shown_talon" in pub:
            self.talon_known = self._mask(pub["shown_talon"])
        sizes = {int(s): int(n) for s, n in pub["hand_sizes"].items()}
        self.hidden_seats = [s for s in self.active if s != self.seat]
        self.capacities = [sizes[s] - known_in[s].bit_count() for s in self.hidden_seats]
        self.talon_place = None
        if int(pub["talon_cards"]):
            self.talon_place = self._place(int(pub["talon_cards"]))
        self.discard_place = self._place(int(pub["discarded"])) if self.discards_known is None else None
        lying = self.offer_made and self.bought is None and self.offered_known is None
        self.offer_place = self._place(1) if lying else None
        # Which cards are unseen; talon cards seen but not placed roam among the declarer's places.
        known = self.own | (self.discards_known or 0)
        for s in self.active:
            known |= self.played[s] | known_in[s]
        if self.offered_known is not None:
            known |= 1 << self.offered_known
        roaming = 0
        if self.talon_known is not None and self.seat != self.declarer:
            roaming = self.talon_known & ~known
        elif self.talon_known is not None:
            known |= self.talon_known
        self.items = list(iter_bits(self.deck.full_mask & ~known))
        full = (1 << len(self.capacities)) - 1
        declarer_place = self.hidden_seats.index(self.declarer) if self.declarer in self.hidden_seats else None
        seller_place = self.hidden_seats.index(self.seller) if self.seller in self.hidden_seats and self.offered_known is None else None
        allowed: dict[int, int] = {}
        for i in self.items:
            mask = full
            for k, s in enumerate(self.hidden_seats):
                if exclude[s] >> i & 1:
                    mask &= ~(1 << k)
            if self.discard_place is not None and BARRED_DISCARDS >> i & 1:
                mask &= ~(1 << self.discard_place)
            if roaming >> i & 1:
                mask &= sum(1 << p for p in (declarer_place, self.discard_place, self.offer_place, seller_place) if p is not None)
            allowed[i] = mask
        self.roaming = roaming
        self.seller_place = seller_place
        c = Constraints()
        if seller_place is not None and roaming:
            c.bound(1 << seller_place, sum(1 << i for i in self.items if roaming >> i & 1), 0, 0, 1)  # only the offered card
        self._king_rule(c, declarer_place)
        self.allocation = Allocation(self.capacities, self.items, allowed, c.specs(), c.predicate())
        self.allocation.count()

    def _mask(self, cards: Any) -> int:
        """Card mask of cards given as texts or cards."""
        out = 0
        for card in cards:
            out |= 1 << self.deck.face_index[card if isinstance(card, Card) else Card.parse(card)]
        return out

    def _place(self, size: int) -> int | None:
        """A new hidden place of ``size`` cards (``None`` when empty)."""
        if not size:
            return None
        self.capacities.append(size)
        return len(self.capacities) - 1

    def _king_rule(self, c: Constraints, declarer_place: int | None) -> None:
        """Kings are discarded only with trumps II..XX, and a started discard can still be completed [§4.1]."""
        if self.discard_place is None:
            return
        per_king = self.game.options.king_discard_rule == "one_trump_per_king"
        pile = 1 << self.discard_place
        items = self.items
        kings_i = sum(1 << i for i in items if KINGS >> i & 1)
        trumps_i = sum(1 << i for i in items if TRUMPS_2_20 >> i & 1)
        other_i = sum(1 << i for i in items if not (KINGS | TRUMPS_2_20 | BARRED_DISCARDS) >> i & 1)
        z = c.counter(pile, kings_i, TALON + 1)
        x = c.counter(pile, trumps_i, TALON + 1)
        left = TALON - self.capacities[self.discard_place]
        if left == 0 or declarer_place is None:
            c.rule(lambda v: (v[z] <= v[x]) if per_king else (v[z] == 0 or v[x] >= 1))
            return
        hand = 1 << declarer_place
        a = c.counter(hand, trumps_i, left)
        k = c.counter(hand, kings_i, left)
        o = c.counter(hand, other_i, left)

        def completable(v: tuple[int, ...]) -> bool:
            for dx in range(min(v[a], left) + 1):
                for dz in range(min(v[k], left - dx) + 1):
                    if left - dx - dz > v[o]:
                        continue
                    kings, trumps = v[z] + dz, v[x] + dx
                    if (kings <= trumps) if per_king else (kings == 0 or trumps >= 1):
                        return True
            return False

        c.rule(completable)

    def propose(self, rng: random.Random) -> World | None:
        """Deal the unseen cards; rebuild the talon, the offered card and the hands as dealt; order the discards."""
        assignment = self.allocation.sample(rng)
        n = self.game.num_seats
        now = [0] * n
        for k, s in enumerate(self.hidden_seats):
            now[s] = sum(1 << i for i in assignment[k]) | self.known_in[s]
        if self.seat in self.active:
            now[self.seat] = self.own
        dealt = [now[s] | self.played[s] if s in self.active else 0 for s in range(n)]
        talon = self.talon_known or 0
        if self.talon_place is not None:
            talon = sum(1 << i for i in assignment[self.talon_place])
        discards = self.discards_known or 0
        if self.discard_place is not None:
            discards = sum(1 << i for i in assignment[self.discard_place])
        offered: int | None = self.offered_known
        if self.offer_place is not None:
            offered = assignment[self.offer_place][0]
        elif offered is None and self.offer_made and self.seller is not None:
            # The seller holds (or played) the offered card: a roaming talon card if there is one, else any.
            theirs = dealt[self.seller] & ~(1 << self.bought if self.bought is not None else 0) & ~self.known_in[self.seller]
            pick = theirs & self.roaming
            offered = iter_bits(pick)[0] if pick else rng.choice(iter_bits(theirs))
        if self.declarer is not None and self.exchange:
            whole = dealt[self.declarer] | discards
            if offered is not None:
                whole |= 1 << offered
            if self.bought is not None and self.seller is not None and offered is not None:
                whole &= ~(1 << self.bought)
                dealt[self.seller] = (dealt[self.seller] & ~(1 << offered)) | (1 << self.bought)
            if self.talon_known is None:
                talon = sum(1 << i for i in rng.sample(list(iter_bits(whole)), TALON))
            dealt[self.declarer] = whole & ~talon
        # Discards in an order that keeps the king rule at every step: trumps, others, kings.
        ordered = iter(sorted(iter_bits(discards), key=lambda i: (not TRUMPS_2_20 >> i & 1, bool(KINGS >> i & 1))))
        codes = []
        for code in self.codes:
            if code == HIDDEN_DISCARD:
                code = A.DISCARD + next(ordered)
            elif code == HIDDEN_OFFER:
                assert offered is not None
                code = A.OFFER + offered
            codes.append(code)
        piles = [self.deck.cards(m) for m in dealt] + [self.deck.cards(talon)]
        return World(piles, self.dealer, {}, codes)

    def admits(self, state: State) -> bool:
        """Whether the real state's unseen cards are among the allocations drawn from (a test hook)."""
        assert isinstance(state, DroggnState)
        where = [state.hands[s] & ~self.known_in[s] for s in self.hidden_seats]
        if self.talon_place is not None:
            where.append(state.talon)
        if self.discard_place is not None:
            where.append(state.discards)
        if self.offer_place is not None:
            where.append(1 << state.offered)
        unseen = set(self.items)
        return self.allocation.admits([[x for x in iter_bits(m) if x in unseen] for m in where])
