"""The heuristic bot's order of preference among some actions, for the search bots' candidate lists.

A heuristic bot answers one action.  The search bots (``pimc``, ``ismcts``)
want its next choices as well: which calls to weigh against a card, which
five of twelve discards to simulate.  :func:`heuristic_ranking` asks it again
with its earlier picks withheld from the legal actions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from stich.bots.base import Bot
from stich.core.game import Action, Observation


def heuristic_ranking(
    heuristic: Bot, observation: Observation, first: Action | None, actions: Sequence[Action], limit: int
) -> list[Action]:
    """Up to ``limit`` of ``actions`` in ``heuristic``'s order of preference, ``first`` leading when given.

    The heuristic is asked again with its earlier picks withheld from the
    legal actions.  Where it cannot choose from such a reduced list (it
    raises or answers outside it), the rest follow in the given order.
    """
    remaining = [a for a in actions if a != first]
    ranked = [first] if first is not None else []
    while remaining and len(ranked) < limit:
        view = dataclasses.replace(observation, legal_actions=tuple(remaining))
        try:
            pick = heuristic.choose(view)
        except Exception:  # a heuristic may rely on actions that were withheld: fall back to the given order
            pick = None
        if pick is None or pick not in remaining:
            ranked.extend(remaining[: limit - len(ranked)])
            break
        ranked.append(pick)
        remaining.remove(pick)
    return ranked


def heuristic_best(heuristic: Bot, observation: Observation, actions: Sequence[Action]) -> Action:
    """``heuristic``'s choice among ``actions`` only (the first of them if it cannot choose)."""
    return heuristic_ranking(heuristic, observation, None, actions, 1)[0]
