"""Observations of a Dobbm deal: exactly what one seat may know (dossier §4.2, §6).

Public: the dealer and the idle dealer, the calls of the bidding, the
contract and the declarer, the doubling round (Schwacher, Retours and the
resulting multiplier), the tricks, how many cards each player holds and
whether the Dobb still lies in the centre.  The Dobbm declarer's discards
appear to the others as ``discard ?``; only the declarer sees the Dobb and
the discards (``private``).  Once the deal is counted the discards (Dobbm) or
the Dobb (Solo) are shown to everybody as ``laid_away`` [§7.1].
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from stich.core.game import Observation
from stich.games.dobbm import actions as A
from stich.games.dobbm.pack import CONTRACTS, DECK, FACES, points_of
from stich.games.dobbm.state import END, EXCHANGE

if TYPE_CHECKING:
    from stich.games.dobbm.state import DobbmState


def _event_text(seat: int, actor: int, code: int) -> str:
    """The text of an action as ``seat`` saw it: another player's discard is hidden."""
    return "discard ?" if A.DISCARD <= code < A.PASS and seat != actor else A.ACTIONS[code].text


def observe(state: DobbmState, seat: int) -> Observation:
    """Build the observation of ``seat``."""
    n = state.game.num_seats
    contract = state.contract
    public: dict[str, Any] = {
        "dealer": state.dealer,
        "active": list(state.active),
        "idle": state.dealer if n == 5 else None,
        "mussrunde": state.mussrunde,
        "forced_declarer": state.forced,
        "bids": {str(s): word for s, word in state.bids.items()},
        "kind": contract,
        "contract": contract,
        "declarer": state.declarer,
        "soloist": state.declarer,
        "defenders": list(state.defenders),
        "doubling": [[s, word] for s, word in state.calls],
        "doubles": state.doubles,
        "multiplier": 2**state.doubles,
        "solo_factor": CONTRACTS[contract].factor if contract else None,
        "dobb_cards": state.talon.bit_count(),
        "discards_made": state.discards.bit_count(),
        "hand_sizes": {str(s): state.hands[s].bit_count() for s in state.active},
        "thrown": state.thrown,
    }
    if state.phase == END and not state.thrown:
        public["laid_away"] = DECK.texts(state.laid_away)
        public["laid_away_points"] = points_of(state.laid_away)
    private: dict[str, Any] = {}
    if seat == state.declarer and contract is not None and CONTRACTS[contract].exchanges and state.phase >= EXCHANGE:
        private["dobb"] = DECK.texts(state.dobb)
        private["discards"] = DECK.texts(state.discards)
    return state.seat_observation(
        seat,
        faces=FACES,
        event_text=partial(_event_text, seat),
        settled=True,  # a text depends on the action and the seat only
        public=public,
        private=private,
    )
