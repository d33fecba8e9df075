"""The arena: many games between bots, played as duplicate matches, with statistics and ratings.

* :mod:`stich.arena.duplicate`: the match itself (:func:`run_duplicate`),
  bot specs with options (``pimc:time=0.5``), parallel workers;
* :mod:`stich.arena.stats`: confidence intervals, win rates, Elo ratings;
* :mod:`stich.arena.report`: the summary, ``results.json``, ``deals.csv``,
  ``records.jsonl`` and the plots.

``stich arena`` (:mod:`stich.cli.arena`) is the command line; ``docs/arena.md``
explains the method and every formula.
"""

from __future__ import annotations

from stich.arena.duplicate import ArenaResult, BotSpec, DealOutcome, PairingDeal, parse_bot_spec, parse_bot_specs, run_duplicate

__all__ = ["ArenaResult", "BotSpec", "DealOutcome", "PairingDeal", "parse_bot_spec", "parse_bot_specs", "run_duplicate"]
