"""The facts of a finished Dappen deal that evaluation needs (dossier §7, §8).

The state machine (state.py) fills a :class:`DealFacts`; the evaluation
(scoring.py) turns it into a :class:`~stich.core.game.DealResult`.  The facts
are stated after the ownership rules of §7.1 (the Dapp to the lone player
unless they took no trick; a kept-back Gstieß to the opponents, or to a lone
player who took every trick; the 1-point card handed over when the lone
player wins the last trick past a kept-back Gstieß), so that the worked
examples can be written as plain piles.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DealFacts:
    """Everything evaluation needs about a played (or shown) deal.

    ``opponents`` are the active players against the lone player; ``idle`` is
    a dealer who sits out (``None`` at a full table).  ``bidders`` lists every
    seat that bid in the contest that settled the game (the lone player
    included), so the "other bidder" of the Marsch liability is any bidder who
    ended up an opponent.  ``lone_face``/``lone_cards`` and
    ``opp_face``/``opp_cards`` are the face-value sums and card counts of the
    two piles.  ``ulti`` holds each laid-out Ulti as (trump number, won).
    ``seven_fives``: the lone player showed all seven five-pointers and there
    was no play [§4].
    """

    num_seats: int
    lone: int
    opponents: tuple[int, ...]
    contract: str
    bidders: tuple[int, ...]
    lone_face: int
    lone_cards: int
    opp_face: int
    opp_cards: int
    lone_tricks: int
    opp_tricks: int
    idle: int | None = None
    gstiesierer: int | None = None
    ulti: tuple[tuple[int, bool], ...] = ()
    seven_fives: bool = False
