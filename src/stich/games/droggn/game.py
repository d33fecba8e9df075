"""The Droggn game: pack, seats, dealing and the entry point to a deal.

Droggn is played clockwise [§2].  Seats are numbered in the direction of
play: seat ``i + 1`` (mod the table) is the next to act after seat ``i``, so
the dealer's left neighbour is ``dealer + 1`` and the player to the dealer's
right (who cuts) is ``dealer - 1``.  Three players take part; with four at
the table (option ``players=4``) the dealer sits out the deal and is scored
with the defenders [§2, §8.6].
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from stich.cards import Card, Deck
from stich.core.dealing import check_pile_sizes, deal_packets, seats_in_turn
from stich.core.game import ActionSpace, Game
from stich.core.options import OptionTable
from stich.core.rng import shuffled
from stich.core.tricks import EXCUSE, TRUMP
from stich.errors import NotationError
from stich.games.droggn.actions import ACTIONS
from stich.games.droggn.observe import observe
from stich.games.droggn.options import OPTION_TABLE, DroggnOptions
from stich.games.droggn.pack import BY_NAME, FACE_INDEX, deck_for, play_order
from stich.games.droggn.state import TALON_SIZE, DroggnState

TALON = -1
"""A deal-pattern step that deals the talon."""
PATTERNS: dict[str, tuple[int, ...]] = {
    "7-7-7-talon": (7, 7, 7, TALON),
    "talon_in_middle": (7, TALON, 7, 7),
    "5-5-5-3-3-talon": (5, 5, 5, 3, 3, TALON),
    "5-5-5-5-5-talon": (5, 5, 5, 5, 5, TALON),
}
"""Packets per player, round by round, and where the talon is dealt [§2, §9]."""


class Droggn(Game):
    """Droggn, the 66-card tarock game of the Stubai valley, after PAGAT, with its variants as options."""

    name: ClassVar[str] = "droggn"
    title: ClassVar[str] = "Droggn"
    rules_version: ClassVar[int] = 1
    option_table: ClassVar[OptionTable] = OPTION_TABLE
    score_unit: ClassVar[str] = "points"
    options: DroggnOptions

    @property
    def num_seats(self) -> int:
        return self.options.players

    @property
    def deal_parts(self) -> tuple[str, ...]:
        return (*(f"seat {i}" for i in range(self.num_seats)), "talon")

    @property
    def deck(self) -> Deck:
        return deck_for(self.options.pack_size)

    @property
    def actions(self) -> ActionSpace:
        return ACTIONS

    def active_seats(self, dealer: int) -> tuple[int, ...]:
        """The three players of a deal, clockwise from the dealer's left (the dealer sits out at four)."""
        return seats_in_turn(self.num_seats, dealer, dealer_sits_out=self.num_seats == 4)

    def deal(self, seed: int, dealer: int) -> list[int]:
        """Shuffle with ``seed`` and deal packets clockwise from the dealer's left, the talon where the pattern puts it [§2, §9]."""
        n = self.num_seats
        active = self.active_seats(dealer)
        packets = [
            packet
            for step in PATTERNS[self.options.deal_pattern]
            for packet in ([(n, TALON_SIZE)] if step == TALON else [(seat, step) for seat in active])
        ]
        return deal_packets(shuffled(self.deck.physical, seed), packets, n + 1)

    def new_state(
        self,
        *,
        seed: int | None = None,
        hands: Sequence[Sequence[Card]] | None = None,
        dealer: int = 0,
        context: Mapping[str, Any] | None = None,
    ) -> DroggnState:
        """A new deal from a seed or from explicit piles (``seat 0`` .. ``seat n-1``, then ``talon``).

        Droggn takes no context keys (the session passes an empty context).
        """
        if not 0 <= dealer < self.num_seats:
            raise NotationError(f"dealer must be a seat 0..{self.num_seats - 1}, got {dealer}")
        if hands is not None:
            masks = self.hands_from_cards(hands)
            size = self.options.hand_size
            active = self.active_seats(dealer)
            n = self.num_seats
            seats = [(seat, f"seat {seat}", size if seat in active else 0) for seat in range(n)]
            check_pile_sizes(masks, [*seats, (n, "the talon", TALON_SIZE)])
        elif seed is not None:
            masks = self.deal(seed, dealer)
        else:
            raise NotationError("a deal needs a seed or explicit hands")
        return DroggnState(self, masks, dealer, seed, context or {}, observe)

    # ----------------------------------------------------------- display hooks
    def hand_groups(self, cards: Sequence[Card], public: Mapping[str, Any]) -> list[list[Card]]:
        """The Gstieß, the trumps XXI..I, then clubs, spades, hearts, diamonds, each from the king down (§1).

        The red suits run K Q C J 1 2 .. 7: the red ace is their highest pip.
        """
        order = play_order(self.options.pack_size)
        groups: list[list[Card]] = []
        for eff in (EXCUSE, TRUMP, 0, 1, 2, 3):
            group = sorted((c for c in cards if order.eff[FACE_INDEX[c]] == eff), key=lambda c: -order.strength[FACE_INDEX[c]])
            if group:
                groups.append(group)
        return groups

    def describe_result(self, result: Mapping[str, Any]) -> list[str]:
        """The count and the payment in words (§7, §8); a thrown-in deal (§3.2)."""
        if result.get("kind") == "thrown":
            return [f"All passed: the cards are thrown in and seat {result['seat']} deals again."]
        if result.get("kind") != "played":
            return super().describe_result(result)
        title = BY_NAME[str(result["contract"])].title
        defenders = " and ".join(str(s) for s in result["defenders"])
        idle = f" (seat {result['idle']} sits out and pays like a defender)" if result.get("idle") is not None else ""
        lines = [f"{title} by seat {result['declarer']} against seats {defenders}{idle}."]
        points, tricks = result["card_points"], result["tricks"]
        lines.append(
            f"Card points: declarer {points['declarer']}, defenders {points['defenders']} "
            f"(tricks {tricks['declarer']}:{tricks['defenders']})" + (" — Matsch" if result.get("matsch") else "") + "."
        )
        if result.get("stopped_after_trick"):
            lines.append(f"The Super Mord was lost in trick {result['stopped_after_trick']}; play stopped there.")
        lines.append("The declarer wins." if result["winner"] == "declarer" else "The defenders win.")
        if int(result["multiplier"]) > 1:
            lines.append(f"Stakes x {result['multiplier']} (Schwacher and Retours).")
        for item in result["items"]:
            sign = "+" if item["side"] == "declarer" else "-"
            doubled = f" ({item['base']} x {result['multiplier']})" if item["doubled"] and item["points"] != item["base"] else ""
            lines.append(f"  {sign}{item['points']} {ITEM_TEXTS.get(item['name'], item['name'])}{doubled}")
        value = int(result["value"])
        lines.append(f"Value {value:+d} for the declarer: every other seat pays {value} {self.score_unit}.")
        return lines


ITEM_TEXTS = {
    "game": "game value",
    "overshoot": "card points over half",
    "super_mord": "Super Mord",
    "laid_out_pagat": "laid-out Pagat",
    "laid_out_gstiess": "laid-out Gstieß",
    "pagat_ultimo": "Pagat ultimo (not laid out)",
    "pagat_captured": "Pagat captured",
}
"""Plain-language names of the scoring items (:mod:`stich.games.droggn.scoring`)."""
