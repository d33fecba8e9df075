"""The Tapp Tarock game: pack, seats, dealing and the entry point to a deal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from stich.cards import Card, Deck
from stich.core.dealing import check_pile_sizes, deal_packets, seats_in_turn
from stich.core.game import ActionSpace, Game
from stich.core.options import OptionTable
from stich.core.rng import shuffled
from stich.errors import NotationError
from stich.games.tapp_tarock.actions import ACTIONS
from stich.games.tapp_tarock.observe import observe
from stich.games.tapp_tarock.options import OPTION_TABLE, TappTarockOptions
from stich.games.tapp_tarock.pack import CONTRACT_BY_NAME, DECK, FACE_OF, ORDER, thirds
from stich.games.tapp_tarock.state import TappTarockState

ITEM_WORDS = {
    "game": "Game",
    "valat": "Valat (silent)",
    "valat_announced": "Valat (announced)",
    "defender_valat": "No trick for the declarer (Valat against)",
    "ultimo": "Pagat ultimo (silent)",
    "ultimo_announced": "Pagat ultimo (announced)",
    "koepfe": "Köpfe",
    "trull": "Trull",
    "royal_trull": "Royal Trull",
}
"""The names of the result's items in words."""
HAND_SIZE = 16
HALF_SIZE = 3
PACKET = 4


class TappTarock(Game):
    """Tapp Tarock (Wiener Tappen) for three players, or four with the dealer sitting out.

    Seats are numbered in the direction of play, which is anticlockwise at
    the table: seat ``dealer + 1`` (the dealer's right-hand neighbour) is
    forehand, ``dealer + 2`` middlehand, and the dealer (rearhand) speaks and
    plays last.  At a table of four the dealer sits out and ``dealer + 3`` is
    rearhand.  The deal passes to the right, so the old forehand, seat
    ``dealer + 1``, deals next [§2].
    """

    name: ClassVar[str] = "tapp_tarock"
    title: ClassVar[str] = "Tapp Tarock"
    rules_version: ClassVar[int] = 1
    option_table: ClassVar[OptionTable] = OPTION_TABLE
    score_unit: ClassVar[str] = "game points"
    options: TappTarockOptions

    @property
    def num_seats(self) -> int:
        return self.options.num_seats

    @property
    def deal_parts(self) -> tuple[str, ...]:
        """The seats' hands, then the talon halves: ``talon_lower`` (laid first) and ``talon_upper`` (laid crosswise on it)."""
        return (*(f"seat {i}" for i in range(self.num_seats)), "talon_lower", "talon_upper")

    @property
    def deck(self) -> Deck:
        return DECK

    @property
    def actions(self) -> ActionSpace:
        return ACTIONS

    # ------------------------------------------------------------ display hooks
    def hand_groups(self, cards: Sequence[Card], public: Mapping[str, Any]) -> list[list[Card]]:
        """Tarocks (Sküs, Mond, XX .. Pagat), then clubs, spades, hearts, diamonds, each from the king down;
        red pips rank 1 2 3 4 (the 1 highest), black pips 10 9 8 7 [§1]."""
        groups: list[list[Card]] = []
        for suit in (4, 0, 1, 2, 3):
            group = sorted((c for c in cards if ORDER.eff[FACE_OF[c]] == suit), key=lambda c: -ORDER.strength[FACE_OF[c]])
            if group:
                groups.append(group)
        return groups

    def trick_points(self, cards: Sequence[Card]) -> int | None:
        """Card points of a complete trick: one packet of three, face values minus 2 [§7]."""
        value = thirds(list(cards))
        return value // 3 if len(cards) == 3 else None

    def describe_result(self, result: Mapping[str, Any]) -> list[str]:
        """The count and the payments in words [§7, §8]; a thrown-in deal [§3.3]."""
        if result.get("kind") == "all_pass":
            return [f"All passed: the cards are thrown in; seat {result['next_dealer']} deals again."]
        if result.get("kind") != "game":
            return super().describe_result(result)
        title = CONTRACT_BY_NAME[str(result["contract"])].title
        defenders = " and ".join(f"seat {s}" for s in result["defenders"])
        talon = f", with the {result['talon_taken']} talon half" if result.get("talon_taken") else ""
        lines = [f"{title} by seat {result['declarer']}{talon}, against {defenders}."]
        announced = result.get("announced") or []
        if announced:
            lines.append("Announced: " + ", ".join("Pagat ultimo" if a == "ultimo" else "Valat" for a in announced) + ".")
        points, tricks = result["points"], result["tricks"]
        verdict = "the declarer wins the game" if result["won"] else "the declarer loses the game (36 needed)"
        lines.append(
            f"Card points: declarer {points['declarer']}, defenders {points['defenders']} "
            f"(tricks {tricks['declarer']}:{tricks['defenders']}): {verdict}."
        )
        for item in result["items"]:
            name = ITEM_WORDS.get(str(item["name"]), str(item["name"]))
            factor = f" x {item['factor']} ({item['doubling'].capitalize()})" if item["factor"] != 1 else ""
            lines.append(f"{name}: {item['value']}{factor} to the {item['to']}.")
        per = int(result["per_defender"])
        if per > 0:
            lines.append(f"Each defender pays the declarer {per}.")
        elif per < 0:
            lines.append(f"The declarer pays each defender {-per}.")
        for bonus in result["hand_bonuses"]:
            name = ITEM_WORDS.get(str(bonus["name"]), str(bonus["name"]))
            if bonus["settlement"] == "holder":
                lines.append(f"{name} dealt to seat {bonus['seat']}: {bonus['value']} from each other player.")
            else:
                lines.append(f"{name} dealt to defender seat {bonus['seat']}: the declarer pays {bonus['value']} to each defender.")
        return lines

    def receivers(self, dealer: int) -> list[int]:
        """Seats that get cards, forehand first [§2]."""
        return list(seats_in_turn(self.num_seats, dealer, dealer_sits_out=self.num_seats == 4))

    def deal(self, seed: int, dealer: int) -> list[int]:
        """Shuffle with ``seed``; the top six cards make the talon (three for ``talon_lower``, then three for
        ``talon_upper``), then 16 cards go to each player in packets of four, forehand first [§2]."""
        n = self.num_seats
        receivers = self.receivers(dealer)
        talon = [(n, HALF_SIZE), (n + 1, HALF_SIZE)]
        hands = [(seat, PACKET) for _round in range(HAND_SIZE // PACKET) for seat in receivers]
        return deal_packets(shuffled(self.deck.physical, seed), talon + hands, n + 2)

    def new_state(
        self,
        *,
        seed: int | None = None,
        hands: Sequence[Sequence[Card]] | None = None,
        dealer: int = 0,
        context: Mapping[str, Any] | None = None,
    ) -> TappTarockState:
        """A new deal from a seed or from explicit piles (the hands by seat, then ``talon_lower``, ``talon_upper``).

        No context keys are used; the session passes an empty context.
        """
        if not 0 <= dealer < self.num_seats:
            raise NotationError(f"dealer must be a seat 0..{self.num_seats - 1}, got {dealer}")
        if hands is not None:
            piles = self.hands_from_cards(hands)
            n = self.num_seats
            receivers = self.receivers(dealer)
            seats = [(seat, f"seat {seat}", HAND_SIZE if seat in receivers else 0) for seat in range(n)]
            check_pile_sizes(piles, [*seats, (n, "talon_lower", HALF_SIZE), (n + 1, "talon_upper", HALF_SIZE)])
        elif seed is not None:
            piles = self.deal(seed, dealer)
        else:
            raise NotationError("a deal needs a seed or explicit piles")
        return TappTarockState(self, piles, dealer, seed, context or {}, observe)
