"""Table-driven trick play shared by the Tarock-family games.

All five games play tricks the same way at heart: follow suit if able; if not,
trump if able (Trumpfzwang, not in Doppelkopf); else play any card; the
highest trump wins, else the highest card of the suit led; there is no duty to
beat.  A :class:`PlayOrder` holds, per physical card index, the card's
effective suit (a plain suit 0..3, :data:`TRUMP`, or :data:`EXCUSE` for a
card that never wins and may always be played, like Droggn's Gstieß) and its
strength, so that legal cards and trick winners are a few bit operations.
Special rules (a laid-out Pagat, Gstiesieren, Buchenbach's first tricks) are
applied by the games on top of :func:`legal_cards`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from stich.cards import Card, Deck

TRUMP = 4
"""Effective suit of a trump."""
EXCUSE = 5
"""Effective suit of an excuse: playable to any trick, never wins it."""
NO_SUIT = -1
"""``led`` of a trick whose suit is not set yet (empty, or only an excuse led)."""


@dataclass(frozen=True)
class PlayOrder:
    """Per physical card: effective suit and strength; per effective suit: a card mask.

    ``keys_by_led[led]`` is filled in from the others: per physical card its
    :meth:`key` in a trick asking for ``led`` (every value of ``led``,
    :data:`NO_SUIT` included), so that :func:`trick_winner` only looks keys up.
    """

    eff: tuple[int, ...]
    strength: tuple[int, ...]
    follow: tuple[int, ...]
    keys_by_led: dict[int, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    stronger_masks: dict[int, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    """Per effective suit, the masks :meth:`stronger` reads: entry ``i`` holds the cards stronger than ``stronger_low + i - 1``."""
    stronger_low: int = field(init=False, repr=False, compare=False)
    """The lowest strength of any card (the first entry of :attr:`stronger_masks` is every card of the suit)."""

    def __post_init__(self) -> None:
        leds = (NO_SUIT, *range(EXCUSE + 1))
        keys = {led: tuple(self.key(index, led) for index in range(len(self.eff))) for led in leds}
        object.__setattr__(self, "keys_by_led", keys)
        low = min(self.strength, default=0)
        high = max(self.strength, default=0)
        masks = {
            suit: tuple(
                sum(1 << i for i, (e, s) in enumerate(zip(self.eff, self.strength, strict=True)) if e == suit and s > above)
                for above in range(low - 1, high + 1)
            )
            for suit in range(EXCUSE + 1)
        }
        object.__setattr__(self, "stronger_masks", masks)
        object.__setattr__(self, "stronger_low", low)

    def stronger(self, suit: int, above: int) -> int:
        """Mask of the cards of effective suit ``suit`` whose strength exceeds ``above``.

        The heuristic bots count unseen cards that would beat a card (``unseen
        & stronger(...)``) many times per decision; a table lookup instead of
        a loop over the pack.  :data:`NO_SUIT` (the cards outside the pack) gives 0.
        """
        masks = self.stronger_masks.get(suit)
        if masks is None:
            return 0
        index = above - self.stronger_low + 1
        if index <= 0:
            return masks[0]
        return masks[index] if index < len(masks) else 0

    @property
    def trumps(self) -> int:
        """Mask of the trumps."""
        return self.follow[TRUMP]

    @property
    def excuses(self) -> int:
        """Mask of the excuse cards."""
        return self.follow[EXCUSE]

    def key(self, index: int, led: int) -> int:
        """Comparable strength of card ``index`` in a trick whose suit is ``led``.

        Trumps rank above the suit led; other suits and excuses cannot win (-1).
        """
        eff = self.eff[index]
        if eff == TRUMP:
            return 1000 + self.strength[index]
        if eff == led:
            return self.strength[index]
        return -1


def build_order(deck: Deck, classify: Callable[[Card], tuple[int, int]]) -> PlayOrder:
    """A :class:`PlayOrder` for ``deck``; ``classify(card)`` gives ``(effective suit, strength)``.

    Cards not in the pack get effective suit :data:`NO_SUIT` and are never
    part of a follow mask.
    """
    size = deck.n_faces * deck.copies
    eff = [NO_SUIT] * size
    strength = [0] * size
    follow = [0] * 6
    for index in deck.physical:
        suit, rank = classify(deck.card(index))
        if not 0 <= suit <= EXCUSE:
            raise ValueError(f"effective suit {suit} out of range for {deck.card(index).text}")
        eff[index] = suit
        strength[index] = rank
        follow[suit] |= 1 << index
    return PlayOrder(tuple(eff), tuple(strength), tuple(follow))


def led_suit(order: PlayOrder, trick: Sequence[int]) -> int:
    """The suit a trick asks for: that of the first card that is not an excuse."""
    effective = order.eff
    for index in trick:
        eff = effective[index]
        if eff != EXCUSE:
            return eff
    return NO_SUIT


def legal_cards(order: PlayOrder, hand: int, led: int, *, must_trump: bool = True) -> int:
    """Cards of ``hand`` that may be played to a trick asking for ``led``.

    Follow suit if able; if not, trump if able (when ``must_trump``); else
    anything.  An excuse may always be played.  ``led == NO_SUIT`` (leading,
    or after a led excuse) allows every card.
    """
    if led == NO_SUIT:
        return hand
    excuses = hand & order.follow[EXCUSE]
    follow = hand & order.follow[led]
    if follow:
        return follow | excuses
    if must_trump:
        trumps = hand & order.follow[TRUMP]
        if trumps:
            return trumps | excuses
    return hand


def trick_winner(order: PlayOrder, trick: Sequence[int]) -> int:
    """Position (0-based) of the winning card: highest trump, else highest of the suit led.

    An excuse never wins; a trick of excuses only is won by its first card
    (games with such a case decide it themselves).  Ties go to the earlier card.
    """
    keys = order.keys_by_led[led_suit(order, trick)]
    best, best_key = 0, -2
    for pos, index in enumerate(trick):
        key = keys[index]
        if key > best_key:
            best, best_key = pos, key
    return best


@dataclass(frozen=True)
class PlayedTrick:
    """One completed trick as the counting reads it: who played which card, in play order, and who won it."""

    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    winner: int


def played_mask(tricks: Sequence[tuple[Sequence[int], Sequence[int], int]], current: Sequence[int]) -> int:
    """Mask of the cards played so far: completed tricks as ``(seats, cards, winner)`` plus the current trick's cards."""
    mask = 0
    for _seats, cards, _winner in tricks:
        for index in cards:
            mask |= 1 << index
    for index in current:
        mask |= 1 << index
    return mask
