"""The Doppelkopf game: pack, seats, dealing and the entry point to a deal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from stich.cards import Card, Deck
from stich.core.game import ActionSpace, Game
from stich.core.options import OptionTable
from stich.core.rng import shuffled
from stich.errors import NotationError
from stich.games.doppelkopf.actions import ACTIONS
from stich.games.doppelkopf.contracts import CONTRACTS, DECK_40, DECK_48, EYES, FACES, TRUMP, card_order, face
from stich.games.doppelkopf.deadlines import call_deadlines
from stich.games.doppelkopf.observe import observe
from stich.games.doppelkopf.options import OPTION_TABLE, DoppelkopfOptions
from stich.games.doppelkopf.state import DoppelkopfState

_FACE_INDEX = {card: index for index, card in enumerate(FACES)}
"""Each face's index in :data:`FACES` (a dict lookup: ``FACES.index`` compared dataclasses one by one, per card per view)."""


class Doppelkopf(Game):
    """Doppelkopf after the DDV tournament rules, with the common house rules as options."""

    name: ClassVar[str] = "doppelkopf"
    title: ClassVar[str] = "Doppelkopf"
    rules_version: ClassVar[int] = 1
    option_table: ClassVar[OptionTable] = OPTION_TABLE
    card_points_name: ClassVar[str] = "eyes"
    hand_group_facts: ClassVar[tuple[str, ...]] = ("contract", "schweine_cards", "schweine", "superschweine")
    options: DoppelkopfOptions

    @property
    def num_seats(self) -> int:
        return self.options.players

    @property
    def deck(self) -> Deck:
        return DECK_48 if self.options.nines else DECK_40

    @property
    def actions(self) -> ActionSpace:
        return ACTIONS

    def deal(self, seed: int, dealer: int) -> list[int]:
        """Shuffle with ``seed``; every seat but an idle dealer (5 players) gets a hand.

        The shuffled pack is split into consecutive hands starting with the
        dealer's left neighbour (dossier §2.1: a uniform permutation replaces
        cutting and packets).
        """
        cards = shuffled(self.deck.physical, seed)
        n = self.num_seats
        receivers = [(dealer + i) % n for i in range(1, n + 1) if n == 4 or (dealer + i) % n != dealer]
        size = self.options.hand_size
        hands = [0] * n
        for k, seat in enumerate(receivers):
            for index in cards[k * size : (k + 1) * size]:
                hands[seat] |= 1 << index
        return hands

    def new_state(
        self,
        *,
        seed: int | None = None,
        hands: Sequence[Sequence[Card]] | None = None,
        dealer: int = 0,
        context: Mapping[str, Any] | None = None,
    ) -> DoppelkopfState:
        """A new deal.  ``context`` keys (all optional, set by the session):

        * ``owes_solo``: per seat, whether the player still owes a compulsory
          solo (default: everybody, as at the start of a list);
        * ``forced_soloist``: seat forced to play a solo (Vorführung, §2.3);
        * ``multiplier``: bock factor for this game (§7.8).
        """
        if not 0 <= dealer < self.num_seats:
            raise NotationError(f"dealer must be a seat 0..{self.num_seats - 1}, got {dealer}")
        forced = (context or {}).get("forced_soloist")
        if forced is not None and (not 0 <= int(forced) < self.num_seats or (self.num_seats == 5 and int(forced) == dealer)):
            raise NotationError(f"forced_soloist must be a seat that holds cards, got {forced}")
        if hands is not None:
            masks = self.hands_from_cards(hands)
            if self.num_seats == 5 and masks[dealer]:
                raise NotationError("at a 5-player table the dealer gets no cards")
        elif seed is not None:
            masks = self.deal(seed, dealer)
        else:
            raise NotationError("a deal needs a seed or explicit hands")
        return DoppelkopfState(self, masks, dealer, seed, context or {}, observe)

    def hand_groups(self, cards: Sequence[Card], public: Mapping[str, Any]) -> list[list[Card]]:
        """Trumps high to low, then the plain cards clubs, spades, hearts, diamonds, each high to low.

        The order follows the game type in ``public`` (``contract``, and the
        Schweine once they are public).
        """
        name = str(public.get("contract", "normal"))
        contract = self.options.contract(name if name in CONTRACTS else "normal")
        top = tuple(face(text) for text in public.get("schweine_cards") or ())
        if "schweine_cards" not in public and public.get("schweine") is not None:
            # observations written before Schweine variants existed: the diamond aces (and nines or kings)
            top = (face("DA"),)
            if public.get("superschweine") is not None:
                top = (face("D9") if self.options.nines else face("DK"), face("DA"))
        order = card_order(contract, self.options.dullen, top)
        indexed = sorted(
            ((_FACE_INDEX[c], c) for c in cards), key=lambda fc: (order.eff[fc[0]] != TRUMP, order.eff[fc[0]], -order.strength[fc[0]])
        )
        trumps = [c for f, c in indexed if order.eff[f] == TRUMP]
        plain = [c for f, c in indexed if order.eff[f] != TRUMP]
        return [g for g in (trumps, plain) if g]

    def trick_points(self, cards: Sequence[Card]) -> int | None:
        """Eyes in a trick."""
        return sum(EYES[FACES.index(c)] for c in cards)

    def call_deadlines(self, public: Mapping[str, Any]) -> dict[str, Any] | None:
        """The announcement deadlines of the current contract [§5.2, §5.4] (:mod:`stich.games.doppelkopf.deadlines`)."""
        return call_deadlines(self.options, public)

    def hands_from_cards(self, hands: Sequence[Sequence[Card]]) -> list[int]:
        masks = super().hands_from_cards(hands)
        size = self.options.hand_size
        for seat, mask in enumerate(masks):
            if mask and mask.bit_count() != size:
                raise NotationError(f"seat {seat} holds {mask.bit_count()} cards, expected {size}")
        return masks
