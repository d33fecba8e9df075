"""Ratings of people and bots from rated deals: who counts, which sides, and the update (issue 44, decision 0055).

Read from a finished deal's record and its table's seats alone (no database):

* **Pools.**  A rating belongs to a *pool*: a game, and for Doppelkopf its
  rules family, because the DDV's tournament rules and house rules are
  different games to a player.  ``doppelkopf:ddv`` holds deals played by the
  DDV preset's rules (the compulsory solo of a list aside: a free table and a
  list play the same deals); every other Doppelkopf table is
  ``doppelkopf:house``.  Each Tarock-family game is one pool (its presets are
  regional variants of one game, and one pool each keeps the boards full).
* **Players.**  A person is their account (``user:ID``); a guest has no
  rating and may not sit at a rated table.  Each bot spec is a player of its
  own (``bot:heuristic``, ``bot:pimc:level=2``), so a person sees the level
  they face.  The stand-in bot that moves for an absent person is never
  rated: its moves count for (or against) the person.
* **Which deals.**  A deal is rated when its table was created rated, it was
  played to its end (a thrown-in deal is not rated), at least one account
  sat in it (bots among themselves rate nothing), and no account held two
  seats.  The web client gives no move hints at any table.
* **Sides.**  The declaring side (Re, a soloist, a Tarock declarer) against
  the others (Kontra, the defenders): 2 against 2, 1 against 3 in a solo,
  1 against 2 in Tapp Tarock and Droggn, 1 against 5 in Dappen.  A seat that
  sat the deal out (the dealer at a five-player table) is not rated.  The
  side whose seats' scores add up above 0 won; a sum of 0 is a draw.
* **Stand-in rule.**  A person for whom a stand-in made a move because they
  were away (the record's ``meta.stand_in_seats``) is rated as having lost
  the deal, whatever their side's result; the other players are rated by the
  result as it was.  A move the stand-in made because a present person's
  turn clock ran out counts as the person's own move.
* **Update.**  :mod:`openskill`'s Plackett-Luce model (Weng-Lin), made for
  teams of uneven size.  Shown is the conservative ``ordinal`` (mu - 3
  sigma).  A bot spec in several seats of one deal (heuristic partners and
  opponents) gets the sum of its seats' changes of ``mu`` and the smallest
  of their ``sigma``: each seat is one game it played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from openskill.models import PlackettLuce

from stich.core.registry import game_from_string, game_names, make_game
from stich.web.deals.absence import stand_in_seats
from stich.web.deals.deal_facts import party_of, thrown_in

DECLARING = frozenset({"re", "solo", "declarer"})
"""Parties of the declaring side (:func:`stich.web.deals.deal_facts.party_of`)."""
DEFENDING = frozenset({"kontra", "defender"})
"""Parties of the other side."""

FAMILIES: Mapping[str, tuple[str, str, str]] = {"doppelkopf": ("ddv", "ddv", "house")}
"""Games whose rules families are rated apart: ``(preset, family of that preset's rules, family of any other rules)``."""
SESSION_OPTIONS: Mapping[str, frozenset[str]] = {"doppelkopf": frozenset({"pflichtsolo", "round_games"})}
"""Options that shape a list, not a deal: ignored when a table's rules family is decided."""
ONE_FAMILY = "all"
"""The family of a game rated as one pool."""

MODEL = PlackettLuce()
"""The rating model: openskill's defaults (mu 25, sigma 25/3, beta 25/6)."""
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma


@cache
def families(game: str) -> tuple[str, ...]:
    """The rules families of ``game`` that have a pool of their own (``("ddv", "house")``, or ``("all",)``)."""
    if game not in FAMILIES:
        return (ONE_FAMILY,)
    _preset, inside, outside = FAMILIES[game]
    return (inside, outside)


def pool_name(game: str, family: str) -> str:
    """The pool key stored with a rating: ``doppelkopf:ddv``, ``tapp_tarock``..."""
    return game if family == ONE_FAMILY else f"{game}:{family}"


def game_pools() -> list[tuple[str, str]]:
    """Every ``(game, family)`` with a leaderboard, games in registry order."""
    return [(game, family) for game in game_names() for family in families(game)]


@cache
def family_of(canonical: str) -> str:
    """The rules family of a table's game (its canonical string, e.g. ``doppelkopf(preset=ddv)``)."""
    game = game_from_string(canonical)
    if game.name not in FAMILIES:
        return ONE_FAMILY
    preset, inside, outside = FAMILIES[game.name]
    reference = make_game(game.name, preset).options
    ignored = {name: getattr(reference, name) for name in SESSION_OPTIONS.get(game.name, ()) if hasattr(reference, name)}
    options = game.options
    if type(options) is not type(reference):  # pragma: no cover - one options class per game
        return outside
    return inside if replace(options, **ignored) == reference else outside


@dataclass(frozen=True)
class RatedSeat:
    """One seat of a rated deal: its player (``user:ID`` or ``bot:SPEC``) and whether a stand-in moved for its absent person."""

    seat: int
    player: str
    user_id: int | None
    bot: str | None
    absent: bool = False


@dataclass(frozen=True)
class RatedDeal:
    """A deal that counts: its pool, the two sides' seats and which side won (``0``, ``1``; ``None``: a draw)."""

    pool: str
    sides: tuple[tuple[RatedSeat, ...], tuple[RatedSeat, ...]]
    winner: int | None

    def seats(self) -> list[RatedSeat]:
        """Every rated seat, declaring side first."""
        return [*self.sides[0], *self.sides[1]]


@dataclass(frozen=True)
class SeatHolder:
    """Who held a seat: ``human`` (with its account, ``None`` for a guest) or ``bot`` (with its spec)."""

    kind: str
    user_id: int | None = None
    bot: str | None = None


def player_key(holder: SeatHolder) -> str | None:
    """The rated player in a seat, or ``None`` for a seat nobody rated holds (a guest, an empty seat)."""
    if holder.kind == "bot" and holder.bot:
        return f"bot:{holder.bot}"
    if holder.kind == "human" and holder.user_id is not None:
        return f"user:{holder.user_id}"
    return None


def rated_deal(record: Mapping[str, Any], holders: Sequence[SeatHolder]) -> RatedDeal | None:
    """The deal of ``record`` as it is rated, or ``None`` when it is not rated (see the module's rules)."""
    result = record.get("result")
    if not isinstance(result, Mapping) or thrown_in(result):
        return None
    game = str(record["game"]).split("(", 1)[0]
    scores = result.get("scores")
    if not isinstance(scores, list) or len(scores) != len(holders):
        return None
    away = set(stand_in_seats(record))
    sides: tuple[list[RatedSeat], list[RatedSeat]] = ([], [])
    for seat, holder in enumerate(holders):
        party = party_of(game, result, seat)
        if party not in DECLARING and party not in DEFENDING:
            continue  # sat the deal out
        key = player_key(holder)
        if key is None:
            return None  # somebody without a rating played: nobody is rated by this deal
        rated = RatedSeat(seat, key, holder.user_id, holder.bot, holder.kind == "human" and seat in away)
        sides[0 if party in DECLARING else 1].append(rated)
    people = [rated.user_id for side in sides for rated in side if rated.user_id is not None]
    if not people or len(set(people)) != len(people) or not sides[0] or not sides[1]:
        return None
    total = sum(int(scores[rated.seat]) for rated in sides[0])
    winner = None if total == 0 else (0 if total > 0 else 1)
    return RatedDeal(pool_name(game, family_of(str(record["game"]))), (tuple(sides[0]), tuple(sides[1])), winner)


@dataclass(frozen=True)
class Change:
    """One player's rating after one deal, and how the deal went for them (``won``, ``lost``, ``draw``)."""

    player: str
    user_id: int | None
    bot: str | None
    mu: float
    sigma: float
    outcome: str
    absent: bool

    @property
    def ordinal(self) -> float:
        """The rating shown: mu - 3 sigma (a new player starts at 0)."""
        return ordinal(self.mu, self.sigma)


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown on boards: openskill's ordinal, mu - 3 sigma."""
    return mu - 3.0 * sigma


def _rate(deal: RatedDeal, current: Mapping[str, tuple[float, float]], winner: int | None) -> list[list[tuple[float, float]]]:
    """New ``(mu, sigma)`` of every seat of both sides for the result ``winner``."""
    teams = [[MODEL.rating(mu=current[rated.player][0], sigma=current[rated.player][1]) for rated in side] for side in deal.sides]
    ranks = [1.0, 1.0] if winner is None else ([1.0, 2.0] if winner == 0 else [2.0, 1.0])
    rated = MODEL.rate(teams, ranks=ranks)
    return [[(r.mu, r.sigma) for r in team] for team in rated]


def changes(deal: RatedDeal, current: Mapping[str, tuple[float, float]]) -> list[Change]:
    """Every rated player's new rating after ``deal``, from ``current`` ratings (``(mu, sigma)`` by player; missing: a new one).

    One :class:`Change` per player, in the order the players first sit.
    """
    before = {rated.player: current.get(rated.player, (START_MU, START_SIGMA)) for rated in deal.seats()}
    as_played = _rate(deal, before, deal.winner)
    swapped: list[list[tuple[float, float]]] | None = None
    moves: dict[str, list[tuple[float, float, str, RatedSeat]]] = {}
    for index, side in enumerate(deal.sides):
        for position, rated in enumerate(side):
            outcome = "draw" if deal.winner is None else ("won" if deal.winner == index else "lost")
            mu, sigma = as_played[index][position]
            if rated.absent and outcome != "lost":  # the stand-in rule: away is a loss for the absent person
                swapped = swapped if swapped is not None else _rate(deal, before, 1 - index)
                mu, sigma = swapped[index][position]
                outcome = "lost"
            moves.setdefault(rated.player, []).append((mu - before[rated.player][0], sigma, outcome, rated))
    out = []
    for player, seats in moves.items():
        first = seats[0][3]
        outcomes = {outcome for _d, _s, outcome, _r in seats}
        outcome = outcomes.pop() if len(outcomes) == 1 else "draw"  # a bot on both sides of one deal
        out.append(
            Change(
                player,
                first.user_id,
                first.bot,
                before[player][0] + sum(delta for delta, _s, _o, _r in seats),
                min(sigma for _d, sigma, _o, _r in seats),
                outcome,
                any(rated.absent for _d, _s, _o, rated in seats),
            )
        )
    return out
