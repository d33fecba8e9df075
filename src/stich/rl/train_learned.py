"""Train the ``learned`` bot's model of one game: imitation of the heuristic, then of ``pimc``'s decision records (issue 45, step 3).

One seeded command per game reproduces a packaged model byte for byte (the
records given must be the same files; with ``pimc:worlds=N`` they are
themselves reproducible from their seed, see docs/strength.md)::

    python -m stich.rl.decision_records GAME --bot pimc:worlds=10 --deals 20 --first-deal K --seed 4501 --out pimc_K.npz   # K = 0, 20, ...
    python -m stich.rl.train_learned GAME --seed 45 --records pimc_*.npz --out src/stich/rl/models/GAME.npz

1. **Heuristic data.** ``--heuristic-deals`` deals with the heuristic in
   every seat (:func:`stich.rl.decision_records.generate`, seeded from
   ``--seed``): every decision with a choice, as the acting seat saw it.
2. **Teacher data.** The rows of ``--records`` (decision record files of a
   stronger bot, normally ``pimc``), each counted ``--teacher-weight``
   times, so that where the search disagrees with the heuristic it wins.
3. **Imitation.** A masked MLP (:mod:`stich.rl.policy`) trained by
   cross-entropy over the legal actions on both, ``--epochs`` passes with
   Adam, in this process with numpy (decision 0061: no PyTorch). With
   ``--value-temperature T`` a teacher row's target is ``--value-share`` of
   the softmax of the search's values of its candidates at ``T``, the rest on
   the chosen action (:func:`soft_targets`).
4. **Export.** The weights rounded to ``float16`` and written compressed
   with a ``meta`` that names the game, the command's settings and the data
   (a few hundred kB per game).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from stich.core.game import Game
from stich.core.registry import make_game
from stich.rl.decision_records import generate, load
from stich.rl.encoding import Encoding
from stich.rl.policy import Adam, MLPPolicy, cross_entropy_step

Data = tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]
"""Rows of training data: tensors, legal-action masks, the teacher's action codes."""


def soft_targets(
    values: npt.NDArray[np.float32], action: npt.NDArray[np.int64], temperature: float, share: float = 0.5
) -> npt.NDArray[np.float32]:
    """Per row, ``share`` of a softmax of the search's ``values`` (score points) at ``temperature``, the rest on ``action``.

    The softmax runs over the candidates the search weighed; ``action`` is the one it chose.

    Where the search weighed fewer than two candidates (``NaN`` elsewhere, a forced or unsearched decision) the
    row is the chosen ``action`` alone.  The values tell the network how much worse the other candidates were,
    which the chosen action alone does not (``--value-temperature``); the chosen action's own part keeps the
    search's choice among candidates of equal value (with ten worlds most of a card decision's values tie).
    """
    target = np.zeros(values.shape, dtype=np.float32)
    weighed = np.isfinite(values)
    soft = weighed.sum(axis=1) >= 2
    z = np.where(weighed[soft], values[soft] / temperature, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    target[soft] = share * e / e.sum(axis=1, keepdims=True)
    hard = np.flatnonzero(~soft)
    target[hard, action[hard]] = 1.0
    chosen = np.flatnonzero(soft)
    target[chosen, action[chosen]] += 1.0 - share
    return target


def heuristic_data(game: Game, deals: int, seed: int) -> Data:
    """Every decision with a choice of ``deals`` heuristic deals seeded from ``seed``."""
    records = generate(game, "heuristic", deals, seed) if deals > 0 else None
    if records is None or not len(records):
        return _empty(game)
    a = records.arrays
    return a["obs"].astype(np.float32), a["mask"].astype(np.int8), a["action"].astype(np.int64)


def teacher_data(game: Game, paths: Sequence[Path]) -> tuple[Data, npt.NDArray[np.float32]]:
    """The rows of the decision record files ``paths`` (in the order given), checked to be of ``game``, and their search values."""
    parts: list[Data] = []
    values: list[npt.NDArray[np.float32]] = []
    for path in paths:
        records = load(path)
        if records.meta.get("game") != game.canonical:
            raise ValueError(f"{path}: records of {records.meta.get('game')!r}, not {game.canonical!r}")
        a = records.arrays
        parts.append((a["obs"].astype(np.float32), a["mask"].astype(np.int8), a["action"].astype(np.int64)))
        values.append(a["values"].astype(np.float32))
    if not parts:
        empty = _empty(game)
        return empty, np.zeros(empty[1].shape, np.float32)
    data = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]), np.concatenate([p[2] for p in parts])
    return data, np.concatenate(values)


def _empty(game: Game) -> Data:
    size = Encoding(game).size
    return np.zeros((0, size), np.float32), np.zeros((0, len(game.actions)), np.int8), np.zeros(0, np.int64)


def fit(
    policy: MLPPolicy,
    data: Data,
    teacher_rows: int,
    weight: int,
    epochs: int,
    batch: int,
    lr: float,
    seed: int,
    log: bool,
    target: npt.NDArray[np.float32] | None = None,
) -> float:
    """Cross-entropy imitation on ``data``; its last ``teacher_rows`` rows count ``weight`` times; the last epoch's agreement.

    ``target``: a probability row per row of ``data`` to learn instead of the chosen action (:func:`soft_targets`).
    """
    x, mask, action = data
    first_teacher = len(action) - teacher_rows
    index = np.concatenate([np.arange(len(action)), np.repeat(np.arange(first_teacher, len(action)), max(weight, 1) - 1)])
    opt, rng, agreement = Adam(policy.parameters(), lr=lr), np.random.default_rng(seed), 0.0
    for epoch in range(epochs):
        order = index[rng.permutation(len(index))]
        batches = np.array_split(order, max(1, len(order) // batch))
        hits = [cross_entropy_step(policy, opt, x[i], mask[i], action[i], None if target is None else target[i]) * len(i) for i in batches]
        agreement = sum(hits) / max(len(order), 1)
        if log:
            print(f"  epoch {epoch + 1}/{epochs}: agrees with the teachers on {agreement:.1%} of {len(order)} rows", flush=True)
    return agreement


def export(policy: MLPPolicy, path: Path, extra: dict[str, Any]) -> Path:
    """Write ``policy`` with ``float16`` weights, compressed, ``extra`` added to its meta (:func:`stich.rl.policy.load_policy` reads it)."""
    meta = {**policy.meta, **extra}
    arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta, sort_keys=True))}
    for i, (w, b) in enumerate(zip(policy.weights, policy.biases, strict=True)):
        arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(np.float16), b.astype(np.float16)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        np.savez_compressed(out, **arrays)
    return path


def train(args: argparse.Namespace) -> Path:
    """The run ``main`` parsed: data, imitation, export; the path written."""
    log = not args.quiet
    if not 0.0 <= args.value_share <= 1.0:
        raise ValueError(f"--value-share must lie in 0..1, not {args.value_share}")
    began = time.perf_counter()
    game = make_game(args.game, args.preset)
    hidden = tuple(int(h) for h in args.hidden.split(",") if h.strip())
    heuristic = heuristic_data(game, args.heuristic_deals, args.seed)
    teacher, values = teacher_data(game, [Path(p) for p in sorted(args.records)])
    data: Data = (
        np.concatenate([heuristic[0], teacher[0]]),
        np.concatenate([heuristic[1], teacher[1]]),
        np.concatenate([heuristic[2], teacher[2]]),
    )
    if not len(data[2]):
        raise ValueError("no training data: give --heuristic-deals or --records")
    if log:
        took = time.perf_counter() - began
        rows = f"{len(heuristic[2])} heuristic rows, {len(teacher[2])} teacher rows"
        print(f"{game.canonical}: {rows} ({took:.0f} s); hidden {hidden}", flush=True)
    policy = MLPPolicy.create(game, data[0].shape[1], hidden, seed=args.seed)
    target = None
    if args.value_temperature > 0:  # the heuristic rows have no values (NaN): their target is the chosen action
        unweighed = np.full(heuristic[1].shape, np.nan, np.float32)
        target = soft_targets(np.concatenate([unweighed, values]), data[2], args.value_temperature, args.value_share)
    agreement = fit(policy, data, len(teacher[2]), args.teacher_weight, args.epochs, args.batch, args.lr, args.seed, log, target)
    settings = {
        "trainer": "stich.rl.train_learned",
        "seed": args.seed,
        "heuristic_deals": args.heuristic_deals,
        "records": [Path(p).name for p in sorted(args.records)],
        "rows": {"heuristic": len(heuristic[2]), "teacher": len(teacher[2])},
        "teacher_weight": args.teacher_weight,
        "epochs": args.epochs,
        "batch": args.batch,
        "lr": args.lr,
        "agreement": round(agreement, 4),
    }
    if args.value_temperature > 0:
        settings["value_temperature"] = args.value_temperature
        settings["value_share"] = args.value_share
    path = export(policy, Path(args.out), {"training": settings})
    if log:
        print(f"saved {path} ({path.stat().st_size / 1e3:.0f} kB) after {time.perf_counter() - began:.0f} s", flush=True)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m stich.rl.train_learned GAME --seed S [--records FILE ...] --out FILE``."""
    parser = argparse.ArgumentParser(prog="python -m stich.rl.train_learned", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("game", help="game name (doppelkopf, tapp_tarock, dobbm, droggn, dappen)")
    parser.add_argument("--preset", default=None, help="the game's preset (default: the game's default, as the packaged models)")
    parser.add_argument("--seed", type=int, required=True, help="seed of the heuristic deals, the initial weights and the batches")
    parser.add_argument("--heuristic-deals", type=int, default=1500, help="deals of heuristic play to imitate")
    parser.add_argument("--records", nargs="*", default=[], help="decision record files of a stronger teacher (stich.rl.decision_records)")
    parser.add_argument("--teacher-weight", type=int, default=3, help="how many times a teacher row counts against a heuristic row")
    parser.add_argument("--epochs", type=int, default=8, help="passes over the data")
    parser.add_argument("--batch", type=int, default=256, help="rows per Adam step")
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam learning rate")
    parser.add_argument("--hidden", default="256,128", help="hidden layer sizes, comma-separated")
    parser.add_argument(
        "--value-temperature",
        type=float,
        default=0.0,
        help="learn the teacher rows' search values as a softmax at this temperature (score points); 0: the chosen action alone",
    )
    parser.add_argument(
        "--value-share",
        type=float,
        default=0.5,
        help="with --value-temperature: the values' share of a teacher row's target, the rest on the chosen action",
    )
    parser.add_argument("--out", required=True, help="the model file to write (the packaged ones: src/stich/rl/models/GAME.npz)")
    parser.add_argument("--quiet", action="store_true", help="print nothing but errors")
    args = parser.parse_args(argv)
    try:
        train(args)
    except (ValueError, KeyError, OSError) as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover - the command
    raise SystemExit(main())
