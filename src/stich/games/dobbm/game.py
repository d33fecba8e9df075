"""The Dobbm game (Stubai valley, Tyrol): pack, seats, dealing and the entry point to a deal.

Seats are numbered ``0..n-1`` clockwise, the direction of play (dossier §2):
seat ``i + 1`` (mod ``n``) is the player on seat ``i``'s left and the next to
act.  Forehand is the dealer's left, ``dealer + 1``.  At five players
(``players=5``) the dealer sits out the deal (*er feiert*) and gets no cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from stich.cards import Card, Deck
from stich.core.dealing import check_pile_sizes, deal_packets
from stich.core.game import ActionSpace, Game
from stich.core.options import OptionTable
from stich.core.rng import shuffled
from stich.core.tricks import TRUMP
from stich.errors import NotationError
from stich.games.dobbm.actions import ACTIONS
from stich.games.dobbm.observe import observe
from stich.games.dobbm.options import OPTION_TABLE, DobbmOptions
from stich.games.dobbm.pack import CONTRACTS, DECK, DOBB_SIZE, FACES, HAND_SIZE, ORDER, POINTS
from stich.games.dobbm.state import DobbmState, active_seats

PACKET = 4
"""Cards per packet: two rounds of four to each active player (§2)."""


class Dobbm(Game):
    """Dobbm (Tappen): one declarer against three, hearts permanent trumps, a four-card Dobb."""

    name: ClassVar[str] = "dobbm"
    title: ClassVar[str] = "Dobbm"
    rules_version: ClassVar[int] = 1
    option_table: ClassVar[OptionTable] = OPTION_TABLE
    score_unit: ClassVar[str] = "units"
    german_suited: ClassVar[bool] = True
    options: DobbmOptions

    @property
    def num_seats(self) -> int:
        return self.options.players

    @property
    def deck(self) -> Deck:
        return DECK

    @property
    def actions(self) -> ActionSpace:
        return ACTIONS

    @property
    def deal_parts(self) -> tuple[str, ...]:
        return (*(f"seat {i}" for i in range(self.num_seats)), "dobb")

    def deal(self, seed: int, dealer: int) -> list[int]:
        """Shuffle with ``seed`` and deal as at the table (§2).

        Two rounds of packets of four, clockwise from the active player on the
        dealer's left; the last four cards are the Dobb.  Returns one mask per
        seat (the idle dealer's empty at five players) and the Dobb last.
        """
        n = self.num_seats
        receivers = active_seats(n, dealer)
        hands = [(seat, PACKET) for _round in range(HAND_SIZE // PACKET) for seat in receivers]
        return deal_packets(shuffled(DECK.physical, seed), [*hands, (n, DOBB_SIZE)], n + 1)

    def new_state(
        self,
        *,
        seed: int | None = None,
        hands: Sequence[Sequence[Card]] | None = None,
        dealer: int = 0,
        context: Mapping[str, Any] | None = None,
    ) -> DobbmState:
        """A new deal.  ``hands`` lists one pile per entry of :attr:`deal_parts` (the seats, then the Dobb).

        ``context`` keys (optional, set by the session):

        * ``forced_declarer``: in the Mußrunde, the seat that must declare; it
          must be the active player on the dealer's left (§3.4);
        * ``mussrunde``: whether the deal belongs to the Mußrunde (noted in the result).
        """
        n = self.num_seats
        if not 0 <= dealer < n:
            raise NotationError(f"dealer must be a seat 0..{n - 1}, got {dealer}")
        ctx = dict(context or {})
        forced = ctx.get("forced_declarer")
        if forced is not None and int(forced) != active_seats(n, dealer)[0]:
            raise NotationError(f"forced_declarer must be the dealer's left neighbour, seat {active_seats(n, dealer)[0]}, got {forced}")
        if hands is not None:
            masks = self.hands_from_cards(hands)
            seats = [(seat, f"seat {seat}", 0 if (n == 5 and seat == dealer) else HAND_SIZE) for seat in range(n)]
            check_pile_sizes(masks, [*seats, (n, "the Dobb", DOBB_SIZE)])
        elif seed is not None:
            masks = self.deal(seed, dealer)
        else:
            raise NotationError("a deal needs a seed or explicit hands")
        return DobbmState(self, masks, dealer, seed, ctx, observe)

    # ----------------------------------------------------------- display hooks
    def hand_groups(self, cards: Sequence[Card], public: Mapping[str, Any]) -> list[list[Card]]:
        """Hearts (trumps) first, then Eichel, Laub, Schellen; each A 10 K O U 9 8 7 6 (§1)."""
        indexed = sorted(((FACES.index(c), c) for c in cards), key=lambda fc: (ORDER.eff[fc[0]] != TRUMP, fc[0]))
        groups: list[list[Card]] = []
        for suit in (TRUMP, 0, 1, 3):
            group = [c for f, c in indexed if ORDER.eff[f] == suit]
            if group:
                groups.append(group)
        return groups

    def trick_points(self, cards: Sequence[Card]) -> int | None:
        """Card points in a trick (§1)."""
        return sum(POINTS[FACES.index(c)] for c in cards)

    def describe_result(self, result: Mapping[str, Any]) -> list[str]:
        """The count and the payment in words (§7, §8); a thrown-in deal with its Stockerl (§3.2)."""
        if result.get("kind") == "all_pass":
            lines = [f"All passed: the cards are thrown in; seat {result['next_dealer']} deals next."]
            if result.get("collector") is not None:
                lines.append(f"Stockerl: seat {result['collector']} collects {result['stockerl']} from each other player.")
            return lines
        if result.get("kind") != "game":
            return super().describe_result(result)
        opts = self.options
        title = CONTRACTS[str(result["contract"])].title
        opponents = ", ".join(str(s) for s in result["opponents"])
        idle = f" (seat {result['idle']} sits out and pays like a defender)" if result.get("idle") is not None else ""
        lines = [f"{title} by seat {result['declarer']} against seats {opponents}{idle}."]
        points, tricks, talon = result["points"], result["tricks"], result["talon"]
        laid = "discards'" if result["contract"] == "dobbm" else "Dobb's"
        where = "declarer" if talon["to"] == "declarer" else "defenders, as the declarer took no trick"
        lines.append(
            f"Card points: declarer {points['declarer']}, defenders {points['defenders']} "
            f"(tricks {tricks['declarer']}:{tricks['defenders']}; the {laid} {talon['points']} points to the {where})."
        )
        if result["winner"] is None:
            lines.append("60:60 is a draw (eingestellt): nobody pays.")
            return lines
        side = "The declarer wins" if result["winner"] == "declarer" else "The defenders win"
        rounding = "rounded up" if opts.payment_rounding == "ceil" else "exact"
        lines.append(f"{side} by {result['margin']} over 60: {result['margin']} x {opts.match_stake} / 60 = {result['base']} ({rounding}).")
        factors = []
        if result["solo_factor"] != 1:
            factors.append(f"x {result['solo_factor']} (Solo)")
        if result["doubles"]:
            factors.append(f"x {result['multiplier']} (Schwacher and {result['doubles'] - 1} Retour)")
        if factors:
            lines.append(f"{' '.join(factors)} = {result['payment']} per opponent.")
        if result.get("match"):
            lines.append(f"Match for the {result['match']} (no extra bonus).")
        direction = "pays the declarer" if result["winner"] == "declarer" else "receives from the declarer"
        lines.append(f"Each opponent {direction} {result['payment']} {self.score_unit}.")
        return lines
