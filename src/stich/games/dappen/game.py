"""The Dappen game: pack, seats, dealing and the entry point to a deal.

Seats and direction [§2]: Dappen is played anticlockwise.  Seats are numbered
0..n-1 in the direction of play, so seat ``i + 1`` acts after seat ``i``: seat
``dealer + 1`` is the player on the dealer's **right**, who speaks first in
both bidding rounds and deals next; seat ``dealer - 1`` is on the dealer's
**left** (the second-to-last player of rule (b) when the dealer plays).  With
one player more than ``max_active`` at the table (8 in the Black Forest, 7 in
Schollach) the dealer sits out and gets no cards.

A deal has the piles ``seat 0`` .. ``seat n-1`` and ``dapp`` (the 12-card
talon; 6 or 9 cards in the Jeu du Tarot with 3 to 5 players).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from stich.cards import Card, Deck
from stich.core.dealing import check_pile_sizes, deal_packets
from stich.core.game import ActionSpace, Game
from stich.core.options import OptionTable
from stich.core.rng import shuffled
from stich.errors import NotationError
from stich.games.dappen.actions import ACTIONS
from stich.games.dappen.describe import describe_result, hand_groups
from stich.games.dappen.observe import observe
from stich.games.dappen.options import OPTION_TABLE, DappenOptions
from stich.games.dappen.pack import DEAL_TABLES, DECK, EACH, POINTS, Packet, dapp_first, hand_and_dapp_size
from stich.games.dappen.state import DappenState, active_seats


class Dappen(Game):
    """Dappen, the Black Forest Tapp-Tarock, in its local versions (Furtwangen by default)."""

    name: ClassVar[str] = "dappen"
    title: ClassVar[str] = "Dappen"
    rules_version: ClassVar[int] = 1
    option_table: ClassVar[OptionTable] = OPTION_TABLE
    score_unit: ClassVar[str] = "cents"
    options: DappenOptions

    def __init__(self, preset: str | None = None, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(preset, options)
        opts = self.options
        packets = DEAL_TABLES[(opts.deal, opts.active_players)]
        self.packets: tuple[Packet, ...] = dapp_first(packets) if opts.dapp_first else packets
        self.hand_size, self.dapp_size = hand_and_dapp_size(self.packets)

    @property
    def num_seats(self) -> int:
        return self.options.players

    @property
    def deal_parts(self) -> tuple[str, ...]:
        return (*(f"seat {i}" for i in range(self.num_seats)), "dapp")

    @property
    def deck(self) -> Deck:
        return DECK

    @property
    def actions(self) -> ActionSpace:
        return ACTIONS

    def active_seats(self, dealer: int) -> tuple[int, ...]:
        """Seats that take part, in the order of play from the dealer's right (the dealer last, or out) [§2]."""
        return active_seats(self.num_seats, dealer, self.options)

    def deal(self, seed: int, dealer: int) -> list[int]:
        """Shuffle with ``seed`` and deal the packets of the deal table, from the dealer's right [§2, §8.4].

        Returns one mask per seat (an idle dealer's is empty) and the Dapp last.
        """
        n = self.num_seats
        active = self.active_seats(dealer)
        packets = [(pile, count) for kind, count in self.packets for pile in (active if kind == EACH else (n,))]
        return deal_packets(shuffled(DECK.physical, seed), packets, n + 1)

    def new_state(
        self,
        *,
        seed: int | None = None,
        hands: Sequence[Sequence[Card]] | None = None,
        dealer: int = 0,
        context: Mapping[str, Any] | None = None,
    ) -> DappenState:
        """A new deal from a seed or explicit piles (one per seat, then the Dapp).

        Dappen deals need no session context; ``context`` is kept as given.
        """
        if not 0 <= dealer < self.num_seats:
            raise NotationError(f"dealer must be a seat 0..{self.num_seats - 1}, got {dealer}")
        if hands is not None:
            masks = self.hands_from_cards(hands)
            n = self.num_seats
            active = set(self.active_seats(dealer))
            seats = []
            for seat in sorted(range(n), key=lambda s: s != dealer):  # the dealer first: an idle dealer's cards are the likely slip
                want = self.hand_size if seat in active else 0
                seats.append((seat, "the dealer, who sits out," if seat == dealer and want == 0 else f"seat {seat}", want))
            check_pile_sizes(masks, [*seats, (n, "the dapp", self.dapp_size)])
        elif seed is not None:
            masks = self.deal(seed, dealer)
        else:
            raise NotationError("a deal needs a seed or explicit piles")
        return DappenState(self, masks, dealer, seed, context or {}, observe)

    # ------------------------------------------------------------ display hooks
    def hand_groups(self, cards: Sequence[Card], public: Mapping[str, Any]) -> list[list[Card]]:
        """Trumps from the Gstieß down, then clubs, spades, hearts, diamonds, each from the king down (red 1 above 2)."""
        return hand_groups(cards)

    def trick_points(self, cards: Sequence[Card]) -> int | None:
        """Face points in a trick (the piles are counted in pairs only at the end, §7)."""
        return sum(POINTS[DECK.face_index[c]] for c in cards)

    def describe_result(self, result: Mapping[str, Any]) -> list[str]:
        """The evaluation in words: piles, count, win test, difference, factor, payments, Ultis."""
        return describe_result(result)
