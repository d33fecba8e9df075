"""A rule-based Droggn bot: card-table rules of thumb, no search.

The bot decides from its seat's :class:`~stich.core.game.Observation` only,
plus the public rules (the game's options and the pack tables of
:mod:`stich.games.droggn.pack`).  What it knows about unseen cards comes from
what the table has seen: the cards played, who failed to follow a suit (a
void) or to trump (no trumps left).  Unseen cards are modelled as spread
uniformly over the other hands (and the face-down talon or discards), which
is how a player estimates "will somebody trump my king?".

The rules, by phase:

* **Bidding.**  The hand is rated by :func:`expected_points`: the card
  points it should make as declarer of each contract, a linear rating of
  its trumps, high trumps, kings, queens, voids, singletons and Trull cards
  fitted to this bot's self-play (the exchange contracts' ratings include
  what the talon, the discards and the bought card add).  The bot bids the
  highest contract whose rating reaches :data:`BID_POINTS` and beats the bid
  before it; else it passes.  A Super Mord needs a hand that cannot lose a
  trick (the top trumps, at least as many as are outside, and no plain card).
* **Exchange.**  Cards are laid away one at a time, the least useful first
  (:meth:`DroggnHeuristic.keep_value`): cards of short plain suits, to make
  voids, with high-scoring courts first, as discards count for the declarer.
* **Buying.**  The bot offers its least useful card and buys the Mond if a
  defender holds it, else the highest trump it lacks.
* **Laying out.**  The declarer of a Super Mord lays out the Gstieß (it would
  otherwise lose a trick), or the Pagat; in other contracts the declarer lays
  out the Pagat with :data:`LAY_OUT_TRUMPS` trumps.  Defenders never do.
* **Doubling.**  A defender says Schwacher with :data:`SCHWACHER_TRUMPS`
  trumps including the Mond, or against a Super Mord with a boss trump; the
  declarer answers with a single Retour only with a hand rated
  :data:`RETOUR_MARGIN` above its contract; never more.
* **Play.**  Leading: either side first cashes a boss plain card that will
  probably hold.  The declarer then leads no trump while it holds a plain
  card, but low from a short suit (a variant that first drew trumps with a
  boss trump lost 3.3 points a deal against this rule over 2,000 duplicate
  deals, docs/strength.md); with trumps only it draws with a boss trump or,
  holding more trumps than are out, a low one (never the Pagat, kept for the
  last trick), else leads its least useful card.  A defender leads a suit
  the declarer is void in (he must trump), else low from its longest plain
  suit.  Following:
  when the partner wins and is likely to keep the trick the bot smears a
  valuable card; when the other side wins it takes the trick with the
  cheapest card that will probably hold it if the trick is worth it, else it
  throws its cheapest card; the Gstieß is the escape card for a trick that
  would otherwise cost a court or a high trump (it comes back to its own
  side, :data:`GSTIESS_COST`).

The bot is deterministic: a decision is a pure function of the observation
(ties go to the lower card); the seed is kept for the common bot interface.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from stich.bots.tarock_family.trick_reading import read_tricks
from stich.cards import Card
from stich.core.game import Action, Game, Observation
from stich.core.tricks import EXCUSE, NO_SUIT, TRUMP, PlayOrder
from stich.games.droggn.actions import ACTIONS
from stich.games.droggn.options import DroggnOptions
from stich.games.droggn.pack import FACE_INDEX, GSTIESS, KINGS, MOND, PAGAT, POINTS, play_order

T = TypeVar("T")

RATING: dict[str, tuple[float, ...]] = {
    "super": (1.7, 1.4, 0.7, 4.9, 2.4, 6.4, 2.5, 4.2, 4.0, -0.9),
    "solo": (6.8, 2.0, 0.6, 4.3, 1.8, 2.8, 0.9, 4.1, 4.4, -0.3),
    "ansager": (7.9, 2.6, 1.3, 4.7, 2.0, 3.5, 0.9, 0.5, 5.2, 0.6),
}
"""Weights of :func:`expected_points` per contract (a Super Mord is judged by :meth:`DroggnHeuristic.mord_hand`)."""
BID_POINTS = {"super": 38.0, "solo": 39.0, "ansager": 37.0}
"""Card points (of 74) :func:`expected_points` must promise before the bot bids a contract, highest contract first."""
LAY_OUT_TRUMPS = 13
"""Trumps the declarer needs (Pagat included) to lay out the Pagat outside a Super Mord."""
SCHWACHER_TRUMPS = 8
"""Trumps (Mond included) a defender needs to double."""
RETOUR_MARGIN = 10.0
"""Card points above the contract's threshold before the declarer answers a Schwacher with a Retour."""
GSTIESS_COST = 7.0
"""Dump cost of the Gstieß before the last two tricks: it replaces a card that would cost more."""
SAFE = 0.65
"""Chance a winning card must have of holding the trick before the bot relies on it."""


_PLAY_FACE: dict[int, int] = {a.code: FACE_INDEX[Card.parse(a.text.split()[1])] for a in ACTIONS.actions if a.kind == "play"}
"""The face of each ``play`` action's card, by action code (reading the text for every legal card is slow in rollouts)."""


def _argmin(items: Sequence[T], score: Callable[[T], float]) -> T:
    return min(items, key=score)


def _argmax(items: Sequence[T], score: Callable[[T], float]) -> T:
    best = items[0]
    best_score = score(best)
    for item in items[1:]:
        s = score(item)
        if s > best_score:
            best, best_score = item, s
    return best


def hand_features(hand: Sequence[int], order: PlayOrder) -> tuple[float, ...]:
    """The features :func:`expected_points` weighs, in the order of :data:`RATING`."""
    trumps = [order.strength[f] for f in hand if order.eff[f] == TRUMP]
    lengths = [sum(1 for f in hand if order.eff[f] == suit) for suit in range(4)]
    plain = [f for f in hand if order.eff[f] < TRUMP]
    return (
        1.0,
        float(len(trumps)),
        float(sum(1 for x in trumps if x >= 16)),
        float(sum(1 for f in plain if order.strength[f] == 14)),
        float(sum(1 for f in plain if order.strength[f] == 13)),
        float(sum(1 for n in lengths if n == 0)),
        float(sum(1 for n in lengths if n == 1)),
        float(MOND in hand),
        float(GSTIESS in hand),
        float(PAGAT in hand),
    )


def expected_points(hand: Sequence[int], order: PlayOrder, contract: str) -> float:
    """Card points (of 74) a 21-card hand should make as declarer of ``contract``: a linear rating.

    The weights (:data:`RATING`: constant, trumps, trumps XVI-XXI, kings,
    queens, void suits, singletons, Mond, Gstieß, Pagat) were fitted by least
    squares to the card points this bot made as declarer in self-play; an
    exchange contract's constant includes what the talon, the discards and
    (Ansager) the bought card add.
    """
    return sum(w * x for w, x in zip(RATING[contract], hand_features(hand, order), strict=True))


@dataclass
class _View:
    """What the bot derives from one observation."""

    obs: Observation
    order: PlayOrder
    me: int
    hand: list[int]
    active: list[int]
    declarer: int | None
    contract: str | None
    unseen: int
    hand_sizes: dict[int, int]
    voids: dict[int, set[int]] = field(default_factory=dict)
    trick: list[tuple[int, int]] = field(default_factory=list)
    tricks_left: int = 0

    @property
    def is_declarer(self) -> bool:
        return self.declarer == self.me

    def side(self, seat: int) -> int:
        """0 for the declarer's side, 1 for the defenders."""
        return 0 if seat == self.declarer else 1

    def partners(self, seat: int) -> bool:
        return self.side(seat) == self.side(self.me)

    def led(self) -> int:
        for _seat, f in self.trick:
            if self.order.eff[f] != EXCUSE:
                return self.order.eff[f]
        return NO_SUIT

    def key(self, f: int, led: int) -> int:
        return self.order.key(f, led)

    def best(self) -> tuple[int, int] | None:
        """(seat, face) now winning the current trick, or None if only the Gstieß was played."""
        led = self.led()
        if led == NO_SUIT:
            return None
        best: tuple[int, int] | None = None
        best_key = -2
        for seat, f in self.trick:
            k = self.key(f, led)
            if k > best_key and self.order.eff[f] != EXCUSE:
                best, best_key = (seat, f), k
        return best

    def later_seats(self) -> list[int]:
        """Seats that play after this seat in the current trick."""
        if not self.trick:
            return [s for s in self.active if s != self.me]
        start = self.active.index(self.trick[0][0])
        order = [self.active[(start + i) % 3] for i in range(3)]
        return order[order.index(self.me) + 1 :]

    def unseen_in(self, suit: int, above: int = -1) -> int:
        """Unseen cards of effective suit ``suit`` stronger than strength ``above``."""
        return (self.unseen & self.order.stronger(suit, above)).bit_count()

    def p_none(self, seat: int, suit: int, k: int) -> float:
        """Chance that ``seat`` holds none of ``k`` unseen cards of ``suit``."""
        if suit in self.voids.get(seat, set()) or k <= 0:
            return 1.0
        total = self.unseen.bit_count()
        h = self.hand_sizes.get(seat, 0)
        if total <= 0:
            return 1.0
        return float(max(0.0, 1.0 - h / total) ** k)

    def p_beat(self, seat: int, f: int, led: int) -> float:
        """Chance that ``seat``, still to play, beats ``f`` (now winning a trick asking for ``led``)."""
        strength = self.order.strength[f]
        if self.order.eff[f] == TRUMP:
            p_has = 1.0 - self.p_none(seat, TRUMP, self.unseen_in(TRUMP, strength))
            return p_has if led == TRUMP else p_has * self.p_none(seat, led, self.unseen_in(led))
        p_higher = 1.0 - self.p_none(seat, led, self.unseen_in(led, strength))
        p_ruff = self.p_none(seat, led, self.unseen_in(led)) * (1.0 - self.p_none(seat, TRUMP, self.unseen_in(TRUMP)))
        return min(1.0, p_higher + p_ruff)

    def p_hold(self, f: int, led: int) -> float:
        """Chance that ``f``, winning now, is not beaten by a later opponent."""
        p = 1.0
        for seat in self.later_seats():
            if not self.partners(seat):
                p *= 1.0 - self.p_beat(seat, f, led)
        return p

    def boss(self, f: int) -> bool:
        """Whether no unseen card of its suit beats ``f``."""
        eff = self.order.eff[f]
        return eff != EXCUSE and self.unseen_in(eff, self.order.strength[f]) == 0


def build_view(obs: Observation, order: PlayOrder, full_mask: int) -> _View:
    """The bot's view of an observation (asked for every card; a rollout asks thousands of times)."""
    pub = obs.public
    hand_faces = [FACE_INDEX[c] for c in obs.hand]
    mask = 0
    for f in hand_faces:
        mask |= 1 << f
    declarer = pub.get("declarer")
    active = list(pub.get("active", []))
    reading = read_tricks(obs.tricks, active, FACE_INDEX, order)
    unseen = full_mask & ~mask & ~reading.played
    for c in obs.private.get("discards", ()):
        unseen &= ~(1 << FACE_INDEX[Card.parse(c)])
    return _View(
        obs=obs,
        order=order,
        me=obs.seat,
        hand=hand_faces,
        active=active,
        declarer=declarer if isinstance(declarer, int) else None,
        contract=pub.get("contract"),
        unseen=unseen,
        hand_sizes={int(k): int(v) for k, v in dict(pub.get("hand_sizes", {})).items()},
        voids=reading.voids,
        trick=list(zip(reading.seats, reading.faces, strict=True)),
        tricks_left=len(obs.hand),
    )


class DroggnHeuristic:
    """The rule-based Droggn player (see the module docstring)."""

    name = "heuristic"

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        opts = game.options
        assert isinstance(opts, DroggnOptions)
        self.opts = opts
        self.seat = seat
        self.seed = seed
        self.order = play_order(opts.pack_size)
        self.full_mask = game.deck.full_mask
        self.pack_trumps = sum(1 for g in range(len(self.order.eff)) if self.order.eff[g] == TRUMP and self.full_mask >> g & 1)

    # ---------------------------------------------------------------- entry
    def choose(self, observation: Observation) -> Action:
        """One of ``observation.legal_actions``."""
        legal = observation.legal_actions
        if not legal:
            raise ValueError(f"seat {self.seat} has no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        by_text = {a.text: a for a in legal}
        phase = observation.phase
        if phase == "bidding":
            return by_text[self._bid(observation, by_text)]
        view = build_view(observation, self.order, self.full_mask)
        if phase == "exchange":
            return self._card_action(legal, "discard", lambda f: self.keep_value(view, f, exchange=True), lowest=True)
        if phase == "buy":
            return self._buy(view, legal, by_text)
        if phase == "declare":
            return by_text[self._declare(view, by_text)]
        if phase == "doubling":
            return by_text[self._double(view, by_text)]
        return self._play(view, legal)

    @staticmethod
    def _card_action(legal: Sequence[Action], verb: str, score: Callable[[int], float], lowest: bool) -> Action:
        cards = [a for a in legal if a.kind == verb]
        pick = _argmin if lowest else _argmax
        return pick(cards, lambda a: score(FACE_INDEX[Card.parse(a.text.split()[1])]))

    # -------------------------------------------------------------- bidding
    def rating(self, hand: Sequence[int], contract: str) -> float:
        """Card points the hand should make as declarer of ``contract``, scaled to a 74-point pack."""
        return expected_points(hand, self.order, contract) * 21.0 / self.opts.hand_size

    def _bid(self, obs: Observation, by_text: dict[str, Action]) -> str:
        hand = [FACE_INDEX[c] for c in obs.hand]
        if "bid super_mord" in by_text and self.mord_hand(hand):
            return "bid super_mord"
        for name, need in BID_POINTS.items():
            text = f"bid {name}"
            if text in by_text and self.rating(hand, name) >= need:
                return text
        return "pass"

    def mord_hand(self, hand: Sequence[int]) -> bool:
        """Every trump from the top down to the hand's lowest, and nothing that can lose a trick."""
        trumps = sorted((f for f in hand if self.order.eff[f] == TRUMP), key=lambda f: -self.order.strength[f])
        outside = self.pack_trumps - len(trumps)
        if not trumps or self.order.strength[trumps[0]] != 21:
            return False
        tops = 0
        for f in trumps:
            if self.order.strength[f] != 21 - tops:
                break
            tops += 1
        plain = [f for f in hand if self.order.eff[f] not in (TRUMP, EXCUSE)]
        return tops >= outside and not plain

    # ------------------------------------------------------------- exchange
    def keep_value(self, view: _View, f: int, exchange: bool = False) -> float:
        """How much keeping ``f`` is worth (low = lay away / give away first)."""
        order = view.order
        eff = order.eff[f]
        if eff == EXCUSE:
            return 30.0
        if eff == TRUMP:
            value = 10.0 + order.strength[f]
            if f in (MOND, PAGAT):
                value += 20.0
            return value
        length = sum(1 for g in view.hand if order.eff[g] == eff)
        strength = order.strength[f]
        if strength == 14:
            return 20.0 + length
        if exchange:
            # short suits go first (voids let the declarer trump); their courts bank points in the discards
            return (
                2.0 * length
                - POINTS[f] * 0.5
                + (3.0 if strength == 13 and any(order.strength[g] == 14 and order.eff[g] == eff for g in view.hand) else 0.0)
            )
        return 2.0 * length + POINTS[f] * 0.3

    # --------------------------------------------------------------- buying
    def _buy(self, view: _View, legal: Sequence[Action], by_text: dict[str, Action]) -> Action:
        if any(a.kind == "offer" for a in legal):
            return self._card_action(legal, "offer", lambda f: self.keep_value(view, f), lowest=True)
        mond = f"buy {Card.parse('T21').text}"
        if mond in by_text:
            return by_text[mond]
        trumps = [a for a in legal if a.kind == "buy" and self.order.eff[FACE_INDEX[Card.parse(a.text.split()[1])]] == TRUMP]
        if trumps:
            return _argmax(trumps, lambda a: self.order.strength[FACE_INDEX[Card.parse(a.text.split()[1])]])
        return legal[0]

    # ------------------------------------------------------ laying out, doubling
    def _trumps(self, view: _View) -> int:
        return sum(1 for f in view.hand if view.order.eff[f] == TRUMP)

    def _declare(self, view: _View, by_text: dict[str, Action]) -> str:
        if view.contract == "super_mord":
            for text in ("lay_out T22", "lay_out T1"):
                if text in by_text:
                    return text
            return "liege"
        if "lay_out T1" in by_text and self._trumps(view) >= LAY_OUT_TRUMPS and MOND in view.hand:
            return "lay_out T1"
        return "liege"

    def _double(self, view: _View, by_text: dict[str, Action]) -> str:
        if view.is_declarer:
            contract = view.contract if view.contract in BID_POINTS else "super"
            need = BID_POINTS[contract] + RETOUR_MARGIN
            if "retour" in by_text and view.obs.public.get("doubles", 0) == 1 and self.rating(view.hand, contract) >= need:
                return "retour"
            return "pass"
        if "schwacher" in by_text and self._trumps(view) >= SCHWACHER_TRUMPS and MOND in view.hand:
            return "schwacher"
        if view.contract == "super_mord" and "schwacher" in by_text:
            trumps = [f for f in view.hand if view.order.eff[f] == TRUMP]
            if trumps and any(view.boss(f) for f in trumps):
                return "schwacher"  # a boss trump beats the Mord for sure
        return "pass"

    # ----------------------------------------------------------------- play
    def _play(self, view: _View, legal: Sequence[Action]) -> Action:
        cards = [_PLAY_FACE[a.code] for a in legal]
        by_face = dict(zip(cards, legal, strict=True))
        choice = self._follow(view, cards) if view.trick else self._lead(view, cards)
        return by_face[choice]

    def dump_cost(self, view: _View, f: int) -> float:
        """Cost of throwing ``f`` into a trick the other side takes."""
        if f == GSTIESS:
            # the Gstieß costs nothing (it comes back) but is the best escape card: keep it for a costly trick
            return GSTIESS_COST if view.tricks_left > 2 else 0.0
        cost = POINTS[f] + 0.3 * self.keep_value(view, f)
        if f == PAGAT:
            cost += 10.0
        return cost

    def smear_value(self, view: _View, f: int) -> float:
        """Gain of giving ``f`` to a trick the own side takes."""
        if f == GSTIESS:
            return -2.0
        return POINTS[f] - 0.4 * self.keep_value(view, f) - (10.0 if f == PAGAT and view.tricks_left > 1 else 0.0)

    def _lead(self, view: _View, cards: list[int]) -> int:
        order = view.order
        non_gstiess = [f for f in cards if f != GSTIESS] or cards
        trumps = [f for f in non_gstiess if order.eff[f] == TRUMP]
        outside_trumps = view.unseen_in(TRUMP)
        plain = [f for f in non_gstiess if order.eff[f] != TRUMP]
        bosses = [f for f in plain if view.boss(f) and view.p_hold(f, order.eff[f]) >= SAFE]
        if bosses:
            return _argmax(bosses, lambda f: POINTS[f])
        if view.is_declarer:
            # No trump lead while a plain card is left: the trumps stay to ruff and to take the rich tricks.
            if plain:
                return _argmin(plain, lambda f: self.dump_cost(view, f) + 0.5 * sum(1 for g in view.hand if order.eff[g] == order.eff[f]))
            if trumps and outside_trumps > 0:
                top = max(trumps, key=lambda f: order.strength[f])
                if view.boss(top):
                    return top
                drawable = [f for f in trumps if f != PAGAT]
                if len(trumps) > outside_trumps and drawable:
                    return min(drawable, key=lambda f: order.strength[f])
            return _argmin(non_gstiess, lambda f: self.keep_value(view, f) if f != PAGAT or len(non_gstiess) == 1 else 99.0)
        # defender
        declarer = view.declarer
        if declarer is not None:
            void = view.voids.get(declarer, set())
            forcing = [f for f in non_gstiess if order.eff[f] in void and order.eff[f] != TRUMP and TRUMP not in void]
            if forcing:
                return _argmin(forcing, lambda f: self.dump_cost(view, f))
        if plain:
            length = {s: sum(1 for g in view.hand if order.eff[g] == s) for s in range(4)}
            return _argmin(plain, lambda f: self.dump_cost(view, f) - 0.7 * length[order.eff[f]])
        return _argmin(non_gstiess, lambda f: self.keep_value(view, f))

    def _follow(self, view: _View, cards: list[int]) -> int:
        led = view.led()
        best = view.best()
        if led == NO_SUIT or best is None:
            # the Gstieß was led: this card sets the suit; play as if leading
            return self._lead(view, cards)
        winner, best_face = best
        pot = sum(POINTS[f] for _s, f in view.trick if f != GSTIESS)
        last = not view.later_seats()
        beaters = [f for f in cards if f != GSTIESS and view.key(f, led) > view.key(best_face, led)]
        if view.partners(winner):
            if last or view.p_hold(best_face, led) >= SAFE:
                return _argmax(cards, lambda f: self.smear_value(view, f))
            holding = [f for f in beaters if view.p_hold(f, led) >= SAFE]
            if holding:
                return _argmin(holding, lambda f: self.keep_value(view, f) - POINTS[f])
            return _argmin(cards, lambda f: self.dump_cost(view, f))
        opponent_pagat = any(f == PAGAT and not view.partners(s) for s, f in view.trick)
        holding = [f for f in beaters if last or view.p_hold(f, led) >= SAFE]
        if holding:
            f = _argmin(holding, lambda g: self.keep_value(view, g) - POINTS[g])
            worth = pot + POINTS[f] + (10.0 if opponent_pagat else 0.0)
            if last or opponent_pagat or self.keep_value(view, f) <= 12.0 + worth or KINGS >> f & 1:
                return f
        return _argmin(cards, lambda f: self.dump_cost(view, f))
