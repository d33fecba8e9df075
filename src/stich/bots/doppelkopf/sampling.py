"""Doppelkopf worlds consistent with one seat's observation.

What the seat knows, and how each fact enters the sampler (dossier sections
in brackets).  "Dealt" counts are counts in a player's hand as dealt: the
hidden cards it holds now plus the cards it has played (plus or minus the
poverty exchange when the seat saw it).

Fixed cards
    the seat's hand; every card played (and by whom); the poverty cards the
    seat handed over, received or saw returned [§4.5]; a thrown-in hand that
    was shown [§4.6].

Where a card may lie (allowed places)
    * a player who did not follow the effective suit led holds none of it:
      trumps are one suit in the contract's order, a heart ten is no heart
      in a game where it is a trump [§6.1];
    * with Überstechen (``must_overtrump``) a player who followed or ruffed
      without beating the trick holds no card of that suit that beats it;
    * the taker in a poverty knows the poor hand kept no trump: every
      trump of the poor player went into the exchange [§4.5].

Counts (exact, by the counting in :class:`~stich.search.sampling.Allocation`)
    * health round: with ``stille_hochzeit=false`` a "gesund" player was not
      dealt both queens of clubs [§4.3];
    * the reservation query: which reservers were asked what, who passed
      and what was named must come out the same, so a player who passed a
      solo question while holding a reservation was dealt both queens of
      clubs (wedding), at most ``armut_max_trumps`` trumps (poverty) or a
      hand that may be thrown in; a declared wedding needs both queens of
      clubs, a declared poverty the few trumps [§3.1, §3.2, §4.2, §4.5,
      §4.6];
    * normal game (including a silent wedding the table cannot see yet):
      a player known to be Re was dealt a queen of clubs, a player known to
      be Kontra none [§4.1, §5.1]; with ``second_dulle_beats_first`` (not
      in solos) a trick with both Dullen shows whether somebody plays a
      silent wedding [§1.2, §4.3];
    * Genscher: one that stands shows that nobody was dealt both queens of
      clubs, a void one shows the silent wedding's player (decision 0041);
    * Schweine / Superschweine: the player named holds both diamond aces
      (nines, or kings without nines) when they are settled, and when none
      are named nobody does, unless the variant lets the table learn of
      them late (``holder_choice``, ``second_if_first_won``, ``on_play``)
      [§1.3];
    * poverty seen from outside: the poor hand and the cards handed over
      hold at most ``armut_max_trumps`` trumps, trumps first; after the
      exchange the poor player holds exactly the number of trumps the taker
      said he returned [§4.5]; with ``armut_two_poor=redeal`` nobody else
      was poor, and a deal thrown in for two poor hands had a second one.

Checked on each proposal (a redraw)
    * from a third seat's view of a poverty, facts about the poor player's
      and the taker's hands *as dealt* (the exchange they made is unknown):
      a reservation they could have named, "gesund" without a silent
      wedding, the taker not being poor.  The hidden exchange is drawn at
      random among the legal ones until the hands as dealt fit them
      (``_exchange``); a proposal with no such exchange is drawn again.

Left to verification (rare; the replay rejects a world that breaks them)
    * throw-in tests and "nobody else was poor" when counting them exactly
      would make the tables too large (:data:`TABLE_BUDGET`; only with
      several throw-in conditions and several reservers).

Poverty before the exchange is complete leaves some cards in the pile of
handed-over cards; that pile is one more hidden place for everybody but the
poor player.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from itertools import product
from math import comb, prod
from typing import TYPE_CHECKING, Any

from stich.cards import Card
from stich.core.game import Observation, State
from stich.games.doppelkopf import actions as A
from stich.games.doppelkopf.contracts import CQ, DA, DK, FACES, N_FACES, TRUMP, CardOrder, card_order, face
from stich.games.doppelkopf.state import T_ARMUT, T_HOCHZEIT, T_LUST, T_PFLICHT, T_THROW, DoppelkopfState
from stich.search.sampling import Constraints, GroupedAllocation, Predicate, SamplingError, World, WorldSampler

if TYPE_CHECKING:
    from stich.games.doppelkopf.game import Doppelkopf

Counts = list[int]
"""Copies of each face (24 entries)."""

_D9 = face("D9")
TABLE_BUDGET = 1000
"""Most counter values (product of their ranges) before optional facts are left to verification."""
EXCHANGE_TRIES = 200
"""Poverty exchanges drawn for one proposal, seen from outside, before it is given up (see ``_exchange``)."""
_FACE_INDEX = {card: i for i, card in enumerate(FACES)}
_DECLARE_CODES = frozenset({A.PASS, A.HOCHZEIT, A.ARMUT, A.SCHMEISSEN, *range(A.SOLO, len(A.ACTIONS))})


def _counts(cards: Iterable[Card]) -> Counts:
    """Face counts of some cards."""
    out = [0] * N_FACES
    for card in cards:
        out[_FACE_INDEX[card]] += 1
    return out


def _add(*parts: Sequence[int]) -> Counts:
    """Face counts added."""
    return [sum(values) for values in zip(*parts, strict=True)]


def _sub(a: Sequence[int], b: Sequence[int]) -> Counts:
    """Face counts ``a - b`` (may go negative in intermediate sums)."""
    return [x - y for x, y in zip(a, b, strict=True)]


def _in(counts: Sequence[int], faces: int) -> int:
    """How many cards of the face mask ``faces`` the counts hold."""
    return sum(c for f, c in enumerate(counts) if faces >> f & 1)


def _cards(counts: Sequence[int]) -> list[Card]:
    """The cards of face counts, in pack order."""
    return [FACES[f] for f, c in enumerate(counts) for _ in range(c)]


def _expand(counts: Sequence[int]) -> list[int]:
    """The faces of face counts, one entry per copy."""
    return [f for f, c in enumerate(counts) for _ in range(c)]


class DoppelkopfWorldSampler(WorldSampler):
    """Worlds for one Doppelkopf observation; see the module docstring for what is modelled."""

    game: Doppelkopf

    def __init__(self, game: Doppelkopf, observation: Observation, **kwargs: Any) -> None:
        super().__init__(game, observation, **kwargs)
        self._read_observation()
        self._build_places()
        self.allocation = GroupedAllocation(self.capacities, self.items, self._allowed(), *self._counts())
        if not self.allocation.count():
            raise SamplingError("no deal is consistent with this observation")

    # ------------------------------------------------------------ reading
    def _read_observation(self) -> None:
        """Public facts, the event list (with the hidden discards marked), the tricks and the poverty cards seen."""
        obs = self.observation
        pub = obs.public
        opts = self.game.options
        self.seat = obs.seat
        self.dealer = int(pub["dealer"])
        self.active: list[int] = [int(s) for s in pub["active"]]
        self.kind = str(pub["kind"])
        self.poor: int | None = pub["poor"]
        self.taker: int | None = pub["armut_taker"]
        thrown = pub.get("thrown")
        self.thrown: dict[str, Any] | None = dict(thrown) if thrown is not None else None
        self.probe = self.game.new_state(seed=0, dealer=self.dealer)
        self.trumps = self.probe.order.trump_faces
        """Trumps of the normal game: what poverty counts [§4.5]."""
        self.max_poor = opts.armut_max_trumps
        # Events: codes, with None where the seat saw only "discard ?".
        self.events: list[tuple[int, int | None]] = []
        for actor, text in obs.events:
            if text == "discard ?":
                self.events.append((actor, None))
                continue
            action = A.ACTIONS.by_text.get(text)
            if action is None:
                raise SamplingError(f"unknown event {text!r} in the observation")
            self.events.append((actor, action.code))
        self.said: dict[int, bool] = {}
        self.declared: list[tuple[int, int]] = []
        self.give: list[int] = []
        self.returned: list[int] = []
        accepted = False
        for index, (actor, code) in enumerate(self.events):
            if code is None or A.DISCARD <= code < A.GESUND:
                (self.returned if accepted else self.give).append(index)
            elif code == A.ACCEPT:
                accepted = True
            elif code in (A.GESUND, A.VORBEHALT):
                self.said[actor] = code == A.VORBEHALT
            elif code in _DECLARE_CODES:
                self.declared.append((actor, code))
        forced: int | None = None
        if self.events and self.events[0][1] not in (A.GESUND, A.VORBEHALT):
            forced = self.events[0][0]
        elif not self.events and obs.phase == "declare":
            forced = obs.to_move
        self.forced = forced
        self.context: dict[str, Any] = {"owes_solo": [bool(x) for x in pub["owes_solo"]], "multiplier": int(pub["multiplier"])}
        if forced is not None:
            self.context["forced_soloist"] = forced
        # Cards played, by seat and trick.
        n = len(self.active)
        self.trick_plays: list[list[tuple[int, int]]] = []
        self.played: dict[int, Counts] = {s: [0] * N_FACES for s in self.active}
        for trick in obs.tricks:
            start = self.active.index(trick.leader)
            plays = [(self.active[(start + k) % n], _FACE_INDEX[card]) for k, card in enumerate(trick.cards)]
            self.trick_plays.append(plays)
            for s, f in plays:
                self.played[s][f] += 1
        # Poverty cards the seat saw.
        self.case = "none"
        if self.poor is not None:
            if self.seat == self.poor:
                self.case = "poor"
            elif self.taker is not None and self.seat == self.taker:
                self.case = "taker"
            elif self.taker is None:
                self.case = "outside_before"
            else:
                self.case = "outside_after"
        visible = self.case in ("poor", "taker")
        if not visible and any(code is not None for _a, code in (self.events[i] for i in self.give + self.returned)):
            raise SamplingError("the observation shows poverty cards this seat cannot have seen")
        self.given = [0] * N_FACES
        self.back = [0] * N_FACES
        if visible:
            for i in self.give:
                code = self.events[i][1]
                if code is None:
                    raise SamplingError("the observation hides poverty cards this seat has seen")
                self.given[code - A.DISCARD] += 1
            for i in self.returned:
                code = self.events[i][1]
                if code is None:
                    raise SamplingError("the observation hides poverty cards this seat has seen")
                self.back[code - A.DISCARD] += 1

    # ------------------------------------------------------------- places
    def _build_places(self) -> None:
        """Hidden places with their room, cards known to lie in them, and the unseen cards (items)."""
        obs = self.observation
        hand_sizes = {int(s): int(v) for s, v in obs.public["hand_sizes"].items()}
        self.own = _counts(obs.hand)
        self.known_in: dict[int, Counts] = {s: [0] * N_FACES for s in self.active}
        if self.thrown is not None and "hand" in self.thrown and int(self.thrown["seat"]) != self.seat:
            self.known_in[int(self.thrown["seat"])] = _counts(Card.parse(t) for t in self.thrown["hand"])
        if self.case == "poor" and self.taker is not None:
            played = self.played[self.taker]
            self.known_in[self.taker] = [max(0, g - b - p) for g, b, p in zip(self.given, self.back, played, strict=True)]
        if self.case == "taker" and self.poor is not None:
            played = self.played[self.poor]
            self.known_in[self.poor] = [max(0, b - p) for b, p in zip(self.back, played, strict=True)]
        self.hidden_seats = [s for s in self.active if s != self.seat]
        self.place = {s: i for i, s in enumerate(self.hidden_seats)}
        self.capacities = [hand_sizes[s] - sum(self.known_in[s]) for s in self.hidden_seats]
        self.pile: int | None = None
        if self.case == "outside_before" and self.give:
            self.pile = len(self.capacities)
            self.capacities.append(len(self.give))
        known = _add(self.own, *self.played.values(), *(self.known_in[s] for s in self.hidden_seats))
        if self.case == "poor" and self.taker is None:
            known = _add(known, self.given)  # the pile, seen only by the poor player
        full = [0] * N_FACES
        for card in self.game.deck.cards(self.game.deck.full_mask):
            full[_FACE_INDEX[card]] += 1
        self.pool = _sub(full, known)
        if min(self.pool) < 0:
            raise SamplingError("the observation shows a card more often than the pack holds it")
        self.items = [copy * N_FACES + f for f in range(N_FACES) for copy in range(self.pool[f])]
        # The seat's own hand as dealt.
        own = _add(self.own, self.played.get(self.seat, [0] * N_FACES))
        if self.case == "poor":
            own = _add(own, _sub(self.given, self.back))
        elif self.case == "taker":
            own = _add(own, _sub(self.back, self.given))
        self.own_dealt = own

    def _items(self, faces: int) -> int:
        """Item mask of the unseen copies of the faces in ``faces``."""
        mask = 0
        for f in range(N_FACES):
            if faces >> f & 1:
                for copy in range(self.pool[f]):
                    mask |= 1 << (copy * N_FACES + f)
        return mask

    def _order(self, top: tuple[int, ...] = ()) -> CardOrder:
        """Card order of the contract the table sees (a silent wedding plays the normal order)."""
        contract = self.game.options.contract(str(self.observation.public["contract"]))
        return card_order(contract, self.game.options.dullen, top)

    def _top(self) -> tuple[int, ...]:
        """Faces above the Dullen once Schweine (and Superschweine) are public [§1.3]."""
        pub = self.observation.public
        if pub.get("schweine") is None:
            return ()
        if pub.get("superschweine") is not None:
            return (_D9 if self.game.options.nines else DK, DA)
        return (DA,)

    def _schweine_from(self) -> int | None:
        """Index of the first trick played with the Schweine settled (``None``: never settled) [§1.3]."""
        obs = self.observation
        if self.game.options.schweine == "off" or obs.phase not in ("play", "end") or self.thrown is not None:
            return None
        if self.kind in ("normal", "stille_hochzeit", "armut"):
            start = 0
        elif self.kind == "hochzeit" and obs.public.get("clarification_trick"):
            start = int(obs.public["clarification_trick"])
        else:
            return None
        if self.game.options.schweine == "holder_choice":
            # shown by their holder before one of his cards: they rank on top from the trick of the show
            cards = 0
            for _seat, text in obs.events:
                if text == "schweine":
                    return max(start, cards // len(self.active))
                cards += text.startswith(("play ", "genscher "))
        return start

    # --------------------------------------------------- allowed places
    def _allowed(self) -> dict[int, int]:
        """Places each unseen card may lie in: voids and Überstechen in trick play, the poor hand's trumps."""
        opts = self.game.options
        forbid = [0] * N_FACES

        def exclude(seat: int, faces: int) -> None:
            if seat in self.place:
                for f in range(N_FACES):
                    if faces >> f & 1:
                        forbid[f] |= 1 << self.place[seat]

        t0 = self._schweine_from()
        top = self._top()
        plain = self._order()
        topped = self._order(top) if top else plain
        for number, plays in enumerate(self.trick_plays):
            order = topped if t0 is not None and number >= t0 else plain
            suit_faces = [sum(1 << f for f in range(N_FACES) if order.eff[f] == e) for e in range(5)]
            led = order.eff[plays[0][1]]

            def key(f: int, led: int = led, order: CardOrder = order) -> int:
                eff = order.eff[f]
                if eff == TRUMP:
                    return 100 + order.strength[f]
                return order.strength[f] if eff == led else -1

            best = key(plays[0][1])
            for seat, f in plays[1:]:
                eff = order.eff[f]
                k = key(f)
                if eff != led:
                    exclude(seat, suit_faces[led])  # did not follow [§6.1]
                if opts.must_overtrump and k <= best and eff in (led, TRUMP):
                    # Überstechen: no card of that suit that beats the trick [§6.1 VAR]
                    exclude(seat, sum(1 << g for g in range(N_FACES) if order.eff[g] == eff and key(g) > best))
                best = max(best, k)
        if self.case == "taker" and self.poor is not None:
            exclude(self.poor, self.trumps)  # every trump of the poor hand went into the exchange [§4.5]
        full = (1 << len(self.capacities)) - 1
        return {item: full & ~forbid[item % N_FACES] for item in self.items}

    # ------------------------------------------------------------ counts
    def _dealt(self, seat: int) -> tuple[int, Counts] | None:
        """(places, known counts) of ``seat``'s hand as dealt; ``None`` when the sampler cannot say."""
        if seat == self.seat:
            return 0, self.own_dealt
        played = self.played[seat]
        if self.case == "poor" and seat == self.taker:
            return 1 << self.place[seat], _add(self.known_in[seat], played, _sub(self.back, self.given))
        if self.case == "taker" and seat == self.poor:
            return 1 << self.place[seat], _add(self.known_in[seat], played, _sub(self.given, self.back))
        if self.case == "outside_before" and seat == self.poor:
            pile = 1 << self.pile if self.pile is not None else 0
            return (1 << self.place[seat]) | pile, list(self.known_in[seat])
        if self.case == "outside_after" and seat in (self.poor, self.taker):
            return None
        return 1 << self.place[seat], _add(self.known_in[seat], played)

    def _hand_at(self, seat: int, trick: int) -> tuple[int, Counts]:
        """(places, known counts) of ``seat``'s hand before trick number ``trick`` (0-based)."""
        later = [0] * N_FACES
        for plays in self.trick_plays[trick:]:
            for s, f in plays:
                if s == seat:
                    later[f] += 1
        if seat == self.seat:
            return 0, _add(self.own, later)
        return 1 << self.place[seat], _add(self.known_in[seat], later)

    def _bound(self, c: Constraints, spec: tuple[int, Counts], faces: int, lo: int = 0, hi: int | None = None) -> None:
        """``lo <= count of faces in the hand described by spec <= hi``."""
        places, known = spec
        c.bound(places, self._items(faces), _in(known, faces), lo, hi)

    def _counts(self) -> tuple[list[Any], Any]:
        """Counters and predicate of the allocation (see the module docstring)."""
        obs = self.observation
        pub = obs.public
        opts = self.game.options
        c = Constraints()
        cq = 1 << CQ
        # Health round: without silent weddings "gesund" rules out both queens of clubs [§4.3].
        if not opts.stille_hochzeit:
            for s, reserved in self.said.items():
                spec = self._dealt(s)
                if not reserved and spec is not None:
                    self._bound(c, spec, cq, 0, 1)
        hochzeiter = pub.get("hochzeiter")
        if hochzeiter is not None:
            spec = self._dealt(int(hochzeiter))
            if spec is not None:
                self._bound(c, spec, cq, 2, 2)
        # Normal game (or a silent wedding not revealed): Re holds a queen of clubs, Kontra none [§4.1].
        if self.kind == "normal" and obs.phase in ("play", "end") and self.thrown is None:
            for key, party in pub["parties"].items():
                spec = self._dealt(int(key))
                if spec is not None:
                    if party == "re":
                        self._bound(c, spec, cq, 1, 2)
                    else:
                        self._bound(c, spec, cq, 0, 0)
        self._silent_wedding(c)
        self._genscher_facts(c)
        # Schweine and Superschweine are settled on the hands of that moment [§1.3].
        # Where the table may learn of them late (holder_choice, second_if_first_won, on_play), no name proves no holder.
        t0 = self._schweine_from()
        if t0 is not None:
            late = opts.schweine in ("holder_choice", "second_if_first_won") or opts.schweine_announce == "on_play"
            named = pub.get("schweine")
            if named is not None or not late:
                for s in self.active:
                    self._bound(c, self._hand_at(s, t0), 1 << DA, *((2, 2) if s == named else (0, 1)))
            named_super = pub.get("superschweine")
            if opts.superschweine and named is not None and (named_super is not None or not late):
                sup = 1 << (_D9 if opts.nines else DK)
                for s in self.active:
                    self._bound(c, self._hand_at(s, t0), sup, *((2, 2) if s == named_super else (0, 1)))
        self._poverty(c)
        # The facts with optional parts come last, so that their budget sees every counter of the facts above.
        self._query(c)
        self._nobody_else_poor(c)
        return c.specs(), c.predicate()

    def _genscher_facts(self, c: Constraints) -> None:
        """A Genscher stands only where nobody was dealt both queens of clubs; a void one shows the silent wedding [decision 0041]."""
        obs = self.observation
        cq = 1 << CQ
        if self.kind == "genscher":
            for s in self.active:
                spec = self._dealt(s)
                if spec is not None:
                    self._bound(c, spec, cq, 0, 1)
        elif self.kind == "stille_hochzeit" and obs.public.get("soloist") is not None:
            spec = self._dealt(int(obs.public["soloist"]))
            if spec is not None:
                self._bound(c, spec, cq, 2, 2)

    def _silent_wedding(self, c: Constraints) -> None:
        """A trick with both Dullen can tell a silent wedding from a normal game [§1.2 VAR, §4.3].

        With ``second_dulle_beats_first`` but not ``second_dulle_in_solo``
        the second heart ten wins in a normal game and loses in a silent
        wedding (a solo), so a trick where that decides the winner shows
        whether some player was dealt both queens of clubs.
        """
        opts = self.game.options
        obs = self.observation
        if self.kind != "normal" or obs.phase not in ("play", "end") or self.thrown is not None:
            return
        if not opts.second_dulle_beats_first or opts.second_dulle_in_solo:
            return
        t0 = self._schweine_from()
        top = self._top()
        silent: bool | None = None
        for number, (plays, trick) in enumerate(zip(self.trick_plays, obs.tricks, strict=True)):
            if trick.winner is None or (opts.second_dulle_except_last_trick and number == opts.hand_size - 1):
                continue
            order = self._order(top) if t0 is not None and number >= t0 else self._order()
            if order.eff[order.dulle] != TRUMP:
                continue
            normal, solo = _winner(plays, order, True), _winner(plays, order, False)
            if normal != solo:
                silent = trick.winner == solo
        if silent is None:
            return
        if self.own_dealt[CQ] == 2:
            if not silent:
                c.rule(lambda v: False)
            return  # the seat itself plays the silent wedding
        cq = 1 << CQ
        specs = [spec for spec in (self._dealt(s) for s in self.hidden_seats) if spec is not None]
        if not silent:
            for spec in specs:
                self._bound(c, spec, cq, 0, 1)
            return
        counters = [(c.counter(places, self._items(cq), 2), known[CQ]) for places, known in specs]
        c.rule(lambda v: any(v[i] + off == 2 for i, off in counters))

    def _poverty(self, c: Constraints) -> None:
        """Poverty facts [§4.5]."""
        pub = self.observation.public
        m = self.max_poor
        if self.poor is None:
            return
        poor = self.poor
        if self.case == "outside_before":
            if self.pile is None:
                spec = self._dealt(poor)
                if spec is not None:
                    self._bound(c, spec, self.trumps, 0, m)
            else:
                k = len(self.give)
                items = self._items(self.trumps)
                # The poor hand as dealt: the hand and the pile (the query's poverty test counts the same).
                dealt = c.counter((1 << self.place[poor]) | (1 << self.pile), items, m + 1)
                in_pile = c.counter(1 << self.pile, items, k + 1)
                # All trumps are handed over first: the pile is all trumps, or the hand kept none.
                c.rule(lambda v: v[dealt] <= m and (v[in_pile] == k or v[dealt] == v[in_pile]))
        elif self.case == "outside_after":
            r = int(pub["armut_trumps_returned"])
            self._bound(c, (1 << self.place[poor], self.played[poor]), self.trumps, r, r)
        thrown = self.thrown
        two_poor = thrown is not None and thrown.get("reason") == "two_poor"
        if two_poor:
            # Thrown in because another player was poor too.
            if self.seat != poor and _in(self.own_dealt, self.trumps) <= m:
                return
            counters: list[tuple[int, int]] = []
            for s in self.hidden_seats:
                spec = self._dealt(s)
                if s != poor and spec is not None:
                    counters.append((c.counter(spec[0], self._items(self.trumps), m + 1), _in(spec[1], self.trumps)))
            if counters:
                c.rule(lambda v: any(v[i] + off <= m for i, off in counters))

    def _nobody_else_poor(self, c: Constraints) -> None:
        """With ``armut_two_poor=redeal`` a poverty that goes on had one poor hand only [§4.5].

        Likely anyway: past the table budget, verification checks it.
        """
        poor, m = self.poor, self.max_poor
        if poor is None or self.game.options.armut_two_poor != "redeal" or self.kind != "armut":
            return
        if self.thrown is not None and self.thrown.get("reason") == "two_poor":
            return  # the other way round: thrown in for a second poor hand
        specs = [spec for spec in (self._dealt(s) for s in self.hidden_seats if s != poor) if spec is not None]
        if c.size() * (m + 2) ** len(specs) <= TABLE_BUDGET:
            for spec in specs:
                self._bound(c, spec, self.trumps, m + 1)

    def _query(self, c: Constraints) -> None:
        """The reservation query must ask the same players the same questions [§3.1, §3.2].

        Every combination of optional reservations (throw-in, poverty,
        wedding) the reservers might hold is run through the query; the
        combinations that reproduce the observed questions and answers are
        the constraint.  When they form a product (the usual case), each
        reserver gets its own condition on only the reservations that
        matter for it, which keeps the counting tables small.
        """
        obs = self.observation
        reservers = self._reservers()
        if not reservers:
            return
        owes = [bool(x) for x in obs.public["owes_solo"]]
        priority = self.probe._priority()
        optional = self._optional_tiers()
        every = [
            frozenset(t for t, on in zip(optional, flags, strict=True) if on) for flags in product((False, True), repeat=len(optional))
        ]
        choices: list[list[frozenset[str]]] = []
        for s in reservers:
            if s == self.seat:
                choices.append([self._held_tiers(self.own_dealt, optional)])
            else:
                choices.append(every)
        base = {s: T_PFLICHT if owes[s] else T_LUST for s in reservers}
        declared, still_asking, to_move = self.declared, obs.phase == "declare", obs.to_move

        def matches(combo: Sequence[frozenset[str]]) -> bool:
            eligible = {s: tiers | {base[s]} for s, tiers in zip(reservers, combo, strict=True)}
            return _asks_match(reservers, eligible, priority, declared, still_asking, to_move)

        good = {combo for combo in product(*choices) if matches(combo)}
        if not good:
            c.rule(lambda v: False)
            return
        seen = [{combo[k] for combo in good} for k in range(len(reservers))]
        testers = {k: tests for k, s in enumerate(reservers) if s != self.seat and (tests := self._tier_tests(c, s)) is not None}

        def made(wanted: dict[int, list[str]]) -> dict[int, dict[str, Predicate]]:
            # The tests of every reserver's wanted reservations; the throw-in tests last, each only while the
            # table stays within budget (it needs several counters per seat; past it, verification checks it).
            out = {k: {t: testers[k][t]() for t in tiers if t != T_THROW} for k, tiers in wanted.items()}
            for k, tiers in wanted.items():
                if T_THROW in tiers and c.size() * self._throw_cost() <= TABLE_BUDGET:
                    out[k][T_THROW] = testers[k][T_THROW]()
            return out

        hidden = list(testers)
        if len(good) == prod(len(x) for x in seen):
            # A product: one condition per reserver, on the reservations that matter for it.
            relevant = {k: [t for t in optional if any((tiers ^ {t}) not in seen[k] for tiers in seen[k])] for k in hidden}
            for k, known in made(relevant).items():
                allowed = frozenset(tiers & frozenset(known) for tiers in seen[k])
                if len(allowed) < 2 ** len(known):
                    c.rule(_member(known, allowed))
            return
        # Only the reservations the options allow: a hand that would hold another one is no evidence.
        joint = made({k: list(optional) for k in hidden})

        def consistent(v: tuple[int, ...]) -> bool:
            held = {k: frozenset(t for t, fn in tests.items() if fn(v)) for k, tests in joint.items()}
            return any(all(combo[k] & frozenset(joint[k]) == tiers for k, tiers in held.items()) for combo in good)

        c.rule(consistent)

    def _reservers(self) -> list[int]:
        """The players whose reservations the query asked about, in seat order (empty: no query ran) [§3.2]."""
        if self.forced is not None or len(self.said) < len(self.active):
            return []
        return [s for s in self.active if self.said.get(s)]

    def _optional_tiers(self) -> list[str]:
        """The reservations a hand may or may not hold under the options: throw-in, poverty, wedding [§3.2]."""
        opts = self.game.options
        return [t for t, on in ((T_THROW, bool(opts.schmeissen)), (T_ARMUT, opts.armut), (T_HOCHZEIT, opts.hochzeit)) if on]

    def _held_tiers(self, dealt: Counts, optional: Sequence[str]) -> frozenset[str]:
        """The optional reservations a hand as dealt holds (mirrors the engine's eligibility) [§3.2, §4.2, §4.5, §4.6]."""
        mask = self.game.deck.mask_of(_cards(dealt))
        held = {
            T_THROW: lambda: self.probe._throw_reason(mask) is not None,
            T_ARMUT: lambda: self.probe._poor(mask),
            T_HOCHZEIT: lambda: dealt[CQ] == 2,
        }
        return frozenset(t for t in optional if held[t]())

    def _dealt_fits(self, dealt: dict[int, Counts], seats: Sequence[int]) -> bool:
        """Whether the hands as dealt of ``seats`` fit what the table saw before play, given every hand as dealt.

        For the poverty exchange an outside seat did not see: the health
        round (no "gesund" with both queens of clubs without silent
        weddings) [§4.3], nobody else poor when two poor hands are redealt
        [§4.5], and the reservation query asking and ending as observed
        [§3.2].
        """
        opts = self.game.options
        for s in seats:
            if not opts.stille_hochzeit and self.said.get(s) is False and dealt[s][CQ] == 2:
                return False
            if opts.armut_two_poor == "redeal" and s != self.poor and _in(dealt[s], self.trumps) <= self.max_poor:
                return False
        reservers = self._reservers()
        if not reservers:
            return True
        owes = [bool(x) for x in self.observation.public["owes_solo"]]
        optional = self._optional_tiers()
        eligible = {s: self._held_tiers(dealt[s], optional) | {T_PFLICHT if owes[s] else T_LUST} for s in reservers}
        obs = self.observation
        return _asks_match(reservers, eligible, self.probe._priority(), self.declared, obs.phase == "declare", obs.to_move)

    def _tier_tests(self, c: Constraints, seat: int) -> dict[str, Callable[[], Predicate]] | None:
        """For a hidden reserver: per optional reservation, a maker of its test on counter values.

        The makers create their counters only when called, so reservations
        that do not matter cost nothing.  ``None`` when the sampler cannot
        count the seat's dealt hand.
        """
        spec = self._dealt(seat)
        if spec is None:
            return None
        places, known = spec
        m = self.max_poor

        def wedding() -> Predicate:
            i, off = c.counter(places, self._items(1 << CQ), 2), known[CQ]
            return lambda v: v[i] + off == 2

        def poverty() -> Predicate:
            i, off = c.counter(places, self._items(self.trumps), m + 1), _in(known, self.trumps)
            return lambda v: v[i] + off <= m

        return {T_HOCHZEIT: wedding, T_ARMUT: poverty, T_THROW: lambda: self._throw_test(c, spec)}

    def _throw_cost(self) -> int:
        """Rough number of counter values a throw-in test adds (for the table budget)."""
        conds = self.game.options.schmeissen
        cost = 1
        for cond, size in (("five_nines", 6), ("four_nines_four_kings", 25), ("nine_of_each_suit", 16), ("seven_full_cards", 8)):
            if cond in conds:
                cost *= size
        return cost * (2 if "max_trump_le_dj" in conds else 1) * (2 if "max_trump_le_da" in conds else 1)

    def _throw_test(self, c: Constraints, spec: tuple[int, Counts]) -> Predicate:
        """Whether a hand as dealt may be thrown in, as a test on counter values [§4.6]."""
        conds = self.game.options.schmeissen
        places, known = spec
        order = self.probe.order
        nines = self.game.options.nines
        low = [face(s + ("9" if nines else "K")) for s in "CSHD"]
        kings = [face(s + "K") for s in "CSHD"]
        full = sum(1 << face(s + r) for s in "CSHD" for r in ("A", "10"))
        tests: list[Predicate] = []

        def at_least(faces: int, n: int) -> Predicate:
            i, off = c.counter(places, self._items(faces), max(n - _in(known, faces), 0)), _in(known, faces)
            return lambda v: v[i] + off >= n

        def none_of(faces: int) -> Predicate:
            i, off = c.counter(places, self._items(faces), 1), _in(known, faces)
            return lambda v: v[i] + off == 0

        low_mask = sum(1 << f for f in low)
        if "five_nines" in conds:
            tests.append(at_least(low_mask, 5))
        if "four_nines_four_kings" in conds and nines:
            nine4, king4 = at_least(low_mask, 4), at_least(sum(1 << f for f in kings), 4)
            tests.append(lambda v: nine4(v) and king4(v))
        if "nine_of_each_suit" in conds:
            each = [at_least(1 << f, 1) for f in low]
            tests.append(lambda v: all(t(v) for t in each))
        if "seven_full_cards" in conds:
            tests.append(at_least(full, 7))
        for cond, card in (("max_trump_le_dj", "DJ"), ("max_trump_le_da", "DA")):
            if cond in conds:
                limit = order.strength[face(card)]
                tests.append(none_of(sum(1 << f for f in range(N_FACES) if order.eff[f] == TRUMP and order.strength[f] > limit)))
        return lambda v: any(t(v) for t in tests)

    # ------------------------------------------------------------ worlds
    def propose(self, rng: random.Random) -> World | None:
        """Deal the unseen cards, rebuild the hands as dealt and fill in the poverty exchange the seat did not see."""
        assignment = self.allocation.sample(rng)
        hands: dict[int, Counts] = {}
        for s in self.hidden_seats:
            hands[s] = _add(self.known_in[s], _counts(FACES[i % N_FACES] for i in assignment[self.place[s]]))
        hands[self.seat] = self.own
        dealt = {s: _add(hands[s], self.played[s]) for s in self.active}
        give_codes: list[int] = []
        return_codes: list[int] = []
        poor, taker = self.poor, self.taker
        if self.case == "poor":
            dealt[self.seat] = self.own_dealt
            if taker is not None:
                dealt[taker] = _add(dealt[taker], _sub(self.back, self.given))
        elif self.case == "taker" and poor is not None:
            dealt[self.seat] = self.own_dealt
            dealt[poor] = _add(dealt[poor], _sub(self.given, self.back))
        elif self.case == "outside_before" and poor is not None and self.pile is not None:
            pile = [i % N_FACES for i in assignment[self.pile]]
            # Trumps are handed over first [§4.5].
            give_codes = [A.DISCARD + f for f in sorted(pile, key=lambda f: not self.trumps >> f & 1)]
            dealt[poor] = _add(dealt[poor], _counts(FACES[f] for f in pile))
        elif self.case == "outside_after" and poor is not None and taker is not None:
            made = self._exchange(rng, dealt)
            if made is None:
                return None
            given, back = made
            give_codes = [A.DISCARD + f for f in given]
            return_codes = [A.DISCARD + f for f in back]
        codes: list[int] = []
        gives, backs = iter(give_codes), iter(return_codes)
        returned = set(self.returned)
        for index, (_actor, code) in enumerate(self.events):
            if code is None:
                code = next(backs) if index in returned else next(gives)
            codes.append(code)
        piles = [_cards(dealt[s]) if s in dealt else [] for s in range(self.game.num_seats)]
        return World(piles, self.dealer, dict(self.context), codes)

    def _exchange(self, rng: random.Random, dealt: dict[int, Counts]) -> tuple[list[int], list[int]] | None:
        """A poverty exchange the outside seat cannot rule out; ``dealt`` is updated to the hands as dealt [§4.5].

        On entry ``dealt`` holds the poor player's and the taker's hands
        after the exchange (plus cards played since).  The poor player's
        trumps are exactly the ones returned, so the returned cards are those
        trumps and some other cards of that hand; the handed-over cards are
        any three of the taker's (plus returned) cards with at most
        ``armut_max_trumps`` trumps (all of the poor hand's trumps, filled up
        with plain cards).  Both are drawn at random until the hands as dealt
        fit what the table saw before play (:meth:`_dealt_fits`: a taker who
        said "gesund" without silent weddings was not dealt both queens of
        clubs, the query asked what it asked...), at most
        :data:`EXCHANGE_TRIES` times: which exchange it was does not matter
        to play, only that one exists.  Returns (handed over, returned) as
        faces in play order.
        """
        poor, taker = self.poor, self.taker
        assert poor is not None and taker is not None
        n_back = len(self.returned)
        trumps = self.trumps
        mine = _expand(dealt[poor])
        kept = [f for f in mine if trumps >> f & 1]
        rest = [f for f in mine if not trumps >> f & 1]
        if len(kept) > n_back or len(rest) < n_back - len(kept):
            return None
        for _ in range(EXCHANGE_TRIES):
            back = kept + rng.sample(rest, n_back - len(kept))
            back_counts = _counts(FACES[f] for f in back)
            theirs = _expand(_add(dealt[taker], back_counts))
            given = _hand_over(rng, theirs, trumps, self.max_poor)
            if given is None:
                return None
            given_counts = _counts(FACES[f] for f in given)
            hands = dict(dealt)
            hands[poor] = _add(_sub(dealt[poor], back_counts), given_counts)
            hands[taker] = _add(_sub(dealt[taker], given_counts), back_counts)
            if self._dealt_fits(hands, (poor, taker)):
                dealt.update(hands)
                rng.shuffle(back)
                given.sort(key=lambda f: not trumps >> f & 1)  # trumps are handed over first
                return given, back
        return None

    # ------------------------------------------------------------ checks
    def admits(self, state: State) -> bool:
        """Whether the real state's hidden cards are among the allocations this sampler draws from.

        A test hook (it reads the state): the sampler must never exclude the
        real world, or it would be biased.
        """
        assert isinstance(state, DoppelkopfState)
        by_place: list[Counts] = []
        for s in self.hidden_seats:
            now = _counts(self.game.deck.cards(state.hands[s]))
            by_place.append(_sub(now, self.known_in[s]))
        if self.pile is not None:
            by_place.append(_counts(self.game.deck.cards(state.armut_cards)))
        used = [0] * N_FACES
        assignment: list[list[int]] = []
        for counts in by_place:
            items = []
            for f, n in enumerate(counts):
                for _ in range(n):
                    if used[f] >= self.pool[f]:
                        return False
                    items.append(used[f] * N_FACES + f)
                    used[f] += 1
            assignment.append(items)
        return self.allocation.admits(assignment)


def _asks_match(
    reservers: list[int],
    eligible: dict[int, frozenset[str]],
    priority: list[str],
    declared: list[tuple[int, int]],
    still_asking: bool,
    to_move: int,
) -> bool:
    """Whether the query these eligibilities give asks and ends as observed (mirrors the engine's query) [§3.2]."""
    if len(reservers) == 1:
        s = reservers[0]
        asks = [(s, tuple(t for t in priority if t in eligible[s]), False)]
    else:
        asks = []
        for tier in priority:
            asks += [(s, (tier,), True) for s in reservers if tier in eligible[s]]
        for s in reservers:
            last = max(i for i, ask in enumerate(asks) if ask[0] == s)
            asks[last] = (s, asks[last][1], False)
    pos = 0
    for actor, code in declared:
        if pos >= len(asks):
            return False
        seat, tiers, may_pass = asks[pos]
        if actor != seat:
            return False
        if code == A.PASS:
            if not may_pass:
                return False
            pos += 1
            continue
        named = {A.HOCHZEIT: T_HOCHZEIT, A.ARMUT: T_ARMUT, A.SCHMEISSEN: T_THROW}.get(code)
        if named is None:
            return T_PFLICHT in tiers or T_LUST in tiers
        return named in tiers
    if still_asking:
        return pos < len(asks) and asks[pos][0] == to_move
    return True


def _winner(plays: Sequence[tuple[int, int]], order: CardOrder, second_dulle: bool) -> int:
    """Seat that wins a trick of ``(seat, face)`` plays (mirrors the engine's trick play) [§6.2]."""
    led = order.eff[plays[0][1]]
    best_key, best = -2, plays[0][0]
    for seat, f in plays:
        eff = order.eff[f]
        key = 100 + order.strength[f] if eff == TRUMP else (order.strength[f] if eff == led else -1)
        if key > best_key or (key == best_key and f == order.dulle and second_dulle):
            best_key, best = key, seat
    return best


def _hand_over(rng: random.Random, cards: list[int], trumps: int, most: int) -> list[int] | None:
    """Three of ``cards`` (faces) with at most ``most`` trumps, uniformly among such choices (``None``: there are none)."""
    high = [f for f in cards if trumps >> f & 1]
    plain = [f for f in cards if not trumps >> f & 1]
    weights = [comb(len(high), t) * comb(len(plain), 3 - t) for t in range(min(most, 3) + 1)]
    if not sum(weights):
        return None
    t = rng.choices(range(len(weights)), weights)[0]
    return rng.sample(high, t) + rng.sample(plain, 3 - t)


def _member(tests: dict[str, Predicate], allowed: frozenset[frozenset[str]]) -> Predicate:
    """A predicate: the reservations whose tests pass form one of the ``allowed`` sets."""
    return lambda v: frozenset(t for t, fn in tests.items() if fn(v)) in allowed
