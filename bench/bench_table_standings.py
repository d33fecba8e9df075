"""What a table's final standings cost (issue 44): the list replayed from its records for ``GET /api/tables/{id}/standings``.

The standings are recomputed from the stored records on every request
(:mod:`stich.web.deals.standings`), so that any worker answers alike with
nothing held in memory.  This plays whole lists with random moves (the
records a table would store), then times :func:`standings` on them: the
median of ``--repeat`` runs per list, in milliseconds of wall time on one
core.

    .venv/bin/python bench/bench_table_standings.py --repeat 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from stich.core.game import Game
from stich.core.records import deal_record
from stich.core.registry import game_from_string, session_class
from stich.web.deals.standings import standings

LISTS = (("doppelkopf", 24), ("doppelkopf", 48), ("tapp_tarock", 24), ("droggn", 24))
"""The lists timed: game and deals requested."""


def records_for(game_text: str, deals: int, seed: int = 1) -> tuple[Game, list[dict[str, Any]]]:
    """A whole list of ``game_text`` played with random moves: its game and its deals' records (each with its seed)."""
    game = game_from_string(game_text)
    session = session_class(game.name)(game, seed, deals)
    rng = random.Random(seed)
    records: list[dict[str, Any]] = []
    while (state := session.next_deal()) is not None:
        seed_of_deal = session.deal_seed(session.deal_index)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        record = deal_record(state)
        record["seed"] = seed_of_deal
        records.append(record)
        session.book(state)
    return game, records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for game_text, deals in LISTS:
        game, records = records_for(game_text, deals)
        names = [f"p{i}" for i in range(game.num_seats)]
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            result = standings(game, deals, records, names)
            times.append((time.perf_counter() - start) * 1000)
        assert result["sheet"] and result["sheet"][0]["label"], "the list did not replay"
        median = statistics.median(times)
        print(f"{game_text:12} {len(records):3} deals  median {median:6.1f} ms  special rows {len(result['special_rows'])}")


if __name__ == "__main__":
    main()
