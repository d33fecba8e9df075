"""A rule-based Dappen bot: card-table rules of thumb, no search.

The bot decides from its seat's :class:`~stich.core.game.Observation` only,
plus the public tables of :mod:`stich.games.dappen.pack` (card points and the
play order).  What it "knows" about unseen cards comes from the table: the
cards played, the laid-out Ulti cards and, as lone player, its own discards.

The rules, by phase:

* **Bidding.**  A hand is rated by :func:`hand_strength` (the high trumps
  weigh most, the Gstieß and the Mund most of all; kings a little).  The bot
  bids Solo from :data:`SOLO_STRENGTH`, dapps from :data:`DAPP_STRENGTH` (and
  always when the rules force it), overcalls — strecken, stupfen, a Hannes —
  and holds ("selber") from :data:`RAISE_STRENGTH` plus a step per level.
* **Discards.**  Trumps and kings are kept, the highest first; everything
  else goes into the discards, the cards worth most first (the discards count
  for the lone player, so points laid away are safe).
* **Ulti.**  The Geiß is laid out by a lone player holding the Gstieß whose
  hand is trumps but for at most one card (it won about nine in ten such
  Ultis in self-play).
* **Card play.**  The lone player draws trumps from the top while its top
  trump is the highest one still out, then cashes kings, else leads its
  cheapest card; following, it takes the trick with the cheapest card that
  wins it safely, else throws its cheapest card.  An opponent of the lone
  player smears (schmiert) its most valuable card into a trick a partner has
  won once the lone player has played; takes a trick from the lone player
  with its most valuable winning card once the lone player has played, else
  with a trump higher than any still unseen (or its best card when the trick
  is worth it); and otherwise throws its cheapest card.
  With the Gstieß as its only trump it plays it when a trump is asked for: it
  wins the trick, so it never keeps it back.

Ties are broken with a generator seeded from the bot's seed and the decision's
position in the deal, so a decision is a pure function of ``(seed, observation)``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from stich.cards import Card
from stich.core.game import Action, Game, Observation
from stich.core.tricks import TRUMP, led_suit
from stich.games.dappen.pack import DECK, GSTIESS, KINGS, ORDER, POINTS, TRUMPS

SOLO_STRENGTH = 7.5
"""Hand strength at which the bot bids Solo."""
DAPP_STRENGTH = 3.5
"""Hand strength at which the bot dapps without being forced."""
RAISE_STRENGTH = 5.5
"""Hand strength at which the bot overcalls or holds the first raise (strecken, Ein Hannes)."""
RAISE_STEP = 1.2
"""Extra strength per further level of the ladder (stupfen, Zwei Hannes, Geiß)."""
LADDER_LEVEL = {"dapp": 0, "strecken": 1, "solo_strecken": 1, "ein_hannes": 1, "stupfen": 2, "zwei_hannes": 2, "geiss": 3}


def trump_weight(number: int) -> float:
    """How much one trump adds to a hand's strength."""
    if number == 22:
        return 3.0
    if number == 21:
        return 2.4
    if number >= 19:
        return 1.7
    if number >= 15:
        return 1.2
    if number >= 10:
        return 0.9
    return 0.7


def hand_strength(cards: Sequence[int]) -> float:
    """Rating of a hand (card indices) for playing alone: trumps by height, plus a little for kings."""
    score = 0.0
    for c in cards:
        if TRUMPS >> c & 1:
            score += trump_weight(c + 1)
        elif KINGS >> c & 1:
            score += 0.6
    return score


def _card_of(action: Action) -> int:
    return DECK.face_index[Card.parse(action.text.split(" ", 1)[1])]


class DappenHeuristic:
    """The heuristic Dappen player for one seat."""

    name = "heuristic"

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        self.game = game
        self.seat = seat
        self.seed = seed

    # ----------------------------------------------------------------- entry
    def choose(self, observation: Observation) -> Action:
        """One of ``observation.legal_actions``."""
        legal = observation.legal_actions
        if not legal:
            raise ValueError(f"seat {self.seat} has no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        rng = random.Random(self.seed * 1_000_003 + len(observation.events))
        phase = observation.phase
        if phase == "play":
            return self._play(observation, rng)
        if phase == "discard":
            return self._discard(observation)
        if phase == "ulti":
            return self._ulti(observation)
        return self._bid(observation)

    # --------------------------------------------------------------- bidding
    def _bid(self, obs: Observation) -> Action:
        by_text = {a.text: a for a in obs.legal_actions}
        hand = [DECK.face_index[c] for c in obs.hand]
        strength = hand_strength(hand)
        phase = obs.phase
        passing = by_text.get("pass")
        if phase == "solo":
            return by_text["bid solo"] if strength >= SOLO_STRENGTH else by_text["pass"]
        if phase == "answer":
            level = LADDER_LEVEL.get(str(obs.public.get("bid")), 1)
            keep = strength >= RAISE_STRENGTH + RAISE_STEP * (level - 1)
            return by_text["hold"] if keep and "hold" in by_text else by_text["pass"]
        bids = [a for a in obs.legal_actions if a.kind == "bid"]
        if not bids:
            return obs.legal_actions[0]
        bid = bids[0]
        name = bid.text.split(" ", 1)[1]
        if passing is None:
            return bid
        if name == "dapp":
            return bid if strength >= DAPP_STRENGTH else passing
        level = LADDER_LEVEL.get(name, 1)
        return bid if strength >= RAISE_STRENGTH + RAISE_STEP * (level - 1) else passing

    # -------------------------------------------------------------- discards
    def _discard(self, obs: Observation) -> Action:
        def keep_value(action: Action) -> tuple[float, int]:
            c = _card_of(action)
            if TRUMPS >> c & 1:
                return (100.0 + c, c)
            if KINGS >> c & 1:
                return (90.0, c)
            return (-POINTS[c] - ORDER.strength[c] / 10, c)

        return min(obs.legal_actions, key=keep_value)

    def _ulti(self, obs: Observation) -> Action:
        hand = [DECK.face_index[c] for c in obs.hand]
        trumps = sum(1 for c in hand if TRUMPS >> c & 1)
        by_text = {a.text: a for a in obs.legal_actions}
        if trumps >= len(hand) - 1 and GSTIESS in hand and "announce ulti1" in by_text:
            return by_text["announce ulti1"]
        return by_text["pass"]

    # ------------------------------------------------------------------ play
    def _play(self, obs: Observation, rng: random.Random) -> Action:
        options = {_card_of(a): a for a in obs.legal_actions}
        hand = [DECK.face_index[c] for c in obs.hand]
        lone = obs.public.get("lone")
        active = list(obs.public.get("active", []))
        current = obs.tricks[-1] if obs.tricks and obs.tricks[-1].winner is None else None
        seen = 0
        for trick in obs.tricks:
            for card in trick.cards:
                seen |= 1 << DECK.face_index[card]
        for text in obs.private.get("discards", ()):
            seen |= 1 << DECK.face_index[Card.parse(text)]
        mine = sum(1 << c for c in hand)
        unknown_trumps = TRUMPS & ~seen & ~mine
        cards = [DECK.face_index[c] for c in current.cards] if current else []
        if not cards:
            return options[self._lead(options, obs, unknown_trumps, lone, rng)]
        assert current is not None
        start = active.index(current.leader)
        seats = [active[(start + i) % len(active)] for i in range(len(cards))]
        later = [active[(start + i) % len(active)] for i in range(len(cards) + 1, len(active))]
        led = led_suit(ORDER, cards)
        win_pos = max(range(len(cards)), key=lambda i: (ORDER.key(cards[i], led), -i))
        best_key = ORDER.key(cards[win_pos], led)
        winner = seats[win_pos]
        trump_needed = led == TRUMP or not any(ORDER.eff[c] == led for c in hand)
        if GSTIESS in options and trump_needed and self.seat != lone:
            return options[GSTIESS]  # the Gstieß wins any trick it is played to
        winning = [c for c in options if ORDER.key(c, led) > best_key]
        if self.seat == lone:
            return options[self._lone_follow(options, winning, later, unknown_trumps, led)]
        lone_played = lone in seats
        partner_winning = winner != lone
        if partner_winning and (lone_played or lone not in later):
            return options[max(options, key=lambda c: (self._smear_value(c), -c))]
        if not partner_winning and winning:
            if lone_played or lone not in later:
                # nobody can take it back for the lone player: win with the card worth most, the lowest such
                return options[min(winning, key=lambda c: (-POINTS[c], ORDER.key(c, led)))]
            top = unknown_trumps.bit_length() - 1
            safe = [c for c in winning if TRUMPS >> c & 1 and c > top]
            if safe:
                return options[min(safe)]
            if sum(POINTS[c] for c in cards) >= 6:
                return options[max(winning, key=lambda c: ORDER.key(c, led))]
        return options[min(options, key=self._throw_value)]

    def _lead(self, options: dict[int, Action], obs: Observation, unknown_trumps: int, lone: object, rng: random.Random) -> int:
        trumps = [c for c in options if TRUMPS >> c & 1]
        if self.seat == lone:
            if trumps and unknown_trumps:
                top = max(trumps)
                if top > unknown_trumps.bit_length() - 1:
                    return top
                if len(trumps) >= 3:
                    return min(trumps)
            kings = [c for c in options if KINGS >> c & 1]
            if kings:
                return rng.choice(sorted(kings))
            return min(options, key=self._throw_value)
        plain = [c for c in options if not TRUMPS >> c & 1]
        if plain:
            return min(plain, key=self._throw_value)
        return min(options, key=self._throw_value)

    def _lone_follow(self, options: dict[int, Action], winning: list[int], later: list[int], unknown_trumps: int, led: int) -> int:
        if winning:
            if not later:
                return min(winning, key=lambda c: (POINTS[c], ORDER.key(c, led)))
            safe = [c for c in winning if TRUMPS >> c & 1 and c > unknown_trumps.bit_length() - 1]
            if safe:
                return min(safe)
            return max(winning, key=lambda c: ORDER.key(c, led))
        return min(options, key=self._throw_value)

    @staticmethod
    def _throw_value(c: int) -> tuple[int, int, int]:
        """Order of cards to throw away: few points, not a trump, low."""
        return (POINTS[c], 1 if TRUMPS >> c & 1 else 0, ORDER.strength[c])

    @staticmethod
    def _smear_value(c: int) -> tuple[int, int]:
        """Order of cards to smear into a partner's trick: many points, suit cards before trumps."""
        return (POINTS[c], 0 if TRUMPS >> c & 1 else 1)
