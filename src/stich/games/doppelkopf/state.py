"""One Doppelkopf deal: game finding, poverty, announcements, trick play, evaluation.

Phases (dossier sections in brackets):

* ``reservation`` — the health round, "gesund" or "vorbehalt" from the
  dealer's left [§3.1];
* ``declare`` — the reserving players name their game, with the priority
  Pflichtsolo > Lustsolo > (Schmeißen > Armut >) Hochzeit [§3.1, §3.2]; a
  Vorführung starts here with the forced player alone [§2.3];
* ``armut_give`` / ``armut_offer`` / ``armut_return`` — poverty [§4.5];
* ``play`` — trick play; the player to move may first make announcements
  (model A of §5.6: every deadline in own cards in hand is kept exactly;
  the winner of a 30-eye first trick may owe one, §5.5 [VAR]); with
  ``genscher`` the first of both diamond kings may be played as
  ``genscher <seat>`` (decision 0025); Schweine variants change the card
  order between tricks [§1.3];
* ``end`` — evaluated [§7].

Cards in a hand are a physical-card bitmask (``copy * 24 + face``); ``play``
actions name a face and the engine plays the holder's lower copy, since no
rule depends on which copy is which [§1.1].
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from stich.cards import Card
from stich.core.game import Action, DealResult, Game, Observation, PhasedState
from stich.core.tricks import PlayedTrick, played_mask
from stich.games.doppelkopf import actions as A
from stich.games.doppelkopf.contracts import (
    CONTRACTS,
    CQ,
    DA,
    DK,
    EYES,
    FACE_MASK,
    FACES,
    N_FACES,
    TRUMP,
    CardOrder,
    card_order,
    face,
)
from stich.games.doppelkopf.masks import HIGH_FACES as _HIGH
from stich.games.doppelkopf.masks import LOW_FACES as _LOW
from stich.games.doppelkopf.masks import count_face as count_face
from stich.games.doppelkopf.masks import face_codes as face_codes
from stich.games.doppelkopf.masks import faces_of as faces_of
from stich.games.doppelkopf.outcome import KEINE90, NONE, RE_KONTRA, SCHWARZ, DealFacts
from stich.games.doppelkopf.schweine import schwein_faces
from stich.games.doppelkopf.scoring import evaluate

if TYPE_CHECKING:
    from stich.games.doppelkopf.options import DoppelkopfOptions

RESERVATION, DECLARE, ARMUT_GIVE, ARMUT_OFFER, ARMUT_RETURN, PLAY, END = range(7)
PHASE_NAMES = ("reservation", "declare", "armut_give", "armut_offer", "armut_return", "play", "end")
RE, KONTRA = 0, 1
PARTY_NAMES = ("re", "kontra")

# Tier names of the reservation query [§3.1, §3.2].
T_PFLICHT, T_LUST, T_THROW, T_ARMUT, T_HOCHZEIT = "pflichtsolo", "lustsolo", "schmeissen", "armut", "hochzeit"


_NORMAL_ORDER = card_order(CONTRACTS["normal"], True)
_NORMAL_ORDER_NO_DULLEN = card_order(CONTRACTS["normal"], False)
_NINE_FACES = tuple(face(s + "9") for s in "CSHD")
_KING_FACES = tuple(face(s + "K") for s in "CSHD")
_FULL_FACES = tuple(face(s + r) for s in "CSHD" for r in ("A", "10"))
_DJ = face("DJ")
_CARD_OF = FACES + FACES
"""The face of each physical card (``copy * 24 + face``)."""
_ACTION_TABLE = A.ACTIONS.actions
"""The game's actions by code (``game.actions`` is always this space): an :class:`Action` from it is its code."""
_CALL_RULES: dict[tuple[object, ...], int] = {}
"""Each set of call options (deadlines, last call, skipping levels, absage after absage, replies) a deal has used, numbered."""
_ANNOUNCE_MEMO: dict[tuple[int, int, int, int, int, bool, bool], tuple[int, ...]] = {}
"""The calls open (``_announce_codes``) by all it reads: the call options' number, party, both levels, the count plus
``call_offset`` (compared only as a sum), clarified, late reply; asked at most card decisions, a few thousand keys."""


class DoppelkopfState(PhasedState):
    """A Doppelkopf deal in progress; see the module docstring for the phases."""

    PHASE_NAMES = PHASE_NAMES
    END_PHASE = END
    MUTABLE = ("hands", "history", "said", "party", "level", "late_reply", "trick_seats", "trick_cards", "tricks", "armut_offers")

    options: DoppelkopfOptions
    """The game's options (``game.options``, typed)."""

    def __init__(
        self,
        game: Game,
        hands: list[int],
        dealer: int,
        seed: int | None,
        context: Mapping[str, Any],
        observe: Callable[[DoppelkopfState, int], Observation],
    ) -> None:
        opts: DoppelkopfOptions = game.options
        self.game = game
        self.options = game.options
        self._observe = observe
        """The game's information model (its ``observe`` module's function, handed in by the game)."""
        self.seed = seed
        self.dealer = dealer
        self.dealt = tuple(hands)
        self.hands = list(hands)
        n = game.num_seats
        self.active = tuple((dealer + i) % n for i in range(1, n + 1) if n == 4 or (dealer + i) % n != dealer)
        self.next_seat = [-1] * n
        for i, seat in enumerate(self.active):
            self.next_seat[seat] = self.active[(i + 1) % len(self.active)]
        self.context = dict(context)
        """The session context this deal was created with (see Doppelkopf.new_state)."""
        owes = context.get("owes_solo")
        # Without compulsory solos (pflichtsolo=false) nobody owes one: every solo is a Lustsolo [§2.2].
        self.owes = tuple(bool(x) and opts.pflichtsolo for x in owes) if owes is not None else tuple(opts.pflichtsolo for _ in range(n))
        self.multiplier = int(context.get("multiplier", 1))
        forced = context.get("forced_soloist")
        self.forced: int | None = int(forced) if forced is not None else None
        self.history: list[tuple[int, int]] = []
        self.phase = RESERVATION
        self.to_move = self.active[0]
        self.said: dict[int, bool] = {}
        self.asks: list[tuple[int, tuple[str, ...], bool]] = []
        self.ask_pos = 0
        # Game type
        self.contract = "normal"
        self.kind = "normal"
        self.soloist: int | None = None
        self.pflicht = False
        self.hochzeiter: int | None = None
        self.hochzeit_suit: int | None = None
        """[VAR §4.2 named_suit] the plain suit (0 clubs, 1 spades, 2 hearts) the bride named."""
        self.clarified = True
        self.clar_trick = 0
        self.party = [KONTRA] * n
        self.order: CardOrder = _NORMAL_ORDER if opts.dullen else _NORMAL_ORDER_NO_DULLEN
        # Schweine [§1.3]: their faces, holders, whether they rank on top now, whether the table knows
        self.schwein_face: int | None = None
        self.super_face: int | None = None
        self.schweine_seat: int | None = None
        self.superschweine_seat: int | None = None
        self.schweine_live = False
        self.super_live = False
        self.schweine_shown = False
        self.super_shown = False
        self.schwein_bits = 0
        """Faces whose play the Schweine rules watch (the Schwein and Superschwein faces of this game), a bitmask."""
        self.schwein_due: str | None = None
        """Change due when the current trick ends: ``revert`` (first_played) or ``judge`` (second_if_first_won)."""
        self.schwein_tricks: frozenset[int] = frozenset()
        """Tricks in which a diamond ace was played as a Schwein (it is no fox there, A-24)."""
        self.thrown: tuple[str, int] | None = None
        # Poverty
        self.poor: int | None = None
        self.armut_cards = 0
        self.armut_taker: int | None = None
        self.armut_returned = 0
        self.armut_offers: list[int] = []
        # Announcements
        self.level = [NONE, NONE]
        self.kontra_caller: int | None = None
        self.late_reply = [False, False]
        self.ann_open = False
        self.call_offset = 0 if opts.nines else 2
        self.genscher: tuple[int, int] | None = None
        """(player, partner) of a Genscher, once made (decision 0025)."""
        self.silent_wedding_revealed = False
        """A Genscher was tried in a silent wedding: void, and the wedding is public (decision 0041)."""
        self.knocks: tuple[int, ...] = ()
        """[VAR §5.5, decision 0028] seats that knocked, in order."""
        self.must_call: int | None = None
        """[VAR §5.5] the winner of a first trick of 30 eyes or more, who owes his party's Re/Kontra."""
        # Trick play
        self.leader = self.active[0]
        self.trick_seats: list[int] = []
        self.trick_cards: list[int] = []
        self.led = 0
        self.best_key = -1
        self.best_pos = 0
        self.tricks: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        self.n_tricks = opts.hand_size
        self._result: DealResult | None = None
        self._read_play_table(opts)
        if self.forced is not None:
            self.phase = DECLARE
            self.asks = [(self.forced, (T_PFLICHT,), False)]
            self.to_move = self.forced

    def _read_play_table(self, opts: DoppelkopfOptions) -> None:
        """The play table: every option the legal-move queries and the card play ask, read once per deal.

        ``legal_codes``, ``illegal_reason`` and ``_play`` run for every action of every deal (and
        of every search playout), so they test these plain attributes instead of reading the
        options (three lookups each) on every call; the card order itself is the table in
        ``self.order`` (contracts.card_order, rebuilt only when the contract or the Schweine change).
        """
        self.must_overtrump = opts.must_overtrump
        """[VAR §6.1] Überstechen."""
        self.genscher_on = opts.genscher
        """[decision 0025] a Genscher may be played."""
        self.holder_choice = opts.schweine == "holder_choice"
        """[VAR §1.3] the holder shows the Schweine with the action ``schweine`` (decision 0002)."""
        self.knocking = opts.knocking
        """[VAR §5.5, decision 0028] Klopfen."""
        self.compulsory_call = opts.compulsory_call_first_trick_30
        """[VAR §5.5] a first trick of 30 eyes obliges its winner to call."""
        self.play_extras = self.genscher_on or self.holder_choice or self.knocking or self.compulsory_call
        """Whether the play phase knows any action besides cards and calls (else one test skips them all)."""
        self.deadlines = opts.call_deadlines
        """[§5.2, §8.4 call_min_cards] cards in hand each call level needs with 12 cards."""
        self.table_timing = opts.timing_mode == "table_cards"
        """[VAR §5.5, A-22] the deadlines count the table's cards, not the caller's."""
        self.last_call = opts.call_last_min_cards
        """[VAR §5.5] no call at all below this many cards (0: no limit)."""
        self.skip_levels = opts.skip_levels
        self.absage_after_absage = opts.absage_after_opponent_absage
        self.reply_allowed = opts.reply_allowed
        self.call_floor = max(self.deadlines[SCHWARZ] - (1 if opts.reply_allowed else 0), self.last_call)
        """Below this count (``call_count`` plus ``call_offset``) no call is open to anybody: the lowest deadline
        (schwarz, one card less for a reply) and ``call_last_min_cards`` [§5.2, §5.3, §5.5]."""
        call_rules = (self.deadlines, self.last_call, self.skip_levels, self.absage_after_absage, self.reply_allowed)
        self.call_rules = _CALL_RULES.setdefault(call_rules, len(_CALL_RULES))
        """The number of these call options in :data:`_ANNOUNCE_MEMO`'s keys (the same for every deal with them)."""

    # ------------------------------------------------------------ legal moves
    def legal_codes(self) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            p = self.to_move
            hand = self.hands[p]
            # _playable(p), its common case written out: follow suit if you can (trumps are one suit) [§6.1]
            if not self.trick_cards:
                playable = hand
            elif self.must_overtrump:
                playable = self._playable(p)
            else:
                playable = hand & self.order.follow[self.led] or hand
            faces = (playable | playable >> N_FACES) & FACE_MASK
            codes = list(_LOW[faces & 0xFFF] + _HIGH[faces >> 12])
            if self.play_extras:
                if self.must_call == p and self.level[self.party[p]] == NONE:
                    return [A.ANNOUNCE + self.party[p]]  # [VAR §5.5] the compulsory call comes first
                codes = self._extra_play_codes(p, playable, codes)
            if self.ann_open:
                # call_count(p), written out; past the floor nobody may call any more, so nothing to ask
                h = (self.n_tricks - len(self.tricks) - (1 if self.trick_cards else 0)) if self.table_timing else hand.bit_count()
                count = h + self.call_offset
                if count >= self.call_floor:
                    party, level = self.party[p], self.level
                    key = (self.call_rules, party, level[party], level[1 - party], count, self.clarified, self.late_reply[party])
                    calls = _ANNOUNCE_MEMO.get(key)
                    if calls is None:
                        calls = _ANNOUNCE_MEMO[key] = tuple(self._announce_codes(p, h))
                    codes += calls
            return codes
        if phase == RESERVATION:
            return self._reservation_codes()
        if phase == DECLARE:
            return self._declare_codes()
        if phase == ARMUT_GIVE:
            return self._armut_give_codes()
        if phase == ARMUT_OFFER:
            forced = len(self.armut_offers) == 1 and self.options.armut_no_taker == "last_must_take"
            return [A.ACCEPT] if forced else [A.ACCEPT, A.DECLINE]
        if phase == ARMUT_RETURN:
            return face_codes(faces_of(self.hands[self.to_move]), A.DISCARD)
        return []

    def _extra_play_codes(self, p: int, playable: int, codes: list[int]) -> list[int]:
        """The play phase's house-rule actions besides cards and calls (asked only when ``play_extras``)."""
        if self.genscher_on and self._may_genscher(p, playable):
            codes += [A.GENSCHER + s for s in self.active if s != p]
        if self.holder_choice and self._may_show_schweine(p):
            codes.append(A.SCHWEINE)
        if self.knocking and self._may_knock(p):
            codes.append(A.KLOPFEN)
        return codes

    def illegal_reason(self, code: int) -> tuple[str, str] | None:
        phase = self.phase
        if phase == PLAY and code < N_FACES and self.must_call is None:
            return None if self._may_play(code) else self._explain(code)
        if phase == END:
            return ("the deal is over", "§7")
        if code in self.legal_codes():
            return None
        return self._explain(code)

    def apply(self, action: Action | int | str) -> None:
        """:meth:`State.apply`, with a legal action given by its code applied in one or two calls.

        Each action went through ``apply``, ``illegal_reason`` and
        ``_apply_code`` (and ``_play`` for a card).  Here a card is checked by
        :meth:`_may_play` (as :meth:`illegal_reason` checks it), then ``_play``; any other code is legal
        exactly when :meth:`legal_codes` lists it (what :meth:`illegal_reason` asks), then ``_apply_code``.
        An action of this game's space counts as its code; anything else (another form, an illegal code and
        its error) takes the general path unchanged.
        """
        if type(action) is Action and action.code < len(_ACTION_TABLE) and _ACTION_TABLE[action.code] is action:
            action = action.code
        if type(action) is int:
            if 0 <= action < N_FACES and self.phase == PLAY and self.must_call is None:
                if self._may_play(action):
                    p = self.to_move
                    self.history.append((p, action))
                    self._play(p, action)
                    return
            elif action in self.legal_codes():
                self._apply_code(action)
                return
        super().apply(action)

    def _may_play(self, f: int) -> bool:
        """Whether the player to move may play face ``f`` now (trick play, no call owed): one bit test, no legal list [§6.1]."""
        p = self.to_move
        playable = self._playable(p) if self.trick_cards else self.hands[p]
        return bool((playable >> f | playable >> (f + N_FACES)) & 1)

    def _playable(self, p: int) -> int:
        """Physical cards ``p`` may play now [§6.1]."""
        hand = self.hands[p]
        if not self.trick_cards:
            return hand
        follow = hand & self.order.follow[self.led]
        if not follow:
            if self.must_overtrump:
                # A void player may still discard; only a ruff must beat the trick when it can.
                trumps = hand & self.order.follow[TRUMP]
                return (hand & ~trumps) | self._overtrump(trumps, trumps)
            return hand
        if self.must_overtrump:
            return self._overtrump(follow, hand)
        return follow

    def _overtrump(self, allowed: int, hand: int) -> int:
        """[VAR §6.1 Überstechen] keep only cards that beat the trick, if any do."""
        beating = 0
        for f in face_codes(faces_of(allowed)):
            if self._key(f) > self.best_key:
                beating |= allowed & ((1 << f) | (1 << (f + N_FACES)))
        return beating or allowed

    def _key(self, f: int) -> int:
        eff = self.order.eff[f]
        if eff == TRUMP:
            return 100 + self.order.strength[f]
        return self.order.strength[f] if eff == self.led else -1

    # ----------------------------------------------------------- reservations
    def _reservation_codes(self) -> list[int]:
        p = self.to_move
        both_cq = count_face(self.hands[p], CQ) == 2
        if both_cq and not self.options.stille_hochzeit:
            return [A.VORBEHALT]
        return [A.GESUND, A.VORBEHALT]

    def _tier_codes(self, seat: int, tier: str) -> list[int]:
        if tier in (T_PFLICHT, T_LUST):
            return sorted(A.SOLO_CODE[name] for name in self.options.solos)
        if tier == T_HOCHZEIT and self.options.hochzeit_rule == "named_suit":
            return [A.HOCHZEIT_SUIT + i for i in range(len(A.HOCHZEIT_SUITS))]
        return [{T_THROW: A.SCHMEISSEN, T_ARMUT: A.ARMUT, T_HOCHZEIT: A.HOCHZEIT}[tier]]

    def _declare_codes(self) -> list[int]:
        seat, tiers, may_pass = self.asks[self.ask_pos]
        codes: list[int] = []
        for tier in tiers:
            codes += self._tier_codes(seat, tier)
        if may_pass:
            codes.append(A.PASS)
        return sorted(set(codes))

    def _priority(self) -> list[str]:
        """Query tiers, highest first: Pflichtsolo > Lustsolo > Schmeißen > Armut > Hochzeit [§3.2, A-18]."""
        opts = self.options
        solos = [T_PFLICHT, T_LUST]
        order = [T_THROW, *solos] if opts.throw_before_solo else [*solos, T_THROW]
        return order + ([T_HOCHZEIT, T_ARMUT] if opts.hochzeit_before_armut else [T_ARMUT, T_HOCHZEIT])

    def _eligible_tiers(self, seat: int) -> list[str]:
        """Reservations ``seat`` could name, in query priority order."""
        opts = self.options
        hand = self.hands[seat]
        ok = {
            T_PFLICHT: self.owes[seat],
            T_LUST: not self.owes[seat],
            T_THROW: self._throw_reason(hand) is not None,
            T_ARMUT: opts.armut and self._poor(hand),
            T_HOCHZEIT: opts.hochzeit and count_face(hand, CQ) == 2,
        }
        return [t for t in self._priority() if ok[t]]

    def _poor(self, hand: int) -> bool:
        """Poverty: at most ``armut_max_trumps`` trumps of the normal game [§4.5]."""
        trumps = (hand & self.order.follow[TRUMP]).bit_count()
        return trumps <= self.options.armut_max_trumps

    def _throw_reason(self, hand: int) -> str | None:
        """The first throw-in condition this hand meets, if any [§4.6]."""
        conds = self.options.schmeissen
        if not conds:
            return None
        nines = self.options.nines
        low = _NINE_FACES if nines else _KING_FACES
        n_low = sum(count_face(hand, f) for f in low)
        n_kings = sum(count_face(hand, f) for f in _KING_FACES)
        if "five_nines" in conds and n_low >= 5:
            return "five_nines"
        if "four_nines_four_kings" in conds and nines and n_low >= 4 and n_kings >= 4:
            return "four_nines_four_kings"
        if "nine_of_each_suit" in conds and all(count_face(hand, f) for f in low):
            return "nine_of_each_suit"
        if "seven_full_cards" in conds and sum(count_face(hand, f) for f in _FULL_FACES) >= 7:
            return "seven_full_cards"
        top = max((self.order.strength[f] for f in face_codes(faces_of(hand & self.order.follow[TRUMP]))), default=0)
        if "max_trump_le_dj" in conds and top <= self.order.strength[_DJ]:
            return "max_trump_le_dj"
        if "max_trump_le_da" in conds and top <= self.order.strength[DA]:
            return "max_trump_le_da"
        return None

    def _start_query(self) -> None:
        reservers = [s for s in self.active if self.said.get(s)]
        if not reservers:
            self._settle_normal()
            return
        if len(reservers) == 1:
            seat = reservers[0]
            self.asks = [(seat, tuple(self._eligible_tiers(seat)), False)]
        else:
            eligible = {s: self._eligible_tiers(s) for s in reservers}
            asks: list[tuple[int, tuple[str, ...], bool]] = []
            for tier in self._priority():
                asks += [(s, (tier,), True) for s in reservers if tier in eligible[s]]
            # A reservation binds: each reserver's last question cannot be passed.
            for s in reservers:
                last = max(i for i, ask in enumerate(asks) if ask[0] == s)
                asks[last] = (s, asks[last][1], False)
            self.asks = asks
        self.ask_pos = 0
        self.phase = DECLARE
        self.to_move = self.asks[0][0]

    # ----------------------------------------------------------- settle game
    def _settle_normal(self) -> None:
        holders = [s for s in self.active if count_face(self.hands[s], CQ)]
        for s in self.active:
            self.party[s] = RE if s in holders else KONTRA
        if len(holders) == 1:
            # A silent wedding is a Karo solo with the normal game's card order (§4.3, TSR 4.4.5).
            self.kind = "stille_hochzeit"
            self.contract = "karo"
            self.soloist = holders[0]
        self._start_play(self.active[0])

    def _settle_solo(self, seat: int, name: str) -> None:
        opts = self.options
        self.contract = name
        self.kind = "solo"
        self.soloist = seat
        self.pflicht = self.owes[seat] or self.forced == seat
        for s in self.active:
            self.party[s] = RE if s == seat else KONTRA
        self.order = card_order(opts.contract(name), opts.dullen)
        # A Vorführung is always led by the forced player (§2.3); pflichtsolo_soloist_leads concerns
        # compulsory solos played during the normal rounds only (OPEN-POINTS).
        forced = self.forced == seat
        leads = forced or (self.pflicht and opts.pflichtsolo_soloist_leads) or (not self.pflicht and opts.lustsolo_soloist_leads)
        self._start_play(seat if leads else self.active[0])

    def _settle_hochzeit(self, seat: int) -> None:
        self.kind = "hochzeit"
        self.hochzeiter = seat
        self.clarified = False
        for s in self.active:
            self.party[s] = RE if s == seat else KONTRA
        self._start_play(self.active[0])

    def _start_play(self, leader: int) -> None:
        opts = self.options
        # A wedding settles its game type (and so its Schweine) only after the clarification window (OPEN-POINTS),
        # unless schweine_fixed=reservation judges them on the dealt hands when the game is named.
        if self.kind != "hochzeit" or opts.schweine_fixed == "reservation":
            self._find_schweine()
        self.phase = PLAY
        self.leader = leader
        self.to_move = leader
        early = opts.hochzeit_announcement_timing == "normal_with_conversion"
        self.ann_open = opts.announcements and (self.clarified or early)

    def _find_schweine(self) -> None:
        """[VAR §1.3] settle the Schweine: a hand holding both Schwein cards (on the dealt hands with
        ``schweine_fixed=reservation``); with ``second_if_first_won`` they wait for the first one's trick."""
        opts = self.options
        faces = schwein_faces(self.kind, self.contract, opts)
        if faces is None:
            return
        self.schwein_face, self.super_face = faces
        self.schwein_bits = 1 << faces[0] | (1 << faces[1] if faces[1] is not None else 0)
        hands = self.dealt if opts.schweine_fixed == "reservation" else self.hands
        holders = [s for s in self.active if count_face(hands[s], faces[0]) == 2]
        if not holders:
            return
        self.schweine_seat = holders[0]
        if opts.schweine not in ("second_if_first_won", "holder_choice"):
            self._schweine_go_live(hands)

    def _may_show_schweine(self, p: int) -> bool:
        """[VAR §1.3, §8.2 holder_choice] ``p`` holds both Schwein cards of this game and has not shown them yet."""
        return (
            self.holder_choice
            and not self.schweine_live
            and self.schweine_seat == p
            and self.schwein_face is not None
            and count_face(self.hands[p], self.schwein_face) == 2
        )

    def _show_schweine(self) -> None:
        """[VAR holder_choice] the holder shows his Schweine: they rank on top from now on, in the open trick too.

        Neither Schwein (nor a live Superschwein) can lie in the open trick, since their holders
        still hold both; the cards already played keep their order among themselves, so only the
        strength of the trick's best card is read anew under the new order.
        """
        self._schweine_go_live(self.hands)
        if self.trick_cards:
            self.best_key = self._key(self.trick_cards[self.best_pos] % N_FACES)

    def _schweine_go_live(self, hands: Sequence[int]) -> None:
        """The Schweine rank on top from now on, Superschweine above them if a hand holds both [§1.3]."""
        opts = self.options
        self.schweine_live = True
        self.schweine_shown = opts.schweine_announce == "reservation"
        if self.super_face is not None:
            # A Superschwein exists only while both are still held when the Schweine come.
            supers = [s for s in self.active if count_face(hands[s], self.super_face) == 2]
            if supers:
                self.superschweine_seat = supers[0]
                self.super_live = True
                self.super_shown = self.schweine_shown
        self._rebuild_order()

    def _rebuild_order(self) -> None:
        top = ((self.super_face,) if self.super_live and self.super_face is not None else ()) + (
            (self.schwein_face,) if self.schweine_live and self.schwein_face is not None else ()
        )
        self.order = card_order(self.options.contract(self.contract), self.options.dullen, top)

    def _note_schwein_play(self, p: int, f: int) -> None:
        """A Schwein or Superschwein card is played: record it, show it (``on_play``), plan a change at trick end."""
        opts = self.options
        if f == self.super_face and self.super_live:
            self.super_shown = True
        if f != self.schwein_face:
            return
        if self.schweine_live:
            # (after a poverty exchange with schweine_fixed=reservation the two may lie in different hands)
            self.schweine_shown = True
            if f == DA:
                self.schwein_tricks = self.schwein_tricks | {len(self.tricks)}
            if opts.schweine == "first_played":
                self.schwein_due = "revert"
        elif opts.schweine == "second_if_first_won" and p == self.schweine_seat and count_face(self.hands[p], f) == 1:
            self.schwein_due = "judge"

    def _settle_schwein_due(self, winner: int) -> None:
        """At the end of a trick: the first-played Schwein leaves the top, or the second ace becomes one."""
        due, self.schwein_due = self.schwein_due, None
        if due == "revert":
            self.schweine_live = False
            self._rebuild_order()
        elif due == "judge" and self.schweine_seat is not None and self.party[winner] == self.party[self.schweine_seat]:
            self._schweine_go_live(self.hands)

    # ------------------------------------------------------------- announce
    def required(self, level: int) -> int:
        """Cards in hand a call of ``level`` requires now (option ``call_min_cards``) [§5.2, §5.4]."""
        return self.deadlines[level] - self.call_offset

    def call_count(self, p: int) -> int:
        """The count the call deadlines measure for ``p``: its cards in hand [§5.2].

        With ``timing_mode=table_cards`` [§5.5, A-22] the count is the table's: a call needing N cards
        is open while at most ``len(active) * (hand size - N)`` cards have been played, which is the
        hand size less the tricks begun (the open trick counts once its first card lies).
        """
        if self.table_timing:
            return self.n_tricks - len(self.tricks) - (1 if self.trick_cards else 0)
        return int(self.hands[p].bit_count())

    def _below_last_limit(self, h: int) -> bool:
        """[VAR §5.5] ``call_last_min_cards``: no call at all with fewer cards in hand."""
        return bool(self.last_call) and h < self.last_call - self.call_offset

    def _announce_codes(self, p: int, h: int | None = None) -> list[int]:
        """The calls ``p`` may make now; ``h`` is ``call_count(p)`` when the caller has it already."""
        party = self.party[p]
        own = self.level[party]
        if own == SCHWARZ:
            return []
        if h is None:
            h = self.call_count(p)
        offset = self.call_offset
        if self.last_call and h < self.last_call - offset:
            return []  # [VAR §5.5] call_last_min_cards
        opp = self.level[1 - party]
        top = SCHWARZ if self.skip_levels else own + 1
        if not self.clarified:
            # normal_with_conversion: before the clarification trick only Re and Kontra [§5.4 VAR].
            top = RE_KONTRA
        if opp >= KEINE90 and not self.absage_after_absage:
            top = min(top, RE_KONTRA)
        deadlines = self.deadlines
        if own == NONE:
            if h >= deadlines[RE_KONTRA] - offset:
                levels = range(RE_KONTRA, top + 1)
            elif self.reply_allowed and opp >= RE_KONTRA and h >= deadlines[opp] - offset - 1:
                levels = range(RE_KONTRA, RE_KONTRA + 1)
            else:
                return []
        else:
            if self.late_reply[party] or h < deadlines[own + 1] - offset:
                return []
            levels = range(own + 1, top + 1)
        return [self._announce_code(party, lv) for lv in levels]

    def _may_knock(self, p: int) -> bool:
        """[VAR §5.5, decision 0028] ``p`` may knock: once, while calls are open and within the Re/Kontra deadline."""
        h = self.call_count(p)
        return self.ann_open and p not in self.knocks and not self._below_last_limit(h) and h >= self.required(RE_KONTRA)

    @staticmethod
    def _announce_code(party: int, level: int) -> int:
        if level == RE_KONTRA:
            return A.ANNOUNCE + party
        return A.ANNOUNCE + level

    def _announce(self, p: int, code: int) -> None:
        party = self.party[p]
        idx = code - A.ANNOUNCE
        level = RE_KONTRA if idx < 2 else idx
        if self.level[party] == NONE and self.call_count(p) < self.required(RE_KONTRA):
            self.late_reply[party] = True
        if code == A.ANNOUNCE + KONTRA:
            self.kontra_caller = p
        self.level[party] = level

    # ----------------------------------------------------------------- apply
    def _apply_code(self, code: int) -> None:
        p = self.to_move
        self.history.append((p, code))
        phase = self.phase
        if phase == PLAY:
            if code < N_FACES:
                self._play(p, code)
            elif A.GENSCHER <= code < A.HOCHZEIT_SUIT:
                self._genscher(p, code - A.GENSCHER)
            elif code == A.SCHWEINE:
                self._show_schweine()
            elif code == A.KLOPFEN:
                self.knocks = (*self.knocks, p)
            else:
                self._announce(p, code)
        elif phase == RESERVATION:
            self.said[p] = code == A.VORBEHALT
            if len(self.said) == len(self.active):
                self._start_query()
            else:
                self.to_move = self.next_seat[p]
        elif phase == DECLARE:
            self._declare(p, code)
        elif phase == ARMUT_GIVE:
            self._armut_give(p, code - A.DISCARD)
        elif phase == ARMUT_OFFER:
            self._armut_offer(p, code)
        elif phase == ARMUT_RETURN:
            self._armut_return(p, code - A.DISCARD)

    def _declare(self, p: int, code: int) -> None:
        if code == A.PASS:
            self.ask_pos += 1
            self.to_move = self.asks[self.ask_pos][0]
        elif code == A.HOCHZEIT:
            self._settle_hochzeit(p)
        elif code >= A.HOCHZEIT_SUIT:
            self.hochzeit_suit = code - A.HOCHZEIT_SUIT
            self._settle_hochzeit(p)
        elif code == A.ARMUT:
            self.poor = p
            self.kind = "armut"
            self.phase = ARMUT_GIVE
            if self.options.armut_two_poor == "redeal" and any(self._poor(self.hands[s]) for s in self.active if s != p):
                # [§4.5 VAR] two poor hands: the usual answer is a redeal.
                self.thrown = ("two_poor", p)
                self._finish()
        elif code == A.SCHMEISSEN:
            self.thrown = (self._throw_reason(self.hands[p]) or "", p)
            self._finish()
        else:
            self._settle_solo(p, A.ACTIONS[code].text.split(" ", 1)[1])

    def _play(self, p: int, f: int) -> None:
        hand = self.hands[p]
        card = f if hand >> f & 1 else f + N_FACES  # the lower copy in hand
        self.hands[p] = hand ^ (1 << card)
        order = self.order
        eff = order.eff[f]
        cards = self.trick_cards
        if not cards:
            self.led = eff
            key = order.strength[f] + (100 if eff == TRUMP else 0)
            self.best_key = key
            self.best_pos = 0
        else:
            if eff == TRUMP:
                key = 100 + order.strength[f]
            elif eff == self.led:
                key = order.strength[f]
            else:
                key = -1
            if key > self.best_key or (key == self.best_key and f == order.dulle and self._second_dulle_wins()):
                self.best_key = key
                self.best_pos = len(cards)
        cards.append(card)
        self.trick_seats.append(p)
        if self.schwein_bits >> f & 1:
            self._note_schwein_play(p, f)
        if len(cards) < 4:
            self.to_move = self.next_seat[p]
            return
        winner = self.trick_seats[self.best_pos]
        self.tricks.append((tuple(self.trick_seats), tuple(cards), winner))
        self.trick_seats = []
        self.trick_cards = []
        if self.schwein_due is not None:
            self._settle_schwein_due(winner)
        if not self.clarified:
            self._clarify(winner)
        if self.compulsory_call and len(self.tricks) == 1:
            self._compulsory_call(winner, cards)
        if len(self.tricks) == self.n_tricks:
            self._finish()
            return
        self.leader = winner
        self.to_move = winner

    def silent_wedding_shown(self) -> bool:
        """Whether the table knows of the silent wedding: both queens of clubs played by their holder, or a void Genscher.

        Until then a silent wedding looks like a normal game to everybody
        but its player [§4.3, decision 0041].
        """
        if self.kind != "stille_hochzeit":
            return False
        if self.silent_wedding_revealed:
            return True
        holder = self.soloist
        played = sum(1 for seats, cards, _ in self.tricks for s, c in zip(seats, cards, strict=True) if s == holder and c % N_FACES == CQ)
        played += sum(1 for s, c in zip(self.trick_seats, self.trick_cards, strict=True) if s == holder and c % N_FACES == CQ)
        return played == 2

    def _looks_normal(self, p: int) -> bool:
        """Whether the game is a normal game as far as ``p`` can know: a hidden silent wedding looks like one [decision 0041]."""
        if self.kind == "normal":
            return True
        return self.kind == "stille_hochzeit" and p != self.soloist and not self.silent_wedding_shown()

    def _may_genscher(self, p: int, playable: int) -> bool:
        """[decisions 0025, 0041] ``p`` may play the first of both diamond kings as a Genscher.

        Offered in every game that looks normal to ``p`` (a silent wedding
        it cannot see included), so that the offer shows nothing of the
        other hands.
        """
        return self._looks_normal(p) and self.genscher is None and count_face(self.hands[p], DK) == 2 and bool(playable >> DK & 1)

    def _genscher(self, p: int, partner: int) -> None:
        """[decision 0025] ``p`` plays a diamond king and takes ``partner``: new parties, absagen lapse.

        In a silent wedding the Genscher is void (decision 0041): the king is
        played as a plain card, the game stays the silent wedding, and the
        table learns of it (its player has to say so, as the parties the
        Genscher would set do not exist).
        """
        if self.kind == "stille_hochzeit":
            self.silent_wedding_revealed = True
            self._play(p, DK)
            return
        self.genscher = (p, partner)
        self.kind = "genscher"
        callers = {seat for seat, c in self.history if A.ANNOUNCE <= c < A.SOLO}
        for s in self.active:
            self.party[s] = RE if s in (p, partner) else KONTRA
        # Each call stays a plain Re / Kontra for the party its caller now belongs to; absagen lapse (FreeDoko).
        for party in (RE, KONTRA):
            self.level[party] = RE_KONTRA if any(self.party[s] == party for s in callers) else NONE
        self.late_reply = [False, False]
        self.kontra_caller = None
        self._play(p, DK)

    def _compulsory_call(self, winner: int, cards: Sequence[int]) -> None:
        """[VAR §5.5] a first trick of 30 eyes or more obliges its winner to say Re/Kontra.

        FreeDoko's rule (its trick evaluation asks for the normal game type): only in a normal game,
        so never in a solo, an announced wedding, an Armut or a game a Genscher has turned.  A silent
        wedding counts as the normal game it looks like (decision 0026): the other seats cannot know
        it, so their duty to call must not depend on it, or the legal actions would reveal it.
        """
        if self.kind not in ("normal", "stille_hochzeit") or sum(EYES[c % N_FACES] for c in cards) < 30:
            return
        if self.ann_open and self.level[self.party[winner]] == NONE and A.ANNOUNCE + self.party[winner] in self._announce_codes(winner):
            self.must_call = winner

    def _second_dulle_wins(self) -> bool:
        """[VAR §1.2] does a second Dulle beat the first in this trick?"""
        opts = self.options
        if not opts.second_dulle_beats_first or self.order.eff[self.order.dulle] != TRUMP:
            return False
        if opts.second_dulle_except_last_trick and len(self.tricks) == self.n_tricks - 1:
            return False
        solo = self.kind in ("solo", "stille_hochzeit", "hochzeit_solo")
        return not solo or opts.second_dulle_in_solo

    def _clarify(self, winner: int) -> None:
        """Find the wedding partner in the clarification window [§4.2]."""
        opts = self.options
        number = len(self.tricks)
        _seats, cards, _w = self.tricks[-1]
        led_trump = self.order.eff[cards[0] % N_FACES] == TRUMP
        rule = opts.hochzeit_rule
        qualifies = (
            rule == "first_foreign"
            or (rule == "first_plain" and not led_trump)
            or (rule == "first_trump" and led_trump)
            or (rule == "named_suit" and self.order.eff[cards[0] % N_FACES] == self.hochzeit_suit)
        )
        if winner != self.hochzeiter and qualifies:
            self.party[winner] = RE
            self.clarified = True
            if opts.schweine_fixed == "play_start":
                self._find_schweine()
        elif number >= opts.hochzeit_window_tricks:
            self.kind = "hochzeit_solo"
            self.contract = "karo"
            self.soloist = self.hochzeiter
            self.clarified = True
        if self.clarified:
            self.clar_trick = number
            if opts.hochzeit_announcement_timing == "shifted":
                self.call_offset += number - 1
            elif self.kontra_caller is not None and self.party[self.kontra_caller] == RE:
                # [§5.4 VAR] the partner's earlier Kontra turns into a Re.
                self.level[RE] = max(self.level[RE], RE_KONTRA)
                self.level[KONTRA] = NONE
                self.late_reply[KONTRA] = False
                self.kontra_caller = None
            self.ann_open = opts.announcements

    # ---------------------------------------------------------------- poverty
    def _armut_give_codes(self) -> list[int]:
        hand = self.hands[self.to_move]
        trumps = hand & self.order.follow[TRUMP]
        return face_codes(faces_of(trumps or hand), A.DISCARD)

    def _armut_give(self, p: int, f: int) -> None:
        bit = self._remove(p, f)
        self.armut_cards |= bit
        if self.armut_cards.bit_count() == 3:
            self.phase = ARMUT_OFFER
            i = self.active.index(p)
            self.armut_offers = [self.active[(i + k) % len(self.active)] for k in range(1, len(self.active))]
            if self.options.armut_offer == "left_only":
                self.armut_offers = self.armut_offers[:1]  # [VAR §4.5, §8.3] only the left neighbour is asked
            self.to_move = self.armut_offers[0]

    def _armut_offer(self, p: int, code: int) -> None:
        if code == A.ACCEPT:
            self.armut_taker = p
            self.hands[p] |= self.armut_cards
            self.phase = ARMUT_RETURN
            return
        self.armut_offers.pop(0)
        if not self.armut_offers:
            self.thrown = ("armut_not_taken", self.poor if self.poor is not None else p)
            self._finish()
            return
        self.to_move = self.armut_offers[0]

    def _armut_return(self, p: int, f: int) -> None:
        bit = self._remove(p, f)
        assert self.poor is not None
        self.hands[self.poor] |= bit
        self.armut_returned |= bit
        if self.armut_returned.bit_count() == 3:
            for s in self.active:
                self.party[s] = RE if s in (self.poor, p) else KONTRA
            self._start_play(self.active[0])

    def _remove(self, p: int, f: int) -> int:
        hand = self.hands[p]
        bit = 1 << f
        if not hand & bit:
            bit <<= N_FACES
        self.hands[p] = hand ^ bit
        return bit

    # ------------------------------------------------------------- evaluation
    def facts(self) -> DealFacts:
        """The facts evaluation needs (only for a played-out deal)."""
        n = self.game.num_seats
        return DealFacts(
            num_seats=n,
            active_seats=self.active,
            kind=self.kind,
            contract=self.contract,
            re_seats=frozenset(s for s in self.active if self.party[s] == RE),
            re_level=self.level[RE],
            kontra_level=self.level[KONTRA],
            tricks=tuple(PlayedTrick(seats, tuple(map(_CARD_OF.__getitem__, cards)), winner) for seats, cards, winner in self.tricks),
            multiplier=self.multiplier,
            schweine_seat=self.schweine_seat,
            schwein_tricks=self.schwein_tricks,
            knocks=len(self.knocks),
        )

    def _evaluate(self) -> DealResult:
        if self.thrown is not None:
            reason, seat = self.thrown
            return DealResult(
                tuple(0 for _ in range(self.game.num_seats)),
                {"kind": "thrown", "reason": reason, "seat": seat, "redeal": True},
                thrown_in=True,
            )
        return evaluate(self.facts(), self.options)

    # ------------------------------------------------------- card accounting
    def played_mask(self) -> int:
        """Physical cards played to tricks so far (complete and current)."""
        return played_mask(self.tricks, self.trick_cards)

    def card_places(self) -> dict[str, int]:
        places = {f"hand {seat}": self.hands[seat] for seat in range(self.game.num_seats)}
        places["played"] = self.played_mask()
        # poverty cards handed over and not yet taken in by anybody [§4.5]
        places["armut"] = self.armut_cards if self.armut_taker is None else 0
        return places

    def knowable_cards(self, seat: int) -> int:
        known = self.hands[seat] | self.played_mask()
        if seat in (self.poor, self.armut_taker):
            known |= self.armut_cards | self.armut_returned
        if self.thrown is not None and self.thrown[0] != "armut_not_taken":
            known |= self.hands[self.thrown[1]]  # a thrown-in hand is shown [§4.6]
        if self.silent_wedding_revealed and self.soloist is not None:
            known |= self.hands[self.soloist] & ((1 << CQ) | (1 << (CQ + N_FACES)))  # a void Genscher shows them [decision 0041]
        return known | self.announced_schwein_cards()

    def announced_schwein_cards(self) -> int:
        """Schweine and Superschweine announced to the table and still in their holder's hand [§1.3]."""
        known = 0
        for seat, f, shown in (
            (self.schweine_seat, self.schwein_face, self.schweine_shown),
            (self.superschweine_seat, self.super_face, self.super_shown),
        ):
            if shown and seat is not None and f is not None:
                known |= self.hands[seat] & ((1 << f) | (1 << (f + N_FACES)))
        return known

    # ---------------------------------------------------------- explanations
    def _explain(self, code: int) -> tuple[str, str]:
        """Why ``code`` is illegal now: a message and the dossier rule."""
        phase = self.phase
        p = self.to_move
        if phase == PLAY and self.must_call == p and self.level[self.party[p]] == NONE and code != A.ANNOUNCE + self.party[p]:
            party_call = PARTY_NAMES[self.party[p]].capitalize()
            return (
                f"the first trick held 30 eyes or more: say your party's {party_call} first, then play or call on",
                "§5.5 [VAR]",
            )
        if phase == PLAY and code < N_FACES:
            if not faces_of(self.hands[p]) >> code & 1:
                return (f"{FACES[code].text} is not in your hand", "§6.1")
            if self.trick_cards and self.order.eff[code] != self.led and self.hands[p] & self.order.follow[self.led]:
                return ("you must follow the suit led (trumps count as one suit)", "§6.1, TSR 5.2")
            return ("you must beat the trick when you can (Überstechen)", "§6.1 [VAR]")
        if phase == PLAY and A.ANNOUNCE <= code < A.SOLO:
            return self._explain_announce(code)
        if A.GENSCHER <= code < A.HOCHZEIT_SUIT and phase == PLAY:
            if code - A.GENSCHER == p or code - A.GENSCHER not in self.active:
                return ("a Genscher names another player at the table as partner", "§8.3 [VAR], decision 0025")
            return (
                "a Genscher is the first of both diamond kings, played in a game that looks normal to you (genscher=true)",
                "§8.3 [VAR], decision 0025, decision 0041",
            )
        if code == A.SCHWEINE:
            return (
                "only the holder of both Schwein cards shows them, before one of his cards in play (schweine=holder_choice)",
                "§1.3, §8.2 [VAR]",
            )
        if code == A.KLOPFEN:
            if not self.knocking:
                return ("knocking is switched off (knocking=false)", "§5.5 [VAR], decision 0028")
            if phase == PLAY and p in self.knocks:
                return ("you have knocked already: each player knocks once", "§5.5 [VAR], decision 0028")
            return ("a knock is made before one of your cards within the Re/Kontra deadline", "§5.2, §5.5 [VAR], decision 0028")
        if A.ANNOUNCE <= code < A.SOLO:
            return ("announcements are possible only once the game type is settled", "§5.2, TSR 6.2.1")
        if code < N_FACES:
            return (f"cards are played only in the play phase, not during {PHASE_NAMES[phase]}", "§3.1, TSR 4.1.1")
        expected = {
            RESERVATION: ("say gesund or vorbehalt", "§3.1"),
            DECLARE: ("name a reservation you hold that this round of the query asks for", "§3.1, §3.2"),
            ARMUT_GIVE: ("hand over all your trumps first, then fill up with other cards", "§4.5"),
            ARMUT_OFFER: ("accept or decline the poverty", "§4.5"),
            ARMUT_RETURN: ("return three cards of your hand", "§4.5"),
            PLAY: ("the game type is settled: play a card (calls come before your card)", "§6.1, §5.6"),
        }
        msg, rule = expected.get(phase, ("not possible now", ""))
        if phase == RESERVATION and code == A.GESUND:
            return ("with both queens of clubs you must reserve (stille_hochzeit=false)", "§4.3")
        return (f"not possible now: {msg}", rule)

    def _explain_announce(self, code: int) -> tuple[str, str]:
        p = self.to_move
        party = self.party[p]
        if not self.options.announcements:
            return ("announcements are switched off", "§8.4")
        idx = code - A.ANNOUNCE
        if not self.clarified:
            if self.options.hochzeit_announcement_timing == "shifted":
                return ("in a wedding the first call comes after the clarification trick", "§5.4, TSR 4.4.4")
            if idx >= 2:
                return ("in a wedding absagen come only after the clarification trick", "§5.4 [VAR]")
        if idx < 2 and idx != party:
            return (f"you belong to the {PARTY_NAMES[party]} party", "§5.1")
        level = RE_KONTRA if idx < 2 else idx
        if level <= self.level[party]:
            return ("your party has already made this call", "§5.1, TSR 6.4.7")
        if self.late_reply[party]:
            return ("after a late reply your party may make no absagen", "§5.3, TSR 6.4.4")
        opts = self.options
        if self._below_last_limit(self.call_count(p)):
            return (
                f"no calls with fewer than {opts.call_last_min_cards - self.call_offset} cards in hand (call_last_min_cards)",
                "§5.5 [VAR]",
            )
        if level > max(self.level[party] + 1, RE_KONTRA) and not opts.skip_levels:
            return ("levels may not be skipped (skip_levels=false)", "§5.2, TSR 6.4.3")
        if level > RE_KONTRA and self.level[1 - party] >= KEINE90 and not opts.absage_after_opponent_absage:
            return ("the other party has made an absage (absage_after_opponent_absage=false)", "§5.5 [VAR]")
        need = self.required(max(self.level[party] + 1, RE_KONTRA))
        if self.call_count(p) >= need:
            # Not a deadline: say so rather than "too late" to a player who holds enough cards (issue 40).
            return ("this call is not open to you at this moment", "§5.1, §5.2")
        if self.table_timing:
            played = len(self.active) * (self.n_tricks - need)
            message = f"too late: this call is open only while at most {played} cards lie played (timing_mode=table_cards)"
            return (message, "§5.5 [VAR], A-22")
        return (f"too late: this call needs at least {need} cards in hand", "§5.2, TSR 6.2.2")

    # ------------------------------------------------------------ observation
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know [§3.1 information model, §4.1, A-21]."""
        return self._observe(self, seat)


def physical_hands(game: Game, hands: Sequence[Sequence[Card]]) -> list[int]:
    """Explicit hands as physical masks (validated)."""
    return game.hands_from_cards(hands)
