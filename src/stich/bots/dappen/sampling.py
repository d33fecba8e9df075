"""Dappen worlds consistent with one seat's observation (dossier sections in brackets).

Fixed cards
    the seat's hand; the cards played, by whom; the Ulti cards the lone
    player laid out, in its hand until played [§5.1]; the seven five-pointers
    shown [§4]; the hand of a player penalised under rule (a) [§3.2.5]; for
    the lone player its discards; everything the count shows at the end [§7].

Hidden places
    the other players' hands; the Dapp while it lies face down (before it is
    taken, and in a Solo until the end) [§3.1, §4]; the lone player's
    discards, face down for everybody else [§4].

Facts
    * trick play: follow suit, else a trump, else anything [§6.1]; an
      opponent who neither followed nor trumped may have kept the Gstieß
      back, so it holds no trump *but the Gstieß* (``gstiesieren``) [§6.2];
      the lead to the last trick passing on shows who kept it back, and a
      winner of the penultimate trick who leads the last one after such a
      play holds no Gstieß [§6.2]; a laid-out Ulti card played shows that
      nothing else was legal [§5.1]; Buchenbach's first three tricks: the
      bound five-pointer, else an allowed trump, else an empty card, else a
      suit card [§6.3];
    * bidding: a bid or a hold of Ein / Zwei Hannes or Geiß needs the kings
      or the Geiß in the hand as dealt, and a holder or overcaller who was
      skipped (gave way, could not raise) lacked them [§3.4];
    * the Dapp exchange: five-pointers (or the Jeu du Tarot honneurs) are
      laid away only when nothing else is left [§4, §8.4];
    * Ulti: nothing beyond the cards laid out.  The question is asked in
      every game with an Ulti whether or not the lone player holds a trump
      3, 2 or 1 (decision 0040), so a pass shows nothing [§5.1].

Checked on each proposal (a redraw, never a failed replay)
    * rule (a): a player who passed while nobody had dapped holds no trump
      stop (``T + H > 22``) [§3.2.5]; the Gstieß, a stop on its own, is kept
      from those hands in the count itself;
    * a deal that goes on did not give the lone player all seven
      five-pointers [§4];
    * with many distinct hidden places (seven or eight hands and piles) the
      card bans of the hands that a random draw breaks least often are
      lifted from the count and checked here instead, as long as enough
      proposals can be expected to keep them (:func:`relax_places`).

    A uniform draw kept only when it fits is uniform on what fits, so these
    cost draws, not uniformity: about half of the proposals are kept in a
    typical Furtwangen deal, rarely fewer than one in ten.  Replay and
    verification never reject a proposal.

Seen from outside, which of the lone player's cards were the Dapp is
unknowable and irrelevant to play; the sampler picks them at random among
the splits that keep its bids legal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from math import comb
from typing import TYPE_CHECKING, Any

from stich.cards import Card, iter_bits
from stich.core.game import Observation, State, TrickView
from stich.core.tricks import NO_SUIT, TRUMP
from stich.games.dappen import actions as A
from stich.games.dappen.options import DappenOptions
from stich.games.dappen.pack import (
    CONTRACTS,
    DECK,
    EMPTY_SUIT_CARDS,
    FIVES,
    FULL_MASK,
    GEISS,
    GEISS_BIT,
    GSTIESS_BIT,
    KINGS,
    MUND_BIT,
    ONE_POINT_TRUMPS,
    ORDER,
    SUIT_CARDS,
    TRUMPS,
    has_trump_stop,
)
from stich.games.dappen.state import DappenState
from stich.search.sampling import (
    Constraints,
    CountSpec,
    GroupedAllocation,
    SamplingError,
    World,
    WorldSampler,
    interchangeable_places,
    trick_plays,
)

if TYPE_CHECKING:
    from stich.games.dappen.game import Dappen

HIDDEN_DISCARD = -1
"""Event code placeholder: a discard the seat did not see."""
FIXED_TRICKS = (GSTIESS_BIT, MUND_BIT, GEISS_BIT)
"""Buchenbach: the five-point trump bound to tricks 1, 2, 3 [§6.3]."""


def _mask(cards: Any) -> int:
    """Card mask of cards given as texts or cards."""
    out = 0
    for card in cards:
        out |= 1 << DECK.face_index[card if isinstance(card, Card) else Card.parse(card)]
    return out


# --------------------------------------------------------------------------- allocation over merged places


MAX_GROUPS = 4
"""Most groups of places the exact count works with; beyond, some hands' facts are checked on each proposal instead."""
MIN_KEEP = 0.02
"""Least share of proposals the lifted bans may be expected to keep; rather than go below, the exact count takes more groups."""


def relax_places(
    capacities: list[int], items: list[int], allowed: dict[int, int], counters: list[CountSpec], candidates: list[int]
) -> dict[int, int]:
    """Lift the card bans of some places until at most :data:`MAX_GROUPS` groups are left; returns them per place.

    The exact count grows quickly with the number of distinct places (up to
    eight in Dappen).  A place lifted here accepts every card in the count,
    and a proposal that puts a banned card there is drawn again: a uniform
    draw from the larger set kept only when it lies in the smaller one is
    uniform on it.  The places lifted first are those whose bans a random
    draw breaks least often; places a counter looks at stay exact.  Lifting
    stops before the share of proposals kept, estimated as if the draw were
    blind to every lifted ban, would fall below :data:`MIN_KEEP`: a hand
    that the play has shown to hold few kinds of cards (Buchenbach's first
    three tricks) would otherwise reject nearly every proposal, and the
    exact count of one more group costs less than thousands of redraws.
    """
    relaxed: dict[int, int] = {}
    counted = 0
    kept = 1.0
    for spec in counters:
        counted |= spec.places
    while len(interchangeable_places(len(capacities), items, allowed, counters)) > MAX_GROUPS:
        best: tuple[float, int, list[int]] | None = None
        for k in candidates:
            if k in relaxed or counted >> k & 1:
                continue
            banned = [i for i in items if not allowed[i] >> k & 1]
            if banned:
                keep = comb(len(items) - len(banned), capacities[k]) / comb(len(items), capacities[k])
                if best is None or keep > best[0]:
                    best = (keep, k, banned)
        if best is None or kept * best[0] < MIN_KEEP:
            break
        keep, k, banned = best
        kept *= keep
        relaxed[k] = sum(1 << i for i in banned)
        for i in banned:
            allowed[i] |= 1 << k
    return relaxed


# --------------------------------------------------------------------------- bidding


@dataclass
class Requirement:
    """What the bidding proves about one hand as dealt [§3.2.5, §3.4]."""

    kings_min: int = 0
    kings_max: int | None = None
    geiss: bool | None = None
    """``True``: held the Geiß; ``False``: did not; ``None``: nothing known."""
    no_stop: bool = False
    """Passed under rule (a) while nobody had dapped: no trump stop."""

    def allows(self, dealt: int) -> bool:
        """Whether a hand as dealt meets every fact."""
        kings = (dealt & KINGS).bit_count()
        if kings < self.kings_min or (self.kings_max is not None and kings > self.kings_max):
            return False
        if self.geiss is not None and bool(dealt & GEISS_BIT) != self.geiss:
            return False
        return not (self.no_stop and has_trump_stop(dealt))


@dataclass
class BiddingFacts:
    """The bidding read back from the events: facts per seat and where the bidding ended."""

    seats: dict[int, Requirement] = field(default_factory=dict)
    end: int = 0
    """Index of the first event after the bidding."""

    def of(self, seat: int) -> Requirement:
        """The (mutable) facts of ``seat``."""
        return self.seats.setdefault(seat, Requirement())


def read_bidding(opts: DappenOptions, active: list[int], events: tuple[tuple[int, str], ...], penalty: int | None) -> BiddingFacts:
    """Replay the bidding of :class:`~stich.games.dappen.state.DappenState` on the public events [§3].

    Only the card-dependent steps matter: a pass under rule (a), and a bid or
    a hold that names cards (the seat has them).  The holder's answer and the
    overcaller's raise are asked whatever the hand (decisions 0013, 0052), so
    a ``pass`` there says nothing about the cards.
    """
    ladder = opts.ladder
    facts = BiddingFacts()
    n = len(active)
    phase = "solo" if opts.solo else "dapp"
    pos = 0
    holder: int | None = None
    challenger: int | None = None
    level = 0
    i = 0

    def require(seat: int, bid: str) -> None:
        """``seat`` bid or held ``bid``, so it holds the cards the bid names [§3.4]."""
        contract = CONTRACTS[bid]
        fact = facts.of(seat)
        fact.kings_min = max(fact.kings_min, contract.king_requirement)
        if contract.needs_geiss:
            fact.geiss = True

    def exchange_over() -> str:
        nonlocal challenger, pos
        challenger = None
        if opts.raise_levels != "hannes_ladder" or level + 1 >= len(ladder):
            return "done"
        pos += 1
        return "dapp" if pos < n else "done"

    def overcall(seat: int) -> str:
        nonlocal level, challenger, holder
        level += 1
        challenger = seat
        require(seat, ladder[level])
        assert holder is not None
        if not CONTRACTS[ladder[level]].needs_geiss:
            return "answer"  # asked whatever the hand (decision 0052)
        holder = challenger  # nobody can hold a Geiß: the holder gives way unasked [§3.4]
        return exchange_over()

    while i < len(events) and phase != "done":
        actor, text = events[i]
        if phase == "solo":
            if text == "pass":
                pos += 1
                if pos >= n:
                    phase, pos = "dapp", 0
            elif opts.solo_stretch and pos + 1 < n:
                phase, pos = "solo_stretch", pos + 1
            else:
                phase = "done"
        elif phase == "solo_stretch":
            pos += 1
            phase = "done" if text != "pass" or pos >= n else phase
        elif phase == "dapp":
            if holder is None and text == "pass":
                second_to_last = opts.compulsory_b and n >= 2 and actor == active[-2]
                if opts.compulsory_a and not second_to_last and not (actor == penalty and i == len(events) - 1):
                    facts.of(actor).no_stop = True
                pos += 1
                phase = "dapp" if pos < n else "done"
            elif holder is None:
                holder, level = actor, 0
                pos += 1
                phase = "dapp" if pos < n and len(ladder) > 1 else "done"
            elif text == "pass":
                pos += 1
                phase = "dapp" if pos < n else "done"
            else:
                phase = overcall(actor)
        elif phase == "answer":
            if text == "hold":
                assert holder is not None
                require(holder, ladder[level])
                phase = "raise" if level + 1 < len(ladder) else exchange_over()
            else:
                holder = challenger
                phase = exchange_over()
        elif phase == "raise":
            phase = exchange_over() if text == "pass" else overcall(actor)
        i += 1
    facts.end = i
    return facts


# --------------------------------------------------------------------------- trick play


def trick_exclusions(
    opts: DappenOptions, tricks: tuple[TrickView, ...], active: list[int], lone: int | None, laid: int
) -> tuple[dict[int, int], dict[int, int], set[int]]:
    """Cards played per seat, cards each seat showed it does not hold, and opponents who may have kept the Gstieß back.

    Every fact holds for the hand at the time of the play, hence for what is
    left of it now.
    """
    played = dict.fromkeys(active, 0)
    exclude = dict.fromkeys(active, 0)
    maybe_keepers: set[int] = set()
    for number, plays in enumerate(trick_plays(tricks, active)):
        led = NO_SUIT
        for seat, card in plays:
            i = DECK.face_index[card]
            eff = ORDER.eff[i]
            if opts.first_three_tricks and number < 3:
                exclude[seat] |= _fixed_trick_exclusion(number, i)
            elif seat == lone and (laid & ~played[seat]) >> i & 1:
                # a laid-out Ulti card goes only when nothing else is legal [§5.1]
                others = laid & ~played[seat]
                if led == NO_SUIT:
                    exclude[seat] |= FULL_MASK & ~others
                else:
                    exclude[seat] |= (ORDER.follow[led] if led != TRUMP else 0) | (TRUMPS & ~others)
            elif led != NO_SUIT and eff != led:
                gone = ORDER.follow[led] | (TRUMPS if eff != TRUMP else 0)
                if eff != TRUMP and opts.gstiesieren and seat != lone:
                    gone &= ~GSTIESS_BIT  # its only trump may be a Gstieß kept back [§6.2]
                    maybe_keepers.add(seat)
                exclude[seat] |= gone
            played[seat] |= 1 << i
            if led == NO_SUIT:
                led = eff
    return played, exclude, maybe_keepers


def _fixed_trick_exclusion(number: int, card: int) -> int:
    """Buchenbach trick ``number`` (0-2): a card shows the hand held nothing of a category that comes first [§6.3].

    The categories in order: the bound five-pointer, the trumps allowed in
    the trick (2..20 in tricks 1-2, any in trick 3), the empty suit cards,
    the other suit cards, anything.
    """
    categories = (FIXED_TRICKS[number], ONE_POINT_TRUMPS if number < 2 else TRUMPS, EMPTY_SUIT_CARDS, SUIT_CARDS)
    out = 0
    for category in categories:
        if category >> card & 1:
            return out
        out |= category
    return out


# --------------------------------------------------------------------------- the sampler


class DappenWorldSampler(WorldSampler):
    """Worlds for one Dappen observation; see the module docstring for what is modelled."""

    game: Dappen

    def __init__(self, game: Dappen, observation: Observation, **kwargs: Any) -> None:
        super().__init__(game, observation, **kwargs)
        opts = game.options
        obs = observation
        pub = obs.public
        self.seat = obs.seat
        self.dealer = int(pub["dealer"])
        self.active = [int(s) for s in pub["active"]]
        self.lone: int | None = pub["lone"]
        contract = CONTRACTS[pub["contract"]] if pub["contract"] is not None else None
        self.takes_dapp = contract is not None and contract.takes_dapp
        self.codes: list[int] = []
        for _actor, text in obs.events:
            self.codes.append(HIDDEN_DISCARD if text == "discard ?" else game.actions.parse(text).code)
        self.own = _mask(obs.hand)
        penalty = pub["penalty"]
        self.penalty: int | None = int(penalty["seat"]) if penalty is not None else None
        laid = _mask(pub["ulti_cards"])
        self.played, exclude, maybe_keepers = trick_exclusions(opts, obs.tricks, self.active, self.lone, laid)
        self.bidding = read_bidding(opts, self.active, obs.events, self.penalty)
        played_all = 0
        for mask in self.played.values():
            played_all |= mask
        # Cards known to lie in a hand now.
        fixed = dict.fromkeys(self.active, 0)
        if self.lone is not None:
            fixed[self.lone] |= laid
            if pub["seven_fives"] is not None:
                fixed[self.lone] |= FIVES
        if self.penalty is not None:
            fixed[self.penalty] |= _mask(penalty["hand"])
        keeper = self._keeper_by_lead(obs.tricks)
        if keeper is not None and not played_all & GSTIESS_BIT:
            fixed[keeper] |= GSTIESS_BIT  # the lead passed on: it kept the Gstieß back [§6.2]
        for s in self.active:
            fixed[s] &= ~self.played[s]
        if self.seat in fixed:
            fixed[self.seat] = 0
        self.fixed = fixed
        # Talon and discards as far as the seat knows them.
        talon_shown = _mask(pub["talon"]) if "talon" in pub else None
        self.discards_known: int | None = None
        self.dapp_known: int | None = None
        if self.lone is not None and self.lone == self.seat:
            self.discards_known = _mask(obs.private.get("discards", []))
        elif talon_shown is not None and self.takes_dapp:
            self.discards_known = talon_shown
        if talon_shown is not None and not self.takes_dapp:
            self.dapp_known = talon_shown
        known = self.own | played_all | (self.discards_known or 0) | (self.dapp_known or 0)
        for mask in fixed.values():
            known |= mask
        # Places.
        sizes = {int(s): int(n) for s, n in pub["hand_sizes"].items()}
        self.hidden_seats = [s for s in self.active if s != self.seat and s != self.penalty]
        self.capacities = [sizes[s] - fixed[s].bit_count() for s in self.hidden_seats]
        dapp_size = int(pub["dapp_size"])
        self.dapp_place = self._place(dapp_size) if dapp_size and self.dapp_known is None else None
        self.discard_place = None
        if self.lone is not None and self.discards_known is None:
            self.discard_place = self._place(int(pub["discarded"]))
        self.items = list(iter_bits(FULL_MASK & ~known))
        lone_place = self.hidden_seats.index(self.lone) if self.lone in self.hidden_seats else None
        self.lone_place = lone_place
        # Where each unseen card may lie.
        full = (1 << len(self.capacities)) - 1
        allowed = dict.fromkeys(self.items, full)
        for k, s in enumerate(self.hidden_seats):
            self._forbid(allowed, exclude[s], k)
            fact = self.bidding.seats.get(s)
            if fact is not None and fact.no_stop:
                self._forbid(allowed, GSTIESS_BIT, k)  # the Gstieß alone is a stop [§3.2.5]
            if s in maybe_keepers and keeper is None and self._penultimate_leader_kept(obs.tricks) == s:
                self._forbid(allowed, GSTIESS_BIT, k)  # it led the last trick: no Gstieß kept back [§6.2]
        c = Constraints()
        self._bidding_facts(allowed, c)
        self._discard_rule(allowed, c)
        specs = c.specs()
        self.relaxed = relax_places(self.capacities, self.items, allowed, specs, list(range(len(self.hidden_seats))))
        self.allocation = GroupedAllocation(self.capacities, self.items, allowed, specs, c.predicate())
        if not self.allocation.count():
            raise SamplingError(f"no placement of the unseen cards fits what seat {self.seat} knows; the observation may be inconsistent")
        self.no_stop = [s for s, f in self.bidding.seats.items() if f.no_stop and s != self.seat and s != self.penalty]
        self.check_seven_fives = self.lone is not None and opts.seven_fives_marsch and pub["seven_fives"] is None

    # ------------------------------------------------------------- helpers
    def _place(self, size: int) -> int | None:
        """A new hidden place of ``size`` cards (``None`` when empty)."""
        if not size:
            return None
        self.capacities.append(size)
        return len(self.capacities) - 1

    @staticmethod
    def _forbid(allowed: dict[int, int], cards: int, place: int | None) -> None:
        """Keep ``cards`` out of ``place``."""
        if place is None:
            return
        for i in iter_bits(cards):
            if i in allowed:
                allowed[i] &= ~(1 << place)

    def _items(self, cards: int) -> int:
        """Mask of the unseen items among ``cards``."""
        return sum(1 << i for i in self.items if cards >> i & 1)

    def _lone_places(self) -> int:
        """Bitmask of the hidden places holding the lone player's cards (hand and discards)."""
        out = 0
        for place in (self.lone_place, self.discard_place):
            if place is not None:
                out |= 1 << place
        return out

    def _lone_known(self) -> int:
        """The lone player's cards the seat knows (played, laid out, shown)."""
        assert self.lone is not None
        return self.played[self.lone] | self.fixed[self.lone]

    def _keeper_by_lead(self, tricks: tuple[TrickView, ...]) -> int | None:
        """The opponent who kept the Gstieß back, if the lead to the last trick passed over it [§6.2]."""
        n = self.game.hand_size
        if len(tricks) < n:
            return None
        winner, leader = tricks[n - 2].winner, tricks[n - 1].leader
        return winner if winner is not None and leader != winner else None

    def _penultimate_leader_kept(self, tricks: tuple[TrickView, ...]) -> int | None:
        """The winner of the penultimate trick who led the last one itself (it kept nothing back)."""
        n = self.game.hand_size
        if len(tricks) < n:
            return None
        winner = tricks[n - 2].winner
        return winner if winner == tricks[n - 1].leader else None

    # ------------------------------------------------------------- facts
    def _bidding_facts(self, allowed: dict[int, int], c: Constraints) -> None:
        """Kings and Geiß named by bids and holds, on the hands as dealt [§3.4]."""
        for s, fact in self.bidding.seats.items():
            if s == self.seat or s not in self.hidden_seats:
                continue
            k = self.hidden_seats.index(s)
            if s == self.lone and self.takes_dapp:
                # The hand as dealt is the lone player's cards minus the Dapp: they need to hold enough in all.
                places = self._lone_places()
                geiss_place = places
                offset = (self._lone_known() & KINGS).bit_count()
                if fact.kings_min:
                    c.bound(places, self._items(KINGS), offset, fact.kings_min)
            else:
                geiss_place = 1 << k
                offset = ((self.played[s] | self.fixed[s]) & KINGS).bit_count()
                if fact.kings_min or fact.kings_max is not None:
                    c.bound(1 << k, self._items(KINGS), offset, fact.kings_min, fact.kings_max)
            if fact.geiss is True and GEISS in allowed:
                allowed[GEISS] &= geiss_place
            elif fact.geiss is False:
                self._forbid(allowed, GEISS_BIT, k)

    def _discard_rule(self, allowed: dict[int, int], c: Constraints) -> None:
        """Protected cards go to the discards only once nothing else is left in hand [§4, §8.4].

        The lone player lays away its unprotected cards first, so with ``d``
        discards made and ``u`` unprotected cards among all its cards then,
        exactly ``max(0, d - u)`` protected ones lie among the discards.
        """
        if self.discard_place is None or self.lone is None:
            return
        opts = self.game.options
        rule = opts.discard_rule
        seven = len(self.active) == 7
        if rule == "honneurs_fives" and seven:
            return  # honneurs = all five-pointers; seven players lift the restriction [§8.4]
        d = self.capacities[self.discard_place]
        total = self.game.hand_size + self.game.dapp_size
        max_fives = len(iter_bits(FIVES)) - (1 if opts.seven_fives_marsch else 0)
        if rule == "no_fives" and d - (total - max_fives) <= 0:
            self._forbid(allowed, FIVES, self.discard_place)
            return
        pile = 1 << self.discard_place
        lone = self._lone_places()
        known = self._lone_known()
        fives_known, kings_known = (known & FIVES).bit_count(), (known & KINGS).bit_count()
        fd = c.counter(pile, self._items(FIVES), 8)
        kd = c.counter(pile, self._items(KINGS), 5)
        fl = c.counter(lone, self._items(FIVES), 8)
        kl = c.counter(lone, self._items(KINGS), 5)

        def keeps_rule(v: tuple[int, ...]) -> bool:
            fives, kings = v[fl] + fives_known, v[kl] + kings_known
            protected_total, protected_laid = fives, v[fd]
            if rule == "honneurs_kings" and (kings == 4 or seven):
                # the kings are free (all four held, or seven players [§8.4]); five-point trumps never [§10.14]
                protected_total, protected_laid = fives - kings, v[fd] - v[kd]
            elif rule == "honneurs_fives" and fives >= 4:
                protected_total, protected_laid = 0, 0
            return protected_laid == max(0, d - (total - protected_total))

        c.rule(keeps_rule)

    # ------------------------------------------------------------- drawing
    def propose(self, rng: random.Random) -> World | None:
        """Deal the unseen cards; rebuild the Dapp and the lone player's hand as dealt; fill in the discards."""
        assignment = self.allocation.sample(rng)
        for k, banned in self.relaxed.items():
            if any(banned >> i & 1 for i in assignment[k]):
                return None  # a fact lifted from the count (see relax_places)
        game = self.game
        now = [0] * game.num_seats
        for k, s in enumerate(self.hidden_seats):
            now[s] = sum(1 << i for i in assignment[k]) | self.fixed[s]
        if self.seat in self.active:
            now[self.seat] = self.own
        if self.penalty is not None and self.penalty != self.seat:
            now[self.penalty] = self.fixed[self.penalty]
        dealt = [now[s] | self.played[s] if s in self.active else 0 for s in range(game.num_seats)]
        discards = self.discards_known or 0
        if self.discard_place is not None:
            discards = sum(1 << i for i in assignment[self.discard_place])
        dapp = self.dapp_known or 0
        if self.dapp_place is not None:
            dapp = sum(1 << i for i in assignment[self.dapp_place])
        if self.lone is not None and self.takes_dapp:
            whole = dealt[self.lone] | discards
            fact = self.bidding.seats.get(self.lone, Requirement())
            hand = _split(whole, game.hand_size, fact, rng)
            if hand is None:
                return None
            dealt[self.lone], dapp = hand, whole & ~hand
        for s in self.no_stop:
            if not self.bidding.seats[s].allows(dealt[s]):
                return None  # rule (a): this passer held a stop [§3.2.5]
        if self.check_seven_fives and self.lone is not None:
            settled = dealt[self.lone] | (dapp if self.takes_dapp else 0)
            if settled & FIVES == FIVES:
                return None  # all seven five-pointers would have been shown [§4]
        # Hidden discards in an order the rule allows: unprotected first, then kings, then the other five-pointers.
        ordered = iter(sorted(iter_bits(discards), key=lambda i: (bool(FIVES >> i & 1), not KINGS >> i & 1)))
        seen = {code - A.DISCARD for code in self.codes if A.DISCARD <= code < A.PASS}
        hidden = (i for i in ordered if i not in seen)
        codes = [A.DISCARD + next(hidden) if code == HIDDEN_DISCARD else code for code in self.codes]
        piles = [DECK.cards(m) for m in dealt] + [DECK.cards(dapp)]
        return World(piles, self.dealer, {}, codes)

    def admits(self, state: State) -> bool:
        """Whether the real state's unseen cards are among the allocations drawn from (a test hook)."""
        assert isinstance(state, DappenState)
        where = [state.hands[s] & ~self.fixed[s] for s in self.hidden_seats]
        if self.dapp_place is not None:
            where.append(state.dapp)
        if self.discard_place is not None:
            where.append(state.discards)
        unseen = set(self.items)
        return self.allocation.admits([[x for x in iter_bits(m) if x in unseen] for m in where])


def _split(whole: int, size: int, fact: Requirement, rng: random.Random) -> int | None:
    """A hand of ``size`` cards out of ``whole`` that meets the bidding facts, uniformly among those that do.

    The kings and the Geiß are the only cards a lone player's bids can name
    [§3.4]; the draw picks how many kings first (weighted by the number of
    hands with that many), then the cards themselves.
    """
    kings = iter_bits(whole & KINGS)
    geiss = iter_bits(whole & GEISS_BIT)
    rest = iter_bits(whole & ~KINGS & ~GEISS_BIT)
    options: list[tuple[int, int, int]] = []
    for g in range(len(geiss) + 1):
        if fact.geiss is not None and bool(g) != fact.geiss:
            continue
        for j in range(len(kings) + 1):
            if j < fact.kings_min or (fact.kings_max is not None and j > fact.kings_max):
                continue
            r = size - g - j
            if 0 <= r <= len(rest):
                options.append((g, j, comb(len(kings), j) * comb(len(rest), r)))
    if not options:
        return None
    pick = rng.randrange(sum(w for _g, _j, w in options))
    k = 0
    while pick >= options[k][2]:
        pick -= options[k][2]
        k += 1
    g, j, _w = options[k]
    return sum(1 << i for i in geiss[:g] + rng.sample(kings, j) + rng.sample(rest, size - g - j))
