"""One Tapp Tarock deal: bidding, talon exchange, announcements, doubling, trick play, counting.

Phases (dossier sections in brackets):

* ``bidding`` — forehand first, then anticlockwise; pass, bid the next level
  (Dreier < Unterer < Oberer < Solo), jump to Solo, or hold an overcall
  [§3.2]; everybody passing throws the cards in [§3.3];
* ``talon`` — the declarer of a Dreier, Unterer or Oberer picks up a talon
  half (``take lower`` / ``take upper``) [§4.1]; a Solo skips the talon [§4.2];
* ``discard`` — the declarer lays away three cards, one ``discard`` at a
  time: no kings, no Trull cards, tarocks only when nothing else can go
  (and then shown) [§4.1];
* ``announce`` — the declarer may announce Pagat ultimo and Valat, then
  passes ("ich liege") [§5.1];
* ``kontra`` — the defenders, from the declarer's next player, may double
  (``kontra <item>``), the declarer may redouble (``rekontra``), the
  defenders again (``subkontra``); each speaker once per level and may name
  several items before passing [§5.2, OPEN-POINTS];
* ``play`` — 16 tricks: follow suit, else play a tarock, else anything; no
  duty to beat [§6];
* ``end`` — counted and scored [§7, §8].

Seats are numbered in the direction of play (anticlockwise at the table):
seat ``dealer + 1`` is forehand (the dealer's right-hand neighbour), then
middlehand, then the dealer (rearhand).  At a table of four
(``fourth_player=dealer_sits_out``) the dealer sits out and the three others
are forehand, middlehand and rearhand [§2].
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from stich.cards import Card, iter_bits, memo_bits
from stich.core.dealing import next_seats, seats_in_turn
from stich.core.game import DealResult, Game, Observation, PhasedState
from stich.core.tricks import NO_SUIT, TRUMP, PlayedTrick, led_suit, legal_cards, trick_winner
from stich.games.tapp_tarock import actions as A
from stich.games.tapp_tarock.options import TappTarockOptions
from stich.games.tapp_tarock.outcome import TRICKS, DealFacts
from stich.games.tapp_tarock.pack import (
    CONTRACT_BY_LEVEL,
    DECK,
    DISCARDABLE_SUIT_CARDS,
    FACES,
    HALVES,
    ITEMS,
    KINGS,
    N_FACES,
    ORDER,
    PAGAT,
    PLAIN_TAROCKS,
    SOLO_LEVEL,
    TAROCKS,
    TRULL,
    Contract,
    mask_thirds,
)
from stich.games.tapp_tarock.scoring import hand_bonuses, score, thrown_result
from stich.games.tarock_family.talon import LaysAway

BIDDING, TALON, DISCARD, ANNOUNCE, KONTRA, PLAY, END = range(7)
PHASE_NAMES = ("bidding", "talon", "discard", "announce", "kontra", "play", "end")
DISCARDS = 3
"""Cards the declarer lays away after picking up a talon half [§4.1]."""
assert A.PLAY == 0  # a card's play code is its face index: legal_codes lists the playable cards as they are


iter_faces = iter_bits
"""Face indices of a mask, ascending (one copy per face: a physical index is a face index)."""


@lru_cache(maxsize=4096)
def _hand_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a mask in pack order, remembered: a search scores many deals of the same few dealt hands."""
    return tuple(DECK.cards(mask))


@lru_cache(maxsize=4096)
def _bonus_names(mask: int) -> tuple[str, ...]:
    """:func:`~stich.games.tapp_tarock.scoring.hand_bonuses` of the cards of a mask, remembered like :func:`_hand_cards`."""
    return tuple(hand_bonuses(_hand_cards(mask)))


class TappTarockState(LaysAway, PhasedState):
    """A Tapp Tarock deal in progress; see the module docstring for the phases."""

    PHASE_NAMES = PHASE_NAMES
    END_PHASE = END
    PLAY_PHASE = PLAY
    CARD_CODES = A.DISCARD
    MUTABLE = (
        "hands",
        "talon",
        "history",
        "passed",
        "has_bid",
        "turns",
        "announced",
        "doubling",
        "dbl_queue",
        "trick_seats",
        "trick_cards",
        "tricks",
        "won",
    )

    options: TappTarockOptions
    """The game's options (``game.options``, typed)."""

    def __init__(
        self,
        game: Game,
        piles: list[int],
        dealer: int,
        seed: int | None,
        context: Mapping[str, Any],
        observe: Callable[[TappTarockState, int], Observation],
    ) -> None:
        self.game = game
        self.options = game.options
        self._observe = observe
        """The game's information model (its ``observe`` module's function, handed in by the game)."""
        self.seed = seed
        self.dealer = dealer
        self.dealt = tuple(piles)
        self.context = dict(context)
        n = game.num_seats
        self.hands = list(piles[:n])
        self.talon = list(piles[n:])
        """The two talon halves still lying on the table: ``[lower, upper]``."""
        self.active = seats_in_turn(n, dealer, dealer_sits_out=n == 4)
        """Forehand, middlehand, rearhand."""
        self.position = [-1] * n
        for i, seat in enumerate(self.active):
            self.position[seat] = i
        self.next_seat = next_seats(self.active, n)
        """:meth:`next_active` of every active seat (-1 for a dealer who sits out), looked up in trick play."""
        self.history: list[tuple[int, int]] = []
        self.phase = BIDDING
        self.to_move = self.active[0]
        # bidding [§3.2]
        self.level = 0
        self.holder: int | None = None
        self.passed = [False] * n
        self.has_bid = [False] * n
        self.turns = [0] * n
        self.thrown = False
        # talon and discards [§4]
        self.declarer: int | None = None
        self.taken = -1
        """Index into HALVES of the half picked up, -1 if none."""
        self.exposed = False
        self.discards = 0
        self.shown = 0
        """Discarded tarocks shown to the table (``forced_tarock_discard=show_card``)."""
        # announcements and doubling [§5]
        self.announced = [False, False]
        self.doubling = [0, 0, 0]
        self.dbl_level = 0
        self.dbl_queue: list[int] = []
        # play [§6]
        self.trick_seats: list[int] = []
        self.trick_cards: list[int] = []
        self.tricks: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        self.won = [0] * n
        """Cards won in tricks, per seat."""
        self._result: DealResult | None = None

    # ------------------------------------------------------------------ basics
    @property
    def contract(self) -> Contract | None:
        """The contract being played (``None`` before the bidding ends or after all passed)."""
        if self.declarer is None:
            return None
        return CONTRACT_BY_LEVEL[self.level]

    @property
    def defenders(self) -> tuple[int, ...]:
        """The declarer's opponents, from the declarer's next player on."""
        if self.declarer is None:
            return ()
        i = self.position[self.declarer]
        return tuple(self.active[(i + k) % 3] for k in (1, 2))

    def next_active(self, seat: int) -> int:
        """The next player in the direction of play."""
        return self.active[(self.position[seat] + 1) % 3]

    # ------------------------------------------------------------ legal moves
    def legal_codes(self) -> list[int]:
        phase = self.phase
        p = self.to_move
        if phase == PLAY:
            return memo_bits(self.playable(p))
        if phase == BIDDING:
            return self._bidding_codes(p)
        if phase == TALON:
            return [A.TAKE + i for i in self._takeable()]
        if phase == DISCARD:
            return [A.DISCARD + f for f in iter_faces(self._discardable(p))]
        if phase == ANNOUNCE:
            return self._announce_codes(p)
        if phase == KONTRA:
            return [A.PASS, *self._doubling_codes()]
        return []

    def playable(self, p: int) -> int:
        """Cards ``p`` may play: follow suit, else a tarock, else anything [§6]."""
        hand = self.hands[p]
        if not self.trick_cards:
            return hand
        return legal_cards(ORDER, hand, led_suit(ORDER, self.trick_cards))

    # ---------------------------------------------------------------- bidding
    def may_hold(self, p: int) -> bool:
        """Whether ``p`` may hold the current bid: a senior player whose bid a later player overcalled [§3.2]."""
        if self.level == 0 or self.holder is None or p == self.holder or not self.has_bid[p]:
            return False
        if self.position[p] > self.position[self.holder]:
            return False
        if self.options.hold_rule == "forehand_only" and self.position[p] != 0:
            return False
        return self.level < SOLO_LEVEL or not self.options.solo_ends_auction

    def _bidding_codes(self, p: int) -> list[int]:
        codes = [A.PASS]
        if self.level == 0:
            return [*codes, A.BID, A.BID + SOLO_LEVEL - 1]
        if self.level < SOLO_LEVEL:
            codes.append(A.BID + self.level)  # exactly the next level
            if self.level + 1 < SOLO_LEVEL and (self.options.solo_jump == "any_turn" or self.turns[p] == 0):
                codes.append(A.BID + SOLO_LEVEL - 1)
        if self.may_hold(p):
            codes.append(A.HOLD)
        return codes

    def _bid(self, p: int, code: int) -> None:
        previous = self.holder
        self.turns[p] += 1
        if code == A.PASS:
            self.passed[p] = True
        elif code == A.HOLD:
            self.holder = p
            self.has_bid[p] = True
        else:
            self.level = code - A.BID + 1
            self.holder = p
            self.has_bid[p] = True
            if self.level == SOLO_LEVEL and self.options.solo_ends_auction:
                self._settle(p)
                return
        left = [s for s in self.active if not self.passed[s]]
        if self.level == 0 and not left:
            self.thrown = True
            self._finish()
            return
        if self.level > 0 and len(left) == 1:
            self._settle(left[0])
            return
        if self.options.bidding_style == "immediate_hold":
            self.to_move = self._immediate_next(p, code, previous)
            return
        seat = self.next_active(p)
        while self.passed[seat] or seat == self.holder:
            seat = self.next_active(seat)
        self.to_move = seat

    def _immediate_next(self, p: int, code: int, previous: int | None) -> int:
        """Single-round bidding with immediate hold [§3.2 footnote]: an overcalled player answers at once
        (hold, go higher or pass), a hold is answered by the overcaller, and after a pass the next player
        who has not spoken yet enters."""
        if code == A.HOLD and previous is not None:
            return previous
        if code != A.PASS and previous is not None and previous != p:
            return previous
        seat = self.next_active(p)
        while self.turns[seat] or self.passed[seat]:
            seat = self.next_active(seat)
        return seat

    def _settle(self, declarer: int) -> None:
        """The bidding is over: the declarer exposes the talon, picks up a half, or plays a Solo [§3.2, §4]."""
        self.declarer = declarer
        self.holder = declarer
        self.to_move = declarer
        contract = CONTRACT_BY_LEVEL[self.level]
        if not contract.talon:
            self.phase = ANNOUNCE
            return
        rule = self.options.talon_half_rule
        self.exposed = rule != "fixed_unexposed" or contract.fixed_half is None
        self.phase = TALON

    # ------------------------------------------------------------ talon [§4]
    def _takeable(self) -> list[int]:
        """Indices of the halves the declarer may pick up [§4.1]."""
        contract = self.contract
        assert contract is not None
        if self.options.talon_half_rule == "free_choice" or contract.fixed_half is None:
            return [0, 1]
        return [HALVES.index(contract.fixed_half)]

    def _take(self, p: int, half: int) -> None:
        self.taken = half
        self.hands[p] |= self.talon[half]
        self.talon[half] = 0
        self.phase = DISCARD

    def _discardable(self, p: int) -> int:
        """Cards the declarer may lay away now: no kings or Trull; tarocks only when forced [§4.1]."""
        hand = self.hands[p]
        left = DISCARDS - self.discards.bit_count()
        suits = hand & DISCARDABLE_SUIT_CARDS
        if suits.bit_count() >= left:
            return suits
        return suits | (hand & PLAIN_TAROCKS)

    def _discard(self, p: int, f: int) -> None:
        bit = 1 << f
        if bit & TAROCKS and self.options.forced_tarock_discard == "show_card":
            self.shown |= bit
        if self._lay_away(p, f) == DISCARDS:
            self.phase = ANNOUNCE

    # ---------------------------------------------------- announcements [§5]
    def _announce_codes(self, p: int) -> list[int]:
        codes = [A.PASS]
        if not self.announced[0] and self.hands[p] >> PAGAT & 1:
            codes.append(A.ANNOUNCE)
        if not self.announced[1]:
            codes.append(A.ANNOUNCE + 1)
        return codes

    def _announce(self, p: int, code: int) -> None:
        if code != A.PASS:
            self.announced[code - A.ANNOUNCE] = True
            return
        if self.options.kontra_enabled:
            self._start_doubling(1)
        else:
            self._start_play()

    def doublable(self) -> list[int]:
        """Indices into ITEMS of the items that can be doubled in this deal [§5.2]."""
        if self.options.kontra_scope == "game_only":
            return [0]
        return [0] + [i + 1 for i in range(2) if self.announced[i]]

    def _doubling_codes(self) -> list[int]:
        level = self.dbl_level
        return [A.doubling_code(level, i) for i in self.doublable() if self.doubling[i] == level - 1]

    def _start_doubling(self, level: int) -> None:
        """Open doubling level 1 (Kontra: defenders), 2 (Rekontra: declarer) or 3 (Subkontra: defenders) [§5.2]."""
        assert self.declarer is not None
        while level <= 3:
            if level > 1 and not any(lv == level - 1 for lv in self.doubling):
                break
            self.dbl_level = level
            self.dbl_queue = [self.declarer] if level == 2 else list(self.defenders)
            if self._next_doubler():
                self.phase = KONTRA
                return
            level += 1
        self._start_play()

    def _next_doubler(self) -> bool:
        """Move to the next speaker of the current level who has something to double; False when none is left."""
        while self.dbl_queue:
            seat = self.dbl_queue[0]
            if self._doubling_codes():
                self.to_move = seat
                return True
            self.dbl_queue.pop(0)
        return False

    def _double(self, p: int, code: int) -> None:
        if code == A.PASS:
            self.dbl_queue.pop(0)
        else:
            self.doubling[(code - A.KONTRA) % len(ITEMS)] = self.dbl_level
        if self._next_doubler():
            return
        self._start_doubling(self.dbl_level + 1)

    # ------------------------------------------------------------- play [§6]
    def _start_play(self) -> None:
        self.phase = PLAY
        self.dbl_queue = []
        assert self.declarer is not None
        self.to_move = self.declarer if self.options.first_lead == "declarer" else self.active[0]

    def _play(self, p: int, f: int) -> None:
        self.hands[p] ^= 1 << f
        cards = self.trick_cards
        cards.append(f)
        self.trick_seats.append(p)
        if len(cards) < 3:
            self.to_move = self.next_seat[p]
            return
        winner = self.trick_seats[trick_winner(ORDER, cards)]
        self.tricks.append((tuple(self.trick_seats), tuple(cards), winner))
        self.won[winner] |= (1 << cards[0]) | (1 << cards[1]) | (1 << cards[2])
        self.trick_seats = []
        self.trick_cards = []
        if len(self.tricks) == TRICKS:
            self._finish()
            return
        self.to_move = winner

    # ----------------------------------------------------------------- apply
    def _apply_code(self, code: int) -> None:
        p = self.to_move
        self.history.append((p, code))
        phase = self.phase
        if phase == PLAY:
            self._play(p, code - A.PLAY)
        elif phase == BIDDING:
            self._bid(p, code)
        elif phase == TALON:
            self._take(p, code - A.TAKE)
        elif phase == DISCARD:
            self._discard(p, code - A.DISCARD)
        elif phase == ANNOUNCE:
            self._announce(p, code)
        elif phase == KONTRA:
            self._double(p, code)

    # ------------------------------------------------------------- evaluation
    def bonus_mask(self, seat: int) -> int:
        """The cards that count for ``seat``'s hand bonuses [§8.3, OPEN-POINTS]."""
        n = self.game.num_seats
        mask = self.dealt[seat]
        if seat == self.declarer and self.taken >= 0 and self.options.hand_bonus_timing == "after_talon":
            mask |= self.dealt[n + self.taken]  # kings and Trull cards cannot be laid away again
        return mask

    def bonus_names(self) -> list[tuple[str, ...]]:
        """Each active seat's hand bonuses (:func:`~stich.games.tapp_tarock.scoring.hand_bonuses` of :meth:`bonus_mask`)."""
        return [_bonus_names(self.bonus_mask(seat)) for seat in self.active]

    def facts(self) -> DealFacts:
        """The facts evaluation needs (only for a played-out deal)."""
        assert self.declarer is not None
        deck = self.game.deck
        declarer = self.declarer
        declarer_mask = self.won[declarer] | self.discards
        defender_mask = deck.full_mask & ~declarer_mask
        last = None
        if self.tricks:
            seats, cards, winner = self.tricks[-1]
            last = PlayedTrick(seats, tuple(FACES[c] for c in cards), winner)
        taken = HALVES[self.taken] if self.taken >= 0 else None
        return DealFacts(
            num_seats=self.game.num_seats,
            active_seats=self.active,
            declarer=declarer,
            contract=CONTRACT_BY_LEVEL[self.level].name,
            declarer_cards=tuple(deck.cards(declarer_mask)),
            defender_cards=tuple(deck.cards(defender_mask)),
            declarer_tricks=sum(1 for _s, _c, w in self.tricks if w == declarer),
            last_trick=last,
            announced=frozenset(w for w, on in zip(A.ANNOUNCE_WORDS, self.announced, strict=True) if on),
            doubling=(self.doubling[0], self.doubling[1], self.doubling[2]),
            bonus_hands=tuple(_hand_cards(self.bonus_mask(s)) if s in self.active else () for s in range(self.game.num_seats)),
            talon_taken=taken,
        )

    def _evaluate(self) -> DealResult:
        if self.thrown:
            same = self.options.all_pass == "redeal_same_dealer"
            return thrown_result(self.game.num_seats, self.dealer if same else (self.dealer + 1) % self.game.num_seats)
        return self._score()

    def _score(self) -> DealResult:
        """``evaluate(self.facts(), options)``, with the piles and hand bonuses counted from the card masks (the same result, faster)."""
        assert self.declarer is not None
        declarer_mask = self.won[self.declarer] | self.discards
        return score(
            self.facts(),
            self.options,
            mask_thirds(declarer_mask),
            mask_thirds(DECK.full_mask & ~declarer_mask),
            self.bonus_names(),
        )

    # ------------------------------------------------------- card accounting
    def played_mask(self) -> int:
        """Cards played to tricks so far (complete and current)."""
        mask = 0
        for w in self.won:
            mask |= w
        for f in self.trick_cards:
            mask |= 1 << f
        return mask

    def card_places(self) -> dict[str, int]:
        places = {f"hand {seat}": self.hands[seat] for seat in range(self.game.num_seats)}
        places["talon_lower"] = self.talon[0]
        places["talon_upper"] = self.talon[1]
        places["discards"] = self.discards
        places["played"] = self.played_mask()
        return places

    def knowable_cards(self, seat: int) -> int:
        """Own hand and cards played; an exposed talon; the declarer's own talon half and discards;
        tarocks shown on discarding; everything once the deal is counted [§4.1, §4.2, §7]."""
        if self.phase == END and not self.thrown:
            return self.game.deck.full_mask
        n = self.game.num_seats
        known = self.hands[seat] | self.played_mask() | self.shown
        if self.exposed:
            known |= self.dealt[n] | self.dealt[n + 1]
        if seat == self.declarer:
            known |= self.discards
            if self.taken >= 0:
                known |= self.dealt[n + self.taken]
        return known

    # ---------------------------------------------------------- explanations
    def _explain(self, code: int) -> tuple[str, str]:
        """Why ``code`` is illegal now: a message and the dossier rule."""
        phase = self.phase
        p = self.to_move
        if code < A.DISCARD:
            return self._explain_play(p, code - A.PLAY)
        if code < A.PASS:
            return self._explain_discard(p, code - A.DISCARD)
        if phase == BIDDING:
            return self._explain_bid(p, code)
        if phase == TALON:
            if A.TAKE <= code < A.ANNOUNCE:
                contract = self.contract
                assert contract is not None
                return (f"in an {contract.title} the declarer must take the {contract.fixed_half} half (talon_half_rule=fixed)", "§4.1")
            return ("pick up a talon half: take lower or take upper", "§4.1")
        if phase == ANNOUNCE:
            if code == A.ANNOUNCE:
                if self.announced[0]:
                    return ("Pagat ultimo is already announced", "§5.1")
                return ("Pagat ultimo can be announced only by a declarer who holds the Pagat", "§5.1")
            if code == A.ANNOUNCE + 1:
                return ("Valat is already announced", "§5.1")
            return ("announce ultimo or valat, or pass to start play (ich liege)", "§5.1")
        if phase == KONTRA and code >= A.KONTRA:
            return self._explain_double(code)
        what = {
            TALON: "pick up a talon half",
            DISCARD: "lay away three cards",
            KONTRA: "double an item or pass",
            PLAY: "play a card",
        }.get(phase, "nothing")
        return (f"not possible now ({PHASE_NAMES[phase]}): {what}", {TALON: "§4.1", DISCARD: "§4.1", KONTRA: "§5.2"}.get(phase, "§6"))

    def _explain_play(self, p: int, f: int) -> tuple[str, str]:
        card = FACES[f].text
        if self.phase != PLAY:
            return (f"cards are played only once the bidding, talon and announcements are over, not during {PHASE_NAMES[self.phase]}", "§6")
        if not self.hands[p] >> f & 1:
            return (f"{card} is not in your hand", "§6")
        led = led_suit(ORDER, self.trick_cards)
        if led != NO_SUIT and self.hands[p] & ORDER.follow[led]:
            return ("you must follow the suit led (a tarock lead asks for a tarock)", "§6")
        return ("you cannot follow suit, so you must play a tarock", "§6")

    def _explain_discard(self, p: int, f: int) -> tuple[str, str]:
        if self.phase != DISCARD:
            return (f"only the declarer lays away cards, after picking up a talon half, not during {PHASE_NAMES[self.phase]}", "§4.1")
        bit = 1 << f
        card = FACES[f].text
        if not self.hands[p] & bit:
            return (f"{card} is not in your hand", "§4.1")
        if bit & KINGS:
            return ("kings may not be laid away", "§4.1")
        if bit & TRULL:
            return ("the Trull cards (Sküs, Mond, Pagat) may not be laid away", "§4.1")
        return ("tarocks may be laid away only when there is no other choice", "§4.1")

    def _explain_bid(self, p: int, code: int) -> tuple[str, str]:
        opts = self.options
        if code == A.HOLD:
            if self.level == 0:
                return ("there is no bid to hold yet", "§3.2")
            if self.level == SOLO_LEVEL and opts.solo_ends_auction:
                return ("a Solo cannot be held", "§3.2, §10.6")
            if opts.hold_rule == "forehand_only" and self.position[p] != 0:
                return ("only forehand may hold (hold_rule=forehand_only)", "§3.2, §10.4")
            return ("only a senior player whose bid a later player overcalled may hold", "§3.2")
        if A.BID <= code < A.HOLD:
            level = code - A.BID + 1
            if level == SOLO_LEVEL and self.level < SOLO_LEVEL - 1:
                return ("Solo may be jumped to only at your first turn (solo_jump=first_turn_only)", "§3.2, §10.5")
            if self.level == 0:
                return ("the bidding opens with Dreier (or Solo)", "§3.2")
            return ("overcall with exactly the next level (or Solo), hold, or pass", "§3.2")
        return ("bid, hold or pass", "§3.2")

    def _explain_double(self, code: int) -> tuple[str, str]:
        level = (code - A.KONTRA) // len(ITEMS) + 1
        item = (code - A.KONTRA) % len(ITEMS)
        word = A.DOUBLING_WORDS[level - 1]
        if item not in self.doublable():
            if self.options.kontra_scope == "game_only":
                return ("only the game can be doubled (kontra_scope=game_only)", "§5.2")
            return (f"{ITEMS[item]} was not announced, so it cannot be doubled", "§5.2")
        if level != self.dbl_level:
            who = "the declarer" if level == 2 else "the defenders"
            return (f"{word} is said by {who}, in its turn: Kontra, then Rekontra, then Subkontra", "§5.2")
        return (f"{word} {ITEMS[item]} needs the level below it and can be said once", "§5.2")

    # ------------------------------------------------------------ observation
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know."""
        return self._observe(self, seat)


def cards_text(mask: int) -> list[str]:
    """Card texts of a mask, in pack order."""
    return [FACES[f].text for f in iter_faces(mask)]


def card_list(mask: int) -> list[Card]:
    """Cards of a mask, in pack order."""
    return [FACES[f] for f in iter_faces(mask)]


assert N_FACES == 54 and TRUMP == 4
