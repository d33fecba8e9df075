"""Decision records: what a bot decided, seen as the acting seat saw it, for training policies and value models (issue 45, step 2).

A *decision record file* is one NumPy ``.npz`` archive (``numpy.savez_compressed``)
holding every decision with a choice (two or more legal actions) that the
bots of a run of seeded deals made, one row per decision:

=============  ==========  =====================================================================
array          dtype       what
=============  ==========  =====================================================================
``obs``        float32     ``[N, D]`` the acting seat's tensor (:meth:`stich.rl.encoding.Encoding.tensor`)
``mask``       bool        ``[N, A]`` its legal actions (index = action code, :meth:`~stich.rl.encoding.Encoding.mask`)
``action``     int16       ``[N]`` the action code taken
``values``     float32     ``[N, A]`` the search's value of each candidate it weighed: mean paired
                           difference to the heuristic's choice, in the search's own unit (eyes
                           in Doppelkopf trick play, else score points); ``NaN`` where the
                           action was not weighed (every entry ``NaN`` when the bot did not search)
``worlds``     int32       ``[N]`` the worlds the search weighed (0: not searched)
``seat``       int8        ``[N]`` the acting seat
``deal``       int32       ``[N]`` the deal's index in the run (its seed is :func:`deal_seed`)
``outcome``    float32     ``[N]`` the acting seat's score of the whole deal (``DealResult.scores``)
``meta``       str         one JSON object: ``format`` (``stich-decisions``), ``version``
                           (:data:`FORMAT_VERSION`), ``game`` (canonical string), ``encoding_version``,
                           ``bot`` (spec), ``seed``, ``first_deal``, ``deals``, ``slices``
                           (name, start, stop of every slice of ``obs``), ``actions`` (text per code)
=============  ==========  =====================================================================

Every row is read from ``state.observation(seat)`` only, as the bot saw
it, so a record holds nothing the acting seat could not know except the
outcome (which a learner is meant to predict).  Deals thrown in (all passed)
are played and their decisions kept, with the outcome the game gives them.

Generate with ``python -m stich.rl.decision_records GAME --bot SPEC --deals N --seed S --out FILE [--workers W]``
(see :func:`main`); read with :func:`load`.  ``--workers`` plays the deals in
that many processes (:func:`generate_parallel`) with the same records as one
process gives: deal ``i`` of a run is the same deal whatever the process or
shard (``--first-deal`` splits a run over separate commands or machines).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from stich.bots.spec import build_bot, parse_bot_spec
from stich.core.game import Game
from stich.core.registry import game_from_string, make_game
from stich.core.rng import derive_seed
from stich.rl.encoding import Encoding
from stich.rl.ids import ENCODING_VERSION

FORMAT = "stich-decisions"
FORMAT_VERSION = 1
"""Changes whenever an array or a meta key changes meaning."""

ARRAYS = ("obs", "mask", "action", "values", "worlds", "seat", "deal", "outcome")
"""The per-decision arrays of a record file (each with ``N`` rows), besides ``meta``."""


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal ``deal`` of a run seeded ``seed`` (the same deal in every shard)."""
    return derive_seed(seed, deal)


@dataclass
class Records:
    """Decision records in memory: the arrays of the module docstring and the ``meta`` object."""

    arrays: dict[str, npt.NDArray[Any]]
    meta: dict[str, Any]

    def __len__(self) -> int:
        return int(self.arrays["action"].shape[0])


def generate(game: Game, bot: str, deals: int, seed: int, first_deal: int = 0) -> Records:
    """Play ``deals`` seeded deals (from index ``first_deal``) with the bot ``bot`` in every seat and record each choice."""
    if deals < 1:
        raise ValueError(f"deals must be at least 1, got {deals}")
    spec = parse_bot_spec(bot)
    encoding = Encoding(game)
    n_actions = len(game.actions.actions)
    rows: dict[str, list[Any]] = {name: [] for name in ARRAYS}
    for deal in range(first_deal, first_deal + deals):
        dseed = deal_seed(seed, deal)
        bots = [build_bot(spec, game, s, derive_seed(dseed, s + 1)) for s in range(game.num_seats)]
        state = game.new_state(seed=dseed, dealer=deal % game.num_seats)
        start = len(rows["action"])
        while not state.is_terminal():
            seat = state.current_player()
            observation = state.observation(seat)
            action = bots[seat].choose(observation)
            if len(observation.legal_actions) >= 2:
                last = getattr(bots[seat], "last", None)
                values = np.full(n_actions, np.nan, dtype=np.float32)
                for code, value in (getattr(last, "values", None) or {}).items():
                    values[code] = value
                rows["obs"].append(encoding.tensor(observation))
                rows["mask"].append(encoding.mask(observation).astype(bool))
                rows["action"].append(action.code)
                rows["values"].append(values)
                rows["worlds"].append(int(getattr(last, "worlds", 0) or 0))
                rows["seat"].append(seat)
                rows["deal"].append(deal)
            state.apply(action.code)
        scores = state.result().scores
        rows["outcome"].extend(float(scores[s]) for s in rows["seat"][start:])
    width = len(encoding.slices()) and encoding.slices()[-1].stop
    arrays: dict[str, npt.NDArray[Any]] = {
        "obs": np.asarray(rows["obs"], dtype=np.float32).reshape(-1, width),
        "mask": np.asarray(rows["mask"], dtype=bool).reshape(-1, n_actions),
        "action": np.asarray(rows["action"], dtype=np.int16),
        "values": np.asarray(rows["values"], dtype=np.float32).reshape(-1, n_actions),
        "worlds": np.asarray(rows["worlds"], dtype=np.int32),
        "seat": np.asarray(rows["seat"], dtype=np.int8),
        "deal": np.asarray(rows["deal"], dtype=np.int32),
        "outcome": np.asarray(rows["outcome"], dtype=np.float32),
    }
    meta = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "game": game.canonical,
        "encoding_version": ENCODING_VERSION,
        "bot": bot,
        "seed": seed,
        "first_deal": first_deal,
        "deals": deals,
        "slices": [[s.name, s.start, s.stop] for s in encoding.slices()],
        "actions": [a.text for a in game.actions.actions],
    }
    return Records(arrays, meta)


def concatenate(parts: Sequence[Records]) -> Records:
    """One record set of consecutive runs ``parts`` (in deal order, same game and bot), their ``meta`` merged."""
    if not parts:
        raise ValueError("nothing to concatenate")
    meta = dict(parts[0].meta)
    meta["deals"] = sum(int(p.meta["deals"]) for p in parts)
    arrays = {name: np.concatenate([p.arrays[name] for p in parts]) for name in ARRAYS}
    return Records(arrays, meta)


def _generate_job(job: tuple[str, str, int, int, int]) -> Records:
    """:func:`generate` in a worker process, the game given by its canonical string."""
    canonical, bot, deals, seed, first_deal = job
    return generate(game_from_string(canonical), bot, deals, seed, first_deal)


def generate_parallel(game: Game, bot: str, deals: int, seed: int, first_deal: int = 0, workers: int = 1) -> Records:
    """:func:`generate` with the deals split into ``workers`` consecutive shards played in as many processes (the same records)."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if workers == 1 or deals < 2:
        return generate(game, bot, deals, seed, first_deal)
    workers = min(workers, deals)
    bounds = [first_deal + deals * k // workers for k in range(workers + 1)]
    jobs = [(game.canonical, bot, bounds[k + 1] - bounds[k], seed, bounds[k]) for k in range(workers)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        parts = list(pool.map(_generate_job, jobs))
    merged = concatenate(parts)
    merged.meta["first_deal"] = first_deal
    return merged


def save(records: Records, path: Path) -> None:
    """Write ``records`` to ``path`` as a compressed ``.npz`` (the module docstring's layout)."""
    payload: dict[str, Any] = {"meta": np.array(json.dumps(records.meta)), **records.arrays}
    np.savez_compressed(path, **payload)


def load(path: Path) -> Records:
    """Read a record file written by :func:`save`; raises ``ValueError`` naming what is wrong with a file of another format."""
    with np.load(path, allow_pickle=False) as data:
        if "meta" not in data.files:
            raise ValueError(f"{path}: no 'meta' array, not a {FORMAT} file")
        meta = json.loads(str(data["meta"]))
        if meta.get("format") != FORMAT or meta.get("version") != FORMAT_VERSION:
            raise ValueError(f"{path}: format {meta.get('format')!r} version {meta.get('version')!r}, expected {FORMAT} {FORMAT_VERSION}")
        missing = [name for name in ARRAYS if name not in data.files]
        if missing:
            raise ValueError(f"{path}: missing arrays {', '.join(missing)}")
        return Records({name: data[name] for name in ARRAYS}, meta)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m stich.rl.decision_records GAME --bot SPEC --deals N --seed S --out FILE [--first-deal K] [--preset P] [--workers W]``."""
    parser = argparse.ArgumentParser(prog="python -m stich.rl.decision_records", description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--bot", default="pimc:level=1", help="bot spec playing every seat (default pimc:level=1)")
    parser.add_argument("--deals", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--first-deal", type=int, default=0, help="index of the first deal (shards of one run)")
    parser.add_argument("--preset", default=None)
    parser.add_argument("--workers", type=int, default=1, help="processes playing the deals (the records do not depend on it)")
    parser.add_argument("--out", type=Path, required=True, help="the .npz file to write")
    args = parser.parse_args(argv)
    try:
        game = make_game(args.game, args.preset)
        started = time.monotonic()
        records = generate_parallel(game, args.bot, args.deals, args.seed, args.first_deal, args.workers)
    except (ValueError, KeyError) as error:
        print(f"stich: error: {error}", file=sys.stderr)
        return 2
    save(records, args.out)
    seconds = time.monotonic() - started
    rate = len(records) / seconds if seconds > 0 else math.inf
    print(f"{len(records)} decisions from {args.deals} deals in {seconds:.1f} s ({rate:.0f}/s) -> {args.out}")
    return 0


if __name__ == "__main__":  # pragma: no cover - the command
    raise SystemExit(main())
