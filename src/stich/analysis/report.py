"""What an analysis finds: one :class:`DecisionReport` per decision of the analysed seat, in an :class:`Analysis`.

The JSON form (:meth:`Analysis.to_json`) is what ``stich analyse --json``
prints and what the web API returns and caches: the same keys, the same
numbers for the same record, seat, seed and budget.  The terminal's table
of it is :mod:`stich.cli.analyse` (its words in :mod:`stich.cli.texts`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CATEGORIES: dict[str, str] = {
    "play": "card",
    "discard": "discard",
    "lay_out": "discard",
    "announce": "call",
    "kontra": "call",
    "rekontra": "call",
    "subkontra": "call",
    "double": "call",
    "retour": "call",
    "schwacher": "call",
    "genscher": "call",
}
"""Action verb -> category (``card``, ``discard``, ``call``); every other verb is a reservation or bid (``bid``)."""


def category(verb: str) -> str:
    """The decision category of an action verb: ``card``, ``discard``, ``call`` (announcement or double) or ``bid``."""
    return CATEGORIES.get(verb, "bid")


@dataclass(frozen=True)
class Candidate:
    """One action weighed at a decision: its mean value for the seat over the decision's worlds."""

    action: str
    value: float
    """Mean final score of the seat over the worlds after this action (exact search, the solver or rollouts)."""

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"action": self.action, "value": round(self.value, 4)}


@dataclass(frozen=True)
class DecisionReport:
    """One decision of the analysed seat: what it did, what the search prefers and what the difference costs."""

    index: int
    """Position of the action in the record's ``actions``."""
    trick: int | None
    """0-based trick the decision belongs to (a card or a call during trick play); ``None`` before trick play."""
    phase: str
    category: str
    played: str
    best: str
    """The search's choice from the seat's observation (equal to ``played`` when nothing beats it)."""
    cost: float
    """Mean over the worlds of (value of ``best`` - value of ``played``) in the seat's score; 0 when ``best == played``."""
    stderr: float
    """Standard error of that mean (the paired differences' spread over the worlds)."""
    exact: bool
    """Whether every candidate was valued exactly in every world: by the engine's search of the rest of the deal (the real
    score, special points included); ``method`` ``search``."""
    method: str
    """How the candidates were valued in each world: ``search`` (exact), ``solver`` (Doppelkopf from
    :data:`~stich.analysis.exact.KERNEL_TRICKS` tricks left: best play in card points, scored with the deal's calls, without
    the special points of the tricks to come; decision 0063) or ``rollout`` (the games' heuristic bots play the rest)."""
    worlds: int
    costly: bool
    """Whether the cost is a mistake rather than noise (see :func:`stich.analysis.engine.is_costly`)."""
    candidates: tuple[Candidate, ...]
    reason: dict[str, str] | None = None
    """One line per language (``de``, ``en``) saying why, where one can be given."""

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "index": self.index,
            "trick": self.trick,
            "phase": self.phase,
            "category": self.category,
            "played": self.played,
            "best": self.best,
            "cost": round(self.cost, 4),
            "stderr": round(self.stderr, 4),
            "exact": self.exact,
            "method": self.method,
            "worlds": self.worlds,
            "costly": self.costly,
            "candidates": [c.to_json() for c in self.candidates],
            "reason": dict(self.reason) if self.reason is not None else None,
        }


@dataclass
class Analysis:
    """Every decision of one seat in one finished deal, with the settings that produced the numbers."""

    game: str
    seat: int
    seed: int
    budget: int
    decisions: list[DecisionReport] = field(default_factory=list)
    skipped: int = 0
    """Decisions with a single legal action (nothing to choose, not analysed)."""

    @property
    def total_cost(self) -> float:
        """Sum of the costs of the costly decisions."""
        return sum(d.cost for d in self.decisions if d.costly)

    def to_json(self) -> dict[str, Any]:
        """JSON form (CLI ``--json`` and the web API)."""
        return {
            "game": self.game,
            "seat": self.seat,
            "seed": self.seed,
            "budget": self.budget,
            "decisions": [d.to_json() for d in self.decisions],
            "skipped": self.skipped,
            "costly": sum(1 for d in self.decisions if d.costly),
            "total_cost": round(self.total_cost, 4),
        }
