"""Observations of a Droggn deal: exactly what one seat may know.

Public: the bids, the contract and the declarer, how many cards were laid
away, the bought card and who handed it over (it is handed over face up), a
laid-out card, the doubling level, the tricks (every card played is seen by
the table; the Gstieß's trick names the side it went back to), the hand sizes
and the number of cards in each side's pile, and with ``expose_talon`` the
talon of an Ansager [§4.1, §4.2, §5, §6.4].  Private: the declarer's talon
and discards, and the card placed face down for the bought card (known to the
declarer and, once the buy is made, to the defender who received it) [§4.2].
Events show every action; another player's discard and offered card read
``discard ?`` / ``offer ?`` to a seat that may not see them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stich.core.game import Observation
from stich.games.droggn import actions as A
from stich.games.droggn.pack import CONTRACTS, FACES, GSTIESS
from stich.games.droggn.state import PLAY

if TYPE_CHECKING:
    from stich.games.droggn.state import DroggnState


def _event_text(state: DroggnState, seat: int, code: int) -> str:
    text = A.ACTIONS[code].text
    if A.DISCARD <= code < A.OFFER and seat != state.declarer:
        return "discard ?"
    if A.OFFER <= code < A.BUY and seat != state.declarer and not (state.bought >= 0 and seat == state.bought_from):
        return "offer ?"
    return text


def observe(state: DroggnState, seat: int) -> Observation:
    """Build the observation of ``seat``."""
    contract = state.contract
    gstiess_to = None
    for seats, cards, _winner in state.tricks:
        if GSTIESS in cards:
            gstiess_to = state.side_of(seats[cards.index(GSTIESS)])  # never captured: back to its side's pile [§6.2]
    public: dict[str, Any] = {
        "dealer": state.dealer,
        "active": list(state.active),
        "idle": state.idle,
        "bids": [[s, "pass" if level < 0 else CONTRACTS[level].name] for s, level in state.bids],
        "contract": contract.name if contract is not None else None,
        "declarer": state.declarer if contract is not None else None,
        "defenders": list(state.defenders()) if contract is not None else None,
        "talon_cards": state.talon.bit_count(),
        "discarded": state.discards.bit_count(),
        "bought": FACES[state.bought].text if state.bought >= 0 else None,
        "bought_from": state.bought_from if state.bought >= 0 else None,
        "laid_out": FACES[state.laid_out].text if state.laid_out >= 0 else None,
        "laid_out_by": state.laid_out_by if state.laid_out >= 0 else None,
        "doubles": state.doubles,
        "multiplier": state.multiplier,
        "hand_sizes": {str(s): state.hands[s].bit_count() for s in state.active},
        "pile_cards": {"declarer": state.decl_pile.bit_count(), "defenders": state.def_pile.bit_count()},
        "gstiess_to": gstiess_to,
        "thrown": state.thrown,
        "stopped": state.stopped,
    }
    if contract is not None and contract.buy and state.options.expose_talon == "ansager_only":
        public["shown_talon"] = state.game.deck.texts(state.talon_taken)
    private: dict[str, Any] = {}
    if contract is not None and seat == state.declarer and contract.exchange:
        private["talon"] = state.game.deck.texts(state.talon_taken)
        private["discards"] = state.game.deck.texts(state.discards)
    if state.offered >= 0 and (seat == state.declarer or (state.bought >= 0 and seat == state.bought_from)):
        private["offered"] = FACES[state.offered].text
    return state.seat_observation(
        seat,
        faces=FACES,
        event_text=lambda _actor, code: _event_text(state, seat, code),
        settled=state.phase >= PLAY,
        public=public,
        private=private,
    )
