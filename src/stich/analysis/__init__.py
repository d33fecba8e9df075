"""Analysis of finished deals: each decision of a seat against the search's choice from the same observation.

:func:`analyse_record` takes a deal record (:mod:`stich.core.records`) and a
seat and returns an :class:`Analysis`; ``stich analyse`` and the web API
print and serve its JSON form.  This package sits beside the arena, above
the bots and the search it uses, below the adapters (cli, web) that use it;
decision 0054 says how it works and what its numbers mean.
"""

from stich.analysis.engine import (
    DEFAULT_BUDGET,
    EXACT_TRICKS,
    MAX_BUDGET,
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
