"""Evaluation of a finished Dappen deal: counting, the win test and the payments in cents (dossier §7, §8).

:func:`evaluate` turns :class:`~stich.games.dappen.outcome.DealFacts` into a
:class:`~stich.core.game.DealResult`.  The steps:

1. **Counting** [§1, §7.2].  In pairs (every Black Forest version): a pile of
   ``n`` cards worth ``F`` face points counts ``F - ceil(n/2)``; the pack
   totals 79 (78 when, with seven players, both piles are odd).  In threes
   (Jeu du Tarot): exact thirds, ``F - 2n/3``, 70 in all (OPEN-POINTS).
2. **Marsch** [§7.1]: a side that took no trick "marches"; a Marsch always
   counts as a difference of 40 (Jeu du Tarot: as 0 points for the losers).
   Showing all seven five-pointers is a Marsch won by the lone player [§4].
3. **Win test** [§7.3, §8.4]: in pairs the opponents win with 40 or more, else
   the lone player wins (a 39:39 tie too).  In threes the lone player wins iff
   their exact count is above 35 (``3F - 2n > 105``).
4. **Value per opponent** by the version's rounding [§8]:

   ``nearest5_min5`` (Furtwangen)
       ``max(5, round_half_up(diff × u / 5) × 5)`` with ``diff = 40 - losers'
       points`` and ``u`` 1 (full game) or ½ (half game), times the factor.
   ``ceil10_after_factor`` (Breitnau, Buchenbach)
       ``diff × factor × u`` rounded up to a multiple of 10 (an exact multiple
       stays, §10.5).
   ``game_value_by_5`` (Jeu du Tarot)
       ``floor((35 - losers' points) / 5) + 1`` game points in exact thirds,
       times ``jdt_stake`` cents.

   The factor comes from the version's table (pack.SCORINGS): won / lost.
5. **Payments** [§8]: each payer (the opponents, plus a sitting-out dealer
   with ``idle_dealer_pays``) pays the lone player the value or is paid it.
   A lone player's Marsch is paid by the *responsible* opponents — any other
   bidder and a player who kept back the Gstieß, sharing equally — under
   ``marsch_liability=full``; under ``half`` everyone pays half a share
   (rounded down) and the responsible players pay the rest; ``none`` (and a
   seven-five-pointer Marsch with ``seven_fives_liability=shared``) leaves
   every payer with their own share.
6. **Ulti** [§5.1]: each laid-out trump is won or lost on its own, 10/20/30
   Ulti points for trump 3/2/1, at 1 or ½ cent per point, never multiplied,
   paid between the lone player and each payer.

The ``breakdown`` is JSON with the keys ``kind`` (``"game"``), ``contract``,
``lone``, ``opponents``, ``payers``, ``bidders``, ``counting``, ``cards``,
``face_points``, ``points`` (``{"lone", "opponents"}``; thirds as decimals
rounded to 2 places), ``tricks``, ``marsch`` (``"lone"``, ``"opponents"`` or
``None``), ``seven_fives``, ``winner`` (``"lone"``/``"opponents"``),
``losers_points``, ``diff`` (``None`` in threes), ``value`` (the rounded
value before the factor: cents, or Jeu du Tarot game points), ``factor``,
``per_opponent`` (cents), ``liability`` (``None`` or ``{"mode",
"responsible", "paid"}``), ``ulti`` (``{"trump", "won", "cents"}`` each),
``gstiesierer`` and ``payments`` (per seat: game and ulti cents).
"""

from __future__ import annotations

from typing import Any

from stich.core.game import DealResult
from stich.games.dappen.options import DappenOptions
from stich.games.dappen.outcome import DealFacts
from stich.games.dappen.pack import SCORINGS, ULTI_POINTS

MARSCH_DIFF = 40
"""A Marsch always counts as a difference of 40 [§7.1]."""


def pair_points(face: int, cards: int) -> int:
    """Counting in pairs: each pair minus 1, a leftover card minus 1 [§1]."""
    return face - (cards + 1) // 2


def thirds(face: int, cards: int) -> int:
    """Counting in threes in exact thirds, times 3: ``3F - 2n`` [§1, §8.4, OPEN-POINTS]."""
    return 3 * face - 2 * cards


def scale(options: DappenOptions) -> tuple[int, int]:
    """Cents per game point as a fraction (numerator, denominator) [§8.1]."""
    return (1, 1) if options.game_scale == "full" else (1, 2)


def nearest5_min5(diff: int, num: int, den: int) -> int:
    """``max(5, round_half_up(diff × num/den / 5) × 5)`` in integers [§8.1]."""
    return max(5, (2 * diff * num + 5 * den) // (10 * den) * 5)


def ceil10(amount_num: int, den: int) -> int:
    """``amount_num / den`` rounded up to a multiple of 10 (exact multiples stay) [§8.2, §10.5]."""
    return -(-amount_num // (10 * den)) * 10


def jdt_game_value(losers_thirds: int) -> int:
    """Jeu du Tarot game value ``floor((35 - L) / 5) + 1`` with ``L`` given in thirds [§8.4]."""
    return (105 - losers_thirds) // 15 + 1


def ulti_cents(trump: int, options: DappenOptions) -> int:
    """Value of one Ulti in cents: 10/20/30, halved under ``ulti_scale=half`` [§5.1]."""
    points = ULTI_POINTS[trump]
    return points if options.ulti_scale == "full" else points // 2


def payers_of(facts: DealFacts, options: DappenOptions) -> tuple[int, ...]:
    """Who pays or is paid against the lone player: the opponents, and an idle dealer who shares [§8]."""
    if facts.idle is not None and options.idle_dealer_pays:
        return (*facts.opponents, facts.idle)
    return facts.opponents


def _split(total: int, seats: list[int]) -> dict[int, int]:
    """``total`` shared equally by ``seats``; a remainder goes one cent each to the first seats."""
    share, rest = divmod(total, len(seats))
    return {seat: share + (1 if i < rest else 0) for i, seat in enumerate(seats)}


def evaluate(facts: DealFacts, options: DappenOptions) -> DealResult:
    """Score a played deal (or a seven-five-pointer show) in cents per seat."""
    rule = SCORINGS[options.scoring]
    threes = rule.rounding == "game_value_by_5"
    lone_pts = thirds(facts.lone_face, facts.lone_cards) if threes else pair_points(facts.lone_face, facts.lone_cards)
    opp_pts = thirds(facts.opp_face, facts.opp_cards) if threes else pair_points(facts.opp_face, facts.opp_cards)
    marsch: str | None = None
    if facts.seven_fives or facts.opp_tricks == 0:
        marsch = "lone"
    elif facts.lone_tricks == 0:
        marsch = "opponents"
    # Win test [§7.3, §8.4].
    if marsch is not None:
        lone_wins = marsch == "lone"
    elif threes:
        lone_wins = lone_pts > 105
    else:
        lone_wins = opp_pts < 40
    losers = opp_pts if lone_wins else lone_pts
    if marsch is not None:
        losers = 0
    won_factor, lost_factor = rule.factors[facts.contract]
    factor = won_factor if lone_wins else lost_factor
    num, den = scale(options)
    diff: int | None = None
    if threes:
        value = jdt_game_value(losers)
        per = value * factor * options.jdt_stake
    else:
        diff = MARSCH_DIFF if marsch is not None else 40 - losers
        if rule.rounding == "nearest5_min5":
            value = nearest5_min5(diff, num, den)
            per = value * factor
        else:
            value = diff  # the difference is multiplied before rounding
            per = ceil10(diff * factor * num, den)
    payers = payers_of(facts, options)
    n = facts.num_seats
    game = [0] * n
    liability: dict[str, Any] | None = None
    if lone_wins:
        owed = {seat: per for seat in payers}
        responsible = _responsible(facts, options, payers) if marsch == "lone" else []
        if responsible:
            total = per * len(payers)
            if options.marsch_liability == "full":
                owed = {seat: 0 for seat in payers} | _split(total, responsible)
            else:
                half = per // 2
                owed = {seat: half for seat in payers}
                for seat, extra in _split(total - half * len(payers), responsible).items():
                    owed[seat] += extra
            liability = {"mode": options.marsch_liability, "responsible": responsible, "paid": {str(s): owed[s] for s in payers}}
        for seat, amount in owed.items():
            game[seat] -= amount
            game[facts.lone] += amount
    else:
        for seat in payers:
            game[seat] += per
            game[facts.lone] -= per
    ulti_rows = []
    ulti = [0] * n
    for trump, won in facts.ulti:
        cents = ulti_cents(trump, options)
        sign = 1 if won else -1
        for seat in payers:
            ulti[seat] -= sign * cents
            ulti[facts.lone] += sign * cents
        ulti_rows.append({"trump": trump, "won": won, "cents": cents})
    scores = tuple(g + u for g, u in zip(game, ulti, strict=True))

    def shown(points: int) -> int | float:
        return round(points / 3, 2) if threes else points

    breakdown: dict[str, Any] = {
        "kind": "game",
        "contract": facts.contract,
        "lone": facts.lone,
        "opponents": list(facts.opponents),
        "payers": list(payers),
        "bidders": list(facts.bidders),
        "counting": "threes" if threes else "pairs",
        "cards": {"lone": facts.lone_cards, "opponents": facts.opp_cards},
        "face_points": {"lone": facts.lone_face, "opponents": facts.opp_face},
        "points": {"lone": shown(lone_pts), "opponents": shown(opp_pts)},
        "tricks": {"lone": facts.lone_tricks, "opponents": facts.opp_tricks},
        "marsch": marsch,
        "seven_fives": facts.seven_fives,
        "winner": "lone" if lone_wins else "opponents",
        "losers_points": shown(losers),
        "diff": diff,
        "value": value,
        "factor": factor,
        "per_opponent": per,
        "liability": liability,
        "ulti": ulti_rows,
        "gstiesierer": facts.gstiesierer,
        "payments": {"game": game, "ulti": ulti},
    }
    return DealResult(scores, breakdown)


def _responsible(facts: DealFacts, options: DappenOptions, payers: tuple[int, ...]) -> list[int]:
    """Opponents liable for the lone player's Marsch: other bidders and the Gstieß keeper [§8.1]."""
    if options.marsch_liability == "none":
        return []
    if facts.seven_fives and options.seven_fives_liability == "shared":
        return []
    out = [seat for seat in facts.bidders if seat != facts.lone and seat in payers]
    if facts.gstiesierer is not None and facts.gstiesierer in payers and facts.gstiesierer not in out:
        out.append(facts.gstiesierer)
    return out


def thrown_result(num_seats: int) -> DealResult:
    """Everybody passed and nobody had to dapp: "das Spiel kommt ins Loch", no payment [§3.3, §10.12]."""
    return DealResult(
        tuple([0] * num_seats), {"kind": "thrown", "reason": "all passed (ins Loch)", "seat": None, "redeal": False}, thrown_in=True
    )


def penalty_result(num_seats: int, offender: int, others: tuple[int, ...], options: DappenOptions) -> DealResult:
    """A wrongful pass under rule (a) at an honour-system table: the offender pays everyone a Marsch [§3.2.5, §10.3]."""
    num, den = scale(options)
    per = nearest5_min5(MARSCH_DIFF, num, den)
    scores = [0] * num_seats
    for seat in others:
        scores[seat] += per
        scores[offender] -= per
    breakdown = {"kind": "penalty", "reason": "passed with a trump stop (rule a)", "seat": offender, "per_player": per}
    return DealResult(tuple(scores), breakdown)
