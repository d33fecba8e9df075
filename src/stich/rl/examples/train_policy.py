"""A first learner, end to end: imitate the heuristic bot, then improve by policy gradient, save a ``policy`` bot.

Run (the defaults took 14 minutes on the team's shared, loaded 2-core machine; docs/research.md has the figures)::

    python -m stich.rl.examples.train_policy --env stich/tapp_tarock-standard-v1 --out tapp.npz
    stich arena tapp_tarock --bots policy:file=tapp.npz,random,heuristic --deals 200 --seed 1 --workers 1

The deals can be played in local processes (``--workers 4``) or on a Ray
cluster (``--ray HEAD:6379``; ``--ray`` alone starts a local instance), with
the same ``tapp.npz`` as a result.

Everything goes through the PettingZoo AEC env (:mod:`stich.rl.pettingzoo_env`)
and a numpy MLP (:mod:`stich.rl.policy`); no deep-learning framework is needed.

1. **Imitation.** Every seat is played by the ``heuristic`` bot; for each
   decision the acting seat's observation tensor and mask are stored with the
   heuristic's action.  The policy is trained on them by cross-entropy over
   the legal actions (behaviour cloning).
2. **Policy gradient (REINFORCE).** The policy, sampling its actions, takes
   one seat per deal (in turn) against heuristic bots in the others; after
   every ``batch`` deals its log-probabilities are pushed towards the actions
   of deals where it scored more than the heuristic scores in its seat on the
   same deal (a duplicate baseline, as in the arena: the cards' luck cancels),
   and away from those where it scored less.

The teacher bots read ``env.table.current().observation(seat)``: the same
seat's observation a bot gets in the arena, so the heuristic sees no more than
the learner.

The deals of both phases are played by :mod:`stich.rl.selfplay`, in this
process, in ``--workers N`` local processes, or as Ray tasks on a cluster
(``--ray [ADDRESS]``; docs/research.md says how to set one up).  Every deal is
seeded from ``--seed`` and its index alone, so the decisions, the episodes and
the saved ``.npz`` are the same byte for byte whichever way they were played;
the gradient steps always run here, in the driver, and each policy-gradient
step sends the current weights to the tasks once.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from stich.core.extras import MissingExtra
from stich.errors import OptionError, StichError

try:  # the 'rl' extra (PettingZoo); run as a command, a missing one is one line, not a traceback
    from stich.rl.pettingzoo_env import raw_env
    from stich.rl.policy import Adam, Floats, MLPPolicy, cross_entropy_step, load_policy, masked_softmax
    from stich.rl.selfplay import (
        Episode,
        InProcess,
        LearnerPlay,
        Runner,
        TeacherPlay,
        bots_for,
        generate,
        make_runner,
        play_bots_deal,
        play_learner_deal,
        seat_of,
    )
except MissingExtra as exc:
    if __name__ != "__main__":
        raise
    sys.exit(f"train_policy: error: {exc}")

__all__ = [
    "Samples",
    "bots_for",
    "collect_teacher_decisions",
    "cross_entropy_step",
    "imitate",
    "main",
    "play_bots_deal",
    "play_learner_deal",
    "raw_env",
    "reinforce",
    "seat_of",
]


@dataclass(frozen=True)
class Samples:
    """Decisions: observation tensors, legal masks and the action taken (one row each)."""

    x: Floats
    mask: npt.NDArray[np.int8]
    action: npt.NDArray[np.int64]

    @classmethod
    def of(cls, episodes: Sequence[Episode]) -> Samples:
        """The decisions of ``episodes``, in their order."""
        return cls(
            np.concatenate([e.x for e in episodes]),
            np.concatenate([e.mask for e in episodes]),
            np.concatenate([e.action for e in episodes]),
        )

    def arrays(self) -> tuple[Floats, npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        return self.x, self.mask, self.action


# ---------------------------------------------------------------- phase 1: imitation
def collect_teacher_decisions(env_id: str, deals: int, seed: int, teacher: str = "heuristic", runner: Runner | None = None) -> Samples:
    """Play ``deals`` deals with ``teacher`` in every seat; every decision as (tensor, mask, teacher's action).

    The deals are played on ``runner`` (default: this process), deal ``i``
    seeded from ``seed`` and ``i`` (:func:`stich.rl.selfplay.deal_seed`).
    """
    episodes = generate(TeacherPlay(env_id, seed, teacher), range(deals), runner or InProcess())
    return Samples.of(episodes)


def imitate(policy: MLPPolicy, samples: Samples, epochs: int, batch: int, lr: float, seed: int, log: bool) -> float:
    """Behaviour cloning on ``samples``; the agreement with the teacher in the last epoch."""
    x, mask, action = samples.arrays()
    opt, rng, agreement = Adam(policy.parameters(), lr=lr), np.random.default_rng(seed), 0.0
    for epoch in range(epochs):
        order = rng.permutation(len(action))
        hits = [
            cross_entropy_step(policy, opt, x[i], mask[i], action[i]) * len(i) for i in np.array_split(order, max(1, len(order) // batch))
        ]
        agreement = sum(hits) / len(action)
        if log:
            print(f"  imitation epoch {epoch + 1}/{epochs}: agrees with the teacher on {agreement:.1%} of {len(action)} decisions")
    return agreement


# ---------------------------------------------------------------- phase 2: policy gradient
def reinforce(
    policy: MLPPolicy,
    env_id: str,
    deals: int,
    batch: int,
    lr: float,
    seed: int,
    opponents: str = "heuristic",
    log: bool = True,
    runner: Runner | None = None,
) -> list[float]:
    """REINFORCE against ``opponents``; the mean gain over the duplicate baseline of each batch of deals.

    The baseline is **duplicate**, as in the arena: the same deal is played
    again on a twin table with the opponents' bot in the learner's seat, and
    the advantage is the learner's score minus that bot's.  The cards' luck,
    which dominates a single deal's score, cancels; what is left is what the
    policy's own choices changed.  Each batch's deals are played on
    ``runner`` (default this process) with the current policy; the step is
    taken here, on the episodes in deal order.
    """
    job, run = LearnerPlay(env_id, seed, opponents), runner or InProcess()
    opt = Adam(policy.parameters(), lr=lr)
    spread, history = 1.0, []
    for start in range(0, deals, batch):
        xs, masks, actions, advantages, gains = [], [], [], [], []
        for episode in generate(job, range(start, min(deals, start + batch)), run, policy):
            gain = episode.reward - episode.baseline
            gains.append(gain)
            spread += 0.02 * (abs(episode.reward) - spread)  # the game's scale of scores, to keep the step size game-independent
            if not len(episode.action):
                continue  # a seat that sits out this deal: nothing to learn
            xs.append(episode.x)
            masks.append(episode.mask)
            actions.append(episode.action)
            advantages.append(np.full(len(episode.action), gain / max(spread, 1e-3), dtype=np.float32))
        if xs:
            x, mask, action, adv = np.concatenate(xs), np.concatenate(masks), np.concatenate(actions), np.concatenate(advantages)
            logits, inputs = policy.forward(x)
            grad = masked_softmax(logits, mask)
            grad[np.arange(len(action)), action] -= 1.0
            opt.step(policy.backward(inputs, (grad * adv[:, None] / len(action)).astype(np.float32)))
        history.append(float(np.mean(gains)) if gains else 0.0)
        if log and (len(history) % 10 == 0 or start + batch >= deals):
            recent, done = history[-10:], min(deals, start + batch)
            print(f"  policy gradient: deals {done}/{deals}, mean gain over {opponents} on the same deals {np.mean(recent):+.2f}")
    return history


# ---------------------------------------------------------------- the script
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog="docs/research.md ('A first learner') has the figures and how to run the deals on a Ray cluster.",
    )
    parser.add_argument("--env", default="stich/tapp_tarock-standard-v1", help="environment id or canonical game string")
    parser.add_argument("--out", required=True, help="where to save the policy (.npz); play it as policy:file=OUT")
    parser.add_argument("--imitation-deals", type=int, default=2000, help="deals of heuristic play to imitate")
    parser.add_argument("--epochs", type=int, default=6, help="passes over the imitation data")
    parser.add_argument("--pg-deals", type=int, default=2000, help="policy-gradient deals against heuristic bots (0: imitation only)")
    parser.add_argument("--batch-deals", type=int, default=20, help="deals per policy-gradient step")
    parser.add_argument("--hidden", default="256,128", help="hidden layer sizes, comma-separated")
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam learning rate of the imitation")
    parser.add_argument("--pg-lr", type=float, default=1e-4, help="Adam learning rate of the policy gradient")
    parser.add_argument("--init", metavar="PATH", help="start from this saved policy instead of a fresh network (e.g. --imitation-deals 0)")
    parser.add_argument("--save-imitation", metavar="PATH", help="also save the policy after the imitation phase (to compare)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run: every deal is seeded from it and its index")
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        metavar="N",
        type=_positive("--workers"),
        default=1,
        help="play the deals (imitation data and policy-gradient episodes) in N local processes (default 1: in this process); "
        "the saved policy is the same byte for byte",
    )
    where.add_argument(
        "--ray",
        metavar="ADDRESS",
        nargs="?",
        const="",
        help="play the deals as Ray tasks (pip install 'stich[rl,ray]' on every node): on the cluster at ADDRESS (e.g. HEAD:6379), "
        "or without one on a new local Ray instance; the saved policy is the same byte for byte as with --workers",
    )
    parser.add_argument("--quiet", action="store_true", help="print nothing but errors")
    args = parser.parse_args(argv)
    try:
        return _train(args)
    except OptionError as exc:
        parser.error(str(exc))
    except StichError as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 1


def _positive(option: str) -> Callable[[str], int]:
    """An argparse type: an integer of at least 1, else an error naming ``option``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{option} takes a whole number, not {text!r}") from None
        if value < 1:
            raise argparse.ArgumentTypeError(f"{option} must be at least 1, not {value}")
        return value

    return parse


def _train(args: argparse.Namespace) -> int:
    """The run ``main`` parsed: both phases on the chosen runner, then the policy saved."""
    log = not args.quiet

    e = raw_env(args.env)
    e.reset(seed=args.seed)
    hidden = tuple(int(h) for h in args.hidden.split(",") if h.strip())
    if args.init:
        policy = load_policy(args.init, e.table.game, e.table.encoding.size)
        hidden = tuple(w.shape[1] for w in policy.weights[:-1])
    else:
        policy = MLPPolicy.create(e.table.game, e.table.encoding.size, hidden, seed=args.seed)
    began = time.perf_counter()
    with make_runner(args.workers, args.ray) as runner:
        if log:
            where = "in this process" if args.ray is None and args.workers == 1 else f"on {runner.workers} workers"
            where += "" if args.ray is None else " of Ray"
            print(f"{args.env}: tensor {e.table.encoding.size}, {len(e.table.game.actions)} actions, hidden {hidden}; deals played {where}")
        if args.imitation_deals > 0:
            samples = collect_teacher_decisions(args.env, args.imitation_deals, args.seed, runner=runner)
            if log:
                took = time.perf_counter() - began
                print(f"imitation: {len(samples.action)} heuristic decisions from {args.imitation_deals} deals ({took:.0f} s)")
            imitate(policy, samples, args.epochs, batch=256, lr=args.lr, seed=args.seed, log=log)
            if args.save_imitation:
                policy.save(args.save_imitation)
        if args.pg_deals > 0:
            if log:
                print(f"policy gradient: {args.pg_deals} deals against heuristic bots ({time.perf_counter() - began:.0f} s)")
            reinforce(policy, args.env, args.pg_deals, args.batch_deals, args.pg_lr, args.seed + 1, log=log, runner=runner)
    path = policy.save(args.out)
    if log:
        print(f"saved {path} after {time.perf_counter() - began:.0f} s; play it: policy:file={path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
