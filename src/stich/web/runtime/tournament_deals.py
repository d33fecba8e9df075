"""A tournament table's deals: the tournament's committed seeds instead of fresh ones (decision 0057).

Every table of a duplicate tournament deals its ``n``-th deal from the seed
the tournament committed to for deal ``n``, with the same salt, so the
commitment each table publishes before deal ``n`` is the same digest at every
table and was published on the tournament's page before any table started:
the deals are provably the same cards.  Each record names its tournament
(``meta.tournament``), so that the downloaded records alone rebuild the
standings (:mod:`stich.tournaments.replay`).
"""

from __future__ import annotations

from typing import Any

from stich.web.deals.fairness import Commitment
from stich.web.storage.tournaments import TableLink


def duplicate_commitment(link: TableLink | None, index: int) -> Commitment | None:
    """The tournament's commitment for deal ``index`` (thrown-in deals count).

    ``None`` for an ordinary table, or past the committed deals (the table then commits a fresh seed of its own).
    """
    if link is None or not 0 <= index < len(link.deals):
        return None
    deal = link.deals[index]
    return Commitment(deal.seed, deal.salt, deal.commitment)


def tournament_meta(link: TableLink, deals: int) -> dict[str, Any]:
    """The record's ``meta.tournament``: which tournament, the table's position, how many tables and deals."""
    return {"id": link.tournament_id, "name": link.name, "table": link.position, "tables": link.tables, "deals": deals}
