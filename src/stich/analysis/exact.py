"""Exact values of Doppelkopf card decisions from the middle of a deal: the compiled solver's final eyes, scored.

The engine's exact search (:class:`~stich.search.perfect_info.AlphaBeta`)
reaches three tricks; the compiled solver
(:class:`~stich.bots.doppelkopf.kernel.KernelSolver`) values every card of a
position with :data:`KERNEL_TRICKS` tricks left in tens of milliseconds
(bench/bench_solver.py), but in Re's final *eyes*.  The seat's score is a
non-decreasing function of its party's eyes once the calls are made (more
eyes never lose a goal, an "under" or an "against" point; the solo's triple
and plus/minus counting keep the order), and a minimax value commutes with a
non-decreasing function: the score of the eyes the solver finds for a card
*is* the card's exact score with best play afterwards, except for what eyes
do not decide:

* the special points of the tricks still to come (Doppelkopf, Fuchs,
  Karlchen, ...) and those already made are left out: the latter are the
  same for every card of a decision (except where ``specials_before_doubling``
  doubles them for the winner), the former are not searched;
* "schwarz" is read from the eyes (0 or 240), not from the tricks (a
  party that took only tricks of nines has 0 eyes and is not schwarz);
  a position where a party called schwarz (its goal is tricks, not eyes)
  is not valued here (:func:`solvable`).

Decision 0063 says why the analysis takes this over the rollouts from
:data:`KERNEL_TRICKS` tricks on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from stich.core.game import State
from stich.games.doppelkopf.outcome import SCHWARZ
from stich.games.doppelkopf.scoring import KONTRA, RE, Tally, deal_value, seat_scores
from stich.games.doppelkopf.state import DoppelkopfState
from stich.search.perfect_info import TOTAL_EYES, in_trick_play, teams
from stich.search.scores import score_value

KERNEL_TRICKS = 6
"""Tricks left (the current one included) from which a Doppelkopf card decision is valued by the compiled solver.

The second half of a 12-trick deal.  Measured (decision 0063,
bench/bench_analysis.py ``--kernel-tricks``): a deal's analysis at the
default 24 worlds costs about what the rollouts cost (3.5-4 s of CPU); from
7 tricks a decision at a trick's first card took up to 19 s (one solve of
every card up to about a second per world) and a deal up to 26 s.
"""


def kernel_ready() -> bool:
    """Whether the compiled Doppelkopf solver is there (numba); without it the analysis keeps its rollouts."""
    from stich.bots.doppelkopf import kernel  # imported late: numba loads only where Doppelkopf is analysed

    return kernel.available()


def solvable(world: State) -> bool:
    """Whether the solver's eyes give ``world``'s card values: Doppelkopf trick play, parties known, nobody called schwarz."""
    if not isinstance(world, DoppelkopfState) or not in_trick_play(world):
        return False
    return world.clarified and max(world.level) < SCHWARZ  # the parties known (no open wedding), and each party's call


def eye_scorer(world: State, seat: int) -> Callable[[int], float]:
    """The seat's final score as a function of Re's final eyes, with the calls of ``world`` (no trick's special points)."""
    facts = dataclasses.replace(world.facts(), tricks=())  # type: ignore[attr-defined]
    options = world.options  # type: ignore[attr-defined]
    level = {RE: facts.re_level, KONTRA: facts.kontra_level}
    cache: dict[int, float] = {}

    def score(re_eyes: int) -> float:
        if re_eyes not in cache:
            kontra_eyes = TOTAL_EYES - re_eyes
            t = Tally({RE: re_eyes, KONTRA: kontra_eyes}, {RE: int(re_eyes > 0), KONTRA: int(kontra_eyes > 0)}, level, facts.knocks)
            winner, _items, _specials, value = deal_value(facts, t, options)
            cache[re_eyes] = score_value(seat_scores(facts, value, options, winner)[seat])
        return cache[re_eyes]

    return score


def kernel_values(world: State, seat: int, codes: Sequence[int]) -> list[float]:
    """The seat's exact final score (game value, see the module docstring) after each card ``codes`` in ``world``."""
    from stich.bots.doppelkopf import kernel

    assert teams(world)[seat] >= 0, "an idle seat makes no card decision"
    solved = kernel.KernelSolver(world).solve()  # type: ignore[arg-type]
    score = eye_scorer(world, seat)
    return [score(solved[code]) for code in codes]
