"""One Dobbm deal: bidding, the Dobb exchange, Schwacher and Retour, trick play, counting.

Phases (dossier sections in brackets):

* ``bidding`` — each active player speaks once, clockwise from the dealer's
  left: ``pass`` (weiter), ``bid dobbm``, ``bid solo``, or ``accept`` (gut)
  once somebody has bid [§3.1].  A Solo ends the bidding at once, since the
  later players could only accept.  All passing throws the cards in [§3.2].
  In the Mußrunde the dealer's left must bid and nobody else speaks [§3.4].
* ``exchange`` — Dobbm only: the declarer has taken the Dobb into their hand
  (12 cards) and discards four, one ``discard <card>`` at a time, keeping the
  Sow rule [§4.1].
* ``doubling`` — the defenders, clockwise from the declarer's left (or the
  dealer's left, option), ``accept`` or give a Schwacher (``double``); the
  first Schwacher ends their round and the declarer answers ``accept`` or
  ``retour``; after a declarer's Retour the defenders speak again from the
  declarer's left, each once, ``accept`` or ``retour``; and so on [§5,
  OPEN-POINTS].  An answer with nothing to choose (no Retour left under
  ``retour_limit``) is not asked.
* ``play`` — the declarer leads; follow suit, else trump, else anything; no
  duty to beat [§6].
* ``end`` — counted and scored [§7, §8].

Cards are physical-card bitmasks; with one copy per face the physical index
of a card is its face index (see :mod:`stich.games.dobbm.pack`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from stich.cards import iter_bits as bits
from stich.cards import memo_bits
from stich.core.dealing import next_seats, seats_in_turn
from stich.core.game import DealResult, Game, Observation, PhasedState
from stich.core.tricks import led_suit, legal_cards, played_mask, trick_winner
from stich.games.dobbm import actions as A
from stich.games.dobbm.options import DobbmOptions
from stich.games.dobbm.outcome import DealFacts
from stich.games.dobbm.pack import CONTRACTS, DOBB_SIZE, FACES, HEARTS, NON_SOW_HEARTS, ORDER, PLAIN_SOWS, SOWS, TRICKS, points_of
from stich.games.dobbm.scoring import all_pass_result, evaluate
from stich.games.tarock_family.doubling import PASS, RETOUR, SCHWACHER, SchwacherRetour
from stich.games.tarock_family.talon import LaysAway

BIDDING, EXCHANGE, DOUBLING, PLAY, END = range(5)
PHASE_NAMES = ("bidding", "exchange", "doubling", "play", "end")
_PHASE_RULE = ("§3.1", "§4.1", "§5", "§6", "§7")
BID_WORDS = {A.PASS: "pass", A.BID_DOBBM: "dobbm", A.BID_SOLO: "solo", A.ACCEPT: "accept"}
_CALL_CODES = {PASS: A.ACCEPT, SCHWACHER: A.DOUBLE, RETOUR: A.RETOUR}
"""The doubling calls (:mod:`stich.games.tarock_family.doubling`) as Dobbm's actions: gut is ``accept``, the Schwacher ``double``."""
_CODE_CALLS = {code: call for call, code in _CALL_CODES.items()}
assert A.PLAY == 0  # a card's play code is its index: legal_codes lists the playable cards as they are


def active_seats(num_seats: int, dealer: int) -> tuple[int, ...]:
    """The seats that get cards, clockwise from the dealer's left (the idle dealer left out at five) [§2]."""
    return seats_in_turn(num_seats, dealer, dealer_sits_out=num_seats == 5)


class DobbmState(SchwacherRetour, LaysAway, PhasedState):
    """A Dobbm deal in progress; see the module docstring for the phases."""

    ASK_FORCED = False  # an answer with nothing to choose is not asked [§5, retour_limit]

    PHASE_NAMES = PHASE_NAMES
    END_PHASE = END
    PLAY_PHASE = PLAY
    CARD_CODES = A.DISCARD
    MUTABLE = ("hands", "history", "bids", "calls", "speakers", "trick_seats", "trick_cards", "tricks")

    options: DobbmOptions
    """The game's options (``game.options``, typed)."""

    def __init__(
        self,
        game: Game,
        piles: list[int],
        dealer: int,
        seed: int | None,
        context: Mapping[str, Any],
        observe: Callable[[DobbmState, int], Observation],
    ) -> None:
        n = game.num_seats
        self.game = game
        self.options = game.options
        self._observe = observe
        """The game's information model (its ``observe`` module's function, handed in by the game)."""
        self.seed = seed
        self.dealer = dealer
        self.dealt = tuple(piles)
        self.hands = list(piles[:n])
        self.dobb = piles[n]
        """The Dobb as dealt (never changes)."""
        self.talon = piles[n]
        """Cards lying face down in the centre: the untouched Dobb (0 once a Dobbm declarer takes it)."""
        self.discards = 0
        """The Dobbm declarer's four discards, face down [§4.1]."""
        self.context = dict(context)
        """The session context this deal was created with (see Dobbm.new_state)."""
        self.active = active_seats(n, dealer)
        self.next_seat = next_seats(self.active, n)
        forced = context.get("forced_declarer")
        self.forced: int | None = int(forced) if forced is not None else None
        self.mussrunde = bool(context.get("mussrunde", self.forced is not None))
        self.history: list[tuple[int, int]] = []
        self.phase = BIDDING
        self.to_move = self.active[0]
        self.bid_pos = 0
        self.bids: dict[int, str] = {}
        self.high: str | None = None
        self.high_seat: int | None = None
        self.contract: str | None = None
        self.declarer: int | None = None
        self.doubles = 0
        """Schwacher plus Retours so far [§5.5]."""
        self.retour_limit = game.options.retour_limit
        self.calls: list[tuple[int, str]] = []
        """The doubling round in order: ``(seat, "accept" | "schwacher" | "retour")``."""
        self.speakers: list[int] = []
        """Defenders still to speak in the current doubling round."""
        self.answering = False
        self.thrown = False
        self.leader = self.active[0]
        self.trick_seats: list[int] = []
        self.trick_cards: list[int] = []
        self.tricks: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        self._result: DealResult | None = None

    # ------------------------------------------------------------------ basics
    @property
    def defenders(self) -> tuple[int, ...]:
        """The active players other than the declarer (empty before the bidding is settled)."""
        if self.declarer is None:
            return ()
        return tuple(s for s in self.active if s != self.declarer)

    # ------------------------------------------------------------ legal moves
    def legal_codes(self) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            return memo_bits(self.playable(self.to_move))
        if phase == BIDDING:
            return self._bid_codes()
        if phase == EXCHANGE:
            return [A.DISCARD + c for c in bits(self.discardable())]
        if phase == DOUBLING:
            return [_CALL_CODES[call] for call in self.doubling_calls()]
        return []

    def _bid_codes(self) -> list[int]:
        if self.forced is not None and not self.bids:
            return [A.BID_DOBBM, A.BID_SOLO]
        if self.high is None:
            return [A.PASS, A.BID_DOBBM, A.BID_SOLO]
        return [A.BID_SOLO, A.ACCEPT]

    def playable(self, seat: int) -> int:
        """Cards ``seat`` may play now: follow suit, else trump, else anything [§6]."""
        hand = self.hands[seat]
        trick = self.trick_cards
        return legal_cards(ORDER, hand, led_suit(ORDER, trick)) if trick else hand

    def _sow_masks(self) -> tuple[int, int]:
        """(Sows that need a covering heart, hearts that cover) under the ``sow_discard_rule`` [§4.1, §10.4]."""
        if self.options.sow_discard_rule == "any_heart_incl_sow":
            return PLAIN_SOWS, HEARTS
        return SOWS, NON_SOW_HEARTS

    def discardable(self) -> int:
        """Cards the declarer may discard next so that the four discards can still keep the Sow rule [§4.1].

        With ``s`` Sows and ``t`` covering hearts among the discards, the final
        four must have ``t >= s``; a card is offered when, after it, the
        shortfall ``s - t`` can still be made up by the discards left and the
        covering hearts still in hand.
        """
        sows, cover = self._sow_masks()
        hand = self.hands[self.to_move]
        done = self.discards
        left = DOBB_SIZE - done.bit_count() - 1
        out = 0
        for c in bits(hand):
            bit = 1 << c
            after = done | bit
            short = (after & sows).bit_count() - (after & cover).bit_count()
            if short <= min(left, (hand & ~bit & cover).bit_count()):
                out |= bit
        return out

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
            if self._lay_away(p, code - A.DISCARD) == DOBB_SIZE:
                self._start_doubling()
        elif phase == DOUBLING:
            self._double(p, code)

    def _bid(self, p: int, code: int) -> None:
        self.bids[p] = BID_WORDS[code]
        if code in (A.BID_DOBBM, A.BID_SOLO):
            self.high = A.BID_NAME[code]
            self.high_seat = p
        self.bid_pos += 1
        forced_only = self.forced is not None and not self.options.mussrunde_allow_overbid
        if self.bid_pos == len(self.active) or self.high == "solo" or forced_only:
            self._settle_bidding()
        else:
            self.to_move = self.active[self.bid_pos]

    def _settle_bidding(self) -> None:
        if self.high is None or self.high_seat is None:
            self.thrown = True  # all passed [§3.2]
            self._finish()
            return
        self.contract = self.high
        self.declarer = self.high_seat
        if CONTRACTS[self.contract].exchanges:
            # The declarer picks up the Dobb unseen by the others [§4.1, §4.2].
            self.hands[self.declarer] |= self.talon
            self.talon = 0
            self.phase = EXCHANGE
            self.to_move = self.declarer
        else:
            self._start_doubling()  # a Solo declarer "lies" straight after the bidding [§5.1]

    def _defenders_after(self, seat: int) -> list[int]:
        """The defenders clockwise from ``seat``'s left."""
        n = self.game.num_seats
        order = [(seat + i) % n for i in range(1, n + 1)]
        return [s for s in order if s in self.active and s != self.declarer]

    def _start_doubling(self) -> None:
        """The declarer says "ich liege"; the defenders may give a Schwacher [§5.1, §5.2, §10.1]."""
        assert self.declarer is not None
        self.phase = DOUBLING
        first = self.declarer if self.options.doubling_first_speaker == "declarer_left" else self.dealer
        self._open_doubling(self._defenders_after(first))

    def _double(self, p: int, code: int) -> None:
        """A call of the doubling round, noted in :attr:`calls` [§5.2-§5.4, OPEN-POINTS]."""
        call = _CODE_CALLS[code]
        self.calls.append((p, "accept" if call == PASS else call))
        self._say(call)

    def _doubling_declarer(self) -> int:
        assert self.declarer is not None
        return self.declarer

    def _defenders_in_turn(self) -> list[int]:
        return self._defenders_after(self._doubling_declarer())  # [§5.4, OPEN-POINTS]

    def _start_play(self) -> None:
        assert self.declarer is not None
        self.phase = PLAY
        self.speakers = []
        self.answering = False
        self.leader = self.declarer  # the declarer leads to the first trick [§6]
        self.to_move = self.declarer

    def _play(self, p: int, card: int) -> None:
        self.hands[p] ^= 1 << card
        trick = self.trick_cards
        trick.append(card)
        self.trick_seats.append(p)
        if len(trick) < len(self.active):
            self.to_move = self.next_seat[p]
            return
        winner = self.trick_seats[trick_winner(ORDER, trick)]
        self.tricks.append((tuple(self.trick_seats), tuple(trick), winner))
        self.trick_seats = []
        self.trick_cards = []
        if len(self.tricks) == TRICKS:
            self._finish()
            return
        self.leader = winner
        self.to_move = winner

    # ------------------------------------------------------------- evaluation
    @property
    def laid_away(self) -> int:
        """The cards that count for the declarer besides the tricks: the discards (Dobbm) or the Dobb (Solo) [§7.1]."""
        if self.contract is None:
            return 0
        return self.discards if CONTRACTS[self.contract].exchanges else self.dobb

    def facts(self) -> DealFacts:
        """The facts evaluation needs (only for a played-out deal)."""
        assert self.declarer is not None and self.contract is not None
        declarer = self.declarer
        won_tricks = 0
        won_mask = 0  # one copy of each card: the tricks' points add up as those of all their cards together
        for _seats, cards, winner in self.tricks:
            if winner == declarer:
                won_tricks += 1
                for card in cards:
                    won_mask |= 1 << card
        n = self.game.num_seats
        return DealFacts(
            num_seats=n,
            declarer=self.declarer,
            opponents=tuple(s for s in range(n) if s != self.declarer),
            contract=self.contract,
            trick_points=points_of(won_mask),
            talon_points=points_of(self.laid_away),
            declarer_tricks=won_tricks,
            doubles=self.doubles,
            idle=self.dealer if n == 5 else None,
            mussrunde=self.mussrunde,
        )

    def _evaluate(self) -> DealResult:
        if self.thrown:
            return all_pass_result(self.game.num_seats, self.dealer, self.options)
        return evaluate(self.facts(), self.options)

    # ------------------------------------------------------- card accounting
    def played_mask(self) -> int:
        """Cards played to tricks so far (complete and current)."""
        return played_mask(self.tricks, self.trick_cards)

    def card_places(self) -> dict[str, int]:
        places = {f"hand {seat}": self.hands[seat] for seat in range(self.game.num_seats)}
        places["dobb"] = self.talon
        places["discards"] = self.discards
        places["played"] = self.played_mask()
        return places

    def knowable_cards(self, seat: int) -> int:
        """Own hand and the cards played; a Dobbm declarer the Dobb and their discards [§4.2];
        everybody the discards or the Dobb once the deal is counted [§7.1]."""
        known = self.hands[seat] | self.played_mask()
        if seat == self.declarer and self.contract is not None and CONTRACTS[self.contract].exchanges and self.phase >= EXCHANGE:
            known |= self.dobb | self.discards
        if self.phase == END and not self.thrown:
            known |= self.laid_away
        return known

    # ---------------------------------------------------------- explanations
    def _explain(self, code: int) -> tuple[str, str]:
        """Why ``code`` is illegal now: a message and the dossier rule."""
        phase = self.phase
        p = self.to_move
        if A.PLAY <= code < A.DISCARD:
            card = FACES[code - A.PLAY]
            if phase != PLAY:
                return (f"cards are played only once the game is settled, not during the {PHASE_NAMES[phase]}", "§6")
            if not self.hands[p] >> (code - A.PLAY) & 1:
                return (f"{card.text} is not in your hand", "§6")
            led = led_suit(ORDER, self.trick_cards)
            if self.hands[p] & ORDER.follow[led]:
                return ("you must follow suit (Farbzwang; hearts are trumps)", "§6")
            return ("you cannot follow suit and must play a heart (Trumpfzwang)", "§6")
        if A.DISCARD <= code < A.PASS:
            card = FACES[code - A.DISCARD]
            if phase != EXCHANGE:
                return ("only the declarer of a Dobbm discards, after taking up the Dobb", "§4.1")
            if not self.hands[p] >> (code - A.DISCARD) & 1:
                return (f"{card.text} is not in your hand", "§4.1")
            if self.options.sow_discard_rule == "any_heart_incl_sow":
                return ("a Sow may be discarded only together with a heart, one heart per Sow", "§4.1, §10.4")
            return ("a Sow may be discarded only together with a heart that is no Sow, one per Sow (the heart Sow too)", "§4.1, §10.4")
        if phase == BIDDING:
            return self._explain_bid(code)
        if phase == DOUBLING:
            return self._explain_double(code)
        if phase == EXCHANGE:
            return ("discard four cards first (the declarer has taken the Dobb)", "§4.1")
        return (f"not possible now: play a card ({PHASE_NAMES[phase]})", _PHASE_RULE[phase])

    def _explain_bid(self, code: int) -> tuple[str, str]:
        if self.forced is not None and not self.bids:
            return ("in the Mußrunde the player on the dealer's left must be declarer: bid dobbm or bid solo", "§3.4")
        if code == A.PASS:
            return ("a bid has been made: accept it (gut) or bid solo", "§3.1")
        if code == A.ACCEPT:
            return ("nobody has bid yet: pass (weiter), bid dobbm or bid solo", "§3.1")
        if code == A.BID_DOBBM:
            return ("a Dobbm has been bid; a second Dobbm is not possible: bid solo or accept", "§3.1")
        return ("during the bidding say pass, accept, bid dobbm or bid solo", "§3.1")

    def _explain_double(self, code: int) -> tuple[str, str]:
        declarer = self.to_move == self.declarer
        if code == A.DOUBLE:
            if declarer:
                return ("only a defender gives a Schwacher; answer it with accept or retour", "§5.3")
            return ("the Schwacher has been given; answer the Retour with accept or retour", "§5.4")
        if code == A.RETOUR:
            return ("a Retour answers a Schwacher: accept (gut) or give a Schwacher (double)", "§5.2")
        return ("in the doubling round say accept, double (Schwacher) or retour", "§5")

    # ------------------------------------------------------------ observation
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know [§4.2, §6]."""
        return self._observe(self, seat)
