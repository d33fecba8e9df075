"""One Droggn deal: bidding, exchange and buying, laying out, doubling, play, counting.

Phases (dossier sections in brackets):

* ``bidding`` — each active player speaks once, clockwise from the dealer's
  left: ``pass`` or a bid higher than any made [§3.2]; all passing throws the
  cards in [§3.2];
* ``exchange`` — Ansager and Solo: the declarer has taken the talon and lays
  away three cards, one ``discard`` at a time, never the Gstieß, Mond or
  Pagat, kings only with trumps [§4.1];
* ``buy`` — Ansager: ``offer`` a card face down, then ``buy`` a named card
  from the defender who holds it; or ``pass`` [§4.2];
* ``declare`` — the declarer may ``lay_out`` the Pagat (in a Super Mord the
  Pagat or the Gstieß), or says ``liege`` [§5.1, §5.2, §5.3];
* ``doubling`` — defenders from the declarer's left: ``pass``, ``schwacher``
  (later ``retour``); the declarer answers a double with ``pass`` or
  ``retour``; after a Retour the defenders speak again, each once per level
  [§5.3, OPEN-POINTS]; a defender may lay out the Pagat on any of its turns
  [§5.1, §10.7];
* ``play`` — 21 tricks, the declarer leads [§6];
* ``end`` — counted and scored [§7, §8]; a Super Mord ends at the first trick
  the declarer loses [§8.3, OPEN-POINTS].

Seats are numbered in the direction of play (clockwise): seat ``i + 1``
(mod the table) acts after seat ``i``, so "the dealer's left" is
``dealer + 1``.  With four at the table the dealer sits out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from stich.cards import iter_bits, memo_bits
from stich.core.dealing import next_seats, seats_in_turn
from stich.core.game import DealResult, Game, Observation, PhasedState
from stich.core.tricks import NO_SUIT, TRUMP, led_suit, legal_cards, trick_winner
from stich.games.droggn import actions as A
from stich.games.droggn.options import DroggnOptions
from stich.games.droggn.outcome import DECLARER, DEFENDERS, DealFacts, PagatFact
from stich.games.droggn.pack import (
    BARRED_DISCARDS,
    CONTRACTS,
    FACES,
    GSTIESS,
    KINGS,
    N_FACES,
    PAGAT,
    TRUMPS_2_20,
    Contract,
    pile_points,
    play_order,
    total_points,
)
from stich.games.droggn.scoring import evaluate, thrown_in
from stich.games.tarock_family.doubling import PASS, RETOUR, SCHWACHER, SchwacherRetour
from stich.games.tarock_family.talon import LaysAway

BIDDING, EXCHANGE, BUY, DECLARE, DOUBLING, PLAY, END = range(7)
PHASE_NAMES = ("bidding", "exchange", "buy", "declare", "doubling", "play", "end")
TALON_SIZE = 3
LAID_OUT_NAMES = {PAGAT: "pagat", GSTIESS: "gstiess"}
PAGAT_BIT, GSTIESS_BIT = 1 << PAGAT, 1 << GSTIESS
_CALL_CODES = {PASS: A.PASS, SCHWACHER: A.SCHWACHER, RETOUR: A.RETOUR}
"""The doubling calls (:mod:`stich.games.tarock_family.doubling`) as Droggn's actions."""
_CODE_CALLS = {code: call for call, code in _CALL_CODES.items()}
assert A.PLAY == 0  # a card's play code is its index: legal_codes lists the playable cards as they are


def _bits_codes(mask: int, base: int) -> list[int]:
    return [base + i for i in iter_bits(mask)]


class DroggnState(SchwacherRetour, LaysAway, PhasedState):
    """A Droggn deal in progress; see the module docstring for the phases."""

    ASK_FORCED = True  # the declarer is asked even when only pass is left under retour_limit [§5.3, §9]

    PHASE_NAMES = PHASE_NAMES
    END_PHASE = END
    PLAY_PHASE = PLAY
    CARD_CODES = A.DISCARD
    MUTABLE = ("hands", "history", "bids", "speakers", "trick_seats", "trick_cards", "tricks")

    options: DroggnOptions
    """The game's options (``game.options``, typed)."""

    def __init__(
        self,
        game: Game,
        piles: list[int],
        dealer: int,
        seed: int | None,
        context: Mapping[str, Any],
        observe: Callable[[DroggnState, int], Observation],
    ) -> None:
        opts: DroggnOptions = game.options
        n = game.num_seats
        self.game = game
        self.options = game.options
        self._observe = observe
        """The game's information model (its ``observe`` module's function, handed in by the game)."""
        self.seed = seed
        self.dealer = dealer
        self.dealt = tuple(piles)
        self.context = dict(context)
        self.hands = list(piles[:n])
        self.talon = piles[n]
        """Talon cards not taken: all three before the exchange, and in a Super (Mord) until the end [§4.3]."""
        self.active = seats_in_turn(n, dealer, dealer_sits_out=n == 4)
        """The three players, clockwise from the dealer's left [§2]."""
        self.idle: int | None = dealer if n == 4 else None
        self.successor = next_seats(self.active, n)
        """:meth:`next_seat` of every active seat (-1 for an idle dealer), looked up in trick play."""
        self.order = play_order(opts.pack_size)
        """The trick order of the pack [§6.1]."""
        self.n_tricks = opts.hand_size
        self.history: list[tuple[int, int]] = []
        self.phase = BIDDING
        self.to_move = self.active[0]
        self.bids: list[tuple[int, int]] = []
        """(seat, contract level or -1 for pass), in the order spoken."""
        self.declarer = -1
        self.level = -1
        """Level of the highest bid (-1: none yet); the contract once bidding is over."""
        self.talon_taken = 0
        self.discards = 0
        self.offered = -1
        self.bought = -1
        self.bought_from = -1
        self.laid_out = -1
        self.laid_out_by = -1
        self.doubles = 0
        """Schwacher and Retours said: the stakes are multiplied by 2 ** doubles [§5.3]."""
        self.retour_limit = opts.retour_limit
        self.speakers: list[int] = []
        self.answering = False
        self.trick_seats: list[int] = []
        self.trick_cards: list[int] = []
        self.tricks: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        self.decl_pile = 0
        self.def_pile = 0
        self.decl_tricks = 0
        self.pagat_fact: PagatFact | None = None
        self.thrown = False
        self.stopped = False
        self._result: DealResult | None = None

    # ------------------------------------------------------------------ basics
    @property
    def contract(self) -> Contract | None:
        """The contract, once the bidding is over (``None`` before, and for a thrown-in deal)."""
        return CONTRACTS[self.level] if self.phase > BIDDING and self.level >= 0 else None

    @property
    def multiplier(self) -> int:
        """2 ** (Schwacher and Retours) [§5.3]."""
        return 1 << self.doubles

    def next_seat(self, seat: int) -> int:
        """The next active player clockwise."""
        return self.active[(self.active.index(seat) + 1) % 3]

    def defenders(self) -> tuple[int, int]:
        """The defenders, starting at the declarer's left [§5.3]."""
        first = self.next_seat(self.declarer)
        return first, self.next_seat(first)

    def side_of(self, seat: int) -> str:
        """``declarer`` or ``defenders``."""
        return DECLARER if seat == self.declarer else DEFENDERS

    # ------------------------------------------------------------ legal moves
    def legal_codes(self) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            return memo_bits(self.playable(self.to_move))
        if phase == BIDDING:
            return [A.PASS] + [A.BID + c.level for c in CONTRACTS if c.level > self.level]
        if phase == EXCHANGE:
            return _bits_codes(self.discardable(), A.DISCARD)
        if phase == BUY:
            if self.offered < 0:
                return [*_bits_codes(self.hands[self.declarer], A.OFFER), A.PASS]
            return _bits_codes(self._defenders_cards(), A.BUY)
        if phase == DECLARE:
            codes = [A.LAY_OUT] if self.hands[self.declarer] >> PAGAT & 1 else []
            contract = self.contract
            if contract is not None and contract.mord and self.hands[self.declarer] >> GSTIESS & 1:
                codes.append(A.LAY_OUT + 1)
            return [*codes, A.LIEGE]
        if phase == DOUBLING:
            return self._doubling_codes()
        return []

    def playable(self, seat: int) -> int:
        """Cards ``seat`` may play now [§6.1, §6.2, §6.3, §5.2]."""
        order = self.order
        hand = self.hands[seat]
        trick = self.trick_cards
        legal = legal_cards(order, hand, led_suit(order, trick)) if trick else hand
        g = GSTIESS_BIT
        if hand & g:
            if self.laid_out == GSTIESS and self.laid_out_by == seat:
                if hand != g:
                    legal &= ~g  # a laid-out Gstieß is bound to the last trick [§5.2, OPEN-POINTS]
            elif self.options.gstiess_last_trick_illegal and hand.bit_count() == 2:
                legal = g  # it may not go to the last trick, so it goes now [§6.2 VAR]
        p = PAGAT_BIT
        if self.laid_out == PAGAT and self.laid_out_by == seat and legal & p and legal != p:
            legal &= ~p  # a laid-out Pagat only when nothing else is legal [§5.1, §6.3]
        return legal

    def discardable(self) -> int:
        """Cards the declarer may lay away next so that a legal three-card discard stays possible [§4.1]."""
        hand = self.hands[self.declarer]
        left = TALON_SIZE - self.discards.bit_count() - 1
        candidates = hand & ~BARRED_DISCARDS
        out = 0
        # The king rule only counts kings, trumps II-XX and other cards, so one card of each kind decides for all of its kind.
        for kind in (candidates & KINGS, candidates & TRUMPS_2_20, candidates & ~KINGS & ~TRUMPS_2_20):
            if kind:
                bit = kind & -kind
                if self._completable(self.discards | bit, hand & ~bit, left):
                    out |= kind
        return out

    def _completable(self, discards: int, hand: int, left: int) -> bool:
        """Whether ``left`` more cards of ``hand`` can complete ``discards`` within the king rule [§4.1, §10.5]."""
        kings = (discards & KINGS).bit_count()
        trumps = (discards & TRUMPS_2_20).bit_count()
        avail = hand & ~BARRED_DISCARDS
        a = (avail & TRUMPS_2_20).bit_count()
        k = (avail & KINGS).bit_count()
        o = avail.bit_count() - a - k
        per_king = self.options.king_discard_rule == "one_trump_per_king"
        for x in range(min(a, left) + 1):
            for z in range(min(k, left - x) + 1):
                if left - x - z > o:
                    continue
                if (kings + z <= trumps + x) if per_king else (kings + z == 0 or trumps + x >= 1):
                    return True
        return False

    def _defenders_cards(self) -> int:
        first, second = self.defenders()
        return self.hands[first] | self.hands[second]

    def may_lay_out(self, seat: int) -> bool:
        """Whether defender ``seat`` may lay out the Pagat now [§5.1, §10.7]."""
        contract = self.contract
        return (
            self.options.defender_may_lay_out_pagat
            and self.laid_out < 0
            and bool(self.hands[seat] >> PAGAT & 1)
            and contract is not None
            and not contract.mord
        )

    def _doubling_codes(self) -> list[int]:
        codes = [A.PASS]
        if not self.answering and self.may_lay_out(self.to_move):
            codes.append(A.LAY_OUT)  # a defender may lay out the Pagat on its turn [§5.1, §10.7]
        codes += [_CALL_CODES[call] for call in self.doubling_calls()[1:]]
        return codes

    # ----------------------------------------------------------------- apply
    def _apply_code(self, code: int) -> None:
        p = self.to_move
        self.history.append((p, code))
        phase = self.phase
        if phase == PLAY:
            self._play(p, code - A.PLAY)
        elif phase == BIDDING:
            self._bid(p, code)
        elif phase == EXCHANGE:
            self._discard(code - A.DISCARD)
        elif phase == BUY:
            self._buy(code)
        elif phase == DECLARE:
            if code != A.LIEGE:
                self.laid_out = PAGAT if code == A.LAY_OUT else GSTIESS
                self.laid_out_by = p
            self._start_doubling()
        elif phase == DOUBLING:
            self._double(p, code)

    def _bid(self, p: int, code: int) -> None:
        if code == A.PASS:
            self.bids.append((p, -1))
        else:
            self.level = code - A.BID
            self.declarer = p
            self.bids.append((p, self.level))
        if len(self.bids) < 3:
            self.to_move = self.next_seat(p)
            return
        if self.level < 0:
            self.thrown = True  # all passed: thrown in, the same dealer deals again [§3.2]
            self._finish()
            return
        contract = CONTRACTS[self.level]
        self.to_move = self.declarer
        if contract.exchange:
            self.hands[self.declarer] |= self.talon
            self.talon_taken = self.talon
            self.talon = 0
            self.phase = EXCHANGE
        else:
            self.phase = DECLARE

    def _discard(self, index: int) -> None:
        if self._lay_away(self.declarer, index) == TALON_SIZE:
            contract = self.contract
            self.phase = BUY if contract is not None and contract.buy else DECLARE

    def _buy(self, code: int) -> None:
        d = self.declarer
        if code == A.PASS:
            self.phase = DECLARE
        elif code < A.BUY:
            self.offered = code - A.OFFER
            self.hands[d] ^= 1 << self.offered
        else:
            index = code - A.BUY
            bit = 1 << index
            holder = next(s for s in self.defenders() if self.hands[s] & bit)
            self.hands[holder] = (self.hands[holder] ^ bit) | (1 << self.offered)
            self.hands[d] |= bit
            self.bought = index
            self.bought_from = holder
            self.phase = DECLARE

    def _start_doubling(self) -> None:
        self.phase = DOUBLING
        self._open_doubling(self._defenders_in_turn())

    def _double(self, p: int, code: int) -> None:
        if code == A.LAY_OUT:
            self.laid_out = PAGAT
            self.laid_out_by = p
            return
        self._say(_CODE_CALLS[code])  # [§5.3, OPEN-POINTS]

    def _doubling_declarer(self) -> int:
        return self.declarer

    def _defenders_in_turn(self) -> list[int]:
        return list(self.defenders())

    def _start_play(self) -> None:
        self.phase = PLAY
        self.speakers = []
        self.answering = False
        self.to_move = self.declarer

    def _play(self, p: int, index: int) -> None:
        self.hands[p] ^= 1 << index
        trick = self.trick_cards
        trick.append(index)
        self.trick_seats.append(p)
        if len(trick) < 3:
            self.to_move = self.successor[p]
            return
        cards = tuple(trick)
        seats = tuple(self.trick_seats)
        won = (1 << cards[0]) | (1 << cards[1]) | (1 << cards[2])
        tricks = self.tricks
        last = len(tricks) == self.n_tricks - 1
        # the laid-out Gstieß wins the last trick of a Super Mord [§5.2]
        gstiess_wins = won & GSTIESS_BIT and self.laid_out == GSTIESS and last
        pos = cards.index(GSTIESS) if gstiess_wins else trick_winner(self.order, cards)
        winner = seats[pos]
        declarer = self.declarer
        if winner == declarer:
            self.decl_pile |= won
            self.decl_tricks += 1
        else:
            self.def_pile |= won
        if won & GSTIESS_BIT:
            k = cards.index(GSTIESS)
            if k != pos and (seats[k] == declarer) != (winner == declarer):
                # the Gstieß is never captured: it goes to the pile of the side that played it [§6.2]
                self.decl_pile ^= GSTIESS_BIT
                self.def_pile ^= GSTIESS_BIT
        if won & PAGAT_BIT:
            k = cards.index(PAGAT)
            self.pagat_fact = PagatFact(self.side_of(seats[k]), last, k == pos, self.side_of(winner))
        tricks.append((seats, cards, winner))
        self.trick_seats = []
        self.trick_cards = []
        if winner != declarer and CONTRACTS[self.level].mord:  # card play follows a bid: level is the contract
            self.stopped = True  # a Super Mord is lost at the first trick the declarer loses [§8.3, OPEN-POINTS]
            self._finish()
        elif len(tricks) == self.n_tricks:
            self._finish()
        else:
            self.to_move = winner

    # ------------------------------------------------------------- evaluation
    def declarer_pile(self) -> int:
        """Cards that count for the declarer: tricks, plus the discards or the talon [§7]."""
        return self.decl_pile | self.discards | self.talon

    def facts(self) -> DealFacts:
        """The facts scoring needs (a played deal only)."""
        last_side = self.side_of(self.tricks[-1][2]) if len(self.tricks) == self.n_tricks else None
        return DealFacts(
            contract=CONTRACTS[self.level].name,
            declarer_points=pile_points(self.declarer_pile()),
            declarer_tricks=self.decl_tricks,
            tricks_played=len(self.tricks),
            total_tricks=self.n_tricks,
            pack_points=total_points(self.game.deck),
            last_trick_side=last_side,
            multiplier=self.multiplier,
            laid_out=LAID_OUT_NAMES.get(self.laid_out),
            laid_out_side=self.side_of(self.laid_out_by) if self.laid_out >= 0 else None,
            pagat=self.pagat_fact,
        )

    def _evaluate(self) -> DealResult:
        n = self.game.num_seats
        if self.thrown:
            return thrown_in(self.dealer, n)
        extra = {"stopped_after_trick": len(self.tricks) if self.stopped else None}
        return evaluate(self.facts(), self.options, declarer=self.declarer, active=self.active, num_seats=n, extra=extra)

    # ------------------------------------------------------- card accounting
    def played_mask(self) -> int:
        """Cards played to tricks so far (complete and current)."""
        return self.decl_pile | self.def_pile | sum(1 << c for c in self.trick_cards)

    def card_places(self) -> dict[str, int]:
        places = {f"hand {seat}": self.hands[seat] for seat in range(self.game.num_seats)}
        places["talon"] = self.talon
        places["discards"] = self.discards
        places["offered"] = 1 << self.offered if self.offered >= 0 and self.bought < 0 else 0
        places["played"] = self.played_mask()
        return places

    def knowable_cards(self, seat: int) -> int:
        """Own hand and the cards played, plus [§4.1, §4.2, §5.1, §9]: the declarer's talon, discards and
        offered card; a talon shown in an Ansager (``expose_talon``); a laid-out card; the bought card (handed
        over face up) and, to the defender who gave it, the card received for it.  While naming the card to
        buy, the declarer names cards of the defenders' hands, which he knows by elimination as a whole
        (every card that is not among his own 24), though not who holds which.
        """
        known = self.hands[seat] | self.played_mask()
        contract = self.contract
        if contract is None:
            return known
        if contract.exchange:
            if seat == self.declarer:
                known |= self.talon_taken | self.discards | (1 << self.offered if self.offered >= 0 else 0)
            if contract.buy and self.options.expose_talon == "ansager_only":
                known |= self.talon_taken
        if self.laid_out >= 0:
            known |= 1 << self.laid_out
        if self.bought >= 0:
            known |= 1 << self.bought
            if seat == self.bought_from:
                known |= 1 << self.offered
        elif self.phase == BUY and self.offered >= 0 and seat == self.declarer:
            known |= self._defenders_cards()
        return known

    # ---------------------------------------------------------- explanations
    def _explain(self, code: int) -> tuple[str, str]:
        """Why ``code`` is illegal now: a message and the dossier rule."""
        phase = self.phase
        p = self.to_move
        deck = self.game.deck
        if code < A.PASS:
            index = (code - A.PLAY) % N_FACES
            if not deck.full_mask >> index & 1:
                return (f"{FACES[index].text} is not in the {self.options.deck_size}-card pack", "§1")
        if phase == BIDDING:
            if A.BID <= code < A.LAY_OUT:
                return (f"a bid must be higher than {CONTRACTS[self.level].title}; say pass or bid higher", "§3.2")
            return ("in the bidding say pass or bid ansager, solo, super or super_mord", "§3.2")
        if phase == EXCHANGE:
            return self._explain_discard(code)
        if phase == BUY:
            return self._explain_buy(code)
        if phase == DECLARE:
            if code == A.LAY_OUT:
                return ("you do not hold the Pagat", "§5.1")
            if code == A.LAY_OUT + 1:
                contract = self.contract
                if contract is None or not contract.mord:
                    return ("only the declarer of a Super Mord may lay out the Gstieß", "§5.2")
                return ("you do not hold the Gstieß", "§5.2")
            return ("lay out the Pagat (or in a Super Mord the Gstieß), or say liege", "§5.1, §5.3")
        if phase == DOUBLING:
            return self._explain_doubling(code)
        if phase == PLAY and code < A.DISCARD:
            return self._explain_play(p, code - A.PLAY)
        return ("the cards are being played: play a card", "§6.1")

    def _explain_discard(self, code: int) -> tuple[str, str]:
        if not A.DISCARD <= code < A.OFFER:
            return ("first lay away three cards (discard <card>)", "§4.1")
        bit = 1 << (code - A.DISCARD)
        if not self.hands[self.declarer] & bit:
            return (f"{FACES[code - A.DISCARD].text} is not in your hand", "§4.1")
        if bit & BARRED_DISCARDS:
            return ("the Gstieß, the Mond and the Pagat may never be discarded", "§4.1")
        if self.options.king_discard_rule == "one_trump_per_king":
            return ("a king may be discarded only together with a trump (one trump II-XX for each king)", "§4.1, §10.5")
        return ("a king may be discarded only together with a trump II-XX", "§4.1, §10.5")

    def _explain_buy(self, code: int) -> tuple[str, str]:
        if self.offered < 0:
            if A.OFFER <= code < A.BUY:
                return (f"{FACES[code - A.OFFER].text} is not in your hand", "§4.2")
            if A.BUY <= code < A.PASS:
                return ("first place the card you give for it face down (offer <card>)", "§4.2")
            return ("offer a card face down to buy one, or pass", "§4.2")
        if A.BUY <= code < A.PASS:
            bit = 1 << (code - A.BUY)
            if bit & (self.hands[self.declarer] | self.discards | (1 << self.offered)):
                return ("you hold or laid away that card: name a card one of the defenders holds", "§4.2")
            return ("name a card one of the defenders holds", "§4.2")
        return ("you placed a card face down: now name the card you buy (buy <card>)", "§4.2")

    def _explain_doubling(self, code: int) -> tuple[str, str]:
        p = self.to_move
        if code == A.LAY_OUT + 1:
            return ("only the declarer of a Super Mord lays out the Gstieß, before saying liege", "§5.2")
        if code == A.LAY_OUT:
            if self.answering:
                return ("the declarer lays out the Pagat before saying liege", "§5.1")
            if not self.options.defender_may_lay_out_pagat:
                return ("defenders may not lay out the Pagat here (defender_may_lay_out_pagat=false)", "§5.1, §9")
            contract = self.contract
            if contract is not None and contract.mord:
                return ("in a Super Mord only the declarer lays out a card", "§5.2")
            if self.laid_out >= 0:
                return ("the Pagat is laid out already", "§5.1")
            return ("you do not hold the Pagat", "§5.1")
        if code == A.SCHWACHER:
            if self.answering:
                return ("only a defender gives a Schwacher; answer with pass or retour", "§5.3")
            return ("the stakes are doubled already; say retour or pass", "§5.3")
        if code == A.RETOUR:
            if self.doubles == 0:
                return ("a Retour answers a Schwacher; say schwacher or pass", "§5.3")
            if not self.retour_open():
                return (f"no more Retours: retour_limit={self.options.retour_limit}", "§5.3, §9")
            return ("the declarer answers first", "§5.3")
        who = "the declarer answers with pass or retour" if self.answering or p == self.declarer else "say pass, schwacher or retour"
        return (f"this is the doubling round: {who}", "§5.3")

    def _explain_play(self, p: int, index: int) -> tuple[str, str]:
        bit = 1 << index
        hand = self.hands[p]
        if not hand & bit:
            return (f"{FACES[index].text} is not in your hand", "§6.1")
        if index == GSTIESS:
            if self.laid_out == GSTIESS:
                return ("the laid-out Gstieß is kept for the last trick", "§5.2")
            return ("the Gstieß may not be kept for the last trick (gstiess_last_trick_illegal): play it now", "§6.2")
        if index == PAGAT and self.laid_out == PAGAT and self.laid_out_by == p:
            return ("a laid-out Pagat may be played only when you have no other legal card", "§5.1, §6.3")
        if hand & (1 << GSTIESS) and self.options.gstiess_last_trick_illegal and hand.bit_count() == 2:
            return ("the Gstieß may not go to the last trick (gstiess_last_trick_illegal): play it now", "§6.2")
        order = play_order(self.options.pack_size)
        led = led_suit(order, self.trick_cards)
        if led == NO_SUIT:
            return ("not possible now", "§6.1")
        if hand & order.follow[led]:
            what = "trumps were led: play a trump" if led == TRUMP else "you must follow suit"
            return (what, "§6.1")
        return ("you cannot follow suit, so you must play a trump", "§6.1")

    # ------------------------------------------------------------ observation
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know [§4.1, §4.2, §6.4]."""
        return self._observe(self, seat)
