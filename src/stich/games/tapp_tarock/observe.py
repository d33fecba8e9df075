"""Observations of a Tapp Tarock deal: exactly what one seat may know.

Public: the bidding (every call is spoken aloud), the contract and declarer,
an exposed talon (both halves as dealt) and the half taken, tarocks shown on
discarding (or only their number, ``forced_tarock_discard=announce_count``),
announcements, doublings, tricks, and once the deal is counted every pile.
Private: the seat's hand; for the declarer the talon half picked up (which
nobody else saw when the talon stayed face down) and the three discards
[§3.2, §4.1, §4.2, §5, §7].
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stich.core.game import Observation
from stich.games.tapp_tarock import actions as A
from stich.games.tapp_tarock.pack import CONTRACT_BY_LEVEL, DOUBLING_NAMES, FACES, HALVES, ITEMS, TAROCKS
from stich.games.tapp_tarock.state import END, PLAY, cards_text

if TYPE_CHECKING:
    from stich.games.tapp_tarock.state import TappTarockState


def _event_text(state: TappTarockState, seat: int, actor: int, code: int) -> str:
    """The text of an action as ``seat`` saw it: another player's discard is hidden unless a shown tarock."""
    text = A.ACTIONS[code].text
    if A.DISCARD <= code < A.PASS and seat != actor:
        bit = 1 << (code - A.DISCARD)
        if bit & state.shown:
            return text
        if bit & TAROCKS:
            return "discard tarock"
        return "discard ?"
    return text


def observe(state: TappTarockState, seat: int) -> Observation:
    """Build the observation of ``seat``."""
    n = state.game.num_seats
    contract = state.contract
    public: dict[str, Any] = {
        "dealer": state.dealer,
        "active": list(state.active),
        "forehand": state.active[0],
        "bid": CONTRACT_BY_LEVEL[state.level].name if state.level else None,
        "holder": state.holder,
        "passed": [s for s in state.active if state.passed[s]],
        "declarer": state.declarer,
        "contract": contract.name if contract else None,
        "talon_taken": HALVES[state.taken] if state.taken >= 0 else None,
        "announced": [w for w, on in zip(A.ANNOUNCE_WORDS, state.announced, strict=True) if on],
        "doubling": {item: DOUBLING_NAMES[lv] for item, lv in zip(ITEMS, state.doubling, strict=True) if lv},
        "hand_sizes": {str(s): state.hands[s].bit_count() for s in state.active},
        "tricks_won": {str(s): sum(1 for _x, _c, w in state.tricks if w == s) for s in state.active},
    }
    if contract is not None:
        public["kind"] = contract.title  # the contract in words, for displays
    if state.exposed:
        public["talon"] = {"lower": cards_text(state.dealt[n]), "upper": cards_text(state.dealt[n + 1])}
    if state.discards:
        public["discarded"] = state.discards.bit_count()
        public["discarded_tarocks"] = (state.discards & TAROCKS).bit_count()
        if state.shown:
            public["shown_tarocks"] = cards_text(state.shown)
    if state.thrown:
        public["thrown"] = {"reason": "all_pass"}
    elif state.phase == END:
        public["piles"] = {
            "discards": cards_text(state.discards),
            "talon_lower": cards_text(state.talon[0] if state.taken != 0 else 0),
            "talon_upper": cards_text(state.talon[1] if state.taken != 1 else 0),
        }
    private: dict[str, Any] = {}
    if seat == state.declarer:
        if state.taken >= 0:
            private["talon_half"] = cards_text(state.dealt[n + state.taken])
        if state.discards:
            private["discards"] = cards_text(state.discards)
    return state.seat_observation(
        seat,
        faces=FACES,
        event_text=lambda actor, code: _event_text(state, seat, actor, code),
        settled=state.phase >= PLAY,
        public=public,
        private=private,
    )
