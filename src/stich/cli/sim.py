"""``stich sim``: many seeded deals (or whole lists) between bots, written as records, summarised.

Determinism: deal ``i`` of a run with seed ``S`` is dealt from
``derive_seed(S, i)`` by dealer ``i % seats``; with ``--lists`` list ``j`` is
a session seeded ``derive_seed(S, j)``.  The bot in seat ``k`` gets a fresh
seed from ``S``, the deal (or list and deal) and ``k`` for every deal (see
:func:`stich.cli.common.bot_seed`).  Nothing else enters, so the same command
writes the same file byte for byte; timings appear only in the summary.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from stich.bots.base import Bot
from stich.cli.common import make_bots, session_class
from stich.core.game import Game, State
from stich.core.records import deal_record, list_record, write_jsonl
from stich.core.rng import derive_seed


@dataclass
class SimTally:
    """Running totals of a simulation."""

    seats: int
    bots: Sequence[str]
    deals: int = 0
    seat_totals: list[int] = field(default_factory=list)
    bot_totals: dict[str, int] = field(default_factory=dict)
    bot_deals: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.seat_totals = [0] * self.seats
        for name in self.bots:
            self.bot_totals.setdefault(name, 0)
            self.bot_deals.setdefault(name, 0)

    def add(self, scores: Sequence[int]) -> None:
        """Book one finished deal's scores (every seat counts, an idle dealer with 0)."""
        self.deals += 1
        for seat, score in enumerate(scores):
            self.seat_totals[seat] += score
            name = self.bots[seat]
            self.bot_totals[name] += score
            self.bot_deals[name] += 1


def play_out(state: State, bots: Sequence[Bot]) -> None:
    """Let the bots play ``state`` to its end; each bot sees only its own observation."""
    while not state.is_terminal():
        seat = state.current_player()
        state.apply(bots[seat].choose(state.observation(seat)))


def deal_records(game: Game, games: int, seed: int, bots: Sequence[str], tally: SimTally, advance: Any) -> Iterator[dict[str, Any]]:
    """Play ``games`` single deals and yield their records."""
    meta = {"bots": list(bots)}
    for i in range(games):
        state = game.new_state(seed=derive_seed(seed, i), dealer=i % game.num_seats)
        play_out(state, make_bots(game, bots, seed, i))
        tally.add(state.result().scores)
        yield deal_record(state, meta=meta)
        advance()


def list_records(game: Game, games: int, seed: int, bots: Sequence[str], tally: SimTally, advance: Any) -> Iterator[dict[str, Any]]:
    """Play ``games`` whole lists (sessions) and yield their list records."""
    cls = session_class(game.name)
    meta = {"bots": list(bots)}
    for j in range(games):
        session = cls(game, derive_seed(seed, j), None)
        states: list[State] = []
        while (state := session.next_deal()) is not None:
            play_out(state, make_bots(game, bots, seed, j, len(states)))
            session.book(state)
            tally.add(state.result().scores)
            states.append(state)
        yield list_record(session, states, meta=meta)
        advance()


def _progress(total: int, label: str) -> tuple[AbstractContextManager[Any], Any]:
    """A rich progress bar on stderr when it is a terminal, else nothing; returns (context, advance)."""
    if not sys.stderr.isatty():
        return nullcontext(), lambda: None
    progress = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task: TaskID = progress.add_task(label, total=total)
    return progress, lambda: progress.advance(task)


def run_sim(game: Game, *, games: int, seed: int, bots: Sequence[str], lists: bool, out: str | None) -> dict[str, Any]:
    """Run the simulation, write the records to ``out`` (if given) and return the summary."""
    tally = SimTally(game.num_seats, list(bots))
    if lists:
        session_class(game.name)  # fail early, before any work, if the game has no lists
    context, advance = _progress(games, "lists" if lists else "deals")
    produce = list_records if lists else deal_records
    start = time.perf_counter()
    with context:
        records = produce(game, games, seed, bots, tally, advance)
        if out is not None:
            write_jsonl(out, records)
        else:
            for _record in records:
                pass
    seconds = time.perf_counter() - start
    return summary(game, tally, games=games, seed=seed, lists=lists, seconds=seconds, out=out)


def summary(game: Game, tally: SimTally, *, games: int, seed: int, lists: bool, seconds: float, out: str | None) -> dict[str, Any]:
    """The JSON summary of a run."""
    rate = games / seconds if seconds > 0 else 0.0
    return {
        "game": game.canonical,
        "mode": "lists" if lists else "deals",
        "games": games,
        "deals": tally.deals,
        "seed": seed,
        "bots": list(tally.bots),
        "seconds": round(seconds, 3),
        "games_per_second": round(rate, 2),
        "deals_per_second": round(tally.deals / seconds, 2) if seconds > 0 else 0.0,
        "seat_totals": list(tally.seat_totals),
        "bot_totals": dict(tally.bot_totals),
        "bot_seat_deals": dict(tally.bot_deals),
        "bot_mean_per_deal": {name: round(tally.bot_totals[name] / n, 4) if n else 0.0 for name, n in tally.bot_deals.items()},
        "out": out,
    }


def summary_text(data: dict[str, Any]) -> list[str]:
    """The summary as text lines."""
    unit = "lists" if data["mode"] == "lists" else "deals"
    lines = [
        f"game:      {data['game']}",
        f"games:     {data['games']} {unit}" + (f" ({data['deals']} deals)" if data["mode"] == "lists" else ""),
        f"seed:      {data['seed']}",
        f"time:      {data['seconds']:.2f} s, {data['games_per_second']:.1f} {unit}/s",
        "seats:     "
        + ", ".join(f"{seat} {name} {total:+d}" for seat, (name, total) in enumerate(zip(data["bots"], data["seat_totals"], strict=True))),
    ]
    for name, total in data["bot_totals"].items():
        n = data["bot_seat_deals"][name]
        mean = data["bot_mean_per_deal"][name]
        lines.append(f"bot {name}: total {total:+d} over {n} seat-deals, mean {mean:+.3f} per deal")
    if data["out"]:
        lines.append(f"records:   {data['out']}")
    return lines


def print_summary(data: dict[str, Any], as_json: bool) -> None:
    """Print the summary as text or as one JSON object."""
    if as_json:
        print(json.dumps(data, ensure_ascii=False))
        return
    for line in summary_text(data):
        print(line)
