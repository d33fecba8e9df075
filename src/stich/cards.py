"""Cards as value types, with a text notation that round-trips.

A :class:`Card` is a *face*: a suit and a rank, immutable and hashable.  A
:class:`Deck` lays a game's physical cards out as indices ``0..n-1`` so that a
hand or a trick can be an ``int`` bitmask.  Doppelkopf's 48-card pack holds two
physical copies of each of its 24 faces: physical index ``copy * 24 + face``,
so the faces held in a hand are ``(hand | hand >> 24) & FACE_MASK``.

Text notation (used by tests, logs, records and the web API):

* plain cards: suit letter ``C S H D`` (clubs/Kreuz/Eichel, spades/Pik/Grün,
  hearts/Herz/Rot, diamonds/Karo/Schellen) followed by the rank token
  ``A K Q C J 10 9 8 7 6 5 4 3 2 1`` (``C`` after the suit letter is the
  Cavall/Reiter of tarock packs), e.g. ``H10``, ``CQ``, ``DA``, ``SC``;
* tarock trumps: ``T`` and the number, ``T1`` (Pagat) to ``T22`` (Sküs /
  Gstieß), e.g. ``T21``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache

from stich.errors import NotationError


class Suit(IntEnum):
    """The four plain suits and the tarock trump suit."""

    CLUBS = 0
    SPADES = 1
    HEARTS = 2
    DIAMONDS = 3
    TAROCK = 4

    @property
    def letter(self) -> str:
        """One-letter code used in the text notation."""
        return "CSHDT"[self]

    @property
    def symbol(self) -> str:
        """Unicode suit symbol for display (French suits)."""
        return ("♣", "♠", "♥", "♦", "T")[self]

    @property
    def french_name(self) -> str:
        """German name of the French-suited suit (Doppelkopf)."""
        return ("Kreuz", "Pik", "Herz", "Karo", "Tarock")[self]

    @property
    def german_name(self) -> str:
        """Name of the matching German-suited suit (Dobbm, German packs)."""
        return ("Eichel", "Laub", "Herz", "Schellen", "Tarock")[self]


class Rank(IntEnum):
    """Ranks of the plain suits.  Tarock trumps carry their number instead."""

    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    CAVALIER = 12
    QUEEN = 13
    KING = 14
    ACE = 15

    @property
    def token(self) -> str:
        """Rank token used in the text notation."""
        return _RANK_TOKENS[self]

    @property
    def german_name(self) -> str:
        """German name for display."""
        return _RANK_GERMAN[self]


_RANK_TOKENS = {
    Rank.ACE: "A",
    Rank.KING: "K",
    Rank.QUEEN: "Q",
    Rank.CAVALIER: "C",
    Rank.JACK: "J",
    **{Rank(n): str(n) for n in range(1, 11)},
}
_TOKEN_RANKS = {token: rank for rank, token in _RANK_TOKENS.items()}
_RANK_GERMAN = {
    Rank.ACE: "As",
    Rank.KING: "König",
    Rank.QUEEN: "Dame",
    Rank.CAVALIER: "Reiter",
    Rank.JACK: "Bube",
    **{Rank(n): str(n) for n in range(1, 11)},
}

MAX_TAROCK = 22


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A card face: a suit and a rank (a number 1..22 for tarock trumps)."""

    suit: Suit
    rank: int
    text: str = field(init=False, compare=False, repr=False)
    """The card in text notation, e.g. ``H10`` or ``T21``: made once when the card is, since every observation, view and
    record names cards by text (it was a property looked up per call, the largest single cost of a server's broadcast)."""

    def __post_init__(self) -> None:
        if self.suit is Suit.TAROCK:
            if not 1 <= self.rank <= MAX_TAROCK:
                raise NotationError(f"tarock number must be 1..{MAX_TAROCK}, got {self.rank}")
            text = f"T{self.rank}"
        elif self.rank not in _RANK_TOKENS:
            raise NotationError(f"no rank {self.rank} in a plain suit")
        else:
            text = self.suit.letter + _RANK_TOKENS[Rank(self.rank)]
        object.__setattr__(self, "text", text)

    def __hash__(self) -> int:
        # Cheaper than the generated tuple hash; cards key many lookup tables.
        return self.rank * 8 + self.suit

    def __str__(self) -> str:
        return self.text

    def display(self, german_suits: bool = False) -> str:
        """Human display with a suit symbol (``♥10``) or German suit initial."""
        if self.suit is Suit.TAROCK:
            return {1: "Pagat", 21: "Mond", 22: "Sküs"}.get(self.rank, f"T{self.rank}")
        token = _RANK_TOKENS[Rank(self.rank)]
        if german_suits:
            # German packs: Ober and Unter instead of queen and jack (the ace is the Daus/Sau).
            token = {"Q": "O", "J": "U"}.get(token, token)
            return f"{self.suit.german_name[0]}{token}"
        return f"{self.suit.symbol}{token}"

    @staticmethod
    def parse(text: str) -> Card:
        """Parse one card in text notation; raises :class:`NotationError`."""
        return parse_card(text)


@cache
def parse_card(text: str) -> Card:
    """Parse ``"H10"``, ``"cq"``, ``"T21"``...; raise :class:`NotationError` if malformed."""
    raw = text.strip().upper()
    if len(raw) < 2:
        raise NotationError(f"not a card: {text!r} (expected e.g. H10, CQ, DA, T21)")
    letter, token = raw[0], raw[1:]
    if letter == "T" and token.isascii() and token.isdigit() and not token.startswith("0"):
        number = int(token)
        if 1 <= number <= MAX_TAROCK:
            return Card(Suit.TAROCK, number)
        raise NotationError(f"not a card: {text!r} (tarock numbers are 1..{MAX_TAROCK})")
    suit_index = "CSHD".find(letter)
    if suit_index < 0 or token not in _TOKEN_RANKS:
        raise NotationError(f"not a card: {text!r} (expected suit C/S/H/D and rank A K Q C J 10..1)")
    return Card(Suit(suit_index), _TOKEN_RANKS[token])


def parse_cards(text: str) -> list[Card]:
    """Parse a whitespace- or comma-separated list of cards."""
    return [parse_card(tok) for tok in text.replace(",", " ").split()]


def format_cards(cards: list[Card] | tuple[Card, ...]) -> str:
    """Format cards as space-separated text notation."""
    return " ".join(card.text for card in cards)


class Deck:
    """A game's physical pack: ``n`` physical cards over ``len(faces)`` faces.

    Physical card ``i`` has face ``faces[i % len(faces)]``; with two copies the
    second copy of face ``f`` is index ``f + len(faces)``.  ``present`` masks out
    faces removed from the pack (Doppelkopf without nines keeps the same face
    indices, so tables do not change, and simply never deals those cards).
    """

    def __init__(self, faces: tuple[Card, ...], copies: int = 1, removed: frozenset[Card] = frozenset()) -> None:
        self.faces = faces
        self.copies = copies
        self.n_faces = len(faces)
        self.face_index = {card: i for i, card in enumerate(faces)}
        if len(self.face_index) != len(faces):
            raise ValueError("duplicate faces in deck")
        present_faces = [i for i, card in enumerate(faces) if card not in removed]
        self.physical = tuple(copy * self.n_faces + f for copy in range(copies) for f in present_faces)
        self.full_mask = 0
        for index in self.physical:
            self.full_mask |= 1 << index
        self.face_mask = (1 << self.n_faces) - 1
        self._hands: dict[int, tuple[Card, ...]] = {}
        """:meth:`hand`'s answers by mask (emptied when it reaches :attr:`HANDS_KEPT` entries)."""

    @property
    def size(self) -> int:
        """Number of physical cards actually in the pack."""
        return len(self.physical)

    def card(self, index: int) -> Card:
        """The face of physical card ``index``."""
        return self.faces[index % self.n_faces]

    def faces_of(self, mask: int) -> int:
        """Collapse a physical-card mask to a face mask."""
        out = 0
        for copy in range(self.copies):
            out |= mask >> (copy * self.n_faces)
        return out & self.face_mask

    HANDS_KEPT = 4096
    """Masks :meth:`hand` remembers at most."""

    def hand(self, mask: int) -> tuple[Card, ...]:
        """:meth:`cards` as a tuple, remembered per mask.

        Every observation shows its seat's hand, a server builds every seat's
        observation after every action and a search one at every step of a
        rollout, while a hand changes only when its holder plays: most calls
        ask for a mask asked for just before.
        """
        found = self._hands.get(mask)
        if found is None:
            if len(self._hands) >= self.HANDS_KEPT:
                self._hands.clear()
            found = self._hands[mask] = tuple(self.cards(mask))
        return found

    def cards(self, mask: int) -> list[Card]:
        """Faces of the physical cards in ``mask`` in pack order, copies of a face side by side.

        The order never depends on *which* copy of a face is in the mask, so a
        list of cards shown to a player cannot reveal how copies were dealt.
        """
        faces = self.faces
        if self.copies == 1:
            return [faces[f] for f in iter_bits(mask & self.face_mask)]
        out = []
        n = self.n_faces
        for f in iter_bits(self.faces_of(mask)):
            for copy in range(self.copies):
                if mask >> (copy * n + f) & 1:
                    out.append(faces[f])
        return out

    def texts(self, mask: int) -> list[str]:
        """The texts of :meth:`cards` (what an observation shows of a pile)."""
        return [card.text for card in self.cards(mask)]

    def mask_of(self, cards: list[Card] | tuple[Card, ...], taken: int = 0) -> int:
        """Physical mask for a list of faces: each face takes the lowest copy not yet used.

        ``taken`` holds physical cards already given elsewhere (other hands of
        the same deal).  Raises :class:`NotationError` if a face is not in the
        pack or appears more often than the pack still holds it.
        """
        mask = 0
        for card in cards:
            f = self.face_index.get(card)
            if f is None:
                raise NotationError(f"{card.text} is not in this pack")
            for copy in range(self.copies):
                bit = 1 << (copy * self.n_faces + f)
                if not (mask | taken) & bit and bit & self.full_mask:
                    mask |= bit
                    break
            else:
                raise NotationError(f"{card.text} appears more often than the pack holds it")
        return mask

    def masks_of(self, hands: list[list[Card]] | tuple[tuple[Card, ...], ...]) -> list[int]:
        """Physical masks for several hands of one deal, sharing the copies between them."""
        masks: list[int] = []
        taken = 0
        for hand in hands:
            mask = self.mask_of(hand, taken)
            taken |= mask
            masks.append(mask)
        return masks


_BYTE_BITS: tuple[tuple[int, ...], ...] = tuple(tuple(i for i in range(8) if byte >> i & 1) for byte in range(256))
"""The set bits of every byte value, ascending."""
_TABLE_BYTES = 16
"""Masks up to ``8 * _TABLE_BYTES`` bits long (every pack of stich) can be read a byte at a time."""
_BYTE_BITS_AT: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * k + i for i in bits) for bits in _BYTE_BITS) for k in range(_TABLE_BYTES)
)
"""``_BYTE_BITS_AT[k][byte]``: the set bits of ``byte`` as bit indices of the ``k``-th byte of a mask."""
_FEW_BITS = 6
"""Up to this many set bits :func:`iter_bits` peels them off one by one, beyond it reads bytes (faster there)."""


def iter_bits(mask: int) -> list[int]:
    """Indices of the set bits of ``mask`` (not negative), ascending.

    This is the inner loop of legal moves and of every mask-to-cards
    conversion, so it takes the faster of two ways: a few bits are peeled off
    lowest first; a fuller mask is read a byte at a time from a table.
    """
    out: list[int] = []
    if mask.bit_count() <= _FEW_BITS or mask.bit_length() > 8 * _TABLE_BYTES:
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out
    for table in _BYTE_BITS_AT:
        byte = mask & 0xFF
        if byte:
            out += table[byte]
        mask >>= 8
        if not mask:
            return out
    return out


_MEMO: dict[int, tuple[int, ...]] = {}
_MEMO_SIZE = 1 << 15
"""Masks :func:`memo_bits` remembers at most (then it forgets them all and starts again)."""


def memo_bits(mask: int) -> list[int]:
    """:func:`iter_bits`, remembered per mask: for legal moves, which a search asks for again and again.

    A tree search replays the same positions and card play repeats the same
    small sets of legal cards, so most masks have been seen before (over 90 %
    in ISMCTS); a lookup and a copy are several times cheaper than reading the
    bits.  Every call returns a new list.
    """
    known = _MEMO.get(mask)
    if known is None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        known = _MEMO[mask] = tuple(iter_bits(mask))
    return list(known)


def value_groups(values: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """``values`` (one number per bit index) grouped for :func:`mask_value`: ``(value, mask of the indices worth it)``.

    Card games have few distinct card values, so a sum over the cards of a
    mask becomes a handful of popcounts instead of a loop over its bits.
    Zero values are left out (they add nothing).
    """
    masks: dict[int, int] = {}
    for index, value in enumerate(values):
        if value:
            masks[value] = masks.get(value, 0) | 1 << index
    return tuple(sorted(masks.items()))


def mask_value(mask: int, groups: tuple[tuple[int, int], ...]) -> int:
    """Sum of the values of the set bits of ``mask``, with ``groups`` from :func:`value_groups`.

    Bits beyond the values' indices count nothing.
    """
    total = 0
    for value, members in groups:
        total += value * (mask & members).bit_count()
    return total
