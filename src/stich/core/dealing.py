"""Who takes part in a deal, in which turn, and how the cards are dealt: the table of every Tarock-family game.

A deal's players are the seats in turn from the dealer's neighbour on
(:func:`seats_in_turn`), the dealer last or sitting out at a full table;
:func:`next_seats` is the turn as a lookup table, for trick play.

The Tarock-family games deal a shuffled pack (:func:`stich.core.rng.shuffled`)
the way it is done at the table: packets of a few cards to each player in
turn, and the talon at a fixed point of the deal; the whole pack is dealt.
A game states its deal as the list of packets, ``(pile, count)`` in order,
and :func:`deal_packets` deals it.  :func:`check_pile_sizes` is the matching
check of a deal given as explicit piles (``new_state(hands=...)``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from stich.errors import NotationError


def seats_in_turn(num_seats: int, dealer: int, *, dealer_sits_out: bool) -> tuple[int, ...]:
    """The seats that take part, in the direction of play from the dealer's neighbour: the dealer last, or left out."""
    seats = tuple((dealer + i) % num_seats for i in range(1, num_seats + 1))
    return seats[:-1] if dealer_sits_out else seats


def next_seats(active: Sequence[int], num_seats: int) -> tuple[int, ...]:
    """Per seat, the seat of ``active`` that plays after it (-1 for a seat out of the deal)."""
    after = [-1] * num_seats
    for i, seat in enumerate(active):
        after[seat] = active[(i + 1) % len(active)]
    return tuple(after)


def deal_packets(cards: Sequence[int], packets: Iterable[tuple[int, int]], piles: int) -> list[int]:
    """``piles`` masks dealt from ``cards`` (physical card indices, top first): each packet ``(pile, count)``
    gives the next ``count`` cards to ``pile``.  The packets must share out the whole pack."""
    masks = [0] * piles
    pos = 0
    for pile, count in packets:
        mask = masks[pile]
        for index in cards[pos : pos + count]:
            mask |= 1 << index
        masks[pile] = mask
        pos += count
    assert pos == len(cards), "the packets do not share out the whole pack"
    return masks


def check_pile_sizes(masks: Sequence[int], expected: Iterable[tuple[int, str, int]]) -> None:
    """Raise :class:`NotationError` at the first pile whose size is off: ``expected`` lists ``(pile, label, cards)``
    in the order to check, and the error reads ``"<label> holds <n> cards, expected <cards>"``."""
    for pile, label, want in expected:
        have = masks[pile].bit_count()
        if have != want:
            raise NotationError(f"{label} holds {have} cards, expected {want}")
