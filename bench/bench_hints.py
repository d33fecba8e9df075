"""How long a learning table's hint takes (issue 43): the hint bot from a seat's observation, at decisions across deals.

``python bench/bench_hints.py [--deals N] [--every K] [--bot SPEC] [--game NAME]``

Plays ``--deals`` deals with heuristic bots; at every ``--every``-th decision
asks :func:`stich.web.runtime.hints.compute_hint` (what the server runs in a
bot worker process) with the server's default hint bot (``Settings().hint_bot``)
and times it.  The first hint of the process (imports, compiled kernels) is
reported apart: a server's worker pays it once.  Prints the median, p90 and
the largest time, and how many hints were forced (one legal action).
"""

from __future__ import annotations

import argparse
import statistics
import time

from stich.bots.heuristic import make_heuristic
from stich.core.registry import make_game
from stich.web.runtime.bot_pool import BotJob
from stich.web.runtime.hints import compute_hint, hint_seed
from stich.web.settings import Settings


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--bot", default=Settings().hint_bot)
    parser.add_argument("--game", default="doppelkopf")
    args = parser.parse_args()
    game = make_game(args.game)
    times: list[float] = []
    first: float | None = None
    forced = 0
    for deal in range(args.deals):
        state = game.new_state(seed=1000 + deal, dealer=deal % game.num_seats)
        players = [make_heuristic(game, seat, deal * 10 + seat) for seat in range(game.num_seats)]
        decision = 0
        while not state.is_terminal():
            seat = state.current_player()
            observation = state.observation(seat)
            if decision % args.every == 0:
                job = BotJob("bench", args.bot, game.canonical, seat, hint_seed(deal, "00" * 32, seat, len(state.history)), observation)
                started = time.perf_counter()
                result = compute_hint(job)
                seconds = time.perf_counter() - started
                forced += result.mode == "forced"
                if first is None:
                    first = seconds
                else:
                    times.append(seconds)
            decision += 1
            state.apply(players[seat].choose(observation).code)
    times.sort()
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    print(f"{args.game}, hint bot {args.bot}: {len(times)} hints after the first ({forced} forced)")
    print(f"first hint of the process {first:.2f} s; then median {statistics.median(times):.3f} s, p90 {p90:.3f} s, max {times[-1]:.3f} s")


if __name__ == "__main__":
    main()
