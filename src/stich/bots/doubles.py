"""A defender's double in the Tarock games with one: the heuristic's, for both search bots.

``pimc`` (unless ``doubles=search``) and ``ismcts`` (with ``calls=heuristic``)
ask :func:`is_defender_double` before searching a decision, and leave a
defender's double to the game's heuristic bot; the declarer's answer
(Rekontra, Retour) is searched.
"""

from __future__ import annotations

from stich.core.game import Game, Observation

DEFENDER_DOUBLES: dict[str, str] = {"tapp_tarock": "kontra", "dobbm": "doubling", "droggn": "doubling"}
"""Game -> its doubling phase, in which a defender's decision is the heuristic's (``pimc`` and ``ismcts``).

A defender's double (Tapp Tarock's Kontra and Subkontra, Dobbm's and
Droggn's Schwacher and a defender's Retour) bets that the declarer's hand is weaker than his bid says, and
the sampled worlds deal him a random hand (in Dobbm they read the calls,
yet the doubles still lost).  The search's own defender doubles where the
heuristic and ``pimc`` passed lost 9.7 points per seat (47 seats) and 3.9
(145) in two Tapp Tarock matches against ``pimc`` at level 1, and 6.6-6.75
(63 and 99 seats) in Dobbm at 0.025 s.  In Droggn, against the heuristic
at level 1, ``pimc``'s own Schwacher where the heuristic passed lost 70.7
points per seat (467 of 1,797 seats, the first 599 deals of a match), while
its cards gained 7.0 per seat (1,271 seats).  Reading the declarer's bid
(:class:`~stich.search.call_reading.CallReadingSampler`) costs about 30 ms a
world in Tapp Tarock, more than a level-1 decision has.

The declarer's answer (Rekontra, Retour) stays searched: with the
heuristic's answers too, the Tapp Tarock match lost 2,746 points in the 78
seats that first differed from ``pimc`` at a declarer's double (``pimc``'s
defenders double loosely and its declarers punish that), against 542 in 32
when the search answered; its defenders' heuristic doubles gained 1,882 in
328 seats (docs/strength.md).
"""


def is_defender_double(game: Game, observation: Observation) -> bool:
    """Whether ``observation`` is a defender's decision in the doubling phase of :data:`DEFENDER_DOUBLES`."""
    return observation.phase == DEFENDER_DOUBLES.get(game.name) and observation.public.get("declarer") not in (None, observation.seat)
