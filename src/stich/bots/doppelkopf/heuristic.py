"""A rule-based Doppelkopf bot: explainable card-table rules of thumb, no search.

The bot decides from its seat's :class:`~stich.core.game.Observation` only.
Besides the observation it reads the public rules (the game's options) and the
public tables of :mod:`stich.games.doppelkopf.contracts` to know the trump
order of the game being played.  Everything it "knows" about unseen cards is
derived from what the table has seen: cards played, who failed to follow a
suit (a void), and who revealed a party.  Hidden cards are modelled as spread
uniformly over the other hands (hypergeometric odds), which is how a human
estimates "will somebody ruff my ace?".

The rules, by phase:

* **Reservation / declaration.**  Every enabled solo type is rated by
  :func:`estimate_tricks` (a quick trump-drawing count plus plain-suit
  winners).  A rating of at least :data:`SOLO_THRESHOLD` of the tricks makes a
  solo.  With both queens of clubs the bot plays a silent wedding when the
  hand is a good Karo solo and announces a wedding otherwise.  A poverty hand
  declares Armut, a weak throw-in hand throws in.  In the declaration the bot
  names its planned reservation, passes when the question is about a higher
  tier, and rates the offered solos when it has to name one.  With
  ``hochzeit_rule=named_suit`` the wedding names a plain suit the bride
  holds without its ace, and she leads it until the partner is found.
* **Poverty.**  The poor player hands over its trumps (the rules force that)
  and then its least useful plain cards; a player takes a poverty only with a
  strong trump holding; the taker gives back its least useful cards.
* **Announcements.**  In a game of two parties, Re/Kontra when the hand's
  :func:`call_points` (high trumps and voids, less tens, long-suit aces and
  the fox) reach :data:`CALL_POINTS` (Kontra needs :data:`KONTRA_HANDICAP`
  more; a reply to the other side's call needs :data:`REPLY_POINTS`); the
  soloist says Re with a solo rated at least the solo threshold; the
  soloist's opponents never call.  An absage (keine 90/60/30) comes only when
  the eyes the party already has plus the tricks the bot's boss cards will
  take clear the target with room to spare.  Schwarz is never announced.
* **Card play.**  Leading: the soloist draws trumps with its highest trumps;
  anybody cashes a plain-suit boss card (an ace in the first round of its
  suit) when the opponents are likely to follow; a Re player with a very long
  trump holding leads its boss trump; a suit the partner can ruff; otherwise
  the cheapest card.
  Following: when the partner wins the trick and is likely to keep it, the
  bot smears (schmiert) its most valuable cheap card (A, 10, the fox); when
  an opponent wins it takes the trick with the cheapest card that is likely
  to hold, else it throws its least valuable card.  The fox (DA) is never
  thrown into a trick the opponents may win while another card is possible,
  and the jack of clubs is kept for the last trick once it can win it
  (Karlchen).  With ``genscher``, a Kontra player about to play the first of
  its two diamond kings plays it as a Genscher and takes the Re player the
  table knows (the one who called Re first).  With ``schweine=holder_choice``
  the holder shows its Schweine just before it plays the first of them.

Ties between equally rated actions are broken with a generator seeded from the
bot's seed and the decision's position in the deal, so a decision is a pure
function of ``(seed, observation)``.

The thresholds were set in duplicate matches: every deal is played once per
seat with a variant bot in that seat and default bots in the others, and
compared with the same deal played by four default bots, so card luck
cancels.  :func:`call_points` was fitted to the outcomes of ~17,000 hands in
self-play.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from stich.cards import Card, Rank
from stich.core.game import Action, Game, Observation
from stich.games.doppelkopf import actions as A
from stich.games.doppelkopf.contracts import CONTRACTS, EYES, FACES, N_FACES, TRUMP, CardOrder, card_order, face
from stich.games.doppelkopf.options import DoppelkopfOptions
from stich.games.doppelkopf.schweine import schwein_faces

CQ_F, DA_F, CJ_F, D9_F, DK_F = (face(t) for t in ("CQ", "DA", "CJ", "D9", "DK"))
_FACE_OF: dict[Card, int] = {c: i for i, c in enumerate(FACES)}
_NINES = frozenset(f for f, c in enumerate(FACES) if c.rank == Rank.NINE)
_KINGS = frozenset(f for f, c in enumerate(FACES) if c.rank == Rank.KING)
_FULL = frozenset(f for f, c in enumerate(FACES) if c.rank in (Rank.ACE, Rank.TEN))

NORMAL_KINDS = frozenset({"normal", "hochzeit", "armut"})
"""Game kinds played by two parties of two, where special points count."""
SOLO_KINDS = frozenset({"solo", "stille_hochzeit", "hochzeit_solo"})
"""Game kinds with one player (the soloist) against the rest."""

SOLO_THRESHOLD = 0.62
"""Share of the tricks :func:`estimate_tricks` must promise before the bot plays a solo."""
SILENT_WEDDING_THRESHOLD = 0.55
"""Share of the tricks a hand with both queens of clubs needs to be played as a silent wedding."""
CALL_POINTS = 6.0
"""Hand points (:func:`call_points`) at which the bot says Re or Kontra."""
KONTRA_HANDICAP = 2.0
"""Extra points a Kontra hand needs: Re holds the queens of clubs and wins more often."""
REPLY_POINTS = 7.0
"""Hand points at which the bot replies to the other side's call."""
THROW_POINTS = 4.0
"""Hand points below which a hand that may be thrown in is thrown in."""
SAFE = 0.6
"""Chance a winning card must have of holding the trick before the bot relies on it."""
SURE_TRICK_EYES = 22.0
"""Eyes an absage counts for each trick the bot's boss cards will take."""
ABSAGE_MARGIN = 15.0
"""Eyes of room the projection must leave above an absage target (twice that below the opponents' limit)."""
ANNOUNCE_LEVELS = ("keine90", "keine60", "keine30")
ABSAGE_TARGET = {"keine90": 151, "keine60": 181, "keine30": 211}
T = TypeVar("T")


def _face_of_action(action: Action) -> int:
    return _FACE_OF[Card.parse(action.text.split(" ", 1)[1])]


def _comb_ratio(total: int, hand: int, k: int) -> float:
    """Chance that a hand of ``hand`` cards out of ``total`` unseen holds none of ``k`` given cards."""
    if k <= 0:
        return 1.0
    if total <= 0 or k > total - hand:
        return 0.0
    return math.comb(total - hand, k) / math.comb(total, k)


def pack_counts(opts: DoppelkopfOptions) -> list[int]:
    """Copies of each face in the pack (0 for the nines of a 40-card pack)."""
    return [0 if (f in _NINES and not opts.nines) else 2 for f in range(N_FACES)]


def estimate_tricks(hand: Sequence[int], order: CardOrder, counts: Sequence[int], opponents: int) -> float:
    """Tricks a hand should take when it plays alone against ``opponents`` players.

    Trumps: the hand leads its highest trump each round; when it is higher than
    every trump still out it wins and each opponent gives up a low trump,
    otherwise the best outstanding trump takes the trick.  Trumps left after
    the opponents run out all win.  Plain suits: a card wins when every higher
    copy of its suit is in the hand (aces, then tens behind both aces...); in
    a trump game a second-round winner counts half, as it is often ruffed.
    Used to rate solos (divided by the tricks of the deal) and the soloist's
    own announcement.
    """
    strength = order.strength
    mine = sorted((f for f in hand if order.eff[f] == TRUMP), key=lambda f: -strength[f])
    held = [0] * N_FACES
    for f in hand:
        held[f] += 1
    outside = sorted(
        (g for g in range(N_FACES) if order.eff[g] == TRUMP for _ in range(counts[g] - held[g])),
        key=lambda g: -strength[g],
    )
    tricks = 0.0
    trump_game = bool(order.trump_faces)
    while mine and outside:
        card = mine.pop(0)
        if strength[card] >= strength[outside[0]]:
            tricks += 1
            del outside[max(0, len(outside) - opponents) :]
        else:
            outside.pop(0)
            del outside[max(0, len(outside) - (opponents - 1)) :]
    tricks += len(mine)
    for suit in range(4):
        pack = sorted(
            (g for g in range(N_FACES) if order.eff[g] == suit for _ in range(counts[g])),
            key=lambda g: -strength[g],
        )
        have = [held[g] for g in range(N_FACES)]
        for rounds, g in enumerate(pack):
            if have[g] <= 0:
                break
            have[g] -= 1
            tricks += 1.0 if (rounds == 0 or not trump_game or not outside) else 0.5
    return tricks


def call_points(hand: Sequence[int], order: CardOrder, fox: bool) -> float:
    """Hand points for announcements in a game of two parties (fitted to self-play outcomes).

    The top trump (a Dulle) counts 4, the next two trump ranks (the black
    queens) 2 each, the next two (the red queens) 1 each, any other trump a
    quarter; a void plain suit counts 1.5.  Liabilities subtract: a fox
    (``fox``: the diamond ace is a fox in this game) 1, a plain ten 1, a plain
    ace in a suit of four or more cards 1 (it is ruffed early or the suit is
    long and weak).
    """
    ranked = sorted((g for g in range(N_FACES) if order.eff[g] == TRUMP), key=lambda g: -order.strength[g])
    weight = {g: (4.0 if i == 0 else 2.0 if i <= 2 else 1.0 if i <= 4 else 0.25) for i, g in enumerate(ranked)}
    lengths = [0] * 5
    for f in hand:
        lengths[order.eff[f]] += 1
    points = 0.0
    for f in hand:
        suit = order.eff[f]
        if suit == TRUMP:
            points += weight[f]
            if fox and f == DA_F:
                points -= 1.0
        elif EYES[f] == 10 or (EYES[f] == 11 and lengths[suit] >= 4):
            points -= 1.0
    plain_suits = {order.eff[g] for g in range(N_FACES) if order.eff[g] != TRUMP}
    points += 1.5 * sum(1 for suit in plain_suits if lengths[suit] == 0)
    return points


@dataclass
class _View:
    """What the bot derives from one observation: parties, unseen cards, voids, the current trick."""

    obs: Observation
    opts: DoppelkopfOptions
    order: CardOrder
    kind: str
    active: list[int]
    hand: list[int]
    held: list[int]
    unseen: list[int]
    voids: dict[int, set[int]]
    led_count: list[int]
    party: str | None
    partners: set[int]
    opponents: set[int]
    soloist: int | None
    hand_sizes: dict[int, int]
    trick_faces: list[int]
    trick_seats: list[int]
    tricks_left: int
    solo_game: bool

    @property
    def me(self) -> int:
        return self.obs.seat

    # ------------------------------------------------------------ trick maths
    def key(self, f: int, led: int) -> int:
        """Trick-taking power of face ``f`` in a trick whose led effective suit is ``led``."""
        eff = self.order.eff[f]
        if eff == TRUMP:
            return 100 + self.order.strength[f]
        return self.order.strength[f] if eff == led else -1

    def second_dulle(self) -> bool:
        """Whether a second heart ten beats the first in the current trick [§1.2 VAR]."""
        opts = self.opts
        if not opts.second_dulle_beats_first or self.order.eff[self.order.dulle] != TRUMP:
            return False
        if opts.second_dulle_except_last_trick and self.tricks_left == 1:
            return False
        return not self.solo_game or opts.second_dulle_in_solo

    def best(self) -> tuple[int, int]:
        """Position and face of the card now winning the current trick."""
        cards = self.trick_faces
        led = self.order.eff[cards[0]]
        pos, best_key = 0, self.key(cards[0], led)
        for i in range(1, len(cards)):
            k = self.key(cards[i], led)
            if k > best_key or (k == best_key and cards[i] == self.order.dulle and self.second_dulle()):
                pos, best_key = i, k
        return pos, cards[pos]

    def beats(self, f: int, other: int, led: int) -> bool:
        """Whether ``f`` played now beats ``other`` (played earlier)."""
        k, o = self.key(f, led), self.key(other, led)
        return k > o or (k == o and f == self.order.dulle and self.second_dulle())

    def later_seats(self) -> list[int]:
        """Seats that play after this seat in the current trick."""
        if not self.trick_seats:
            return [s for s in self.active if s != self.me]
        start = self.active.index(self.trick_seats[0])
        order = [self.active[(start + i) % len(self.active)] for i in range(len(self.active))]
        return order[order.index(self.me) + 1 :]

    # -------------------------------------------------------- card estimates
    def pool(self, suit: int) -> int:
        """Cards held by the other players that are not known to be void in ``suit``."""
        return sum(self.hand_sizes.get(s, 0) for s in self.active if s != self.me and suit not in self.voids[s])

    def p_none(self, seat: int, suit: int, k: int) -> float:
        """Chance that ``seat`` holds none of ``k`` given unseen cards of effective suit ``suit``."""
        if suit in self.voids[seat]:
            return 1.0
        return _comb_ratio(self.pool(suit), self.hand_sizes.get(seat, 0), k)

    def unseen_in(self, suit: int, above: int = -1) -> int:
        """Unseen cards of effective suit ``suit`` stronger than strength ``above``."""
        order = self.order
        return sum(self.unseen[g] for g in range(N_FACES) if order.eff[g] == suit and order.strength[g] > above)

    def p_beat(self, seat: int, f: int, led: int) -> float:
        """Chance that ``seat``, still to play, can beat ``f`` if ``f`` wins the trick when played."""
        order = self.order
        if order.eff[f] == TRUMP:
            higher = self.unseen_in(TRUMP, order.strength[f])
            if f == self.order.dulle and self.second_dulle():
                higher += self.unseen[f]
            if higher == 0:
                return 0.0
            p_has = 1.0 - self.p_none(seat, TRUMP, higher)
            if led == TRUMP:
                return p_has
            return p_has * self.p_none(seat, led, self.unseen_in(led))
        higher = self.unseen_in(led, order.strength[f])
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

    # ----------------------------------------------------------- card values
    def is_fox(self, f: int) -> bool:
        """Whether ``f`` is a fox whose capture scores for the opponents."""
        return (
            f == DA_F
            and self.kind in NORMAL_KINDS
            and self.opts.sp_fuchs
            and self.order.eff[DA_F] == TRUMP
            and self.obs.public.get("schweine") is None
        )

    def karlchen_matters(self) -> bool:
        """Whether winning the last trick with the jack of clubs scores."""
        return self.opts.sp_karlchen and self.kind in NORMAL_KINDS and self.order.eff[CJ_F] == TRUMP

    def saving_karlchen(self, f: int) -> bool:
        """Whether ``f`` is a jack of clubs to hold back for the last trick, where it is sure to win.

        True when Karlchen scores, no trump as high as the jack of clubs is
        still unseen (so nobody can beat or tie it later), and tricks remain
        after the current one.
        """
        return f == CJ_F and self.tricks_left > 1 and self.karlchen_matters() and self.unseen_in(TRUMP, self.order.strength[CJ_F] - 1) == 0

    def keep(self, f: int) -> float:
        """How much holding ``f`` is worth for later tricks (control, not eyes)."""
        order = self.order
        if order.eff[f] == TRUMP:
            top = max(order.strength[g] for g in range(N_FACES) if order.eff[g] == TRUMP)
            q = (order.strength[f] - 1) / max(1, top - 1)
            value = 20.0 * q * q
            if f == CJ_F and self.karlchen_matters() and self.tricks_left > 1 and self.unseen_in(TRUMP, order.strength[CJ_F]) <= 1:
                value += 8.0
            return value
        suit = order.eff[f]
        if self.unseen_in(suit, order.strength[f]) == 0:
            # A boss card of its suit: it wins its own trick if the others follow.
            return 4.0 if self.unseen_in(suit) >= 2 else 1.5
        return 0.0

    def dump_cost(self, f: int) -> float:
        """Cost of giving ``f`` to the opponents: its eyes, its future use, fox danger."""
        cost = EYES[f] + self.keep(f)
        if self.is_fox(f):
            cost += 15.0
        suit = self.order.eff[f]
        if suit != TRUMP and self.held_in(suit) == 1 and self.held_in(TRUMP) >= 2:
            cost -= 1.5  # throwing the last card of a plain suit makes a void to ruff later
        return cost

    def smear_value(self, f: int) -> float:
        """Gain of giving ``f`` to the partner's trick: its eyes, less its future use."""
        value = EYES[f] - self.keep(f)
        if self.is_fox(f):
            value += 3.0  # a fox in the partner's trick can no longer be caught
        return value

    def held_in(self, suit: int) -> int:
        """Cards of effective suit ``suit`` in this seat's hand."""
        return sum(1 for f in self.hand if self.order.eff[f] == suit)


def _parse_parties(obs: Observation, kind: str, active: list[int], hand: list[int]) -> tuple[str | None, set[int], set[int]]:
    """This seat's party and the seats known to be its partners / its opponents."""
    party = obs.private.get("party")
    known: Mapping[str, str] = obs.public.get("parties", {})
    others = [s for s in active if s != obs.seat]
    if party is None:
        return None, set(), set(others)
    partners = {s for s in others if known.get(str(s)) == party}
    opponents = {s for s in others if str(s) in known and known[str(s)] != party}
    if kind in SOLO_KINDS:
        return party, partners, set(others) - partners
    own_cq = sum(1 for f in hand if f == CQ_F) + sum(
        1 for t in obs.tricks for i, c in enumerate(t.cards) if _FACE_OF[c] == CQ_F and _seat_at(active, t.leader, i) == obs.seat
    )
    if kind == "normal" and own_cq == 2:
        return party, set(), set(others)  # a silent wedding: alone against all
    team = len(active) // 2
    if len(partners) + 1 == team:
        opponents = set(others) - partners
    elif len(opponents) == team:
        partners = set(others) - opponents
    return party, partners, opponents


def _seat_at(active: list[int], leader: int, i: int) -> int:
    return active[(active.index(leader) + i) % len(active)]


def game_order(opts: DoppelkopfOptions, public: Mapping[str, Any]) -> CardOrder:
    """The trump order of the game as the table knows it (contract, Dullen, Schweine)."""
    contract = public.get("contract") or "normal"
    top: tuple[int, ...] = ()
    if public.get("schweine") is not None:
        top = (DA_F,)
        if public.get("superschweine") is not None:
            top = (D9_F if opts.nines else DK_F, DA_F)
    return card_order(opts.contract(contract), opts.dullen, top)


def build_view(obs: Observation, opts: DoppelkopfOptions) -> _View:
    """Derive a :class:`_View` from an observation."""
    public = obs.public
    kind = str(public.get("kind", "normal"))
    order = game_order(opts, public)
    active = [int(s) for s in public.get("active", [])]
    hand = [_FACE_OF[c] for c in obs.hand]
    held = [0] * N_FACES
    for f in hand:
        held[f] += 1
    unseen = pack_counts(opts)
    for f in hand:
        unseen[f] -= 1
    voids: dict[int, set[int]] = {s: set() for s in active}
    led_count = [0] * 5
    trick_faces: list[int] = []
    trick_seats: list[int] = []
    for t in obs.tricks:
        faces = [_FACE_OF[c] for c in t.cards]
        seats = [_seat_at(active, t.leader, i) for i in range(len(faces))]
        for f in faces:
            unseen[f] -= 1
        led = order.eff[faces[0]]
        led_count[led] += 1
        for s, f in zip(seats[1:], faces[1:], strict=True):
            if order.eff[f] != led:
                voids[s].add(led)  # not following shows a void (throwing off shows nothing about trumps)
        if t.winner is None:
            trick_faces, trick_seats = faces, seats
    unseen = [max(0, u) for u in unseen]
    party, partners, opponents = _parse_parties(obs, kind, active, hand)
    soloist = public.get("soloist")
    sizes = {int(s): int(n) for s, n in public.get("hand_sizes", {}).items()}
    tricks_left = len(hand)  # the bot decides only on its own turn, before playing to the current trick
    solo_game = kind in SOLO_KINDS
    return _View(
        obs=obs,
        opts=opts,
        order=order,
        kind=kind,
        active=active,
        hand=hand,
        held=held,
        unseen=unseen,
        voids=voids,
        led_count=led_count,
        party=str(party) if party is not None else None,
        partners=partners,
        opponents=opponents,
        soloist=int(soloist) if soloist is not None else None,
        hand_sizes=sizes,
        trick_faces=trick_faces,
        trick_seats=trick_seats,
        tricks_left=tricks_left,
        solo_game=solo_game,
    )


class DoppelkopfHeuristic:
    """The rule-based Doppelkopf bot described in the module docstring."""

    name = "heuristic"
    # Tunable parameters (class attributes so that experiments can subclass).  The
    # values were chosen in duplicate matches of a variant seat against three
    # default bots; see the module docstring.
    solo_threshold = SOLO_THRESHOLD
    silent_wedding_threshold = SILENT_WEDDING_THRESHOLD
    call_points = CALL_POINTS
    kontra_handicap = KONTRA_HANDICAP
    reply_points = REPLY_POINTS
    throw_points = THROW_POINTS
    sure_trick_eyes = SURE_TRICK_EYES
    absage_margin = ABSAGE_MARGIN
    safe = SAFE
    lead_hold = 0.5
    """Chance a plain boss card must have of not being ruffed before the bot leads it."""
    partner_hold = 0.65
    """Chance the partner's winning card must have of holding before the bot smears on it."""
    trump_lead_extra = 2
    """A Re player leads its boss trump with at least half the hand size plus this many trumps."""
    fight_pot = 10
    """Eyes in a trick from which the bot contests it with a winner that may still be beaten."""
    win_margin = 8.0
    """A sure winner is spent when its keep value is at most the trick's eyes plus this margin."""
    solo_call_extra = 0.0
    """The soloist says Re when its solo rating is at least the solo threshold plus this."""

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        if not isinstance(game.options, DoppelkopfOptions):
            raise TypeError(f"DoppelkopfHeuristic needs a Doppelkopf game, got {game.name}")
        self.game = game
        self.opts: DoppelkopfOptions = game.options
        self.seat = seat
        self.seed = seed
        self.counts = pack_counts(self.opts)
        self.hand_size = self.opts.hand_size
        self.normal_order = card_order(CONTRACTS["normal"], self.opts.dullen)

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
        if phase == "reservation":
            choice = by_text.get("vorbehalt" if self._plan(observation) is not None else "gesund")
        elif phase == "declare":
            choice = self._declare(observation, by_text)
        elif phase == "armut_give":
            choice = self._pick_cards(observation, legal, rng, keep_trumps=False)
        elif phase == "armut_offer":
            choice = by_text.get("accept" if self._takes_poverty(observation) else "decline")
        elif phase == "armut_return":
            choice = self._pick_cards(observation, legal, rng, keep_trumps=True)
        elif phase == "play":
            choice = self._play_phase(observation, legal, rng)
        return choice if choice is not None else rng.choice(legal)

    # ------------------------------------------------------------ game finding
    def _hand_faces(self, observation: Observation) -> list[int]:
        return [_FACE_OF[c] for c in observation.hand]

    def _opponents_count(self, observation: Observation) -> int:
        return len(observation.public.get("active", [0, 1, 2, 3])) - 1

    def solo_ratings(self, observation: Observation, names: Sequence[str] | None = None) -> dict[str, float]:
        """Each solo type's rating: estimated share of the tricks when played alone."""
        hand = self._hand_faces(observation)
        opponents = self._opponents_count(observation)
        names = sorted(self.opts.solos) if names is None else names
        return {
            name: estimate_tricks(hand, card_order(self.opts.contract(name), self.opts.dullen), self.counts, opponents) / self.hand_size
            for name in names
        }

    def _plan(self, observation: Observation) -> str | None:
        """The reservation this hand wants (``solo <type>``, hochzeit, armut, schmeissen) or None."""
        hand = self._hand_faces(observation)
        ratings = self.solo_ratings(observation)
        best = max(sorted(ratings), key=lambda n: ratings[n])
        if ratings[best] >= self.solo_threshold:
            return f"solo {best}"
        if hand.count(CQ_F) == 2:
            silent = estimate_tricks(hand, self.normal_order, self.counts, self._opponents_count(observation)) / self.hand_size
            if self.opts.hochzeit and (silent < self.silent_wedding_threshold or not self.opts.stille_hochzeit):
                return "hochzeit"
            return None if self.opts.stille_hochzeit else f"solo {best}"
        normal = call_points(hand, self.normal_order, fox=True)
        trumps = sum(1 for f in hand if self.normal_order.eff[f] == TRUMP)
        if self.opts.armut and trumps <= self.opts.armut_max_trumps:
            return "armut"
        if self._throw_reason(hand) and normal < self.throw_points:
            return "schmeissen"
        return None

    def _throw_reason(self, hand: list[int]) -> bool:
        """Whether the hand meets one of the enabled throw-in conditions [§4.6]."""
        conds = self.opts.schmeissen
        if not conds:
            return False
        low = _NINES if self.opts.nines else _KINGS
        n_low = sum(1 for f in hand if f in low)
        n_kings = sum(1 for f in hand if f in _KINGS)
        order = self.normal_order
        top = max((order.strength[f] for f in hand if order.eff[f] == TRUMP), default=0)
        return (
            ("five_nines" in conds and n_low >= 5)
            or ("four_nines_four_kings" in conds and self.opts.nines and n_low >= 4 and n_kings >= 4)
            or ("nine_of_each_suit" in conds and len({FACES[f].suit for f in hand if f in low}) == 4)
            or ("seven_full_cards" in conds and sum(1 for f in hand if f in _FULL) >= 7)
            or ("max_trump_le_dj" in conds and top <= order.strength[face("DJ")])
            or ("max_trump_le_da" in conds and top <= order.strength[DA_F])
        )

    def _declare(self, observation: Observation, by_text: dict[str, Action]) -> Action | None:
        """Name the planned reservation; pass on a higher-tier question; else the best offered solo."""
        plan = self._plan(observation)
        if plan == "hochzeit":
            wedding = self._wedding(observation, by_text)
            if wedding is not None:
                return wedding
        if plan is not None and plan in by_text:
            return by_text[plan]
        if "pass" in by_text:
            return by_text["pass"]
        solos = [t.split(" ", 1)[1] for t in by_text if t.startswith("solo ")]
        if solos:
            ratings = self.solo_ratings(observation, solos)
            best = max(sorted(ratings), key=lambda n: ratings[n])
            wedding = self._wedding(observation, by_text)
            if wedding is not None and ratings[best] < self.solo_threshold:
                return wedding
            for fallback in ("armut", "schmeissen"):
                if fallback in by_text and ratings[best] < self.solo_threshold:
                    return by_text[fallback]
            return by_text[f"solo {best}"]
        for text in ("hochzeit", "armut", "schmeissen"):
            if text in by_text:
                return by_text[text]
        return None

    def _wedding(self, observation: Observation, by_text: dict[str, Action]) -> Action | None:
        """The wedding action on offer: ``hochzeit``, or with ``hochzeit_rule=named_suit`` the best suit to name.

        The partner is the first other player to win a trick of the named suit, so the bride names a plain suit
        she can lead without winning it herself: one where she holds a card but no ace, the longest such
        (more chances within the window); failing that a suit she holds, else the shortest.
        """
        if "hochzeit" in by_text:
            return by_text["hochzeit"]
        named = {t.split(" ", 1)[1]: a for t, a in by_text.items() if t.startswith("hochzeit ")}
        if not named:
            return None
        hand = self._hand_faces(observation)
        order = self.normal_order

        def score(word: str) -> tuple[int, int, int]:
            suit = A.HOCHZEIT_SUITS.index(word)
            cards = [f for f in hand if order.eff[f] == suit]
            aces = sum(1 for f in cards if FACES[f].rank == Rank.ACE)
            return (int(len(cards) > aces), -aces, len(cards))

        return named[_argmax(sorted(named), score, random.Random(0))]

    def _takes_poverty(self, observation: Observation) -> bool:
        """Take a poverty only with a strong trump holding (many trumps, several high ones)."""
        hand = self._hand_faces(observation)
        order = self.normal_order
        trumps = [f for f in hand if order.eff[f] == TRUMP]
        high = sum(1 for f in trumps if order.strength[f] >= order.strength[face("HQ")])
        return len(trumps) >= self.hand_size // 2 + 1 and high >= 3

    def _pick_cards(self, observation: Observation, legal: Sequence[Action], rng: random.Random, keep_trumps: bool) -> Action:
        """Hand over the least useful card (poverty): low plain cards from short suits first.

        The poor player (``keep_trumps`` false) must give its trumps anyway, so
        it rates them as cheapest; the taker keeps its high trumps and plain
        aces and may give back low trumps (diamond nines and kings) once its
        low plain cards are gone.
        """
        order = self.normal_order
        hand = self._hand_faces(observation)

        def worth(a: Action) -> float:
            f = _face_of_action(a)
            eff = order.eff[f]
            if eff == TRUMP:
                return 2.0 + order.strength[f] if keep_trumps else -1.0
            length = sum(1 for g in hand if order.eff[g] == eff)
            value = {Rank.ACE: 12.0, Rank.TEN: 4.0, Rank.KING: 1.0}.get(Rank(FACES[f].rank), 0.0)
            return value + 0.3 * length

        return _argmin(legal, worth, rng)

    # ------------------------------------------------------------ play phase
    def _play_phase(self, observation: Observation, legal: Sequence[Action], rng: random.Random) -> Action | None:
        view = build_view(observation, self.opts)
        announce = self._announcement(view, {a.text: a for a in legal if a.kind == "announce"})
        if announce is not None:
            return announce
        plays = [a for a in legal if a.kind == "play"]
        if not plays:
            return None
        if len(plays) == 1:
            return self._before_card(view, observation, legal, _face_of_action(plays[0])) or plays[0]
        cards = {_face_of_action(a): a for a in plays}
        # Karlchen: a jack of clubs that will surely win the last trick is not spent earlier.
        options = [f for f in sorted(cards) if not view.saving_karlchen(f)] or sorted(cards)
        following = bool(view.trick_faces) and view.me not in view.trick_seats
        if not following:
            wedding_lead = self._wedding_lead(view, options)
            if wedding_lead is not None:
                return cards[wedding_lead]
        choice = self._follow(view, options, rng) if following else self._lead(view, options, rng)
        return self._before_card(view, observation, legal, choice) or cards[choice]

    def _before_card(self, view: _View, observation: Observation, legal: Sequence[Action], f: int) -> Action | None:
        """What comes instead of playing ``f`` plainly: a Genscher with it, or showing the Schweine it is one of."""
        if f == DK_F:
            genscher = self._genscher(view, observation, legal)
            if genscher is not None:
                return genscher
        show = next((a for a in legal if a.kind == "schweine"), None)
        if show is not None:
            # [§1.3 holder_choice] shown just before the first of them is played, so that it ranks on top
            faces = schwein_faces(view.kind, str(observation.public.get("contract") or "normal"), self.opts)
            if faces is not None and faces[0] == f:
                return show
        return None

    def _wedding_lead(self, view: _View, cards: list[int]) -> int | None:
        """[§4.2 named_suit] the bride, still without partner, leads the named suit: her lowest card of it."""
        public = view.obs.public
        word = public.get("hochzeit_suit")
        if word is None or view.kind != "hochzeit" or public.get("hochzeiter") != view.me or public.get("clarification_trick"):
            return None
        suit = A.HOCHZEIT_SUITS.index(str(word))
        own = [f for f in cards if view.order.eff[f] == suit]
        return min(own, key=lambda f: (view.order.strength[f], EYES[f])) if own else None

    def _genscher(self, view: _View, observation: Observation, legal: Sequence[Action]) -> Action | None:
        """[decision 0025] play the diamond king as a Genscher when it pays: a Kontra player takes a known Re player.

        The bot is about to play the first of its two diamond kings anyway.  As Kontra it changes sides when the
        table knows a Re player: the one who called Re (his call then counts for the new pair), else one who
        showed a queen of clubs.  A Re player keeps its partner.
        """
        offers = {int(a.text.split()[1]): a for a in legal if a.kind == "genscher"}
        if not offers or view.party != "kontra":
            return None
        known: Mapping[str, str] = observation.public.get("parties", {})
        re_seats = [s for s in offers if known.get(str(s)) == "re"]
        if not re_seats:
            return None
        callers = {seat for seat, text in observation.events if text == "announce re"}
        return offers[min(re_seats, key=lambda s: (s not in callers, s))]

    def _announcement(self, view: _View, announces: dict[str, Action]) -> Action | None:
        """Re/Kontra with a strong hand, a reply with a decent one, an absage when clearly winning."""
        if not announces or view.party is None:
            return None
        calls: Mapping[str, int] = view.obs.public.get("calls", {})
        own = int(calls.get(view.party, 0))
        other = int(calls.get("kontra" if view.party == "re" else "re", 0))
        if own == 0:
            word = f"announce {view.party}"
            if word not in announces:
                return None
            if view.solo_game and view.soloist == view.me:
                rating = estimate_tricks(view.hand, view.order, self.counts, len(view.active) - 1) / self.hand_size
                return announces[word] if rating >= self.solo_threshold + self.solo_call_extra else None
            if view.solo_game:
                return None  # the soloist's opponents cannot judge their partners' hands
            points = call_points(view.hand, view.order, fox=view.is_fox(DA_F))
            if view.party == "kontra":
                points -= self.kontra_handicap
            needed = self.reply_points if other else self.call_points
            return announces[word] if points >= needed else None
        # Absagen: the party's eyes so far plus the eyes of the bot's sure tricks must clear the target.
        if view.kind in NORMAL_KINDS and len(view.partners) + 1 < len(view.active) // 2:
            return None  # partner unknown: the party's eyes cannot be counted
        team = view.partners | {view.me}
        eyes = sum(sum(EYES[_FACE_OF[c]] for c in t.cards) for t in view.obs.tricks if t.winner in team)
        opp_eyes = sum(sum(EYES[_FACE_OF[c]] for c in t.cards) for t in view.obs.tricks if t.winner is not None and t.winner not in team)
        sure = self._sure_tricks(view)
        projected = eyes + self.sure_trick_eyes * sure
        for level in ANNOUNCE_LEVELS:
            text = f"announce {level}"
            if text in announces:
                target = ABSAGE_TARGET[level]
                if projected >= target + self.absage_margin and opp_eyes <= 240 - target - 2 * self.absage_margin:
                    return announces[text]
                return None
        return None

    def _sure_tricks(self, view: _View) -> int:
        """Tricks this hand takes for certain by leading from the top: boss trumps, then boss plain cards."""
        order = view.order
        trumps = sorted((f for f in view.hand if order.eff[f] == TRUMP), key=lambda f: -order.strength[f])
        sure = 0
        for f in trumps:
            if view.unseen_in(TRUMP, order.strength[f]) > 0:
                break  # an unseen trump can beat this one (and every lower one)
            sure += 1
        outside_trumps = view.unseen_in(TRUMP) - sure * (len(view.active) - 1)
        if outside_trumps <= 0:
            for f in view.hand:
                eff = order.eff[f]
                if eff != TRUMP and view.unseen_in(eff, order.strength[f]) == 0:
                    sure += 1
        return sure

    # ----------------------------------------------------------------- lead
    def _lead(self, view: _View, cards: list[int], rng: random.Random) -> int:
        """Choose the card to lead (rules in the module docstring)."""
        order = view.order
        trumps = [f for f in cards if order.eff[f] == TRUMP]
        outside_trumps = view.unseen_in(TRUMP)
        soloist = view.solo_game and view.soloist == view.me

        def boss(f: int) -> bool:
            return view.unseen_in(order.eff[f], order.strength[f]) == 0

        # The soloist draws trumps: its boss trump, or its lowest trump when it holds most trumps.
        if soloist and trumps and outside_trumps > 0:
            top = max(trumps, key=lambda f: order.strength[f])
            if boss(top):
                return top
            if len(trumps) >= outside_trumps:
                return min(trumps, key=lambda f: (order.strength[f], EYES[f]))
        # A plain boss card (first-round ace) when the opponents will most likely follow.
        plain_bosses = [f for f in cards if order.eff[f] != TRUMP and boss(f)]
        rated = [(view.p_hold(f, order.eff[f]), f) for f in plain_bosses]
        first_round_or_safe = [f for f in plain_bosses if view.led_count[order.eff[f]] == 0 or not order.trump_faces or outside_trumps == 0]
        good = [f for p, f in rated if p >= self.lead_hold and f in first_round_or_safe]
        if good:
            return _argmax(good, lambda f: (EYES[f], -view.held_in(order.eff[f])), rng)
        # Re (or the soloist) with a long trump holding leads its boss trump.
        if trumps and outside_trumps > 0 and (view.party == "re" or soloist):
            top = max(trumps, key=lambda f: order.strength[f])
            if boss(top) and len(trumps) >= self.hand_size // 2 + self.trump_lead_extra:
                return top
        # Lead to a partner who is void in a plain suit the opponents still hold (the partner ruffs).
        for f in sorted(cards, key=lambda g: view.dump_cost(g)):
            suit = order.eff[f]
            if suit == TRUMP or EYES[f] >= 10:
                continue
            if any(suit in view.voids[p] and TRUMP not in view.voids[p] for p in view.partners) and not any(
                suit in view.voids[o] for o in view.opponents
            ):
                return f
        return _argmin(cards, lambda f: self._lead_cost(view, f), rng)

    def _lead_cost(self, view: _View, f: int) -> float:
        """Cost of leading ``f`` when nothing better applies: lose little, keep control."""
        order = view.order
        cost = view.dump_cost(f)
        suit = order.eff[f]
        if suit == TRUMP:
            against_soloist = view.solo_game and view.soloist != view.me
            if against_soloist or view.party == "kontra":
                cost += 4.0  # the trump-strong side profits from trump leads
        else:
            if view.unseen_in(suit, order.strength[f]) > 0 and EYES[f] >= 10:
                cost += 6.0  # a ten behind an outstanding ace is lost
            if view.solo_game and view.soloist is not None and view.soloist != view.me and suit in view.voids[view.soloist]:
                cost += 6.0  # the soloist would ruff
        return cost

    # --------------------------------------------------------------- follow
    def _follow(self, view: _View, cards: list[int], rng: random.Random) -> int:
        """Choose the card to play into a trick others have started."""
        order = view.order
        led = order.eff[view.trick_faces[0]]
        pos, best = view.best()
        winner = view.trick_seats[pos]
        pot = sum(EYES[f] for f in view.trick_faces)
        last = not view.later_seats()
        beaters = [f for f in cards if view.beats(f, best, led)]
        if winner in view.partners:
            if view.p_hold(best, led) >= self.partner_hold:
                return _argmax(cards, view.smear_value, rng)
            holding = [f for f in beaters if view.p_hold(f, led) >= self.safe and not view.is_fox(f)]
            if holding and pot >= self.fight_pot:
                return _argmin(holding, lambda f: view.keep(f) - EYES[f] / 2, rng)
            return _argmin(cards, view.dump_cost, rng)
        holding = [f for f in beaters if view.p_hold(f, led) >= self.safe and (last or not view.is_fox(f))]
        if holding:
            f = _argmin(holding, lambda g: view.keep(g) - EYES[g] / 2, rng)
            if last or view.keep(f) <= pot + self.win_margin or view.solo_game:
                return f
        risky = [f for f in beaters if not view.is_fox(f) and view.keep(f) <= 12]
        if risky and pot >= self.fight_pot:
            return _argmax(risky, lambda f: (view.p_hold(f, led), -view.keep(f)), rng)
        return _argmin(cards, view.dump_cost, rng)


def _argmin(items: Sequence[T], score: Callable[[T], Any], rng: random.Random) -> T:
    """The item with the lowest score; ties broken by ``rng``."""
    scored = [(score(x), i) for i, x in enumerate(items)]
    low = min(s for s, _ in scored)
    return items[rng.choice([i for s, i in scored if s == low])]


def _argmax(items: Sequence[T], score: Callable[[T], Any], rng: random.Random) -> T:
    """The item with the highest score; ties broken by ``rng``."""
    scored = [(score(x), i) for i, x in enumerate(items)]
    high = max(s for s, _ in scored)
    return items[rng.choice([i for s, i in scored if s == high])]
