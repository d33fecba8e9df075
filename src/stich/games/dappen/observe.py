"""Observations of a Dappen deal: exactly what one seat may know.

Public: the dealer and the active seats, every bid, the holder and the bid on
the table, the lone player and the game once settled, the laid-out Ulti cards
[§5.1], the cards played, the size of every hand and of the Dapp, and at the
end the talon pile counted for the lone player [§7], the seven five-pointers
shown [§4] or the hand of a player penalised under rule (a) [§3.2.5].  The
lone player's discards appear to the others as ``discard ?`` [§4].  Private:
the seat's hand, its discards (lone player), whether it must dapp now and why
(rule ``a`` or ``b``), and whether it has kept the Gstieß back — that is
announced to nobody [§6.2].
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from stich.core.game import Observation
from stich.games.dappen import actions as A
from stich.games.dappen.pack import CONTRACTS, DECK, FACES, FIVES

if TYPE_CHECKING:
    from stich.games.dappen.state import DappenState


def _event_text(seat: int, actor: int, code: int) -> str:
    """The text of an action as ``seat`` saw it: another player's discard is hidden."""
    return "discard ?" if A.DISCARD <= code < A.PASS and seat != actor else A.ACTIONS[code].text


def observe(state: DappenState, seat: int) -> Observation:
    """Build the observation of ``seat``."""
    contract = state.contract
    level_name = state.ladder[state.level] if state.holder is not None else None
    public: dict[str, Any] = {
        "dealer": state.dealer,
        "active": list(state.active),
        "idle": state.idle,
        "soloist": state.lone,
        "lone": state.lone,
        "kind": contract,
        "contract": contract,
        "contract_title": CONTRACTS[contract].title if contract else None,
        "solo_bidder": state.soloist,
        "holder": state.holder if state.lone is None else None,
        "bid": level_name if state.lone is None else None,
        "challenger": state.challenger,
        "bidders": list(state.bidders),
        "ulti": sorted(state.ulti, reverse=True),
        "ulti_cards": DECK.texts(state.ulti_mask),
        "ulti_tricks": {str(k): t + 1 for k, t in state.ulti_tricks().items()},
        "hand_sizes": {str(s): state.hands[s].bit_count() for s in state.active},
        "dapp_size": state.dapp.bit_count(),
        "discarded": state.discards.bit_count(),
        "thrown": state.thrown,
        "seven_fives": DECK.texts(FIVES) if state.seven_fives else None,
        "penalty": None,
    }
    if state.penalty is not None:
        public["penalty"] = {"seat": state.penalty, "hand": DECK.texts(state.hands[state.penalty])}
    if state.is_terminal() and state.lone is not None and not state.seven_fives:
        public["talon"] = DECK.texts(state.talon_pile())
    private: dict[str, Any] = {}
    if seat == state.lone and state.discards:
        private["discards"] = DECK.texts(state.discards)
    reason = state.must_dapp(seat)
    if reason is not None:
        private["must_dapp"] = reason
    if state.kept_back == seat:
        private["gstiess_kept_back"] = True
    return state.seat_observation(
        seat,
        faces=FACES,
        event_text=partial(_event_text, seat),
        settled=True,  # a text depends on the action and the seat only
        public=public,
        private=private,
    )
