"""Why a search bot did not search a decision: its fallbacks to the heuristic, counted by reason.

The search bots (``pimc``, ``ismcts``) play the heuristic bot's action where
they cannot search.  Such a fallback is a failure, not a choice: the real
world always fits what a seat knows, so a sampler that finds no world has
inferred something wrong, and a match whose search bot fell back often
measured the heuristic, not the search.  Each bot therefore counts them in
its :class:`Fallbacks` (attribute ``fallbacks``), by one of the reasons of
:data:`FALLBACK_REASONS`:

* ``no_world``: the world sampler found no world consistent with the
  observation (a :class:`~stich.search.sampling.SamplingError` while
  preparing it or drawing);
* ``no_sampler``: the game has no world sampler (``prepare_sampler`` raises
  ``NotImplementedError``);
* ``out_of_time``: the time budget was spent (preparing the sampler) before
  a first world was drawn.

Decisions left to the heuristic by design are not fallbacks and are not
counted: a single legal action, a defender's double, a call during trick
play that the ``calls`` option leaves to the heuristic, a defender's card
with ``ismcts:defend=heuristic``.

The arena (:mod:`stich.arena.duplicate`) reads the counts with
:func:`fallback_counts` after every game and reports them per bot; a bot
without the attribute (``random``, ``heuristic``, a registered bot) reports
nothing.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["FALLBACK_REASONS", "FallbackReason", "Fallbacks", "fallback_counts"]

FallbackReason = Literal["no_world", "no_sampler", "out_of_time"]
"""Why a decision was not searched (see the module docstring)."""

FALLBACK_REASONS: dict[FallbackReason, str] = {
    "no_world": "no world fits",
    "no_sampler": "no sampler",
    "out_of_time": "out of time before a first world",
}
"""Every reason, in the order reports list them, with the words they use for it."""


class Fallbacks:
    """A search bot's decisions that fell back to the heuristic, counted by reason (every reason present, zero or more)."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts: dict[FallbackReason, int] = dict.fromkeys(FALLBACK_REASONS, 0)

    def note(self, reason: FallbackReason) -> None:
        """Count one more decision that fell back for ``reason``."""
        self.counts[reason] += 1

    @property
    def total(self) -> int:
        """Decisions that fell back, whatever the reason."""
        return sum(self.counts.values())

    def to_json(self) -> dict[str, int]:
        """The counts by reason name, every reason included."""
        return {reason: count for reason, count in self.counts.items()}

    def __repr__(self) -> str:
        return f"Fallbacks({self.to_json()})"


def fallback_counts(bot: object) -> dict[str, int] | None:
    """The fallbacks ``bot`` counted so far, by reason; ``None`` for a bot that counts none (it has no :class:`Fallbacks`)."""
    counter = getattr(bot, "fallbacks", None)
    return counter.to_json() if isinstance(counter, Fallbacks) else None
