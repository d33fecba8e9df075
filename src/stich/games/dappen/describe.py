"""Display helpers for Dappen: the order players hold their cards in, and a finished deal in words.

Rules never depend on this module; the terminal and other clients use it
through the display hooks of :class:`~stich.games.dappen.game.Dappen`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from stich.cards import Card, Suit
from stich.core.tricks import TRUMP
from stich.games.dappen.pack import CONTRACTS, DECK, ORDER

_GROUP_ORDER = (TRUMP, int(Suit.CLUBS), int(Suit.SPADES), int(Suit.HEARTS), int(Suit.DIAMONDS))


def hand_groups(cards: Sequence[Card]) -> list[list[Card]]:
    """Trumps from the Gstieß down, then each suit from the king down (the red 1 ranks above the 2) [§1]."""
    groups: list[list[Card]] = []
    for eff in _GROUP_ORDER:
        group = [c for c in cards if ORDER.eff[DECK.face_index[c]] == eff]
        group.sort(key=lambda c: -ORDER.strength[DECK.face_index[c]])
        if group:
            groups.append(group)
    return groups


def _seat_list(seats: Sequence[int]) -> str:
    return ", ".join(f"seat {s}" for s in seats)


def describe_result(result: Mapping[str, Any]) -> list[str]:
    """A finished deal's result (``DealResult.to_json()``) in plain-text lines."""
    kind = result.get("kind")
    if kind == "thrown":
        return ["Everybody passed: the deal comes 'ins Loch'. Nobody pays; the next player deals."]
    if kind == "penalty":
        return [f"Seat {result.get('seat')} passed with a trump stop (rule a) and pays each player {result.get('per_player')} cents."]
    if kind != "game":
        return []
    contract = str(result.get("contract"))
    title = CONTRACTS[contract].title if contract in CONTRACTS else contract
    lone = result.get("lone")
    lines = [f"Game: {title}, lone player seat {lone}; bidders: {_seat_list(result.get('bidders', []))}"]
    if result.get("seven_fives"):
        lines.append(f"Seat {lone} showed all seven five-pointers: no play, a Marsch won by the lone player.")
    else:
        cards, face, points, tricks = (result.get(k, {}) for k in ("cards", "face_points", "points", "tricks"))
        how = "in pairs" if result.get("counting") == "pairs" else "in exact thirds"
        lines.append(
            f"Lone player: {tricks.get('lone')} tricks, {cards.get('lone')} cards with the talon, "
            f"{face.get('lone')} face points = {points.get('lone')} counted {how}"
        )
        lines.append(
            f"Opponents: {tricks.get('opponents')} tricks, {cards.get('opponents')} cards, "
            f"{face.get('opponents')} face points = {points.get('opponents')}"
        )
    marsch = result.get("marsch")
    if marsch == "lone" and not result.get("seven_fives"):
        lines.append("Marsch: the lone player took every trick (a difference of 40).")
    elif marsch == "opponents":
        lines.append("Marsch: the lone player took no trick and loses the talon too (a difference of 40).")
    winner = "the lone player" if result.get("winner") == "lone" else "the opponents"
    lines.append(f"Winner: {winner} (the losers count {result.get('losers_points')})")
    per = result.get("per_opponent")
    factor = result.get("factor")
    if result.get("diff") is None:
        lines.append(f"Game value: {result.get('value')} game points x {factor} = {per} cents per opponent")
    else:
        lines.append(f"Difference to 40: {result.get('diff')}; value {result.get('value')} x factor {factor} -> {per} cents per opponent")
    liability = result.get("liability")
    if liability:
        lines.append(f"Marsch liability ({liability.get('mode')}): {_seat_list(liability.get('responsible', []))} answer for the team")
    for row in result.get("ulti", []):
        outcome = "won" if row.get("won") else "lost"
        lines.append(f"Ulti with trump {row.get('trump')}: {outcome}, {row.get('cents')} cents per opponent (never doubled)")
    return lines
