"""Worlds and time per decision of ``pimc`` with and without inference (issue 45, decision 0047).

At every decision with a choice of a few heuristic-played deals, both bots
(``pimc:level=L`` and ``pimc:level=L,inference=heuristic`` with the given
extra options) are asked in turn from the same observation; the script
prints, for call decisions and card decisions apart, the mean and slowest
wall-clock time and the mean number of worlds each weighed.  Equal time per
decision is what the arena comparison needs; the worlds show what the
likelihoods cost.

    python bench/bench_pimc_inference.py tapp_tarock --deals 2 [--level 1] [--options proposals=4,beta=2]
"""

from __future__ import annotations

import argparse
import statistics
import time

from stich.bots.heuristic import make_heuristic
from stich.bots.pimc import PimcBot
from stich.bots.spec import build_bot, parse_bot_spec
from stich.core.registry import make_game


def main() -> None:
    """Run the comparison and print one line per bot and kind of decision."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--level", type=int, default=1)
    parser.add_argument("--options", default="", help="extra options of the inference bot, e.g. proposals=4,beta=2")
    args = parser.parse_args()
    game = make_game(args.game)
    specs = {
        "plain": f"pimc:level={args.level}",
        "inference": f"pimc:level={args.level},inference=heuristic" + (f",{args.options}" if args.options else ""),
    }
    rows: dict[tuple[str, str], list[tuple[float, int]]] = {}
    for deal in range(args.deals):
        state = game.new_state(seed=100 + deal, dealer=deal % game.num_seats)
        players = [make_heuristic(game, s, s) for s in range(game.num_seats)]
        while not state.is_terminal():
            mover = state.current_player()
            observation = state.observation(mover)
            if len(observation.legal_actions) > 1:
                for label, spec in specs.items():
                    bot = build_bot(parse_bot_spec(spec), game, mover, 5)
                    assert isinstance(bot, PimcBot)
                    started = time.perf_counter()
                    bot.choose(observation)
                    kind = "cards" if observation.phase == "play" else "calls"
                    rows.setdefault((label, kind), []).append((time.perf_counter() - started, bot.last.worlds))
            state.apply(players[mover].choose(observation))
    for (label, kind), values in sorted(rows.items()):
        times = [t for t, _w in values]
        worlds = statistics.mean(w for _t, w in values)
        print(
            f"{specs[label]:<45} {kind:<5} {len(values):4d} decisions  {1e3 * statistics.mean(times):6.1f} ms"
            f" (slowest {1e3 * max(times):6.1f})  {worlds:5.1f} worlds"
        )


if __name__ == "__main__":
    main()
