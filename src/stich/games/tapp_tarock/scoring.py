"""Evaluation of a finished Tapp Tarock deal: card points, game value, Valat, bonuses, doubling (dossier §7, §8).

:func:`evaluate` turns the :class:`~stich.games.tapp_tarock.outcome.DealFacts`
of a played-out deal into a :class:`~stich.core.game.DealResult`.

1. **Card points** (§7): each side's pile is counted in packets of three
   (face values minus 2 per packet), computed exactly in thirds as
   ``3F - 2n``; 54 cards make 70 points (210 thirds).  The declarer wins the
   game with at least 107 thirds (36 points); 35 : 35 is a loss.
2. **Side items** (§8.1, §8.2, §8.3), each an amount per defender, positive
   when the declarer wins it, times its doubling factor 2 / 4 / 8 (§8.4):

   ``game``
       the contract value 3 / 4 / 5 / 8, won or lost on card points.
   ``valat``
       the declarer took all 16 tricks without announcing it: 12 (or 4 × the
       game value), replacing ``game`` and taking over its doubling; with
       ``valat_replaces_game=false`` it is added, undoubled.
   ``valat_announced``
       24 (or 8 × the game value) won or lost; when won it replaces ``game``
       (unless ``valat_replaces_game=false``); when lost the game is scored
       as usual as well.
   ``defender_valat``
       [option ``defender_valat``] the declarer took no trick: minus the
       silent Valat value instead of the game value, with its doubling.
   ``ultimo``
       silent Pagat ultimo: the Pagat is played to the last trick; if it wins
       it, its holder's side scores 4 (8 in a Solo), otherwise the other side.
   ``ultimo_announced``
       8 (16 in a Solo, or 24 with ``pagat_solo_values=8/24``), won only if
       the declarer's Pagat wins the last trick; replaces the silent ultimo.

   The declarer receives twice the net amount, each defender pays it once.
3. **Hand bonuses** (§8.3), never doubled: Köpfe 1 (two Trull cards), Trull
   3 (all three), Royal Trull 3 (four kings); Trull and Köpfe exclude each
   other, Trull and Royal Trull add up.  With ``holder_collects`` the holder
   receives the value from each other player; with ``side_based`` a bonus
   held by a defender is paid by the declarer to each defender.

Seats that hold no cards (the dealer at a table of four) score 0.  The
breakdown keys are documented in :func:`evaluate`.  Decisions on unclear
points: docs/decisions/0010-tapp-tarock.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stich.cards import Card, Rank, Suit
from stich.core.game import DealResult
from stich.games.tapp_tarock.options import TappTarockOptions
from stich.games.tapp_tarock.outcome import TRICKS, DealFacts
from stich.games.tapp_tarock.pack import (
    CONTRACT_BY_NAME,
    DOUBLING_NAMES,
    HAND_BONUSES,
    ITEMS,
    TOTAL_POINTS,
    ULTIMO_VALUES,
    VALAT_FACTORS,
    VALAT_FIXED,
    WIN_THIRDS,
    thirds,
)

PAGAT_CARD = Card(Suit.TAROCK, 1)
TRULL_CARDS = frozenset({Card(Suit.TAROCK, 1), Card(Suit.TAROCK, 21), Card(Suit.TAROCK, 22)})
KING_CARDS = frozenset(Card(suit, Rank.KING) for suit in (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS))


def valat_values(opts: TappTarockOptions, game_value: int) -> tuple[int, int]:
    """Silent and announced Valat values [§8.2]."""
    if opts.valat_mode == "multiplier_4_8":
        return VALAT_FACTORS[0] * game_value, VALAT_FACTORS[1] * game_value
    return VALAT_FIXED


def ultimo_values(opts: TappTarockOptions, solo: bool) -> tuple[int, int]:
    """Silent and announced Pagat ultimo values [§8.3]."""
    silent, announced = ULTIMO_VALUES[solo]
    if solo and opts.pagat_solo_values == "8/24":
        announced = 24
    return silent, announced


def hand_bonuses(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    """The hand bonuses a hand holds: ``trull`` or ``koepfe``, and ``royal_trull`` [§8.3]."""
    held = set(cards)
    trull = len(held & TRULL_CARDS)
    kings = len(held & KING_CARDS)
    names = []
    if trull == 3:
        names.append("trull")
    elif trull == 2:
        names.append("koepfe")
    if kings == 4:
        names.append("royal_trull")
    return names


def _side_item(name: str, amount: int, level: int) -> dict[str, Any]:
    factor = 2**level
    return {
        "name": name,
        "to": "declarer" if amount > 0 else "defenders",
        "value": abs(amount),
        "doubling": DOUBLING_NAMES[level],
        "factor": factor,
        "amount": amount * factor,
    }


def side_items(facts: DealFacts, opts: TappTarockOptions, won: bool) -> list[dict[str, Any]]:
    """The items paid between the declarer and each defender, as JSON, in scoring order [§8.1-§8.4]."""
    contract = CONTRACT_BY_NAME[facts.contract]
    level = dict(zip(ITEMS, facts.doubling, strict=True))
    silent_valat, announced_valat = valat_values(opts, contract.value)
    items: list[dict[str, Any]] = []
    all_tricks = facts.declarer_tricks == TRICKS
    game_replaced = False
    if "valat" in facts.announced:
        if all_tricks:
            items.append(_side_item("valat_announced", announced_valat, level["valat"]))
            game_replaced = opts.valat_replaces_game
        else:
            items.append(_side_item("valat_announced", -announced_valat, level["valat"]))
    elif all_tricks:
        if opts.valat_replaces_game:
            items.append(_side_item("valat", silent_valat, level["game"]))
            game_replaced = True
        else:
            items.append(_side_item("valat", silent_valat, 0))
    if facts.declarer_tricks == 0 and opts.defender_valat and not game_replaced:
        items.insert(0, _side_item("defender_valat", -silent_valat, level["game"]))
        game_replaced = True
    if not game_replaced:
        items.insert(0, _side_item("game", contract.value if won else -contract.value, level["game"]))
    silent_ultimo, announced_ultimo = ultimo_values(opts, contract.name == "solo")
    last = facts.last_trick
    pagat_seat = None
    if last is not None and PAGAT_CARD in last.cards:
        pagat_seat = last.seats[last.cards.index(PAGAT_CARD)]
    if "ultimo" in facts.announced:
        made = pagat_seat == facts.declarer and last is not None and last.winner == facts.declarer
        items.append(_side_item("ultimo_announced", announced_ultimo if made else -announced_ultimo, level["ultimo"]))
    elif pagat_seat is not None and last is not None:
        holder_side_scores = last.winner == pagat_seat
        declarer_scores = holder_side_scores == (pagat_seat == facts.declarer)
        items.append(_side_item("ultimo", silent_ultimo if declarer_scores else -silent_ultimo, 0))
    return items


def evaluate(facts: DealFacts, opts: TappTarockOptions) -> DealResult:
    """Score a played-out deal.

    Breakdown keys: ``kind`` (``"game"``), ``contract``, ``declarer``,
    ``defenders``, ``talon_taken`` (``lower``, ``upper`` or ``None``),
    ``announced`` (sorted), ``doubling`` (item -> level name, doubled items
    only), ``points`` and ``thirds`` (``{"declarer": .., "defenders": ..}``),
    ``tricks`` (likewise), ``won`` (the game on card points), ``items`` (side
    items: ``name``, ``to``, ``value``, ``doubling``, ``factor`` and
    ``amount`` per defender, positive for the declarer), ``per_defender``
    (their sum), ``hand_bonuses`` (``name``, ``seat``, ``value``,
    ``settlement``).
    """
    bonus_names = [hand_bonuses(facts.bonus_hands[seat] if seat < len(facts.bonus_hands) else ()) for seat in facts.active_seats]
    return score(facts, opts, thirds(facts.declarer_cards), thirds(facts.defender_cards), bonus_names)


def score(
    facts: DealFacts, opts: TappTarockOptions, declarer_thirds: int, defender_thirds: int, bonus_names: Sequence[Sequence[str]]
) -> DealResult:
    """:func:`evaluate` with the counting done: the piles' :func:`thirds` and each active seat's :func:`hand_bonuses`.

    ``bonus_names`` follows ``facts.active_seats``.  The state counts these
    from its card masks (much faster than from the cards, and a search
    scores many deals); ``evaluate`` counts them from the facts' cards.
    """
    n = facts.num_seats
    declarer = facts.declarer
    defenders = facts.defenders
    if declarer_thirds + defender_thirds != 3 * TOTAL_POINTS:
        raise ValueError(f"the two piles hold {declarer_thirds + defender_thirds} thirds, not {3 * TOTAL_POINTS}: a card is missing")
    won = declarer_thirds >= WIN_THIRDS
    items = side_items(facts, opts, won)
    per_defender = sum(int(item["amount"]) for item in items)
    scores = [0] * n
    scores[declarer] += 2 * per_defender
    for seat in defenders:
        scores[seat] -= per_defender
    bonuses: list[dict[str, Any]] = []
    for seat, names in zip(facts.active_seats, bonus_names, strict=True):
        for name in names:
            value = HAND_BONUSES[name]
            if opts.hand_bonus_settlement == "side_based" and seat != declarer:
                scores[declarer] -= 2 * value
                for other in defenders:
                    scores[other] += value
                settlement = "defenders"
            else:
                for other in facts.active_seats:
                    scores[other] += 2 * value if other == seat else -value
                settlement = "holder"
            bonuses.append({"name": name, "seat": seat, "value": value, "settlement": settlement})
    level = dict(zip(ITEMS, facts.doubling, strict=True))
    breakdown: dict[str, Any] = {
        "kind": "game",
        "contract": facts.contract,
        "declarer": declarer,
        "defenders": list(defenders),
        "talon_taken": facts.talon_taken,
        "announced": sorted(facts.announced),
        "doubling": {item: DOUBLING_NAMES[lv] for item, lv in level.items() if lv},
        "points": {"declarer": declarer_thirds // 3, "defenders": defender_thirds // 3},
        "thirds": {"declarer": declarer_thirds, "defenders": defender_thirds},
        "tricks": {"declarer": facts.declarer_tricks, "defenders": TRICKS - facts.declarer_tricks},
        "won": won,
        "items": items,
        "per_defender": per_defender,
        "hand_bonuses": bonuses,
    }
    return DealResult(tuple(scores), breakdown)


def thrown_result(num_seats: int, next_dealer: int) -> DealResult:
    """The result of a deal thrown in because everybody passed [§3.3]: nobody scores, ``next_dealer`` deals again."""
    return DealResult(tuple(0 for _ in range(num_seats)), {"kind": "all_pass", "redeal": True, "next_dealer": next_dealer}, thrown_in=True)
