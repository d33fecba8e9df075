"""Bounds on one seat's score change per deal, for adapters that need them (OpenSpiel) and for reward scaling.

Most games have a small largest score: their stakes rise through a few
announcements at most.  Dobbm and Droggn do not: each Schwacher and Retour
doubles the stakes (``2 ** doubles``), and with ``retour_limit=0`` (their
presets' default, as PAGAT plays them) there is no end to the Retours, so no
bound holds (2,000 random Droggn deals reached 10.9 M points, issue 41).

* :data:`UNDOUBLED_BOUND` is a bound on one seat's score change before the
  Schwacher / Retour doubling: at least five times the largest value seen
  in 300 random deals of every preset (the figures are in
  ``tests/rl/test_bounds.py``'s docstring).
* :func:`utility_bound` multiplies it by the largest doubling the options
  allow, ``2 ** (1 + retour_limit)`` (a Schwacher and ``retour_limit``
  Retours), and is ``None`` where the Retours are unlimited.
* :func:`with_retour_cap` is the cap: the same game with
  ``retour_limit=RETOUR_CAP`` where the options leave the Retours unlimited.
  OpenSpiel's games apply it (OpenSpiel needs finite utility bounds and a
  finite game length); the other adapters take ``retour_limit`` as any
  option (``dobbm(retour_limit=2)``).
* For learners, ``reward_scale=1 / utility_bound(game)`` (PettingZoo,
  Gymnasium, RLlib) gives rewards in ``[-1, 1]``; with a small cap the tail
  stays short (each Retour doubles the largest reward).
"""

from __future__ import annotations

from stich.core.game import Game
from stich.core.options import parse_game_string
from stich.core.registry import make_game

UNDOUBLED_BOUND: dict[str, float] = {
    "doppelkopf": 2000.0,
    "tapp_tarock": 10000.0,
    "dobbm": 2000.0,
    "droggn": 2000.0,
    "dappen": 20000.0,
}
"""One seat's largest score change per deal before any Schwacher / Retour doubling, per game (a loose bound)."""

RETOUR_CAP = 6
"""Retours allowed where the options leave them unlimited and an adapter needs a bound (OpenSpiel): stakes up to ×128."""


def retour_limit(game: Game) -> int | None:
    """The game's ``retour_limit`` option (0 = unlimited), or ``None`` for a game without Retours."""
    value = getattr(game.options, "retour_limit", None)
    return None if value is None else int(value)


def utility_bound(game: Game) -> float | None:
    """A bound on one seat's score change in a deal of ``game``; ``None`` where unlimited Retours allow any score."""
    base = UNDOUBLED_BOUND[game.name]
    limit = retour_limit(game)
    if limit is None:
        return base
    if limit == 0:
        return None
    return base * float(2 ** (1 + limit))


def with_retour_cap(game: Game, cap: int = RETOUR_CAP) -> Game:
    """``game`` itself, or the same game with ``retour_limit=cap`` where its Retours are unlimited."""
    if retour_limit(game) != 0:
        return game
    name, pairs = parse_game_string(game.canonical)
    preset = pairs.pop("preset")
    return make_game(name, preset, {**pairs, "retour_limit": cap})
