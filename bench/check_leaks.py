"""The leak check on many deals: no view of a seat changes when two cards it has not seen change places.

For every preset of every game and every other table size
(:func:`stich.rl.leak_check.leak_configs`) it plays ``--deals`` random deals;
at ``--points`` points of each (the end always among them), for every seat,
it exchanges two cards the seat cannot know between two piles, replays both
deals from the deal and compares the seat's observation, tensor, mask,
information-state string and OpenSpiel's four views at every step, and for
the Tarock family the compiled card play's tensor and mask, the path the
single envs take (:mod:`stich.rl.leak_check`; ``--no-kernel`` leaves them
out; rule-made reveals such as Schweine are excused by name and counted).  ``tests/rl/test_leaks.py`` is the fast version.

It prints one line per configuration and exits 1 if any leak was found;
``--out`` writes the report as JSON.

    .venv/bin/python bench/check_leaks.py --deals 400 --out leaks.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from bench_common import machine_info

from stich.rl.ids import game_for
from stich.rl.kernel_table import kernel_plays
from stich.rl.leak_check import LeakReport, check_game, leak_configs
from stich.rl.openspiel_game import load


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="random deals per configuration (default 200)")
    parser.add_argument("--points", type=int, default=4, help="points per deal where the swap is made (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and swaps (default 1)")
    parser.add_argument("--only", default="", help="check only configurations whose id contains one of these comma-separated texts")
    parser.add_argument("--out", type=Path, help="write the report as JSON")
    parser.add_argument("--no-kernel", action="store_true", help="leave out the compiled card play's views (Tarock family)")
    args = parser.parse_args()
    rows = []
    total = LeakReport()
    for config in leak_configs():
        if not any(text in config for text in args.only.split(",")):
            continue
        start = time.process_time()
        kernel = not args.no_kernel and "doppelkopf" not in config and kernel_plays(config)
        game, spiel = game_for(config), load(config)
        report = check_game(game, args.deals, points=args.points, seed=args.seed, label=config, spiel_game=spiel, kernel=kernel)
        cpu = time.process_time() - start
        total.merge(report)
        rows.append(
            {
                "config": config,
                "worlds": report.worlds,
                "steps": report.compared,
                "excused": report.excused,
                "leaks": report.leaks,
                "cpu_s": round(cpu, 2),
            }
        )
        counts = f"{report.worlds} swapped deals, {report.compared} steps compared, excused {report.excused}"
        print(f"{config}: {counts}, {len(report.leaks)} leaks, {cpu:.1f} s", flush=True)
        for leak in report.leaks[:5]:
            print("    LEAK", leak, flush=True)
    print(f"total: {total.worlds} swapped deals, {total.compared} steps compared, excused {total.excused}, {len(total.leaks)} leaks")
    if args.out:
        args.out.write_text(json.dumps({"machine": machine_info(), "args": vars(args) | {"out": str(args.out)}, "rows": rows}, indent=1))
    return 1 if total.leaks else 0


if __name__ == "__main__":
    sys.exit(main())
