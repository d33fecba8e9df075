"""A rule-based Tapp Tarock bot: card-table rules of thumb, no search.

The bot decides from its seat's :class:`~stich.core.game.Observation` only,
plus the public rules (the game's options) and the public tables of
:mod:`stich.games.tapp_tarock.pack`.  What it "knows" about unseen cards comes
from what the table has seen: cards played, an exposed talon, tarocks shown
on discarding, and who failed to follow suit or to play a tarock (a void).
Unseen cards are taken as spread uniformly over the places they can be in
(hypergeometric odds), the way a player estimates "can somebody still beat
my card?".

The rules, by phase:

* **Bidding.**  :func:`estimate_tricks` rates the hand (tarocks drawn from
  the top, kings, voids that let tarocks ruff).  The rating sets the highest
  level the bot will play: Dreier, Unterer, Oberer, or Solo for a hand that
  needs no talon.  It holds when it may and the level is within its limit,
  overcalls one step when it is, and passes otherwise.
* **Talon and discards.**  It picks up the half that rates best after the
  discards, then lays away the cards that make a suit void or short,
  preferring the ones with points (queens, cavalls) that it would otherwise
  lose to the defenders; forced tarocks are the lowest.
* **Announcements and doubling.**  Pagat ultimo with a long, high tarock
  holding; Valat only when every trick is a certain winner.  A defender
  doubles the game with a strong tarock holding, the declarer redoubles a
  hand rated well above its contract.
* **Card play.**  The declarer leads no tarock while it holds a plain card
  (it cashes a boss king or leads its cheapest card; drawing tarocks first
  lost 0.12-0.28 points a deal, docs/strength.md); with tarocks only it
  draws with a boss tarock or while it holds the majority, and it keeps the
  Pagat for the last trick after announcing ultimo.  A player
  whose partner is winning a trick that will hold gives it points
  (schmieren); against an opponent it wins with the cheapest card that is
  likely to hold, else throws its cheapest card, keeping the Mond away from
  an outstanding Sküs and the Pagat out of lost tricks.

Ties between equally rated actions are broken with a generator seeded from
the bot's seed and the decision's position in the deal, so a decision is a
pure function of ``(seed, observation)``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from stich.bots.tarock_family.trick_reading import read_tricks
from stich.cards import Card
from stich.core.game import Action, Game, Observation
from stich.core.tricks import TRUMP
from stich.games.tapp_tarock.actions import ACTIONS
from stich.games.tapp_tarock.options import TappTarockOptions
from stich.games.tapp_tarock.pack import CONTRACT_BY_NAME, FACE_OF, FACES, ORDER, POINTS

PAGAT_F, MOND_F, SKUES_F = 0, 20, 21
N_TAROCKS = 22
_TAROCK_MASK = (1 << N_TAROCKS) - 1
_ALL_FACES = (1 << len(FACES)) - 1
_PLAY_FACE: dict[int, int] = {a.code: FACE_OF[Card.parse(a.text.split()[1])] for a in ACTIONS.actions if a.kind == "play"}
"""The face of each ``play`` action's card, by action code (reading the text for every legal card is slow in rollouts)."""
LEVELS = ("dreier", "unterer", "oberer", "solo")

DREIER_TRICKS = 3.5
"""Rated tricks (:func:`estimate_tricks` of the hand as dealt) from which the bot bids a Dreier.

Measured in self-play with the talon's help: a Dreier from a hand rated 4 is won about 60 % of the
time, rated 5 about 65 %, rated 6 about 75 %, rated 7 about 90 %.  Against the heuristic with 4.0
(the previous value), heuristic bots in every seat, 1,000 duplicate deals per value: 2.0 -0.44,
2.5 +0.02, 3.0 +0.13, 3.5 +0.06, 4.5 -0.11 per deal; 3.5 on 2,000 fresh deals +0.09
(+0.05 .. +0.14), 3.0 +0.08 (-0.01 .. +0.17).  Where ``ismcts`` kept the old value's pass and
``pimc`` bid a Dreier, it lost 21 per seat (55 seats of a 1,000-deal match, docs/strength.md)."""
STEP_TRICKS = 1.0
"""Extra rated tricks for each level above Dreier (Unterer, Oberer)."""
SOLO_TRICKS = 10.0
"""Rated tricks from which the bot plays a Solo (without the talon, a hand rated 8 wins under half its Solos)."""
ULTIMO_TAROCKS = 12
"""Tarocks (Pagat included) the declarer needs to announce Pagat ultimo."""
KONTRA_TAROCKS = 8
"""Tarocks a defender needs to double the game."""
SAFE = 0.6
"""Chance a winning card must have of holding the trick before the bot relies on it."""


def _suit(f: int) -> int:
    return ORDER.eff[f]


def _strength(f: int) -> int:
    return ORDER.strength[f]


def _is_tarock(f: int) -> bool:
    return f < N_TAROCKS


def _comb_ratio(total: int, hand: int, k: int) -> float:
    """Chance that a hand of ``hand`` cards out of ``total`` unseen holds none of ``k`` given cards."""
    if k <= 0:
        return 1.0
    if total <= 0 or k > total - hand:
        return 0.0
    return math.comb(total - hand, k) / math.comb(total, k)


def estimate_tricks(hand: Sequence[int]) -> float:
    """Tricks a hand should take as the declarer against two defenders.

    Tarocks: the hand leads its highest tarock each round; when it is higher
    than every tarock still out it wins and each defender gives up a low one,
    otherwise the best outstanding tarock takes the trick and the hand's card
    is lost.  Tarocks left after the defenders run out all win (they ruff).
    Suits: a king wins its trick (three quarters of one in a long suit that
    the defenders ruff early), a queen behind the king half a trick.
    """
    mine = sorted((f for f in hand if _is_tarock(f)), key=lambda f: -f)
    held = set(hand)
    outside = sorted((f for f in range(N_TAROCKS) if f not in held), key=lambda f: -f)
    tricks = 0.0
    while mine and outside:
        card = mine.pop(0)
        if card > outside[0]:
            tricks += 1
            del outside[max(0, len(outside) - 2) :]
        else:
            outside.pop(0)
            if outside:
                outside.pop()
    tricks += len(mine)
    for suit in range(4):
        cards = [f for f in hand if not _is_tarock(f) and _suit(f) == suit]
        king = N_TAROCKS + 8 * suit
        if king in held:
            tricks += 1.0 if len(cards) <= 3 else 0.75
            if king + 1 in held and len(cards) <= 3:
                tricks += 0.5
    return tricks


def max_level(hand: Sequence[int]) -> int:
    """The highest level (1 Dreier .. 4 Solo) the bot will play with this hand, 0 for none."""
    tricks = estimate_tricks(hand)
    if tricks >= SOLO_TRICKS:
        return 4
    level = 0
    for lv in range(1, 4):
        if tricks >= DREIER_TRICKS + (lv - 1) * STEP_TRICKS:
            level = lv
    return level


@dataclass
class _View:
    """What the bot derives from one observation: roles, unseen cards, voids, the current trick."""

    obs: Observation
    hand: list[int]
    active: list[int]
    declarer: int | None
    unseen: int
    """Mask of the faces this seat has not seen (bit ``f`` for face ``f``)."""
    hidden_out: int
    voids: dict[int, set[int]] = field(default_factory=dict)
    trick_cards: list[int] = field(default_factory=list)
    trick_seats: list[int] = field(default_factory=list)
    tricks_left: int = 16

    @property
    def me(self) -> int:
        return self.obs.seat

    def partner(self, seat: int) -> bool:
        """Whether ``seat`` plays on this seat's side."""
        if seat == self.me:
            return True
        if self.declarer is None:
            return False
        return self.me != self.declarer and seat != self.declarer

    def later_seats(self) -> list[int]:
        """Seats that play after this seat in the current trick."""
        start = self.active.index(self.me) if not self.trick_seats else self.active.index(self.trick_seats[0])
        order = [self.active[(start + i) % 3] for i in range(3)]
        return order[order.index(self.me) + 1 :]

    def hand_size(self, seat: int) -> int:
        return int(self.obs.public.get("hand_sizes", {}).get(str(seat), 0))

    def pool(self) -> int:
        """Places an unseen card may be in: the other hands and the hidden piles."""
        return sum(self.hand_size(s) for s in self.active if s != self.me) + self.hidden_out

    def p_none(self, seat: int, suit: int, k: int) -> float:
        """Chance that ``seat`` holds none of ``k`` unseen cards of effective suit ``suit``."""
        if suit in self.voids.get(seat, set()):
            return 1.0
        return _comb_ratio(self.pool(), self.hand_size(seat), k)

    def unseen_in(self, suit: int, above: int = -1) -> int:
        """Unseen cards of effective suit ``suit`` stronger than strength ``above``."""
        return (self.unseen & ORDER.stronger(suit, above)).bit_count()

    def p_beat(self, seat: int, f: int, led: int) -> float:
        """Chance that ``seat``, still to play, beats ``f`` (now winning the trick)."""
        if _suit(f) == TRUMP:
            higher = self.unseen_in(TRUMP, _strength(f))
            if not higher:
                return 0.0
            p_has = 1.0 - self.p_none(seat, TRUMP, higher)
            return p_has if led == TRUMP else p_has * self.p_none(seat, led, self.unseen_in(led))
        higher = self.unseen_in(led, _strength(f))
        p_higher = 1.0 - self.p_none(seat, led, higher) if higher else 0.0
        trumps = self.unseen_in(TRUMP)
        p_ruff = self.p_none(seat, led, self.unseen_in(led)) * (1.0 - self.p_none(seat, TRUMP, trumps)) if trumps else 0.0
        return min(1.0, p_higher + p_ruff)

    def p_hold(self, f: int, led: int) -> float:
        """Chance that ``f``, winning the trick now, is not beaten by a later opponent."""
        p = 1.0
        for seat in self.later_seats():
            if not self.partner(seat):
                p *= 1.0 - self.p_beat(seat, f, led)
        return p


class TappTarockHeuristic:
    """The rule-based Tapp Tarock bot described in the module docstring."""

    name = "heuristic"

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        if not isinstance(game.options, TappTarockOptions):
            raise TypeError(f"TappTarockHeuristic needs a Tapp Tarock game, got {game.name}")
        self.game = game
        self.opts: TappTarockOptions = game.options
        self.seat = seat
        self.seed = seed

    # ------------------------------------------------------------------ entry
    def choose(self, observation: Observation) -> Action:
        """One of ``observation.legal_actions``, by the rules of the module docstring."""
        legal = observation.legal_actions
        if not legal:
            raise ValueError(f"seat {self.seat} has no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        rng = random.Random(f"{self.seed}:{self.seat}:{len(observation.events)}:{len(observation.hand)}")
        by_text = {a.text: a for a in legal}
        phase = observation.phase
        choice: Action | None = None
        hand = [FACE_OF[c] for c in observation.hand]
        if phase == "bidding":
            choice = self._bid(observation, hand, by_text)
        elif phase == "talon":
            choice = self._take(observation, hand, by_text)
        elif phase == "discard":
            choice = self._discard(hand, legal)
        elif phase == "announce":
            choice = self._announce(observation, hand, by_text)
        elif phase == "kontra":
            choice = self._double(observation, hand, by_text)
        elif phase == "play":
            choice = self._play(observation, hand, legal, rng)
        return choice if choice is not None else rng.choice(legal)

    # ---------------------------------------------------------------- bidding
    def _bid(self, obs: Observation, hand: list[int], by_text: dict[str, Action]) -> Action | None:
        limit = max_level(hand)
        if limit == 4 and "bid solo" in by_text:
            return by_text["bid solo"]
        bid = obs.public.get("bid")
        current = LEVELS.index(bid) + 1 if bid else 0
        if "hold" in by_text and current <= limit:
            return by_text["hold"]
        if current < 3 and current + 1 <= limit:
            return by_text.get(f"bid {LEVELS[current]}", by_text["pass"])
        return by_text["pass"]

    # ------------------------------------------------------------------ talon
    def _take(self, obs: Observation, hand: list[int], by_text: dict[str, Action]) -> Action | None:
        talon = obs.public.get("talon")
        if not talon:
            return None
        best, best_score = None, -1.0
        for half in ("lower", "upper"):
            action = by_text.get(f"take {half}")
            if action is None:
                continue
            cards = hand + [FACE_OF[Card.parse(t)] for t in talon[half]]
            kept, laid = self._plan_discards(cards)
            score = estimate_tricks(kept) + sum(POINTS[f] for f in laid) / 4.0
            if score > best_score:
                best, best_score = action, score
        return best

    @staticmethod
    def _discard_rank(f: int, cards: Sequence[int]) -> tuple[float, int]:
        """How much the bot wants to lay ``f`` away (higher first): voids, short suits, points."""
        if _is_tarock(f):
            return (-100.0 - f, f)
        suit = _suit(f)
        length = sum(1 for g in cards if not _is_tarock(g) and _suit(g) == suit)
        king = N_TAROCKS + 8 * suit in cards
        score = POINTS[f] * (0.5 if king else 1.5) + (6 - length) * 1.5
        return (score, -f)

    def _plan_discards(self, cards: list[int]) -> tuple[list[int], list[int]]:
        """The three cards the bot would lay away from ``cards`` (19 cards), and the 16 it keeps."""
        kept = list(cards)
        laid: list[int] = []
        kings_trull = {N_TAROCKS + 8 * s for s in range(4)} | {PAGAT_F, MOND_F, SKUES_F}
        for _ in range(3):
            suits = [f for f in kept if not _is_tarock(f) and f not in kings_trull]
            pool = suits if len(suits) >= 3 - len(laid) else suits + [f for f in kept if _is_tarock(f) and f not in kings_trull]
            pick = max(pool, key=lambda f: self._discard_rank(f, kept))
            kept.remove(pick)
            laid.append(pick)
        return kept, laid

    def _discard(self, hand: list[int], legal: Sequence[Action]) -> Action | None:
        options = {FACE_OF[Card.parse(a.text.split()[1])]: a for a in legal}
        pick = max(options, key=lambda f: self._discard_rank(f, hand))
        return options[pick]

    # --------------------------------------------------- announce and doubling
    def _announce(self, obs: Observation, hand: list[int], by_text: dict[str, Action]) -> Action | None:
        tarocks = [f for f in hand if _is_tarock(f)]
        if "announce ultimo" in by_text and len(tarocks) >= ULTIMO_TAROCKS and (SKUES_F in hand or MOND_F in hand):
            return by_text["announce ultimo"]
        if "announce valat" in by_text and self._sure_valat(hand):
            return by_text["announce valat"]
        return by_text["pass"]

    @staticmethod
    def _sure_valat(hand: list[int]) -> bool:
        """Every card a certain winner: the top tarocks unbroken and only kings (or nothing) in the suits."""
        tarocks = sorted((f for f in hand if _is_tarock(f)), reverse=True)
        top = all(tarocks[i] == SKUES_F - i for i in range(len(tarocks)))
        suits_ok = all(f == N_TAROCKS + 8 * _suit(f) for f in hand if not _is_tarock(f))
        return top and suits_ok and len(tarocks) >= 12

    def _double(self, obs: Observation, hand: list[int], by_text: dict[str, Action]) -> Action | None:
        tarocks = [f for f in hand if _is_tarock(f)]
        high = sum(1 for f in tarocks if f >= 17)
        if obs.seat == obs.public.get("declarer"):
            contract = CONTRACT_BY_NAME.get(str(obs.public.get("contract")))
            need = SOLO_TRICKS + 1 if contract and contract.name == "solo" else DREIER_TRICKS + 4
            if "rekontra game" in by_text and estimate_tricks(hand) >= need:
                return by_text["rekontra game"]
            return by_text["pass"]
        if "kontra game" in by_text and len(tarocks) >= KONTRA_TAROCKS and high >= 3:
            return by_text["kontra game"]
        if "kontra ultimo" in by_text and len(tarocks) >= 7 and high >= 2:
            return by_text["kontra ultimo"]
        return by_text["pass"]

    # ------------------------------------------------------------------ play
    def _view(self, obs: Observation, hand: list[int]) -> _View:
        """The bot's view of an observation (asked for every card; a rollout asks thousands of times)."""
        public = obs.public
        active = list(public.get("active", []))
        declarer = public.get("declarer")
        reading = read_tricks(obs.tricks, active, FACE_OF, ORDER)
        seen = reading.played
        for f in hand:
            seen |= 1 << f
        hidden_out = 0
        talon = public.get("talon")
        taken = public.get("talon_taken")
        if talon and taken:
            unused = "upper" if taken == "lower" else "lower"
            for t in talon[unused]:
                seen |= 1 << FACE_OF[Card.parse(t)]
        elif public.get("contract") == "solo":
            hidden_out += 6
        elif public.get("contract") is not None:
            hidden_out += 3
        for t in public.get("shown_tarocks", []):
            seen |= 1 << FACE_OF[Card.parse(t)]
        for t in obs.private.get("discards", []):
            seen |= 1 << FACE_OF[Card.parse(t)]
        if public.get("contract") not in (None, "solo") and obs.seat != declarer:
            hidden_out += 3 - len(public.get("shown_tarocks", []))
        unseen = _ALL_FACES & ~seen
        return _View(obs, hand, active, declarer, unseen, hidden_out, reading.voids, reading.faces, reading.seats, 16 - reading.finished)

    def _play(self, obs: Observation, hand: list[int], legal: Sequence[Action], rng: random.Random) -> Action | None:
        view = self._view(obs, hand)
        options = {_PLAY_FACE[a.code]: a for a in legal}
        cards = list(options)
        keep_pagat = "ultimo" in obs.public.get("announced", []) and obs.seat == view.declarer and view.tricks_left > 1
        if keep_pagat and len(cards) > 1 and PAGAT_F in cards:
            cards.remove(PAGAT_F)
        pick = self._lead(view, cards) if not view.trick_cards else self._follow(view, cards)
        return options[pick]

    def _lead(self, view: _View, cards: list[int]) -> int:
        tarocks = sorted((f for f in cards if _is_tarock(f)), reverse=True)
        outside = view.unseen_in(TRUMP)
        if view.me == view.declarer and tarocks and len(tarocks) == len(cards):
            # tarocks only: draw theirs; with a plain card left the declarer keeps its tarocks to ruff and to take rich tricks
            top = (view.unseen & _TAROCK_MASK).bit_length() - 1  # the highest unseen tarock, -1 for none
            if tarocks[0] > top:
                return tarocks[0]  # a boss tarock draws two of theirs
            if len(tarocks) > outside:
                return tarocks[-1] if tarocks[-1] != PAGAT_F or len(tarocks) == 1 else tarocks[-2]
        # cash a king (boss of its suit) while the opponents are likely to follow
        for f in sorted(cards, key=lambda g: -POINTS[g]):
            if _is_tarock(f):
                continue
            suit = _suit(f)
            if view.unseen_in(suit, _strength(f)) == 0 and view.p_hold(f, suit) >= SAFE:
                return f
        # else the cheapest card, from a suit where it is least likely to be caught
        plain = [f for f in cards if not _is_tarock(f)]
        if plain:
            return min(plain, key=lambda f: (POINTS[f], -self._suit_len(cards, _suit(f)), f))
        return min(tarocks, key=lambda f: (POINTS[f], f))

    @staticmethod
    def _suit_len(cards: Sequence[int], suit: int) -> int:
        return sum(1 for f in cards if _suit(f) == suit)

    def _follow(self, view: _View, cards: list[int]) -> int:
        led = _suit(view.trick_cards[0])
        best_pos = 0
        best_key = ORDER.key(view.trick_cards[0], led)
        for i, f in enumerate(view.trick_cards[1:], start=1):
            k = ORDER.key(f, led)
            if k > best_key:
                best_pos, best_key = i, k
        winner_seat = view.trick_seats[best_pos]
        winner_card = view.trick_cards[best_pos]
        pot = sum(POINTS[f] for f in view.trick_cards)
        beating = [f for f in cards if ORDER.key(f, led) > best_key]
        if view.partner(winner_seat):
            if view.p_hold(winner_card, led) >= SAFE:
                return self._smear(view, cards)
            holding = [f for f in beating if view.p_hold(f, led) >= SAFE]
            if holding and pot >= 4:
                return min(holding, key=lambda f: (POINTS[f], _strength(f)))
            return self._cheapest(view, cards)
        holding = [f for f in beating if view.p_hold(f, led) >= SAFE]
        if holding:
            return min(holding, key=lambda f: (self._risk(view, f), POINTS[f], _strength(f)))
        return self._cheapest(view, cards)

    @staticmethod
    def _risk(view: _View, f: int) -> int:
        """1 for a Mond whose Sküs is still out (it could be caught later), else 0."""
        return 1 if f == MOND_F and view.unseen >> SKUES_F & 1 else 0

    def _smear(self, view: _View, cards: list[int]) -> int:
        """The most valuable card to give a partner's trick: points first, never a needed king or Sküs."""

        def value(f: int) -> tuple[int, int]:
            if f == SKUES_F:
                return (-10, 0)
            if _is_tarock(f):
                return (POINTS[f] if f in (PAGAT_F, MOND_F) else 0, -f)
            king_boss = POINTS[f] == 5 and view.unseen_in(_suit(f), _strength(f)) == 0 and view.tricks_left > 2
            return (1 if king_boss else POINTS[f], -_strength(f))

        return max(cards, key=value)

    @staticmethod
    def _cheapest(view: _View, cards: list[int]) -> int:
        """The card the bot minds least losing: few points, low rank, never the Pagat or Mond when avoidable."""

        def cost(f: int) -> tuple[int, int]:
            points = POINTS[f]
            if f in (PAGAT_F, MOND_F):
                points += 5
            return (points, _strength(f) + (50 if _is_tarock(f) else 0))

        return min(cards, key=cost)
