"""Evaluation of a finished Dobbm deal: counting, winner, payment (dossier §7, §8).

:func:`evaluate` turns the :class:`~stich.games.dobbm.outcome.DealFacts` of a
played deal into a :class:`~stich.core.game.DealResult`:

1. **Count** (§7.1): the declarer has the card points of their tricks plus the
   four discards (Dobbm) or the Dobb (Solo); the defenders the rest of 120.
   A declarer who took no trick loses the discards or the Dobb to the
   defenders too (§7.2, option ``dobb_to_defenders_if_declarer_no_trick``).
2. **Winner** (§7.3): the declarer with 61 or more, the defenders when the
   declarer has 59 or less; 60:60 is a draw and pays nothing.
3. **Margin** (§8.1): the winner's card points minus 60 (1..60).
4. **Base** (§8.2): ``margin * match_stake / 60`` — rounded up to a whole
   unit (``payment_rounding=ceil``: with a 12-unit stake one unit per started
   5 points) or exact (stakes that are multiples of 60).
5. **Payment per opponent** (§8.3): base x 2 for a Solo x 2 per Schwacher and
   Retour; doubling comes after rounding (§5.5).
6. **Ledger** (§8.3): each opponent (three defenders, plus the idle dealer at
   five players) pays the declarer the payment, or receives it; the declarer's
   entry is the sum, so the entries are zero-sum.  A Match (all 8 tricks to
   one side) has no bonus (§7.4) and is only noted.

The ``breakdown`` keys: ``kind`` (``"game"``; an all-pass deal is
``"all_pass"``, see :func:`all_pass_result`), ``contract``, ``declarer``,
``opponents``, ``idle``, ``mussrunde``, ``points`` and ``tricks``
(``{"declarer": n, "defenders": n}``), ``trick_points`` (the declarer's card
points in tricks), ``talon`` (``{"points": n, "to": "declarer"|"defenders"}``),
``winner`` (``"declarer"``, ``"defenders"`` or ``None`` for a draw),
``margin``, ``base``, ``solo_factor``, ``doubles``, ``multiplier``,
``payment`` (per opponent, unsigned) and ``match`` (``"declarer"``,
``"defenders"`` or ``None``).
"""

from __future__ import annotations

from typing import Any

from stich.core.game import DealResult
from stich.games.dobbm.options import MATCH_POINTS, DobbmOptions
from stich.games.dobbm.outcome import DealFacts
from stich.games.dobbm.pack import CONTRACTS, HALF, TOTAL_POINTS, TRICKS

STOCKERL_MARGIN = 10
"""A Stockerl is worth what 10 card points over 60 pay in an ordinary game (§3.2)."""


def base_payment(margin: int, options: DobbmOptions) -> int:
    """Units one opponent pays for ``margin`` card points over 60, before any doubling (§8.2).

    ``ceil``: ``ceil(margin * stake / 60)`` (stake 12: one unit per started 5
    points; stake 6: per started 10).  ``exact``: ``margin * stake / 60``
    (the options guarantee a stake that is a multiple of 60).
    """
    if margin <= 0:
        return 0
    product = margin * options.match_stake
    if options.payment_rounding == "exact":
        return product // MATCH_POINTS
    return -(-product // MATCH_POINTS)


def stockerl(options: DobbmOptions) -> int:
    """The Stockerl (§3.2): what 10 card points over 60 pay, after rounding (stake 12: 2 units; stake 60: 10)."""
    return base_payment(STOCKERL_MARGIN, options)


def evaluate(facts: DealFacts, options: DobbmOptions) -> DealResult:
    """Score a played deal (see the module docstring for the steps)."""
    contract = CONTRACTS[facts.contract]
    no_trick = facts.declarer_tricks == 0
    talon_to_declarer = not (no_trick and options.dobb_to_defenders_if_declarer_no_trick)
    declarer_points = facts.trick_points + (facts.talon_points if talon_to_declarer else 0)
    defender_points = TOTAL_POINTS - declarer_points
    if declarer_points > HALF:
        winner: str | None = "declarer"
        margin = declarer_points - HALF
    elif declarer_points < HALF:
        winner = "defenders"
        margin = defender_points - HALF
    else:
        winner = None
        margin = 0
    base = base_payment(margin, options)
    multiplier = 2**facts.doubles
    payment = base * contract.factor * multiplier
    sign = {"declarer": 1, "defenders": -1, None: 0}[winner]
    scores = [0] * facts.num_seats
    for seat in facts.opponents:
        scores[seat] = -sign * payment
    scores[facts.declarer] = sign * payment * len(facts.opponents)
    match = "declarer" if facts.declarer_tricks == TRICKS else "defenders" if no_trick else None
    breakdown: dict[str, Any] = {
        "kind": "game",
        "contract": facts.contract,
        "declarer": facts.declarer,
        "opponents": sorted(facts.opponents),
        "idle": facts.idle,
        "mussrunde": facts.mussrunde,
        "points": {"declarer": declarer_points, "defenders": defender_points},
        "tricks": {"declarer": facts.declarer_tricks, "defenders": TRICKS - facts.declarer_tricks},
        "trick_points": facts.trick_points,
        "talon": {"points": facts.talon_points, "to": "declarer" if talon_to_declarer else "defenders"},
        "winner": winner,
        "margin": margin,
        "base": base,
        "solo_factor": contract.factor,
        "doubles": facts.doubles,
        "multiplier": multiplier,
        "payment": payment,
        "match": match,
    }
    return DealResult(tuple(scores), breakdown)


def all_pass_result(num_seats: int, dealer: int, options: DobbmOptions) -> DealResult:
    """All four passed (§3.2): nothing at four players; at five the new dealer (the old dealer's left) collects a Stockerl.

    The Stockerl is paid by each of the other four players; it is not doubled.
    Breakdown: ``kind="all_pass"``, ``redeal`` (always true), ``next_dealer``,
    ``stockerl`` (per payer, 0 when none is due), ``collector`` (seat or ``None``).
    """
    scores = [0] * num_seats
    next_dealer = dealer if num_seats == 4 else (dealer + 1) % num_seats
    collector: int | None = None
    amount = 0
    if num_seats == 5 and options.stockerl_5p:
        collector = next_dealer
        amount = stockerl(options)
        for seat in range(num_seats):
            scores[seat] = amount * (num_seats - 1) if seat == collector else -amount
    breakdown: dict[str, Any] = {
        "kind": "all_pass",
        "redeal": True,
        "next_dealer": next_dealer,
        "stockerl": amount,
        "collector": collector,
    }
    return DealResult(tuple(scores), breakdown, thrown_in=True)
