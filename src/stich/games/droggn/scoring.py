"""Scoring of a finished Droggn deal (dossier §7, §8).

:func:`deal_value` turns the :class:`~stich.games.droggn.outcome.DealFacts`
into the value ``V`` of the deal for the declarer and the items that make it
up; :func:`settle` books ``V`` as payments: every other seat at the table
(the idle dealer of a four-player table included, §8.6) pays ``V`` to the
declarer, so the declarer scores ``V`` times the number of other seats.

Items (each credited to a side; ``V`` is the declarer's items minus the
defenders'; ``doubled`` items are multiplied by the Schwacher / Retours,
§5.4):

``game``
    the contract's value 20 / 40 / 80, to the side that won the game [§8.1].
``overshoot``
    the winner's card points above half the pack (37; 39 with 78 cards) [§8.1];
    in a Matsch the declarer counts all 74 [§8.2].
``super_mord``
    167 (80 + 37 + 50; 169 with 78 cards) to the declarer if every trick
    was won, else to the defenders [§8.3]; doubled unless
    ``super_mord_doubled=false``.
``laid_out_pagat`` / ``laid_out_gstiess``
    20, doubled: a laid-out Pagat that wins the last trick scores for the
    side that laid it out, one that fails (beaten, or forced out earlier)
    for the other side [§8.4]; in a Super Mord it follows the Super Mord
    (187 in all) [§8.3].
``pagat_ultimo``
    10, not doubled: a Pagat not laid out played to the last trick scores for
    its side if it wins the trick, else (even when beaten by the partner) for
    the other side [§8.4, §10.8].
``pagat_captured``
    5, not doubled: a Pagat not laid out that the other side wins before the
    last trick [§8.4].

In a Super Mord the last two count only with ``super_mord_pagat_scoring=additive``.
The win test [§7]: the declarer needs half the pack's points (37), or one
more with ``win_threshold=38``; with ``37_tie_last_trick`` a 37:37 tie goes to
the side that won the last trick.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from stich.core.game import DealResult
from stich.games.droggn.options import DroggnOptions
from stich.games.droggn.outcome import DECLARER, DEFENDERS, DealFacts, other_side
from stich.games.droggn.pack import BY_NAME, LAID_OUT_BONUS, MORD_BONUS, PAGAT_CAPTURE, SILENT_ULTIMO


@dataclass(frozen=True)
class Item:
    """One part of the deal's value, credited to ``side``; ``points`` after doubling."""

    name: str
    side: str
    base: int
    doubled: bool
    points: int

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"name": self.name, "side": self.side, "base": self.base, "doubled": self.doubled, "points": self.points}


@dataclass(frozen=True)
class DealValue:
    """The value of a deal for the declarer, with its parts."""

    value: int
    items: tuple[Item, ...]
    winner: str
    declarer_points: int
    defender_points: int
    matsch: bool

    def to_json(self) -> dict[str, Any]:
        """JSON form (part of the result breakdown)."""
        return {
            "winner": self.winner,
            "card_points": {DECLARER: self.declarer_points, DEFENDERS: self.defender_points},
            "matsch": self.matsch,
            "items": [item.to_json() for item in self.items],
            "value": self.value,
        }


def _item(name: str, side: str, base: int, doubled: bool, multiplier: int) -> Item:
    return Item(name, side, base, doubled, base * multiplier if doubled else base)


def game_winner(facts: DealFacts, opts: DroggnOptions, declarer_points: int) -> str:
    """The side that won the game on card points [§7, §10.1]."""
    half = facts.pack_points // 2
    if opts.win_threshold == "38":
        return DECLARER if declarer_points >= half + 1 else DEFENDERS
    if opts.win_threshold == "37_tie_last_trick" and declarer_points * 2 == facts.pack_points:
        return facts.last_trick_side or DECLARER
    return DECLARER if declarer_points >= half else DEFENDERS


def _pagat_items(facts: DealFacts, m: int) -> list[Item]:
    """The Pagat bonuses of §8.4 (laid-out Pagat outside a Super Mord, silent ultimo, capture)."""
    pagat = facts.pagat
    if facts.laid_out == "pagat" and facts.laid_out_side is not None:
        made = pagat is not None and pagat.last and pagat.won
        side = facts.laid_out_side if made else other_side(facts.laid_out_side)
        return [_item("laid_out_pagat", side, LAID_OUT_BONUS, True, m)]
    if pagat is None:
        return []
    if pagat.last:
        return [_item("pagat_ultimo", pagat.side if pagat.won else other_side(pagat.side), SILENT_ULTIMO, False, m)]
    if pagat.winner_side != pagat.side:
        return [_item("pagat_captured", pagat.winner_side, PAGAT_CAPTURE, False, m)]
    return []


def deal_value(facts: DealFacts, opts: DroggnOptions) -> DealValue:
    """The value ``V`` of a played deal for the declarer [§8]."""
    contract = BY_NAME[facts.contract]
    m = facts.multiplier
    half = facts.pack_points // 2
    items: list[Item] = []
    if contract.mord:
        made = facts.all_tricks
        winner = DECLARER if made else DEFENDERS
        doubled = opts.super_mord_doubled
        items.append(_item("super_mord", winner, contract.value + half + MORD_BONUS, doubled, m))
        if facts.laid_out is not None and facts.laid_out_side == DECLARER:
            items.append(_item(f"laid_out_{facts.laid_out}", winner, LAID_OUT_BONUS, doubled, m))
        if opts.super_mord_pagat_scoring == "additive" and facts.laid_out != "pagat":
            items += _pagat_items(facts, m)
        p = facts.pack_points if made else facts.declarer_points
        matsch = False
    else:
        matsch = facts.all_tricks
        p = facts.pack_points if matsch else facts.declarer_points
        winner = game_winner(facts, opts, p)
        items.append(_item("game", winner, contract.value, True, m))
        over = (p if winner == DECLARER else facts.pack_points - p) - half
        if over > 0:
            items.append(_item("overshoot", winner, over, True, m))
        items += _pagat_items(facts, m)
    value = sum(item.points if item.side == DECLARER else -item.points for item in items)
    return DealValue(value, tuple(items), winner, p, facts.pack_points - p, matsch)


def settle(value: int, declarer: int, num_seats: int) -> tuple[int, ...]:
    """Scores per seat: every other seat (idle dealer included) pays ``value`` to the declarer [§8, §8.6]."""
    return tuple(value * (num_seats - 1) if seat == declarer else -value for seat in range(num_seats))


def evaluate(
    facts: DealFacts,
    opts: DroggnOptions,
    *,
    declarer: int,
    active: Sequence[int],
    num_seats: int,
    extra: dict[str, Any] | None = None,
) -> DealResult:
    """The result of a played deal: the seat scores and a JSON breakdown."""
    worth = deal_value(facts, opts)
    idle = [s for s in range(num_seats) if s not in active]
    breakdown: dict[str, Any] = {
        "kind": "played",
        "contract": facts.contract,
        "declarer": declarer,
        "defenders": [s for s in active if s != declarer],
        "idle": idle[0] if idle else None,
        "tricks": {DECLARER: facts.declarer_tricks, DEFENDERS: facts.tricks_played - facts.declarer_tricks},
        "multiplier": facts.multiplier,
        "laid_out": facts.laid_out,
        **worth.to_json(),
    }
    if extra:
        breakdown.update(extra)
    return DealResult(settle(worth.value, declarer, num_seats), breakdown)


def thrown_in(dealer: int, num_seats: int) -> DealResult:
    """All passed: the cards are thrown in, nobody scores, the same dealer deals again [§3.2]."""
    return DealResult(
        tuple(0 for _ in range(num_seats)), {"kind": "thrown", "reason": "all_passed", "seat": dealer, "redeal": True}, thrown_in=True
    )
