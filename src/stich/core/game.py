"""Game (immutable rules) and State (one deal): the API every game implements.

A :class:`Game` is a validated rules configuration with a canonical string; a
:class:`State` is one deal in progress that points back to its game.  Actions
are interned :class:`Action` values with a text form and a stable integer
code; states work on codes internally so that legal-move generation, apply and
clone stay a few operations each.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from stich.cards import Card, Deck, Suit, parse_card
from stich.core.options import OptionTable
from stich.errors import IllegalActionError, NotationError

TERMINAL = -1
"""``current_player()`` of a finished deal."""


@dataclass(frozen=True, slots=True)
class Action:
    """One action: stable integer ``code``, text form ``text`` (e.g. ``play H10``)."""

    code: int
    text: str

    def __str__(self) -> str:
        return self.text

    @property
    def kind(self) -> str:
        """The verb of the action (``play``, ``announce``, ``gesund``...)."""
        return self.text.split(" ", 1)[0]


def _normalise_word(word: str) -> str:
    """A word of an action text: cards in canonical upper case, everything else lower case."""
    try:
        return parse_card(word).text
    except NotationError:
        return word.lower()


class ActionSpace:
    """All actions of a game, indexed by code and by text."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.actions = tuple(Action(code, text) for code, text in enumerate(texts))
        self.by_text = {a.text: a for a in self.actions}
        if len(self.by_text) != len(self.actions):
            raise ValueError("duplicate action text")

    def __len__(self) -> int:
        return len(self.actions)

    def __getitem__(self, code: int) -> Action:
        return self.actions[code]

    def parse(self, text: str) -> Action:
        """The action with this text (case and spacing are normalised)."""
        words = text.split()
        if not words:
            raise NotationError("empty action")
        words = [_normalise_word(w) for w in words]
        key = " ".join(words)
        action = self.by_text.get(key)
        if action is None:
            raise NotationError(f"unknown action {text!r}")
        return action


@dataclass(frozen=True)
class TrickView:
    """A trick as seen on the table: leader, cards in play order, winner if complete."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"leader": self.leader, "cards": [c.text for c in self.cards], "winner": self.winner}


_VIEWS_KEY = "_finished_trick_views"
"""Attribute under which :func:`trick_views` keeps a state's finished-trick views."""

_EVENTS_KEY = "_seen_events"
"""Attribute under which :func:`seen_events` keeps a state's rendered events per seat."""


def trick_views(
    tricks: Sequence[tuple[Sequence[int], Sequence[int], int]],
    trick_seats: Sequence[int],
    trick_cards: Sequence[int],
    faces: Sequence[Card],
    owner: object | None = None,
) -> tuple[TrickView, ...]:
    """The finished tricks ``(seats, card codes, winner)`` and the one on the table, as views.

    ``faces[code]`` is the card a code stands for; every game keeps its tricks
    in this form, so every observation builds its trick views here.

    With ``owner`` (the state whose ``tricks`` these are) the views of the
    finished tricks are kept on it and only new tricks are converted: a
    rollout builds an observation for every card, and converting every trick
    each time was a large share of that.  A finished trick never changes and
    ``tricks`` only grows, so the kept views stay right; they are a tuple,
    replaced rather than changed, so a clone that shares them stays
    independent of its original.
    """
    if owner is None:
        views = tuple(TrickView(seats[0], tuple(faces[c] for c in cards), winner) for seats, cards, winner in tricks)
    else:
        store = owner.__dict__
        views = store.get(_VIEWS_KEY, ())
        if len(views) != len(tricks):
            if len(views) > len(tricks):
                views = ()
            views += tuple(TrickView(seats[0], tuple(faces[c] for c in cards), winner) for seats, cards, winner in tricks[len(views) :])
            store[_VIEWS_KEY] = views
    if trick_cards:
        views += (TrickView(trick_seats[0], tuple(faces[c] for c in trick_cards)),)
    return views


def seen_events(owner: State, seat: int, text: Callable[[int, int], str], *, settled: bool) -> tuple[tuple[int, str], ...]:
    """``owner.history`` as ``seat`` sees it: ``(actor, text(actor, code))`` for every action.

    With ``settled`` true (no earlier action's text can change any more: a
    hidden discard that could still be revealed, say, is revealed or never
    will be) the texts are kept on the state per seat, and later calls
    render only the actions added since.  Rendering the whole history was a
    third of an observation's cost in rollouts, which observe at every card.
    The kept texts are replaced, never changed in place, so a clone that
    shares them stays independent of its original.  The games' observation
    tests check the kept texts against fresh ones at every step.
    """
    history = owner.history
    if not settled:
        return tuple((actor, text(actor, code)) for actor, code in history)
    store = owner.__dict__
    kept: dict[int, tuple[tuple[int, str], ...]] = store.get(_EVENTS_KEY, {})
    events = kept.get(seat, ())
    if len(events) != len(history):
        if len(events) > len(history):
            events = ()
        events += tuple((actor, text(actor, code)) for actor, code in history[len(events) :])
        store[_EVENTS_KEY] = {**kept, seat: events}
    return events


@dataclass(frozen=True)
class Observation:
    """What one seat may know: its hand, public events, tricks, game-specific facts.

    ``events`` lists every action in order as ``(seat, text)``; actions this seat
    may not see (another player's discard, say) appear with ``text`` replaced by
    a public placeholder.  ``public`` holds the game's public facts (contract,
    announcements, known parties); ``private`` what only this seat knows beyond
    its hand (cards it handed over or received, say).
    """

    game: str
    seat: int
    phase: str
    to_move: int
    hand: tuple[Card, ...]
    legal_actions: tuple[Action, ...]
    events: tuple[tuple[int, str], ...]
    tricks: tuple[TrickView, ...]
    public: Mapping[str, Any] = field(default_factory=dict)
    private: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """JSON form (what a client or a bot receives)."""
        return {
            "game": self.game,
            "seat": self.seat,
            "phase": self.phase,
            "to_move": self.to_move,
            "hand": [c.text for c in self.hand],
            "legal_actions": [a.text for a in self.legal_actions],
            "events": [[s, t] for s, t in self.events],
            "tricks": [t.to_json() for t in self.tricks],
            "public": dict(self.public),
            "private": dict(self.private),
        }


@dataclass(frozen=True)
class DealResult:
    """Outcome of a finished deal: score change per seat and a JSON-able breakdown."""

    scores: tuple[int, ...]
    breakdown: Mapping[str, Any]
    thrown_in: bool = False
    """The deal was not played out (thrown in, all passed): it is redealt and does not count as a game."""

    def to_json(self) -> dict[str, Any]:
        """JSON form used in records (``result.scores`` is the contract)."""
        return {"scores": list(self.scores), **self.breakdown}


def _pile_cards(pile: object, where: str) -> list[Card]:
    """One pile of ``new_state(hands=...)`` as cards: Card values, card texts, or one text of the whole pile."""
    if isinstance(pile, str):
        return [_card_at(text, f"{where}[{index}]") for index, text in enumerate(pile.replace(",", " ").split())]
    if not isinstance(pile, Sequence):
        raise NotationError(f"{where}: a pile must be a list of cards or a text such as 'H10 CQ', got {type(pile).__name__}")
    cards = [card for card in pile if isinstance(card, Card)]
    if len(cards) == len(pile):
        return cards
    return [_card_at(card, f"{where}[{index}]") for index, card in enumerate(pile)]


def _card_at(card: object, where: str) -> Card:
    """A card given as a :class:`Card` or as text; :class:`NotationError` naming ``where`` otherwise."""
    if isinstance(card, Card):
        return card
    if not isinstance(card, str):
        raise NotationError(f"{where}: not a card: {type(card).__name__} {card!r} (give a Card or text such as H10)")
    try:
        return parse_card(card)
    except NotationError as exc:
        raise NotationError(f"{where}: {exc}") from None


def _unplaceable(deck: Deck, piles: Sequence[Sequence[Card]], message: str) -> str:
    """Why ``deck.masks_of(piles)`` failed, at the position (``hands[2][5]``) of the first card it cannot place."""
    taken = 0
    for index, pile in enumerate(piles):
        for position, card in enumerate(pile):
            face = deck.face_index.get(card)
            if face is None or not any(1 << (copy * deck.n_faces + face) & deck.full_mask for copy in range(deck.copies)):
                return f"hands[{index}][{position}]: {card.text} is not in this pack"
            try:
                taken |= deck.mask_of([card], taken)
            except NotationError as exc:
                return f"hands[{index}][{position}]: {exc}"
    return message


class Game(ABC):
    """An immutable, validated rules configuration of one game."""

    name: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[int]
    option_table: ClassVar[OptionTable]
    score_unit: ClassVar[str] = "points"
    german_suited: ClassVar[bool] = False
    """Whether the game is played with a German-suited pack (display only)."""
    card_points_name: ClassVar[str] = "points"
    """What players call card points (Doppelkopf: eyes), for display."""
    hand_group_facts: ClassVar[tuple[str, ...]] = ()
    """The keys of an observation's ``public`` that :meth:`hand_groups` reads (the web server sorts a hand again only when
    the hand or one of these changed); a game whose order depends on public facts names them here."""

    def __init__(self, preset: str | None = None, options: Mapping[str, Any] | None = None) -> None:
        self.preset, self.options = self.option_table.build(preset, options)
        self.canonical = self.option_table.canonical(self.preset, self.options)

    def __str__(self) -> str:
        return self.canonical

    def __repr__(self) -> str:
        return f"<Game {self.canonical}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.canonical == self.canonical

    def __hash__(self) -> int:
        return hash(self.canonical)

    @property
    @abstractmethod
    def num_seats(self) -> int:
        """Seats at the table (including a dealer who sits out)."""

    @property
    def deal_parts(self) -> tuple[str, ...]:
        """Names of the piles a deal makes: one hand per seat, then any talon piles.

        ``deal()``, ``State.dealt``, ``new_state(hands=...)`` and a record's
        ``deal`` list the piles in this order.  Games with a talon override it,
        e.g. ``("seat 0", "seat 1", "seat 2", "talon")``.
        """
        return tuple(f"seat {i}" for i in range(self.num_seats))

    @property
    @abstractmethod
    def deck(self) -> Deck:
        """The physical pack."""

    @property
    @abstractmethod
    def actions(self) -> ActionSpace:
        """Every action of this game."""

    @abstractmethod
    def deal(self, seed: int, dealer: int) -> list[int]:
        """Piles (physical-card masks, one per entry of :attr:`deal_parts`) dealt from ``seed``."""

    @abstractmethod
    def new_state(
        self,
        *,
        seed: int | None = None,
        hands: Sequence[Sequence[Card]] | None = None,
        dealer: int = 0,
        context: Mapping[str, Any] | None = None,
    ) -> State:
        """A fresh deal from a seed or from explicit piles (one list of cards per :attr:`deal_parts` entry).

        A pile's cards may also be given in text notation (``["H10", "CQ"]`` or
        ``"H10 CQ"``); see :meth:`hands_from_cards`, which every game reads
        its piles with.

        ``context`` carries what the session knows (who still owes a compulsory
        solo, a forced solo, bock multipliers...); games document their keys.
        """

    # Display hooks: how players hold their cards and read a result.  Rules
    # never depend on them; the terminal and the web client use them.
    def hand_groups(self, cards: Sequence[Card], public: Mapping[str, Any]) -> list[list[Card]]:
        """The hand as players hold it: groups shown apart, each highest card first.

        ``public`` is the observation's public facts (the game type can change
        the order).  Default: tarocks high to low, then each suit (clubs,
        spades, hearts, diamonds) high to low by rank; games override this.
        """
        groups: list[list[Card]] = []
        for suit in (Suit.TAROCK, Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS):
            group = sorted((c for c in cards if c.suit is suit), key=lambda c: -c.rank)
            if group:
                groups.append(group)
        return groups

    def trick_points(self, cards: Sequence[Card]) -> int | None:
        """Card points of a trick, where the game counts them per trick (``None`` otherwise)."""
        return None

    def call_deadlines(self, public: Mapping[str, Any]) -> dict[str, Any] | None:
        """Until when calls may be made during play, from an observation's public facts (``None``: no calls in play).

        Display only (clients show it next to the call buttons); games whose calls run into the trick play
        override this.  Reading only ``public`` keeps it the same for every viewer of a moment.
        """
        return None

    def describe_result(self, result: Mapping[str, Any]) -> list[str]:
        """A finished deal's result (``DealResult.to_json()``) in a few plain-text lines.

        Default: the breakdown's simple values; games override this with their
        own evaluation in words.
        """
        lines = []
        for key, value in result.items():
            if key != "scores" and isinstance(value, (str, int, float, bool)):
                lines.append(f"{key.replace('_', ' ')}: {value}")
        return lines

    def hands_from_cards(self, hands: Sequence[Sequence[Card]]) -> list[int]:
        """Validate explicit piles (every card of the pack exactly once) as masks.

        This is how every game's ``new_state(hands=...)`` reads its piles, so
        each pile may be given as :class:`Card` values, as card texts in the
        notation of :mod:`stich.cards` (``"H10"``, ``"cq"``, ``"T21"``), or
        as one text listing the pile (``"H10 CQ DA"``).  A pile or card that
        is none of these, or a card not in the pack, raises
        :class:`NotationError` naming its position (``hands[1][3]``).  (The
        annotation names the form games pass; text is read at run time, so
        games that override this method keep their signature.)
        """
        parts = self.deal_parts
        if isinstance(hands, str) or not isinstance(hands, Sequence):
            raise NotationError(f"hands must be a list of {len(parts)} piles ({', '.join(parts)}), got {type(hands).__name__}")
        if len(hands) != len(parts):
            raise NotationError(f"a deal needs {len(parts)} piles ({', '.join(parts)}), got {len(hands)}")
        piles = [_pile_cards(pile, f"hands[{index}]") for index, pile in enumerate(hands)]
        try:
            masks = self.deck.masks_of(piles)
        except NotationError as exc:
            raise NotationError(_unplaceable(self.deck, piles, str(exc))) from None
        # masks_of refused any card not in the pack or held more often than the pack has it, so the piles are
        # disjoint; together they are the pack exactly when they cover it (checked on masks: this runs once per
        # world a search bot draws).
        covered = 0
        for mask in masks:
            covered |= mask
        if covered != self.deck.full_mask:
            raise NotationError("the hands do not hold exactly the cards of the pack")
        return masks


class State(ABC):
    """One deal in progress.  Mutable; :meth:`clone` gives an independent copy."""

    game: Game
    history: list[tuple[int, int]]
    """Every action so far as ``(seat, code)``."""
    dealt: tuple[int, ...]
    """The piles as dealt (physical-card masks, one per ``game.deal_parts`` entry)."""
    dealer: int
    seed: int | None
    """The seed the deal came from, or ``None`` for an explicit deal."""
    context: dict[str, Any]
    """What the session passed in (game-specific keys, JSON-able)."""

    @abstractmethod
    def current_player(self) -> int:
        """Seat to act, or :data:`TERMINAL`."""

    @abstractmethod
    def legal_codes(self) -> list[int]:
        """Codes of the legal actions, ascending."""

    @abstractmethod
    def illegal_reason(self, code: int) -> tuple[str, str] | None:
        """``None`` if ``code`` is legal now, else ``(message, rule)``."""

    @abstractmethod
    def _apply_code(self, code: int) -> None:
        """Apply a code already known to be legal."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the deal is over."""

    @abstractmethod
    def result(self) -> DealResult:
        """Scores of a finished deal; raises if not terminal."""

    @abstractmethod
    def observation(self, seat: int) -> Observation:
        """Exactly what ``seat`` may know."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy."""

    @abstractmethod
    def hand_mask(self, seat: int) -> int:
        """Physical cards still held by ``seat`` (full information)."""

    @abstractmethod
    def card_places(self) -> dict[str, int]:
        """Where every physical card is now: named masks that partition the pack.

        E.g. ``{"hand 0": ..., "hand 1": ..., "played": ..., "talon": ...}``;
        the conformance suite checks that they never overlap and always hold
        the whole pack (cards are conserved).
        """

    @abstractmethod
    def knowable_cards(self, seat: int) -> int:
        """Physical cards ``seat`` is entitled to know now (own hand, cards played,
        talon cards shown to it, cards it handed over or received...).

        Stated from the rules, independently of :meth:`observation`, so that
        the conformance suite can check observations leak nothing beyond it.
        """

    def legal_actions(self) -> list[Action]:
        """Legal actions, sorted by code (deterministic)."""
        table = self.game.actions.actions
        return [table[c] for c in self.legal_codes()]

    def to_action(self, action: Action | int | str) -> Action:
        """Normalise an action given as Action, code or text."""
        space = self.game.actions
        if isinstance(action, Action):
            if action.code >= len(space) or (space[action.code] is not action and space[action.code] != action):
                raise NotationError(f"{action.text!r} is not an action of {self.game.name}")
            return action
        if isinstance(action, int):
            if not 0 <= action < len(space):
                raise NotationError(f"no action with code {action} in {self.game.name}")
            return space[action]
        return space.parse(action)

    def apply(self, action: Action | int | str) -> None:
        """Apply an action; an illegal one raises :class:`IllegalActionError` and changes nothing."""
        table = self.game.actions.actions
        # Fast path for codes and interned actions (search and simulation loops).
        if type(action) is int and 0 <= action < len(table):
            code = action
        elif type(action) is Action and action.code < len(table) and table[action.code] is action:
            code = action.code
        else:
            code = self.to_action(action).code
        reason = self.illegal_reason(code)
        if reason is not None:
            message, rule = reason
            raise IllegalActionError(f"{table[code].text}: {message}", rule)
        self._apply_code(code)

    def is_legal(self, action: Action | int | str) -> bool:
        """Whether an action is legal now (malformed text counts as illegal)."""
        try:
            act = self.to_action(action)
        except NotationError:
            return False
        return self.illegal_reason(act.code) is None


class PhasedState(State):
    """The basics the trick-game states share: a phase number, the seat to move,
    hands as physical-card masks, tricks as card codes, a cheap clone, and
    the rules every game's deal keeps the same way.

    Subclasses name their phases (``PHASE_NAMES``, indexed by ``phase``),
    the finished one (``END_PHASE``) and every mutable container attribute
    (``MUTABLE``: lists, dicts, sets); :meth:`clone` copies the attribute
    dict and those containers, everything else is immutable and shared.  The
    conformance harness checks that clones are independent.

    What is the same in every game lives here once: the result exists only
    once the deal is over and is counted once (:meth:`result`, the game's
    count in :meth:`_evaluate`); a finished deal has no player to move
    (:meth:`_finish`); a card is legal exactly when :meth:`playable` holds
    it (:meth:`illegal_reason`, for games whose card codes are the card
    indices below ``CARD_CODES``); and an observation is the seat's hand, its
    legal actions on its turn, the events as it saw them and the tricks
    (:meth:`seat_observation`), around the game's public and private facts.
    """

    PHASE_NAMES: ClassVar[tuple[str, ...]]
    END_PHASE: ClassVar[int]
    PLAY_PHASE: ClassVar[int]
    """The trick-play phase, where :meth:`illegal_reason` tests a card against :meth:`playable`."""
    CARD_CODES: ClassVar[int]
    """Codes below this one play the card of that index (the games' ``actions.DISCARD``)."""
    RESULT_RULE: ClassVar[str] = "§7"
    """The dossier section that counts a deal (§7 in every game's dossier), named when a result is asked too early."""
    MUTABLE: ClassVar[tuple[str, ...]]
    phase: int
    to_move: int
    active: tuple[int, ...]
    """The seats dealt in, in the order they speak (an idle dealer left out): each plays one card to a trick."""
    hands: list[int]
    tricks: list[tuple[tuple[int, ...], tuple[int, ...], int]]
    trick_seats: list[int]
    trick_cards: list[int]
    _result: DealResult | None

    @property
    def phase_name(self) -> str:
        """Name of the current phase."""
        return self.PHASE_NAMES[self.phase]

    def current_player(self) -> int:
        return TERMINAL if self.phase == self.END_PHASE else self.to_move

    def is_terminal(self) -> bool:
        return self.phase == self.END_PHASE

    def hand_mask(self, seat: int) -> int:
        return self.hands[seat]

    def playable(self, seat: int) -> int:
        """Cards ``seat`` may play now (a mask of card indices)."""
        raise NotImplementedError

    def _explain(self, code: int) -> tuple[str, str]:
        """Why ``code`` is illegal now: a message and the dossier rule."""
        raise NotImplementedError

    def illegal_reason(self, code: int) -> tuple[str, str] | None:
        if self.phase == self.END_PHASE:
            return ("the deal is over", self.RESULT_RULE)
        if self.phase == self.PLAY_PHASE and code < self.CARD_CODES:  # a card: legal if it is playable (what legal_codes lists)
            return None if self.playable(self.to_move) >> code & 1 else self._explain(code)
        if code in self.legal_codes():
            return None
        return self._explain(code)

    def _finish(self) -> None:
        """The deal is over: nobody moves any more."""
        self.phase = self.END_PHASE
        self.to_move = TERMINAL

    def _evaluate(self) -> DealResult:
        """The count of the finished deal (called once; :meth:`result` keeps it)."""
        raise NotImplementedError

    def result(self) -> DealResult:
        if self.phase != self.END_PHASE:
            raise IllegalActionError("the deal is not finished yet", self.RESULT_RULE)
        if self._result is None:
            self._result = self._evaluate()
        return self._result

    def seat_observation(
        self,
        seat: int,
        *,
        faces: Sequence[Card],
        event_text: Callable[[int, int], str],
        settled: bool,
        public: dict[str, Any],
        private: dict[str, Any],
    ) -> Observation:
        """The observation of ``seat`` around the game's ``public`` and ``private`` facts.

        Its hand, its legal actions when it is to move (none otherwise), the
        events as ``event_text(actor, code)`` renders them for it (kept on the
        state once ``settled``, see :func:`seen_events`) and the tricks, whose
        codes ``faces`` turns into cards (see :func:`trick_views`).
        """
        to_move = self.current_player()
        return Observation(
            game=self.game.canonical,
            seat=seat,
            phase=self.PHASE_NAMES[self.phase],
            to_move=to_move,
            hand=self.game.deck.hand(self.hands[seat]),
            legal_actions=tuple(self.legal_actions()) if to_move == seat else (),
            events=seen_events(self, seat, event_text, settled=settled),
            tricks=trick_views(self.tricks, self.trick_seats, self.trick_cards, faces, self),
            public=public,
            private=private,
        )

    def clone(self) -> Self:
        new = object.__new__(type(self))
        d = self.__dict__.copy()
        for key in self.MUTABLE:
            d[key] = d[key].copy()
        new.__dict__ = d
        return new
