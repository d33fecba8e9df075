"""One Dappen deal: the Solo round, the Dapp round, the Dapp exchange, Ulti, trick play, counting.

Phases (dossier sections in brackets):

* ``solo`` — the Solo question from the dealer's right: ``pass`` ("Fort
  Solo!") or ``bid solo``; the first Solo ends the bidding [§3.1];
* ``solo_stretch`` — Buchenbach: after a Solo the later players may ``bid
  strecken`` and take the Dapp; the first stretch ends the bidding [§3.4];
* ``dapp`` — the Dapp round from the dealer's right: ``pass`` or ``bid dapp``;
  once somebody has dapped, the later players may pass or overcall with the
  next bid of the ladder (``strecken``, in Breitnau then ``stupfen``; in
  Buchenbach ``ein_hannes``, ``zwei_hannes``, ``geiss``) [§3.2-§3.4].  Under
  rules (a) and (b) a player who must dapp is not offered ``pass`` [§3.2.5];
* ``answer`` — the overcalled player says ``hold`` ("selber") or ``pass``
  (gives the game up); a Hannes may be held only with the kings it names
  [§3.2.3, §3.3, §3.4].  The holder is asked whatever their hand (``pass`` may
  be the only choice), so that the turn order does not show whether they hold
  the kings (decision 0052); only a Geiß, which nobody can hold, is not asked;
* ``raise`` — after a hold, the overcaller may bid the next step or ``pass``
  [§3.3, §3.4, OPEN-POINTS], asked whenever the ladder has a next step, able to
  bid it or not (decision 0052).  With strecken ladders the first overcall ends
  the round for everyone else (at most two bidders); in Buchenbach the turn
  moves on after the exchange [§3.4];
* ``discard`` — the lone player has taken the Dapp and lays cards away, one
  ``discard`` at a time, never a five-pointer [§4];
* ``ulti`` — the lone player may lay out trumps 3, 2, 1 (``announce ulti3``...)
  or ``pass`` to begin play [§5.1].  Asked in every game that has an Ulti,
  with ``pass`` always offered, until a pass or every Ulti is laid out, so
  that the phase does not tell the others whether the lone player holds an
  Ulti trump (decision 0040);
* ``play`` — seven tricks (six with seven players); the lone player leads
  [§6.1]; Gstiesieren [§6.2]; Buchenbach's first three tricks [§6.3];
* ``end`` — counted and scored [§7, §8], thrown in (everybody passed), a
  seven-five-pointer show [§4], or a rule-(a) penalty [§3.2.5].

A card's index in the pack is its face index (the Cego pack has one copy of
each card), so hands are plain bitmasks over :data:`~stich.games.dappen.pack.FACES`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from stich.cards import iter_bits, mask_value, memo_bits, value_groups
from stich.core.dealing import next_seats, seats_in_turn
from stich.core.game import DealResult, Game, Observation, PhasedState
from stich.core.tricks import NO_SUIT, TRUMP, led_suit, legal_cards, played_mask, trick_winner
from stich.games.dappen import actions as A
from stich.games.dappen.options import DappenOptions
from stich.games.dappen.outcome import DealFacts
from stich.games.dappen.pack import (
    CONTRACTS,
    DEAL_TABLES,
    EMPTY_SUIT_CARDS,
    FACES,
    FIVES,
    FULL_MASK,
    GEISS_BIT,
    GSTIESS,
    GSTIESS_BIT,
    KINGS,
    MUND_BIT,
    N_FACES,
    ONE_POINT_TRUMPS,
    ORDER,
    POINTS,
    SUIT_CARDS,
    TRUMPS,
    ULTI_CARDS,
    hand_and_dapp_size,
    has_trump_stop,
    meets_requirement,
)
from stich.games.dappen.scoring import evaluate, penalty_result, thrown_result
from stich.games.tarock_family.talon import LaysAway

SOLO, SOLO_STRETCH, DAPP, ANSWER, RAISE, DISCARD, ULTI, PLAY, END = range(9)
PHASE_NAMES = ("solo", "solo_stretch", "dapp", "answer", "raise", "discard", "ulti", "play", "end")
FIXED_TRICK_CARDS = (GSTIESS_BIT, MUND_BIT, GEISS_BIT)
"""Buchenbach: the five-point trump bound to tricks 1, 2, 3 [§6.3]."""
POINT_GROUPS = value_groups(POINTS)
"""Face values grouped for :func:`~stich.cards.mask_value` (the face-value sum of a pile)."""
assert A.PLAY == 0  # a card's play code is its index: legal_codes lists the playable cards as they are


def codes_of(mask: int, base: int = 0) -> list[int]:
    """Card indices of a mask plus ``base``, ascending."""
    return [base + i for i in iter_bits(mask)]


def top_card(mask: int) -> int:
    """The single highest-indexed card of a non-empty mask (the highest trump among trumps)."""
    return 1 << (mask.bit_length() - 1)


def active_seats(num_seats: int, dealer: int, options: DappenOptions) -> tuple[int, ...]:
    """Seats that take part, in the order of play from the dealer's right (the dealer last, or out) [§2]."""
    return seats_in_turn(num_seats, dealer, dealer_sits_out=options.idle_dealer)


class DappenState(LaysAway, PhasedState):
    """A Dappen deal in progress; see the module docstring for the phases."""

    PHASE_NAMES = PHASE_NAMES
    END_PHASE = END
    PLAY_PHASE = PLAY
    CARD_CODES = A.DISCARD
    MUTABLE = ("hands", "history", "bidders", "ulti", "trick_seats", "trick_cards", "tricks")

    options: DappenOptions
    """The game's options (``game.options``, typed)."""

    def __init__(
        self,
        game: Game,
        piles: list[int],
        dealer: int,
        seed: int | None,
        context: Mapping[str, Any],
        observe: Callable[[DappenState, int], Observation],
    ) -> None:
        opts: DappenOptions = game.options
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
        self.dapp = piles[n]
        """Talon cards still face down on the table (the whole Dapp until it is taken; in a Solo to the end)."""
        self.discards = 0
        self.active = active_seats(n, dealer, opts)
        self.idle: int | None = dealer if opts.idle_dealer else None
        self.next_seat = next_seats(self.active, n)
        self.history: list[tuple[int, int]] = []
        self.phase = SOLO
        self.pos = 0
        """Index in ``active`` of the player to speak in the current bidding round."""
        self.to_move = self.active[0]
        # bidding
        self.soloist: int | None = None
        self.holder: int | None = None
        self.challenger: int | None = None
        self.level = 0
        self.bidders: list[int] = []
        self.lone: int | None = None
        self.contract: str | None = None
        # outcomes without play
        self.thrown = False
        self.penalty: int | None = None
        self.seven_fives = False
        # ulti
        self.ulti: list[int] = []
        self.ulti_mask = 0
        # play
        self.n_tricks, self.dapp_size = hand_and_dapp_size(DEAL_TABLES[(opts.deal, opts.active_players)])
        """Cards per hand and in the Dapp (``dapp_first`` reorders the packets, the sizes stay)."""
        self.leader = self.active[0]
        self.trick_seats: list[int] = []
        self.trick_cards: list[int] = []
        self.tricks: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        self.kept_back: int | None = None
        """The opponent who kept the Gstieß back (gstiesiert), once they have [§6.2]."""
        self._result: DealResult | None = None
        if not opts.solo:
            self._start_dapp_round()

    # ------------------------------------------------------------------ basics
    @property
    def ladder(self) -> tuple[str, ...]:
        """The Dapp round's bids, lowest first."""
        return self.options.ladder

    # ------------------------------------------------------------ legal moves
    def legal_codes(self) -> list[int]:
        phase = self.phase
        p = self.to_move
        if phase == PLAY:
            return memo_bits(self.playable(p))
        if phase == SOLO:
            return [A.PASS, A.BID_CODE["solo"]]
        if phase == SOLO_STRETCH:
            return [A.PASS, A.BID_CODE["strecken"]]
        if phase == DAPP:
            return self._dapp_codes(p)
        if phase == ANSWER:
            return [A.PASS, A.HOLD] if self._may_hold() else [A.PASS]
        if phase == RAISE:
            return [A.PASS, A.BID_CODE[self.ladder[self.level + 1]]] if self._may_raise() else [A.PASS]
        if phase == DISCARD:
            return codes_of(self._discardable(), A.DISCARD)
        if phase == ULTI:
            return sorted([A.PASS, *(A.ULTI_CODE[k] for k in self._ulti_available())])
        return []

    # ---------------------------------------------------------------- bidding
    def must_dapp(self, seat: int) -> str | None:
        """Why ``seat`` must dapp now (``"a"`` or ``"b"``), or ``None`` [§3.2.5]."""
        opts = self.options
        if self.phase != DAPP or self.holder is not None or seat != self.to_move:
            return None
        if opts.compulsory_b and len(self.active) >= 2 and seat == self.active[-2]:
            return "b"
        if opts.compulsory_a and has_trump_stop(self.hands[seat]):
            return "a"
        return None

    def _dapp_codes(self, p: int) -> list[int]:
        if self.holder is None:
            reason = self.must_dapp(p)
            blocked = reason == "b" or (reason == "a" and self.options.compulsory_enforcement == "engine_blocks_pass")
            return [A.BID_CODE["dapp"]] if blocked else [A.PASS, A.BID_CODE["dapp"]]
        codes = [A.PASS]
        nxt = self._next_bid()
        if nxt is not None and meets_requirement(CONTRACTS[nxt], self.hands[p]):
            codes.append(A.BID_CODE[nxt])
        return codes

    def _next_bid(self) -> str | None:
        """The next bid of the ladder above the current one, if any."""
        return self.ladder[self.level + 1] if self.level + 1 < len(self.ladder) else None

    def _may_hold(self) -> bool:
        assert self.holder is not None
        return meets_requirement(CONTRACTS[self.ladder[self.level]], self.hands[self.holder])

    def _may_raise(self) -> bool:
        assert self.challenger is not None
        nxt = self._next_bid()
        return nxt is not None and meets_requirement(CONTRACTS[nxt], self.hands[self.challenger])

    def _start_dapp_round(self) -> None:
        self.phase = DAPP
        self.pos = 0
        self.to_move = self.active[0]

    def _next_speaker(self) -> None:
        """Move the bidding round on by one player, or close it after the last one."""
        self.pos += 1
        if self.pos >= len(self.active):
            self._close_dapp_round()
        else:
            self.to_move = self.active[self.pos]

    def _close_dapp_round(self) -> None:
        if self.holder is None:
            self.thrown = True  # everybody passed: "das Spiel kommt ins Loch" [§3.3, §10.12]
            self._finish()
            return
        self._settle(self.holder, self.ladder[self.level])

    def _overcall(self, p: int) -> None:
        self.level += 1
        self.challenger = p
        if p not in self.bidders:
            self.bidders.append(p)
        self._ask_holder()

    def _ask_holder(self) -> None:
        """The overcalled holder answers, ``hold`` or ``pass``, whatever their hand (decision 0052).

        Only a Geiß is not asked about: nobody can hold it, since its bidder
        holds the one trump 1 [§3.4], and everybody knows that.  Any other
        overcall is answered even by a holder who lacks the kings it names
        (``pass`` is then the only choice), so that the others do not learn
        from the turn order whether the holder has them.
        """
        assert self.holder is not None
        if CONTRACTS[self.ladder[self.level]].needs_geiss:
            self._give_way()
        else:
            self.phase = ANSWER
            self.to_move = self.holder

    def _give_way(self) -> None:
        """The holder passes: the overcaller plays (unless somebody else overcalls later, Buchenbach)."""
        self.holder = self.challenger
        self._exchange_over()

    def _after_hold(self) -> None:
        """After a hold the overcaller is asked whenever the ladder has a next step, able to bid it or not (decision 0052)."""
        if self._next_bid() is not None:
            self.phase = RAISE
            assert self.challenger is not None
            self.to_move = self.challenger
        else:
            self._exchange_over()

    def _exchange_over(self) -> None:
        """An overcall is settled: with at most two bidders bidding ends; in Buchenbach the turn moves on [§3.2, §3.4]."""
        self.challenger = None
        if self.options.raise_levels != "hannes_ladder" or self._next_bid() is None:
            self._close_dapp_round()
            return
        self.phase = DAPP
        self._next_speaker()

    def _settle(self, lone: int, contract: str) -> None:
        """The lone player and the game are settled: take the Dapp, or go straight on in a Solo [§3.1, §4]."""
        opts = self.options
        self.lone = lone
        self.contract = contract
        if CONTRACTS[contract].takes_dapp:
            self.hands[lone] |= self.dapp
            self.dapp = 0
        if opts.seven_fives_marsch and self.hands[lone] & FIVES == FIVES:
            self.seven_fives = True  # shown: no play, a Marsch won by the lone player [§4]
            self._finish()
            return
        if CONTRACTS[contract].takes_dapp:
            self.phase = DISCARD
            self.to_move = lone
        else:
            self._start_ulti()

    # --------------------------------------------------------------- exchange
    def _discardable(self) -> int:
        """Cards the lone player may lay away now [§4, §8.4]."""
        opts = self.options
        assert self.lone is not None
        hand = self.hands[self.lone]
        rule = opts.discard_rule
        if rule == "no_fives":
            protected = FIVES
        elif rule == "honneurs_kings":
            # Honneurs are the kings; five-point trumps are never laid away [§10.14].  Seven players
            # lift the honneurs restriction only [§8.4].
            held = (hand | self.discards) & KINGS
            protected = (FIVES & ~KINGS) | (0 if held == KINGS or len(self.active) == 7 else KINGS)
        elif len(self.active) == 7:
            protected = 0  # honneurs = all five-pointers; seven players: no restriction [§8.4]
        else:
            protected = 0 if ((hand | self.discards) & FIVES).bit_count() >= 4 else FIVES
        return hand & ~protected or hand

    # ------------------------------------------------------------------- ulti
    def _ulti_numbers(self) -> tuple[int, ...]:
        opts = self.options
        if opts.ulti == "none" or (opts.ulti_solo_only and self.contract != "solo"):
            return ()
        return (3, 2, 1) if opts.ulti == "1_2_3" else (1,)

    def _ulti_available(self) -> list[int]:
        assert self.lone is not None
        hand = self.hands[self.lone]
        return [k for k in self._ulti_numbers() if hand >> ULTI_CARDS[k] & 1 and k not in self.ulti]

    def _ulti_open(self) -> bool:
        """Whether some Ulti of this game is not laid out yet: the question is still asked [§5.1, decision 0040].

        It depends only on the options, the contract and what was laid out,
        never on whether the lone player holds the card, so that the phase
        shows nothing of the lone player's hand to the others.
        """
        return any(k not in self.ulti for k in self._ulti_numbers())

    def _start_ulti(self) -> None:
        if self._ulti_open():
            self.phase = ULTI
            assert self.lone is not None
            self.to_move = self.lone
        else:
            self._start_play()

    def ulti_tricks(self) -> dict[int, int]:
        """Laid-out Ulti trump -> the trick (0-based) it is bound to: the last ones, highest first [§5.1]."""
        ordered = sorted(self.ulti, reverse=True)
        first = self.n_tricks - len(ordered)
        return {k: first + i for i, k in enumerate(ordered)}

    # ------------------------------------------------------------------- play
    def _start_play(self) -> None:
        assert self.lone is not None
        self.phase = PLAY
        self.leader = self.lone
        self.to_move = self.lone

    def _base_playable(self, p: int) -> int:
        """Cards ``p`` may play by follow suit / must trump, a kept-back Gstieß set aside [§6.1, §6.2]."""
        hand = self.hands[p]
        if self.kept_back == p:
            rest = hand & ~GSTIESS_BIT
            if not rest:
                return hand  # the last trick: the kept-back Gstieß is shown [§6.2]
            hand = rest
        trick = self.trick_cards
        return legal_cards(ORDER, hand, led_suit(ORDER, trick)) if trick else hand

    def may_keep_back(self, p: int) -> bool:
        """Gstiesieren: ``p`` is an opponent whose only trump is the Gstieß, and a trump is required [§6.2]."""
        if not self.options.gstiesieren or p == self.lone or self.kept_back is not None or not self.trick_cards:
            return False
        hand = self.hands[p]
        return hand != GSTIESS_BIT and self._base_playable(p) == GSTIESS_BIT

    def playable(self, p: int) -> int:
        """Cards ``p`` may play now."""
        hand = self.hands[p]
        if self.options.first_three_tricks and len(self.tricks) < 3:
            return self._fixed_trick_playable(hand, len(self.tricks))
        legal = self._base_playable(p)
        if p == self.lone and self.ulti_mask & hand:
            laid = self.ulti_mask & hand
            free = legal & ~laid
            # laid-out Ulti cards only when nothing else will do, the highest first [§5.1]
            return free if free else top_card(legal & laid)
        if legal == GSTIESS_BIT and self.may_keep_back(p):  # keeping back needs the Gstieß to be the only legal card
            return hand
        return legal

    @staticmethod
    def _fixed_trick_playable(hand: int, number: int) -> int:
        """Buchenbach's tricks 1-3: the bound five-point trump, else a trump allowed in this trick, else an empty card [§6.3]."""
        bound = FIXED_TRICK_CARDS[number]
        if hand & bound:
            return bound
        # tricks 1 and 2: a 1-point trump (the Mund and the Geiß wait for their tricks); trick 3: any trump
        allowed = hand & (ONE_POINT_TRUMPS if number < 2 else TRUMPS)
        if allowed:
            return allowed
        return hand & EMPTY_SUIT_CARDS or hand & SUIT_CARDS or hand

    def _play(self, p: int, card: int) -> None:
        bit = 1 << card
        if card != GSTIESS and self.hands[p] & GSTIESS_BIT and self.may_keep_back(p):
            self.kept_back = p  # the Gstieß loses its power and waits for the last trick [§6.2]
        self.hands[p] ^= bit
        self.trick_cards.append(card)
        self.trick_seats.append(p)
        if len(self.trick_cards) < len(self.active):
            self.to_move = self.next_seat[p]
            return
        winner = self.trick_seats[self._winning_position()]
        self.tricks.append((tuple(self.trick_seats), tuple(self.trick_cards), winner))
        self.trick_seats = []
        self.trick_cards = []
        if len(self.tricks) == self.n_tricks:
            self._finish()
            return
        leader = winner
        if len(self.tricks) == self.n_tricks - 1 and self.kept_back == winner:
            leader = self.next_seat[winner]  # the keeper does not lead the last trick; they play last [§6.2, OPEN-POINTS]
        self.leader = leader
        self.to_move = leader

    def _winning_position(self) -> int:
        """Highest trump, else the highest card of the suit led; a shown kept-back Gstieß takes no part [§6.1, §6.2]."""
        cards = self.trick_cards
        if self.kept_back is None or GSTIESS not in cards:
            return trick_winner(ORDER, cards)
        skip = cards.index(GSTIESS)
        led = led_suit(ORDER, [c for i, c in enumerate(cards) if i != skip])
        best, best_key = 0, -2
        for pos, card in enumerate(cards):
            if pos == skip:
                continue
            key = ORDER.key(card, led)
            if key > best_key:
                best, best_key = pos, key
        return best

    # ----------------------------------------------------------------- apply
    def _apply_code(self, code: int) -> None:
        p = self.to_move
        self.history.append((p, code))
        phase = self.phase
        if phase == PLAY:
            self._play(p, code)
        elif phase == SOLO:
            if code == A.PASS:
                self.pos += 1
                if self.pos >= len(self.active):
                    self._start_dapp_round()
                else:
                    self.to_move = self.active[self.pos]
            else:
                self.soloist = p
                self.bidders = [p]
                if self.options.solo_stretch and self.pos + 1 < len(self.active):
                    self.phase = SOLO_STRETCH
                    self.pos += 1
                    self.to_move = self.active[self.pos]
                else:
                    self._settle(p, "solo")
        elif phase == SOLO_STRETCH:
            if code == A.PASS:
                self.pos += 1
                if self.pos >= len(self.active):
                    assert self.soloist is not None
                    self._settle(self.soloist, "solo")
                else:
                    self.to_move = self.active[self.pos]
            else:
                self.bidders.append(p)
                self._settle(p, "solo_strecken")  # the stretch ends the bidding at once [§3.4]
        elif phase == DAPP:
            self._dapp_action(p, code)
        elif phase == ANSWER:
            if code == A.HOLD:
                self._after_hold()
            else:
                self._give_way()
        elif phase == RAISE:
            if code == A.PASS:
                self._exchange_over()
            else:
                self._overcall(p)
        elif phase == DISCARD:
            if self._lay_away(p, code - A.DISCARD) == self.dapp_size:
                self._start_ulti()
        elif phase == ULTI:
            if code == A.PASS:
                self._start_play()
            else:
                k = A.CODE_ULTI[code]
                self.ulti.append(k)
                self.ulti_mask |= 1 << ULTI_CARDS[k]
                if not self._ulti_open():
                    self._start_play()

    def _dapp_action(self, p: int, code: int) -> None:
        if code == A.PASS:
            if self.must_dapp(p) == "a":
                self.penalty = p  # honour-system table: a wrong pass ends the deal [§3.2.5, §10.3]
                self._finish()
                return
            self._next_speaker()
        elif code == A.BID_CODE["dapp"]:
            self.holder = p
            self.level = 0
            self.bidders.append(p)
            if self._next_bid() is None:
                self._close_dapp_round()  # nothing can overcall a dapp (Jeu du Tarot): it ends the bidding
            else:
                self._next_speaker()
        else:
            self._overcall(p)

    # ------------------------------------------------------------- evaluation
    def talon_pile(self) -> int:
        """The lone player's talon cards: the discards, or the untouched Dapp in a Solo [§4]."""
        return self.discards | self.dapp

    def piles(self) -> tuple[int, int, int | None]:
        """The lone player's and the opponents' card piles after the ownership rules of §7.1, and the card handed over.

        A lone player without a trick loses the Dapp to the opponents; a
        kept-back Gstieß goes to the opponents' pile, or to a lone player who
        took every trick; when the lone player wins the last trick past a
        kept-back Gstieß the opponents hand over their lowest card (a 1-point
        card if they have one) [§6.2, OPEN-POINTS].
        """
        lone_mask = 0
        opp_mask = 0
        for _seats, cards, winner in self.tricks:
            mask = 0
            for c in cards:
                mask |= 1 << c
            if winner == self.lone:
                lone_mask |= mask
            else:
                opp_mask |= mask
        if not lone_mask:
            return 0, FULL_MASK, None
        lone_mask |= self.talon_pile()
        handed: int | None = None
        if self.kept_back is not None:
            last_winner = self.tricks[-1][2]
            lone_mask &= ~GSTIESS_BIT
            if opp_mask & ~GSTIESS_BIT == 0:
                lone_mask |= GSTIESS_BIT
                opp_mask = 0
            else:
                opp_mask |= GSTIESS_BIT
                if last_winner == self.lone:
                    candidates = [c for c in iter_bits(opp_mask) if c != GSTIESS]
                    handed = min(candidates, key=lambda c: (POINTS[c], c))
                    opp_mask &= ~(1 << handed)
                    lone_mask |= 1 << handed
        return lone_mask, opp_mask, handed

    def facts(self) -> DealFacts:
        """The facts evaluation needs (a played deal or a seven-five-pointer show)."""
        assert self.lone is not None and self.contract is not None
        opponents = tuple(s for s in self.active if s != self.lone)
        if self.seven_fives:
            return DealFacts(
                num_seats=self.game.num_seats,
                lone=self.lone,
                opponents=opponents,
                contract=self.contract,
                bidders=tuple(self.bidders),
                lone_face=0,
                lone_cards=0,
                opp_face=0,
                opp_cards=0,
                lone_tricks=0,
                opp_tricks=0,
                idle=self.idle,
                seven_fives=True,
            )
        lone_mask, opp_mask, _handed = self.piles()
        lone_tricks = sum(1 for *_rest, w in self.tricks if w == self.lone)
        bound = self.ulti_tricks()
        ulti = []
        for k in self.ulti:
            _seats, cards, winner = self.tricks[bound[k]]
            ulti.append((k, ULTI_CARDS[k] in cards and winner == self.lone))
        return DealFacts(
            num_seats=self.game.num_seats,
            lone=self.lone,
            opponents=opponents,
            contract=self.contract,
            bidders=tuple(self.bidders),
            lone_face=mask_value(lone_mask, POINT_GROUPS),
            lone_cards=lone_mask.bit_count(),
            opp_face=mask_value(opp_mask, POINT_GROUPS),
            opp_cards=opp_mask.bit_count(),
            lone_tricks=lone_tricks,
            opp_tricks=len(self.tricks) - lone_tricks,
            idle=self.idle,
            gstiesierer=self.kept_back,
            ulti=tuple(ulti),
        )

    def _evaluate(self) -> DealResult:
        n = self.game.num_seats
        if self.thrown:
            return thrown_result(n)
        if self.penalty is not None:
            others = tuple(s for s in self.active if s != self.penalty)
            return penalty_result(n, self.penalty, others, self.options)
        return evaluate(self.facts(), self.options)

    # ------------------------------------------------------- card accounting
    def played_mask(self) -> int:
        """Cards played to tricks so far (complete and current)."""
        return played_mask(self.tricks, self.trick_cards)

    def card_places(self) -> dict[str, int]:
        places = {f"hand {seat}": self.hands[seat] for seat in range(self.game.num_seats)}
        places["dapp"] = self.dapp
        places["discards"] = self.discards
        places["played"] = self.played_mask()
        return places

    def shown_cards(self) -> int:
        """Cards the whole table has been shown outside the tricks [§4, §5.1, §3.2.5, §7]."""
        shown = self.ulti_mask
        if self.seven_fives:
            shown |= FIVES
        if self.penalty is not None:
            shown |= self.hands[self.penalty]
        if self.phase == END and self.lone is not None and not self.seven_fives:
            shown |= self.talon_pile()  # counted after the play
        return shown

    def knowable_cards(self, seat: int) -> int:
        known = self.hands[seat] | self.played_mask() | self.shown_cards()
        if seat == self.lone:
            known |= self.discards
        return known

    # ---------------------------------------------------------- explanations
    def _explain(self, code: int) -> tuple[str, str]:
        """Why ``code`` is illegal now: a message and the dossier rule."""
        phase = self.phase
        p = self.to_move
        if phase == PLAY and code < N_FACES:
            return self._explain_play(p, code)
        if code < N_FACES:
            return (f"cards are played only once the game is settled, not during {PHASE_NAMES[phase]}", "§6.1")
        if phase == DISCARD and A.DISCARD <= code < A.PASS:
            card = code - A.DISCARD
            if not self.hands[p] >> card & 1:
                return (f"{FACES[card].text} is not in your hand", "§4")
            if self.options.discard_rule == "no_fives":
                return ("five-pointers (kings, Gstieß, Mund, Geiß) may not be laid away", "§4")
            if self.options.discard_rule == "honneurs_kings" and (FIVES & ~KINGS) >> card & 1:
                return ("five-point trumps (Gstieß, Mund, Geiß) may never be laid away", "§8.4, §10.14")
            return ("honneurs may not be laid away", "§8.4")
        if phase == DAPP and code == A.PASS:
            reason = self.must_dapp(p)
            if reason == "a":
                return ("you hold a trump stop (T+H>22) and must dapp while nobody has", "§3.2.5 (a)")
            return ("as second-to-last player after all passed you must dapp", "§3.2.5 (b)")
        if phase == DAPP and A.BID <= code < A.ULTI:
            name = A.BID_NAMES[code - A.BID]
            if self.holder is None:
                return ("nobody has dapped yet: pass or bid dapp", "§3.2")
            nxt = self._next_bid()
            if nxt is None:
                return ("nothing is higher than the current bid", "§3.3")
            if name == nxt:
                contract = CONTRACTS[nxt]
                return (f"{contract.title} needs {self._requirement_text(nxt)}", "§3.4")
            return (f"the only overcall now is {nxt} (no jump bids)", "§3.2, §3.4")
        if phase == RAISE and code == A.BID_CODE.get(self._next_bid() or "", -1):
            nxt = self.ladder[self.level + 1]
            return (f"{CONTRACTS[nxt].title} needs {self._requirement_text(nxt)}", "§3.4")
        if phase == ANSWER and code == A.HOLD:
            return (f"you may hold {self.ladder[self.level]} only with {self._requirement_text(self.ladder[self.level])}", "§3.4")
        if phase == ULTI and code >= A.ULTI:
            k = A.CODE_ULTI[code]
            if k not in self._ulti_numbers():
                return (f"an Ulti with trump {k} is not played here", "§5.1")
            if k in self.ulti:
                return (f"trump {k} is laid out already", "§5.1")
            return (f"you do not hold trump {k}", "§5.1")
        if code >= A.ULTI:
            return ("only the lone player lays out an Ulti, before the first lead", "§5.1")
        expected = {
            SOLO: ("answer the Solo question: pass or bid solo", "§3.1"),
            SOLO_STRETCH: ("after a Solo you may only pass or strecken", "§3.4"),
            DAPP: ("pass, dapp, or overcall the dapper", "§3.2"),
            ANSWER: ("you were overcalled: hold (selber) or pass", "§3.2"),
            RAISE: ("your overcall was held: bid the next step or pass", "§3.3, §3.4"),
            DISCARD: ("lay away cards from your hand", "§4"),
            ULTI: ("lay out an Ulti or pass to begin play", "§5.1"),
            PLAY: ("play a card", "§6.1"),
        }
        msg, rule = expected.get(phase, ("not possible now", ""))
        return (f"not possible now: {msg}", rule)

    @staticmethod
    def _requirement_text(name: str) -> str:
        contract = CONTRACTS[name]
        if contract.needs_geiss:
            return "trump 1 (the Geiß) in hand"
        return f"{contract.king_requirement} king(s) in hand"

    def _explain_play(self, p: int, card: int) -> tuple[str, str]:
        hand = self.hands[p]
        text = FACES[card].text
        if not hand >> card & 1:
            return (f"{text} is not in your hand", "§6.1")
        if self.options.first_three_tricks and len(self.tricks) < 3:
            bound = FIXED_TRICK_CARDS[len(self.tricks)]
            if hand & bound:
                return (f"trick {len(self.tricks) + 1} belongs to {FACES[bound.bit_length() - 1].text}: play it", "§6.3")
            return ("in the first three tricks play an allowed trump, else an empty card", "§6.3")
        if p == self.lone and self.ulti_mask >> card & 1:
            return ("a laid-out Ulti card may be played only when nothing else is allowed, the highest first", "§5.1")
        if self.kept_back == p and card == GSTIESS:
            return ("the kept-back Gstieß waits for the last trick", "§6.2")
        led = led_suit(ORDER, self.trick_cards) if self.trick_cards else NO_SUIT
        if led == TRUMP:
            return ("trumps were led: play a trump", "§6.1")
        return ("follow the suit led; if you cannot, play a trump", "§6.1")

    # ------------------------------------------------------------ observation
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know [§3-§7]."""
        return self._observe(self, seat)
