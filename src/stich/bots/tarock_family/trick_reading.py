"""What the played tricks tell a seat: the cards gone, the voids shown, the trick on the table.

The heuristic bots of the Tarock-family games read this from the
observation before every card they play, and a ``pimc`` rollout asks them
for every card of every simulated deal, so the reading is written as one
pass over the tricks with bit masks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from stich.cards import Card
from stich.core.game import TrickView
from stich.core.tricks import EXCUSE, NO_SUIT, TRUMP, PlayOrder


@dataclass
class TrickReading:
    """The facts :func:`read_tricks` gathers."""

    played: int = 0
    """Mask of the faces played to any trick, the one on the table included."""
    voids: dict[int, set[int]] = field(default_factory=dict)
    """Per active seat, the effective suits it has shown it lacks (no trump either after a plain discard)."""
    seats: list[int] = field(default_factory=list)
    """The seats that played to the trick on the table, in order (empty when none is open)."""
    faces: list[int] = field(default_factory=list)
    """Their faces, in the same order."""
    finished: int = 0
    """Tricks already taken."""


def read_tricks(tricks: Sequence[TrickView], active: Sequence[int], face_of: Mapping[Card, int], order: PlayOrder) -> TrickReading:
    """One pass over ``tricks`` (an observation's) for the seats of ``active`` in playing order.

    A seat that does not follow the suit led (the first card that is no
    excuse) is void in it; if it did not trump either, it has no trump.
    With Trumpfzwang (every Tarock-family game) that is certain.
    """
    reading = TrickReading(voids={s: set() for s in active})
    place = {s: i for i, s in enumerate(active)}
    players = len(active)
    effective = order.eff
    voids = reading.voids
    played = 0
    for trick in tricks:
        start = place[trick.leader]
        led = NO_SUIT
        faces = [face_of[c] for c in trick.cards]
        for i, f in enumerate(faces):
            played |= 1 << f
            eff = effective[f]
            if eff == EXCUSE:
                continue
            if led == NO_SUIT:
                led = eff
            elif eff != led:
                seat = active[(start + i) % players]
                voids[seat].add(led)
                if eff != TRUMP:
                    voids[seat].add(TRUMP)
        if trick.winner is None:
            reading.faces = faces
            reading.seats = [active[(start + i) % players] for i in range(len(faces))]
        else:
            reading.finished += 1
    reading.played = played
    return reading
