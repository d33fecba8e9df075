"""Analysis of finished deals: each decision of a seat against the search's choice from the same observation.

:func:`analyse_record` takes a deal record (:mod:`stich.core.records`) and a
seat and returns an :class:`Analysis`; ``stich analyse`` and the web API
print and serve its JSON form.  This package sits beside the arena, above
the bots and the search it uses, below the adapters (cli, web) that use it;
decision 0054 says how it works and what its numbers mean.

The engine and the reports are imported on first use (:pep:`562`): the
search behind them loads numba, and ``stich``'s argument parser, which only
needs the budget limits, should not pay for that on every command.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from stich.analysis.limits import DEFAULT_BUDGET, MAX_BUDGET

if TYPE_CHECKING:
    from stich.analysis.engine import (
        EXACT_TRICKS,
        AnalysisError,
        Prepared,
        analyse_point,
        analyse_record,
        assemble,
        check_budget,
        is_costly,
        prepare,
    )
    from stich.analysis.report import Analysis, Candidate, DecisionReport

_LAZY = {
    "EXACT_TRICKS": "engine",
    "AnalysisError": "engine",
    "Prepared": "engine",
    "analyse_point": "engine",
    "analyse_record": "engine",
    "assemble": "engine",
    "check_budget": "engine",
    "is_costly": "engine",
    "prepare": "engine",
    "Analysis": "report",
    "Candidate": "report",
    "DecisionReport": "report",
}
"""Each public name loaded on first use, and the module of this package that defines it."""


def __getattr__(name: str) -> Any:
    """``stich.analysis.NAME`` for the names of :data:`_LAZY`: import their module now and keep the name here."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "DEFAULT_BUDGET",
    "EXACT_TRICKS",
    "MAX_BUDGET",
    "Analysis",
    "AnalysisError",
    "Candidate",
    "DecisionReport",
    "Prepared",
    "analyse_point",
    "analyse_record",
    "assemble",
    "check_budget",
    "is_costly",
    "prepare",
]
