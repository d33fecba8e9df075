"""A rule-based Dobbm bot: card-table rules of thumb, no search.

The bot decides from its seat's :class:`~stich.core.game.Observation` only,
plus the public rules (the game's options and the pack tables of
:mod:`stich.games.dobbm.pack`).  What it knows about unseen cards comes from
what the table has seen: the cards played, who failed to follow a suit (a
void) or to trump (no hearts left).  Unseen cards are modelled as spread
uniformly over the other hands and the four face-down cards (the Dobb or the
discards), which is how a player estimates "will somebody trump my Sow?".

The rules, by phase:

* **Bidding.**  The hand is rated by :func:`estimate_tricks`: a quick
  trump-drawing count (hearts against the hearts outside) plus plain-suit
  winners (a Sow, a ten behind its Sow...).  A Dobbm is bid with
  :data:`DOBBM_TRICKS` expected tricks, since the exchange improves the hand
  (:data:`DOBB_GAIN`); a Solo with :data:`SOLO_TRICKS`.  Over a Dobbm the bot
  bids Solo only with a Solo hand.  In the Mußrunde the forced bot plays Solo
  with a Solo hand, else Dobbm.
* **Exchange.**  Every legal set of four discards from the 12 cards is rated:
  the tricks the 8 kept cards should take (voids count, as they let the
  declarer trump) plus the card points banked in the discards; the best set is
  discarded, covering hearts before Sows so that each step stays legal.
* **Doubling.**  A defender gives a Schwacher with a strong heart holding
  (:func:`defence_strength`); the declarer answers with a Retour only with a
  hand that should take nearly every trick; a defender re-Retours never.
* **Play.**  Leading: the declarer draws trumps from the bottom (its
  cheapest heart) while the defenders may hold hearts, with its top heart
  once that is the boss and at most :data:`DRAW_TOP_LIMIT` hearts are out,
  then cashes boss cards, then leads low from a short suit; a defender
  cashes a Sow in a suit not yet led, else leads the cheapest card of its
  longest plain suit (hearts last).  Following: when the own side wins the
  trick and is likely to keep it, the bot smears (schmiert) its most
  valuable card that it does not need; when the other side wins it takes
  the trick with the cheapest card that is likely to hold it,
  else throws its least valuable card.

The bot is deterministic: a decision is a pure function of the observation
(ties go to the lower card); the seed is kept for the common bot interface.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from stich.cards import Card
from stich.core.game import Action, Game, Observation
from stich.core.tricks import TRUMP
from stich.games.dobbm.options import DobbmOptions
from stich.games.dobbm.pack import FACES, HEARTS, N_FACES, NON_SOW_HEARTS, ORDER, PLAIN_SOWS, POINTS, SOWS

_FACE_OF: dict[Card, int] = {c: i for i, c in enumerate(FACES)}
_SUIT_FACES: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted((f for f in range(N_FACES) if ORDER.eff[f] == suit), key=lambda f: -ORDER.strength[f])) for suit in range(5)
)
"""Faces of each effective suit (0..3 plain, 4 trumps), strongest first."""
_SUIT_MASKS: tuple[int, ...] = tuple(sum(1 << f for f in faces) for faces in _SUIT_FACES)
"""The faces of each effective suit as a bit mask."""
PLAIN = (0, 1, 3)
"""The plain suits (clubs/Eichel, spades/Laub, diamonds/Schellen); hearts are trumps."""

DOBBM_TRICKS = 3.0
"""Expected tricks after the exchange (the 8 dealt cards' estimate plus :data:`DOBB_GAIN`) at which the bot bids Dobbm."""
SOLO_TRICKS = 4.5
"""Expected tricks of the 8 dealt cards at which the bot bids Solo."""
DOBB_GAIN = 1.0
"""Tricks the exchange is reckoned to add to a Dobbm hand."""
SCHWACHER_STRENGTH = 5.0
"""Defence strength (:func:`defence_strength`) at which a defender gives a Schwacher."""
RETOUR_TRICKS = 6.5
"""Expected tricks at which the declarer answers a Schwacher with a Retour."""
SAFE = 0.6
"""Chance a winning card must have of holding the trick before the bot relies on it."""
DRAW_TOP_LIMIT = 3
"""Hearts left out at most for the declarer to draw with its top heart (when it is the boss); with more, its cheapest.

Leading the heart Sow first only pulls the defenders' small hearts, and
their Ten and King then take tricks; ``pimc`` led low instead and the
declarer gained about 13 points a deal where they differed
(docs/strength.md).  The cheapest-heart rule beat the top-heart rule by
1.1 points per deal over 1,000 duplicate deals of heuristic bots
(limits 1, 2, 3: +0.8, +1.05, +1.1)."""


def _comb_ratio(total: int, hand: int, k: int) -> float:
    """Chance that ``hand`` cards drawn from ``total`` hold none of ``k`` given cards."""
    if k <= 0:
        return 1.0
    if total <= 0 or k > total - hand:
        return 0.0
    return math.comb(total - hand, k) / math.comb(total, k)


def estimate_tricks(hand: Sequence[int], gone: int = 0, opponents: int = 3) -> float:
    """Tricks a hand should take playing alone against ``opponents`` players.

    ``gone`` masks cards known to be out of play (the declarer's own
    discards).  Trumps: the hand leads its best heart each round; if it beats
    every heart outside it wins and each opponent gives up a low heart, else
    the best outside heart takes the trick.  Hearts left after the outside
    ones are gone all win.  Plain suits: a card wins when every higher card of
    its suit is in the hand or gone; the first round counts fully, the second
    0.6 while opponents may trump, later rounds 0.3.  A void plain suit is
    worth 0.4 of a trick when the hand keeps a spare heart to trump with.
    """
    mask = 0
    for f in hand:
        mask |= 1 << f
    return _estimate_mask(mask, gone, opponents)


def _estimate_mask(mask: int, gone: int, opponents: int) -> float:
    """:func:`estimate_tricks` of the hand whose faces are the bits of ``mask``.

    The hearts and each plain suit depend on that suit's bits only, so their
    parts come from small caches (:func:`_trump_tricks`,
    :func:`_suit_increments`); the plain-suit increments are added one by one
    in the original order, so the float result is the same to the last bit
    (the exchange compares close values, and a different rounding would
    change a discard).
    """
    trump_bits = _SUIT_MASKS[TRUMP]
    tricks, spare = _trump_tricks(mask & trump_bits, trump_bits & ~(mask | gone), opponents)
    total = float(tricks)
    for suit in PLAIN:
        bits = _SUIT_MASKS[suit]
        held = mask & bits
        if not held:
            if spare > 0:
                total += 0.4
            continue
        for step in _suit_increments(suit, held, gone & bits):
            total += step
    return total


@functools.cache
def _trump_tricks(mine_bits: int, outside_bits: int, opponents: int) -> tuple[int, int]:
    """Heart tricks and spare hearts of :func:`estimate_tricks` for the hearts held and the hearts outside."""
    strength = ORDER.strength
    mine = [f for f in _SUIT_FACES[TRUMP] if mine_bits >> f & 1]
    outside = [f for f in _SUIT_FACES[TRUMP] if outside_bits >> f & 1]
    tricks = 0
    spare = len(mine) - len(outside)
    while mine and outside:
        card = mine.pop(0)
        if strength[card] > strength[outside[0]]:
            tricks += 1
            del outside[max(0, len(outside) - opponents) :]
        else:
            outside.pop(0)
            del outside[max(0, len(outside) - (opponents - 1)) :]
    return tricks + len(mine), spare


@functools.cache
def _suit_increments(suit: int, held: int, gone: int) -> tuple[float, ...]:
    """The tricks :func:`estimate_tricks` adds for a held plain suit, one increment per winning round."""
    steps: list[float] = []
    for f in _SUIT_FACES[suit]:
        if (gone >> f) & 1:
            continue
        if not (held >> f) & 1:
            break
        rounds = len(steps)
        steps.append(1.0 if rounds == 0 else 0.6 if rounds == 1 else 0.3)
    return tuple(steps)


def defence_strength(hand: Sequence[int]) -> float:
    """How well a defender's hand fights the declarer: hearts (the top three count extra) and Sows.

    Each heart counts 1, the heart Sow 2 more, the heart ten and king 1 more
    each; each plain Sow counts 1.
    """
    value = 0.0
    for f in hand:
        if ORDER.eff[f] == TRUMP:
            value += 1.0 + {9: 2.0, 8: 1.0, 7: 1.0}.get(ORDER.strength[f], 0.0)
        elif (SOWS >> f) & 1:
            value += 1.0
    return value


def best_discard(hand: Sequence[int], opts: DobbmOptions) -> tuple[int, ...]:
    """The four cards to discard: kept tricks (x 15 points) plus the points banked, best first.

    A declarer discards one card at a time and asks again each time with the
    same twelve cards, and a search asks for the same hand in many worlds, so
    the answer is cached per hand and Sow rule.
    """
    return _best_discard(tuple(sorted(hand)), opts.sow_discard_rule)


@functools.lru_cache(maxsize=4096)
def _best_discard(hand: tuple[int, ...], rule: str) -> tuple[int, ...]:
    """:func:`best_discard` for a sorted hand and the option ``sow_discard_rule``."""
    sows, cover = (PLAIN_SOWS, HEARTS) if rule == "any_heart_incl_sow" else (SOWS, NON_SOW_HEARTS)
    full = 0
    for f in hand:
        full |= 1 << f
    best: tuple[int, ...] = ()
    best_value = -1.0
    for combo in combinations(hand, 4):
        gone = 0
        for f in combo:
            gone |= 1 << f
        if (gone & cover).bit_count() < (gone & sows).bit_count():
            continue  # the Sow rule (§4.1): a discarded Sow needs a discarded heart to cover it
        value = 15.0 * _estimate_mask(full & ~gone, gone, 3) + sum(POINTS[f] for f in combo)
        if value > best_value:
            best, best_value = combo, value
    return best


@dataclass
class _View:
    """What the bot derives from one observation."""

    obs: Observation
    me: int
    active: list[int]
    hand: list[int]
    unseen: int
    """Cards that may be in another player's hand (or among the four face-down cards)."""
    dead: int
    """How many unseen cards lie face down (the Dobb or the discards, unknown to this seat)."""
    voids: dict[int, set[int]]
    declarer: int | None
    partners: set[int]
    hand_sizes: dict[int, int]
    trick_faces: list[int]
    trick_seats: list[int]
    led_suits: set[int]

    def later_seats(self) -> list[int]:
        """Seats that play after this seat in the current trick."""
        start = self.active.index(self.trick_seats[0]) if self.trick_seats else self.active.index(self.me)
        order = [self.active[(start + i) % len(self.active)] for i in range(len(self.active))]
        return order[order.index(self.me) + 1 :]

    def unseen_in(self, suit: int, above: int = 0) -> int:
        """Unseen cards of effective suit ``suit`` stronger than strength ``above``."""
        return (self.unseen & ORDER.stronger(suit, above)).bit_count()

    def pool(self, suit: int) -> int:
        """Places an unseen card of ``suit`` may be: the hands not void in it, plus the face-down cards."""
        return self.dead + sum(self.hand_sizes.get(s, 0) for s in self.active if s != self.me and suit not in self.voids[s])

    def p_none(self, seat: int, suit: int, k: int) -> float:
        """Chance that ``seat`` holds none of ``k`` given unseen cards of ``suit``."""
        if suit in self.voids[seat]:
            return 1.0
        return _comb_ratio(self.pool(suit), self.hand_sizes.get(seat, 0), k)

    def p_beat(self, seat: int, f: int, led: int) -> float:
        """Chance that ``seat``, still to play, beats ``f``."""
        if ORDER.eff[f] == TRUMP:
            higher = self.unseen_in(TRUMP, ORDER.strength[f])
            if higher == 0:
                return 0.0
            p_has = 1.0 - self.p_none(seat, TRUMP, higher)
            return p_has if led == TRUMP else p_has * self.p_none(seat, led, self.unseen_in(led))
        higher = self.unseen_in(led, ORDER.strength[f])
        p_higher = 1.0 - self.p_none(seat, led, higher) if higher else 0.0
        trumps = self.unseen_in(TRUMP)
        p_ruff = self.p_none(seat, led, self.unseen_in(led)) * (1.0 - self.p_none(seat, TRUMP, trumps)) if trumps else 0.0
        return min(1.0, p_higher + p_ruff)

    def p_hold(self, f: int, led: int) -> float:
        """Chance that ``f``, winning the trick now, is not beaten by a later opponent."""
        p = 1.0
        for seat in self.later_seats():
            if seat not in self.partners:
                p *= 1.0 - self.p_beat(seat, f, led)
        return p

    def held_in(self, suit: int) -> int:
        """Cards of effective suit ``suit`` in the hand."""
        return sum(1 for f in self.hand if ORDER.eff[f] == suit)

    def keep(self, f: int) -> float:
        """What holding ``f`` is worth for later tricks (control, not points)."""
        suit = ORDER.eff[f]
        if suit == TRUMP:
            q = (ORDER.strength[f] - 1) / 8
            return 20.0 * q * q
        if self.unseen_in(suit, ORDER.strength[f]) == 0:
            return 4.0 if self.unseen_in(suit) >= 2 else 1.5
        return 0.0


def _key(f: int, led: int) -> int:
    eff = ORDER.eff[f]
    if eff == TRUMP:
        return 100 + ORDER.strength[f]
    return ORDER.strength[f] if eff == led else -1


def build_view(obs: Observation) -> _View:
    """Derive a :class:`_View` from an observation."""
    public: Mapping[str, Any] = obs.public
    active = [int(s) for s in public.get("active", [])]
    hand = [_FACE_OF[c] for c in obs.hand]
    seen = 0
    for f in hand:
        seen |= 1 << f
    voids: dict[int, set[int]] = {s: set() for s in active}
    led_suits: set[int] = set()
    trick_faces: list[int] = []
    trick_seats: list[int] = []
    for trick in obs.tricks:
        start = active.index(trick.leader)
        faces = [_FACE_OF[c] for c in trick.cards]
        seats = [active[(start + i) % len(active)] for i in range(len(faces))]
        if faces:
            led = ORDER.eff[faces[0]]
            led_suits.add(led)
            for seat, f in zip(seats[1:], faces[1:], strict=True):
                eff = ORDER.eff[f]
                if eff != led:
                    voids[seat].add(led)
                    if eff != TRUMP:
                        voids[seat].add(TRUMP)
        for f in faces:
            seen |= 1 << f
        if trick.winner is None:
            trick_faces, trick_seats = faces, seats
    known_down = 0
    for text in obs.private.get("discards", ()):
        known_down |= 1 << _FACE_OF[Card.parse(text)]
    declarer = public.get("declarer")
    dead = 0
    if public.get("dobb_cards") or (public.get("discards_made") and not known_down):
        dead = 4
    unseen = ((1 << N_FACES) - 1) & ~seen & ~known_down
    me = obs.seat
    if declarer is None or me == declarer:
        partners: set[int] = set()
    else:
        partners = {s for s in active if s not in (me, declarer)}
    sizes = {int(s): int(n) for s, n in public.get("hand_sizes", {}).items()}
    return _View(obs, me, active, hand, unseen, dead, voids, declarer, partners, sizes, trick_faces, trick_seats, led_suits)


class DobbmHeuristic:
    """Rule-based Dobbm player; see the module docstring for its rules."""

    name = "heuristic"

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        opts = game.options
        assert isinstance(opts, DobbmOptions)
        self.opts = opts
        self.seat = seat
        self.seed = seed

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
        if phase == "exchange":
            return self._discard(observation, legal)
        if phase == "doubling":
            return by_text[self._double(observation, by_text)]
        return self._play(observation, legal)

    # ------------------------------------------------------------- bidding
    def _bid(self, obs: Observation, legal: Mapping[str, Action]) -> str:
        hand = [_FACE_OF[c] for c in obs.hand]
        tricks = estimate_tricks(hand)
        solo = tricks >= SOLO_TRICKS
        if "bid solo" in legal and solo:
            return "bid solo"
        if "pass" not in legal and "accept" not in legal:
            return "bid dobbm"  # forced in the Mußrunde
        if "bid dobbm" in legal and tricks + DOBB_GAIN >= DOBBM_TRICKS:
            return "bid dobbm"
        return "pass" if "pass" in legal else "accept"

    # ------------------------------------------------------------ exchange
    def _discard(self, obs: Observation, legal: Sequence[Action]) -> Action:
        hand = [_FACE_OF[c] for c in obs.hand]
        done = [_FACE_OF[Card.parse(t)] for t in obs.private.get("discards", ())]
        plan = best_discard(hand + done, self.opts)
        wanted = [f for f in plan if f not in done]
        # Covering hearts before Sows keeps every step legal.
        wanted.sort(key=lambda f: (SOWS >> f) & 1)
        by_face = {_FACE_OF[Card.parse(a.text.split(" ", 1)[1])]: a for a in legal}
        for f in wanted:
            if f in by_face:
                return by_face[f]
        return min(legal, key=lambda a: POINTS[_FACE_OF[Card.parse(a.text.split(" ", 1)[1])]])

    # ------------------------------------------------------------ doubling
    def _double(self, obs: Observation, legal: Mapping[str, Action]) -> str:
        hand = [_FACE_OF[c] for c in obs.hand]
        declarer = obs.public.get("declarer")
        if obs.seat == declarer:
            gone = 0
            for t in obs.private.get("discards", ()):
                gone |= 1 << _FACE_OF[Card.parse(t)]
            if "retour" in legal and estimate_tricks(hand, gone) >= RETOUR_TRICKS:
                return "retour"
            return "accept"
        if "double" in legal:
            need = SCHWACHER_STRENGTH + (1.0 if obs.public.get("contract") == "solo" else 0.0)
            if defence_strength(hand) >= need:
                return "double"
        return "accept"

    # ---------------------------------------------------------------- play
    def _play(self, obs: Observation, legal: Sequence[Action]) -> Action:
        view = build_view(obs)
        cards = {_FACE_OF[Card.parse(a.text.split(" ", 1)[1])]: a for a in legal}
        options = sorted(cards)
        return cards[self._follow(view, options) if view.trick_faces else self._lead(view, options)]

    def _lead(self, view: _View, options: list[int]) -> int:
        trumps = [f for f in options if ORDER.eff[f] == TRUMP]
        outside_trumps = view.unseen_in(TRUMP)
        if view.me == view.declarer:
            if trumps and outside_trumps:
                # Draw trumps from the bottom, keeping the high hearts to catch the Ten and the King; the top heart
                # only once it is the boss and few hearts are left out.
                top = max(trumps, key=lambda f: ORDER.strength[f])
                if outside_trumps <= DRAW_TOP_LIMIT and view.unseen_in(TRUMP, ORDER.strength[top]) == 0:
                    return top
                return min(trumps, key=lambda f: (POINTS[f], ORDER.strength[f]))
            bosses = [f for f in options if ORDER.eff[f] != TRUMP and view.p_hold(f, ORDER.eff[f]) >= SAFE]
            if bosses:
                return max(bosses, key=lambda f: (POINTS[f], ORDER.strength[f]))
            plain = [f for f in options if ORDER.eff[f] != TRUMP] or options
            return min(plain, key=lambda f: (view.held_in(ORDER.eff[f]), POINTS[f], ORDER.strength[f]))
        # A defender: cash a safe Sow or boss card, else lead low from the longest plain suit.
        bosses = [f for f in options if ORDER.eff[f] != TRUMP and view.p_hold(f, ORDER.eff[f]) >= SAFE]
        if bosses:
            return max(bosses, key=lambda f: (POINTS[f], ORDER.strength[f]))
        plain = [f for f in options if ORDER.eff[f] != TRUMP]
        declarer_void = view.voids.get(view.declarer, set()) if view.declarer is not None else set()
        if plain:
            # Prefer suits the declarer is not known to be void in, then long suits, then cheap cards.
            return min(
                plain,
                key=lambda f: (ORDER.eff[f] in declarer_void, -view.held_in(ORDER.eff[f]), POINTS[f] + view.keep(f), ORDER.strength[f]),
            )
        return min(options, key=lambda f: (POINTS[f] + view.keep(f), ORDER.strength[f]))

    def _follow(self, view: _View, options: list[int]) -> int:
        led = ORDER.eff[view.trick_faces[0]]
        best_pos = 0
        for i in range(1, len(view.trick_faces)):
            if _key(view.trick_faces[i], led) > _key(view.trick_faces[best_pos], led):
                best_pos = i
        best_face = view.trick_faces[best_pos]
        best_seat = view.trick_seats[best_pos]
        ours = best_seat in view.partners
        last = not view.later_seats()
        trick_points = sum(POINTS[f] for f in view.trick_faces)
        if ours:
            holds = 1.0 if last else view.p_hold(best_face, led)
            if holds >= SAFE:
                # Smear: the most valuable card we do not need.
                return max(options, key=lambda f: (POINTS[f] - view.keep(f), -ORDER.strength[f]))
            return min(options, key=lambda f: (POINTS[f] + view.keep(f), ORDER.strength[f]))
        winners = [f for f in options if _key(f, led) > _key(best_face, led)]
        if winners:
            holding = [f for f in winners if last or view.p_hold(f, led) >= SAFE]
            if holding:
                cheapest = min(holding, key=lambda f: (view.keep(f) + (0 if ORDER.eff[f] == TRUMP else POINTS[f] * 0.2), ORDER.strength[f]))
                if trick_points + POINTS[cheapest] > 0 or view.me == view.declarer or ORDER.eff[cheapest] != TRUMP:
                    return cheapest
            elif view.me == view.declarer:
                # Try the strongest card when the trick is worth it and nothing holds for sure.
                top = max(winners, key=lambda f: _key(f, led))
                if trick_points >= 10 and view.p_hold(top, led) >= 0.35:
                    return top
        return min(options, key=lambda f: (POINTS[f] + view.keep(f), view.held_in(ORDER.eff[f]), ORDER.strength[f]))


__all__ = ["DobbmHeuristic", "best_discard", "build_view", "defence_strength", "estimate_tricks"]
