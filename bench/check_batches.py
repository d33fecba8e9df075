"""The batches replayed against the engine on many deals: every field equal at every step, for every preset.

For every preset id and every other table size (:data:`stich.rl.leak_check.TABLE_SIZES`), ``--deals`` seeded
deals are played with random legal actions on a batch and, action for action, on one reference engine state per
deal; at every step the deal's ``terminated``, ``current_player``, ``observation`` (the tensor of the seat to act;
every seat's in the first ``--every-seat`` deals), ``legal_action_mask`` and ``rewards`` must equal what the
engine's own encoding gives.  The batches checked (issue 41):

* Tarock family: ``TarockBatch(..., bidding="learner")``, whole deals: the learner's bidding, talon and discards
  in the engine rows, then the compiled card play (``pass`` is chosen three times in four in Dappen, so that Dapp
  rounds, overcalls and discards occur);
* Doppelkopf: ``DoppelkopfBatch`` on the compiled kernel for DDV and on the engine path for every other option set.

A deal's first difference is reported with its step and field; the deal is then left to the batch alone.  The exit
code is 1 if any deal differed.  The fast versions are tests/rl/test_batched_learner.py and the other
tests/rl/test_batched_*.py.

    python bench/check_batches.py --deals 300 --json batches.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

import numpy as np
from bench_common import machine_info

from stich.core.game import State
from stich.rl.batched.doppelkopf import DoppelkopfBatch
from stich.rl.batched.tarock import TarockBatch
from stich.rl.deals import DealStream, spawn_seed
from stich.rl.encoding import Encoding
from stich.rl.ids import game_for, registered_ids
from stich.rl.leak_check import TABLE_SIZES


def _expected(state: State, encoding: Encoding, seat: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The engine's tensor and mask of ``seat`` (-1: the seat to act)."""
    obs = state.observation(state.current_player() if seat < 0 else seat)
    return encoding.tensor(obs), encoding.mask(obs)


def check(env_id: str, deals: int, seed: int, every_seat: int) -> dict[str, Any]:
    """Play ``deals`` deals of ``env_id`` on its batch and on engine states; the differences found and the counts."""
    batch: DoppelkopfBatch | TarockBatch
    if game_for(env_id).name == "doppelkopf":
        batch = DoppelkopfBatch(deals, env_id)
        batch.reset(seed=seed)
        game = batch.game
        states: list[State] = []
        for i in range(deals):
            stream = DealStream(game.num_seats, "random")
            stream.seed(spawn_seed(seed, i))
            deal_seed, dealer = stream.next_deal()
            states.append(game.new_state(seed=deal_seed, dealer=dealer))
    else:
        batch = TarockBatch(deals, env_id, bidding="learner")
        batch.reset(seed=seed)
        states = [batch.handed_over(i) for i in range(deals)]
    encoding = Encoding(batch.game)
    pass_code = batch.game.actions.by_text["pass"].code if "pass" in batch.game.actions.by_text else -1
    lean = batch.game.name == "dappen"
    rngs = [random.Random(seed * 31 + i) for i in range(deals)]
    failed: dict[int, str] = {}
    steps = 0
    step = 0
    while True:
        every = [batch.observe(np.full(deals, s)) for s in range(batch.num_players)] if every_seat else []
        for i, state in enumerate(states):
            if i in failed:
                continue
            over = state.is_terminal()
            seat = -1 if over else state.current_player()
            problem = None
            if bool(batch.terminated[i]) != over or int(batch.current_player[i]) != seat:
                problem = f"terminated/current_player {bool(batch.terminated[i])}/{int(batch.current_player[i])} vs {over}/{seat}"
            elif not over:
                tensor, mask = _expected(state, encoding, seat)
                if not np.array_equal(batch.observation[i], tensor):
                    problem = "observation"
                elif not np.array_equal(batch.legal_action_mask[i], mask):
                    problem = "legal_action_mask"
            if problem is None and i < every_seat:
                for s in range(batch.num_players):
                    if not np.array_equal(every[s][i], _expected(state, encoding, s)[0]):
                        problem = f"observe(seat {s})"
                        break
            if problem is not None:
                failed[i] = f"deal {i} step {step}: {problem}"
        if batch.terminated.all():
            break
        actions = np.zeros(deals, dtype=np.int64)
        was_over = batch.terminated.copy()
        for i in np.flatnonzero(~batch.terminated):
            # the engine's legal actions while the deal agrees (a wrong mask must not pick the action), else the batch's
            mask = batch.legal_action_mask[i] if i in failed or states[i].is_terminal() else _expected(states[i], encoding, -1)[1]
            legal = np.flatnonzero(mask).tolist()
            rng = rngs[i]
            actions[i] = pass_code if lean and pass_code in legal and rng.random() < 0.75 else rng.choice(legal)
            if i not in failed and not states[i].is_terminal():
                states[i].apply(int(actions[i]))
        steps += int((~was_over).sum())
        try:
            batch.step(actions)
        except Exception as exc:  # a batch that refuses the engine's action: report it and stop this configuration
            failed[-1] = f"step {step}: the batch raised {exc!r}"
            break
        step += 1
        for i, state in enumerate(states):
            if i in failed or was_over[i]:
                continue
            ended = state.is_terminal()
            expected = np.asarray(state.result().scores if ended else [0.0] * batch.num_players, dtype=np.float32)
            if not np.array_equal(batch.rewards[i], expected):
                failed[i] = f"deal {i} step {step}: rewards {batch.rewards[i].tolist()} vs {expected.tolist()}"
    kind = "learner bidding + compiled card play" if isinstance(batch, TarockBatch) else "compiled" if batch.compiled else "engine path"
    return {"deals": deals, "steps": steps, "batch": kind, "mismatches": len(failed), "first": sorted(failed.values())[:3]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--deals", type=int, default=300, help="deals per configuration (default 300)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and actions (default 1)")
    parser.add_argument("--every-seat", type=int, default=10, help="deals whose every seat's tensor is compared (default 10)")
    parser.add_argument("--only", help="check only configurations whose id contains one of these comma-separated texts")
    parser.add_argument("--json", help="write the report as JSON")
    args = parser.parse_args(argv)
    configs = [c for c in (*registered_ids(), *TABLE_SIZES) if not args.only or any(t in c for t in args.only.split(","))]
    rows: dict[str, Any] = {}
    bad = 0
    for env_id in configs:
        start = time.process_time()
        rows[env_id] = row = check(env_id, args.deals, args.seed, args.every_seat)
        row["cpu_s"] = round(time.process_time() - start, 1)
        bad += row["mismatches"]
        print(f"{env_id}: {row['deals']} deals, {row['steps']} steps ({row['batch']}), {row['mismatches']} mismatches, {row['cpu_s']} s")
        for line in row["first"]:
            print(f"    {line}")
    total = sum(r["deals"] for r in rows.values())
    print(f"total: {total} deals, {sum(r['steps'] for r in rows.values())} steps, {bad} mismatches")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"machine": machine_info(command=" ".join(sys.argv)), "rows": rows}, fh, indent=2)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
