"""Observations of a Doppelkopf deal: exactly what one seat may know.

Public: reservations said, the named game type and soloist (a silent wedding
looks like a normal game until its holder plays the second queen of clubs,
A-21), announcements, tricks, parties revealed by a queen of clubs, an
announcement, a solo or the wedding's clarification trick [§4.1], poverty
facts (who is poor, who took it, how many trumps came back).  Private: the
seat's hand, its own party, and the poverty cards it handed over or received.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stich.core.game import Observation
from stich.games.doppelkopf import actions as A
from stich.games.doppelkopf.contracts import CQ, FACES, N_FACES, TRUMP
from stich.games.doppelkopf.state import PARTY_NAMES, PLAY

if TYPE_CHECKING:
    from stich.games.doppelkopf.state import DoppelkopfState

CARD_OF_CODE = FACES * 2
"""Card of each physical card code (``code % N_FACES`` is its face: two copies of each)."""


def _public_kind(state: DoppelkopfState) -> str:
    """The game type as the table knows it: a silent wedding looks normal until it is shown (decision 0041)."""
    if state.kind != "stille_hochzeit":
        return state.kind
    return "stille_hochzeit" if state.silent_wedding_shown() else "normal"


def _known_parties(state: DoppelkopfState, kind: str) -> dict[int, str]:
    """Seats whose party the whole table knows [§4.1, TSR 5.5.1]."""
    known: dict[int, str] = {}
    if kind == "armut" and (state.armut_taker is None or state.phase < PLAY):
        return known  # parties form only once the exchange is complete [§4.5]
    if kind in ("solo", "stille_hochzeit", "hochzeit_solo", "armut", "genscher") or (kind == "hochzeit" and state.clarified):
        return {s: PARTY_NAMES[state.party[s]] for s in state.active}
    if kind == "hochzeit" and state.hochzeiter is not None:
        known[state.hochzeiter] = "re"
    for seat, code in state.history:
        if A.ANNOUNCE <= code < A.SOLO and state.clarified:
            known[seat] = PARTY_NAMES[state.party[seat]]
    all_cards = [(s, c) for seats, cards, _ in state.tricks for s, c in zip(seats, cards, strict=True)]
    all_cards += list(zip(state.trick_seats, state.trick_cards, strict=True))
    for seat, card in all_cards:
        if card % N_FACES == CQ and kind == "normal":
            known[seat] = "re"
    # A player who throws off a plain card on a trump lead holds no trump, hence no queen of clubs.
    for seats, cards, _ in state.tricks:
        if state.order.eff[cards[0] % N_FACES] == TRUMP:
            for s, c in zip(seats[1:], cards[1:], strict=True):
                if state.order.eff[c % N_FACES] != TRUMP and kind == "normal":
                    known.setdefault(s, "kontra")
    return known


def _top_cards(state: DoppelkopfState) -> list[str]:
    """The cards the table knows to rank above the Dullen now, highest first [§1.3]."""
    top = []
    if state.super_live and state.super_shown and state.super_face is not None:
        top.append(FACES[state.super_face].text)
    if state.schweine_live and state.schweine_shown and state.schwein_face is not None:
        top.append(FACES[state.schwein_face].text)
    return top


def _event_text(state: DoppelkopfState, seat: int, actor: int, code: int) -> str:
    text = A.ACTIONS[code].text
    if A.DISCARD <= code < A.GESUND:
        receiver = state.armut_taker if actor == state.poor else state.poor
        if seat not in (actor, receiver):
            return "discard ?"
    return text


def observe(state: DoppelkopfState, seat: int) -> Observation:
    """Build the observation of ``seat``."""
    kind = _public_kind(state)
    public: dict[str, Any] = {
        "dealer": state.dealer,
        "active": list(state.active),
        "kind": kind,
        "contract": state.contract if kind != "normal" else "normal",
        "soloist": state.soloist if kind in ("solo", "stille_hochzeit", "hochzeit_solo") else None,
        "pflichtsolo": state.pflicht,
        "hochzeiter": state.hochzeiter,
        "hochzeit_suit": A.HOCHZEIT_SUITS[state.hochzeit_suit] if state.hochzeit_suit is not None else None,
        "clarification_trick": state.clar_trick or None,
        "reservations": {str(s): ("vorbehalt" if v else "gesund") for s, v in state.said.items()},
        "calls": {"re": state.level[0], "kontra": state.level[1]},
        "parties": {str(s): p for s, p in sorted(_known_parties(state, kind).items())},
        "schweine": state.schweine_seat if state.schweine_shown else None,
        "superschweine": state.superschweine_seat if state.super_shown else None,
        "schweine_cards": _top_cards(state),
        "genscher": {"seat": state.genscher[0], "partner": state.genscher[1]} if state.genscher else None,
        "poor": state.poor,
        "armut_taker": state.armut_taker,
        "armut_trumps_returned": (state.armut_returned & state.order.follow[TRUMP]).bit_count() if state.armut_taker is not None else None,
        "multiplier": state.multiplier,
        "owes_solo": list(state.owes),
        "hand_sizes": {str(s): state.hands[s].bit_count() for s in state.active},
    }
    if state.knocking:
        public["knocks"] = list(state.knocks)  # [VAR §5.5] who knocked (no party: decision 0028)
    private: dict[str, Any] = {}
    if seat in state.active and state.phase >= PLAY and state.thrown is None and (state.clarified or seat == state.hochzeiter):
        private["party"] = PARTY_NAMES[state.party[seat]]
    if state.thrown is not None:
        reason, thrower = state.thrown
        public["thrown"] = {"seat": thrower, "reason": reason}
        if reason != "armut_not_taken":
            public["thrown"]["hand"] = state.game.deck.texts(state.hands[thrower])
    if seat == state.poor and state.armut_cards:
        private["armut_given"] = state.game.deck.texts(state.armut_cards)
    if seat in (state.poor, state.armut_taker) and state.armut_returned:
        private["armut_returned"] = state.game.deck.texts(state.armut_returned)
    return state.seat_observation(
        seat,
        faces=CARD_OF_CODE,
        event_text=lambda actor, code: _event_text(state, seat, actor, code),
        settled=state.phase >= PLAY,
        public=public,
        private=private,
    )
