"""A first learner, end to end: imitate the heuristic bot, then improve by policy gradient, save a ``policy`` bot.

Run (the defaults took 14 minutes on the team's shared, loaded 2-core machine; docs/research.md has the figures)::

    python -m stich.rl.examples.train_policy --env stich/tapp_tarock-standard-v1 --out tapp.npz
    stich arena tapp_tarock --bots policy:file=tapp.npz,random,heuristic --deals 200 --seed 1 --workers 1

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
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from stich.bots.base import Bot
from stich.bots.spec import build_bot, parse_bot_spec
from stich.rl.pettingzoo_env import StichAECEnv, env
from stich.rl.policy import Adam, Floats, MLPPolicy, load_policy, masked_softmax


@dataclass
class Samples:
    """Decisions: observation tensors, legal masks and the action taken."""

    x: list[Floats] = field(default_factory=list)
    mask: list[npt.NDArray[np.int8]] = field(default_factory=list)
    action: list[int] = field(default_factory=list)

    def add(self, observation: dict[str, npt.NDArray[np.generic]], action: int) -> None:
        self.x.append(observation["observation"].astype(np.float32))
        self.mask.append(observation["action_mask"].astype(np.int8))
        self.action.append(action)

    def arrays(self) -> tuple[Floats, npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        return np.stack(self.x), np.stack(self.mask), np.asarray(self.action, dtype=np.int64)


def seat_of(agent: str) -> int:
    return int(agent.rsplit("_", 1)[1])


def bots_for(e: StichAECEnv, spec: str, seed: int) -> list[Bot]:
    """One bot of ``spec`` per seat for the deal just dealt (bots may keep a deal's memory, so new ones per deal)."""
    bot_spec = parse_bot_spec(spec)
    return [build_bot(bot_spec, e.table.game, s, seed * 31 + s) for s in range(e.table.seats)]


# ---------------------------------------------------------------- phase 1: imitation
def collect_teacher_decisions(env_id: str, deals: int, seed: int, teacher: str = "heuristic") -> Samples:
    """Play ``deals`` deals with ``teacher`` in every seat; every decision as (tensor, mask, teacher's action)."""
    e, samples = env(env_id), Samples()
    e.reset(seed=seed)
    for deal in range(deals):
        if deal:
            e.reset()
        bots = bots_for(e, teacher, seed + deal)
        for agent in e.agent_iter():
            observation, _reward, termination, truncation, _info = e.last()
            if termination or truncation:
                e.step(None)
                continue
            seat = seat_of(agent)
            action = bots[seat].choose(e.table.current().observation(seat)).code
            samples.add(observation, action)
            e.step(action)
    return samples


def cross_entropy_step(policy: MLPPolicy, opt: Adam, x: Floats, mask: npt.NDArray[np.int8], action: npt.NDArray[np.int64]) -> float:
    """One Adam step on the mean cross-entropy of the legal-action softmax; the agreement with the targets before it."""
    logits, inputs = policy.forward(x)
    probs = masked_softmax(logits, mask)
    grad = probs.copy()
    grad[np.arange(len(action)), action] -= 1.0
    opt.step(policy.backward(inputs, (grad / len(action)).astype(np.float32)))
    return float(np.mean(probs.argmax(axis=1) == action))


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
def play_learner_deal(
    e: StichAECEnv, policy: MLPPolicy, learner: int, opponents: list[Bot], rng: np.random.Generator
) -> tuple[Samples, float]:
    """One deal with the policy (sampling) in seat ``learner``, bots elsewhere; its decisions and its reward."""
    mine, reward = Samples(), 0.0
    for agent in e.agent_iter():
        observation, last_reward, termination, truncation, _info = e.last()
        seat = seat_of(agent)
        if termination or truncation:
            if seat == learner:
                reward = float(last_reward)
            e.step(None)
            continue
        if seat == learner:
            probs = policy.probabilities(observation["observation"][None, :].astype(np.float32), observation["action_mask"][None, :])[0]
            action = int(rng.choice(len(probs), p=probs / probs.sum()))
            mine.add(observation, action)
        else:
            action = opponents[seat].choose(e.table.current().observation(seat)).code
        e.step(action)
    return mine, reward


def play_bots_deal(e: StichAECEnv, bots: list[Bot]) -> list[float]:
    """The deal just dealt in ``e`` played out by ``bots``; every seat's reward."""
    rewards = [0.0] * e.table.seats
    for agent in e.agent_iter():
        _observation, reward, termination, truncation, _info = e.last()
        seat = seat_of(agent)
        if termination or truncation:
            rewards[seat] = float(reward)
            e.step(None)
            continue
        e.step(bots[seat].choose(e.table.current().observation(seat)).code)
    return rewards


def reinforce(
    policy: MLPPolicy, env_id: str, deals: int, batch: int, lr: float, seed: int, opponents: str = "heuristic", log: bool = True
) -> list[float]:
    """REINFORCE against ``opponents``; the mean gain over the duplicate baseline of each batch of deals.

    The baseline is **duplicate**, as in the arena: the same deal is played
    again on a twin table with the opponents' bot in the learner's seat, and
    the advantage is the learner's score minus that bot's.  The cards' luck,
    which dominates a single deal's score, cancels; what is left is what the
    policy's own choices changed.
    """
    e, twin = env(env_id), env(env_id)
    opt, rng = Adam(policy.parameters(), lr=lr), np.random.default_rng(seed)
    spread, history = 1.0, []
    for start in range(0, deals, batch):
        xs, masks, actions, advantages, gains = [], [], [], [], []
        for deal in range(start, min(deals, start + batch)):
            deal_seed = seed * 1_000_003 + deal
            e.reset(seed=deal_seed)
            twin.reset(seed=deal_seed)
            learner = deal % e.table.seats
            mine, reward = play_learner_deal(e, policy, learner, bots_for(e, opponents, deal_seed), rng)
            gain = reward - play_bots_deal(twin, bots_for(twin, opponents, deal_seed))[learner]
            gains.append(gain)
            spread += 0.02 * (abs(reward) - spread)  # the game's scale of scores, to keep the step size game-independent
            if not mine.action:
                continue  # a seat that sits out this deal: nothing to learn
            x, mask, action = mine.arrays()
            xs.append(x)
            masks.append(mask)
            actions.append(action)
            advantages.append(np.full(len(action), gain / max(spread, 1e-3), dtype=np.float32))
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
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
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
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    log = not args.quiet

    e = env(args.env)
    e.reset(seed=args.seed)
    hidden = tuple(int(h) for h in args.hidden.split(",") if h.strip())
    if args.init:
        policy = load_policy(args.init, e.table.game, e.table.encoding.size)
        hidden = tuple(w.shape[1] for w in policy.weights[:-1])
    else:
        policy = MLPPolicy.create(e.table.game, e.table.encoding.size, hidden, seed=args.seed)
    began = time.perf_counter()
    if log:
        print(f"{args.env}: tensor {e.table.encoding.size}, {len(e.table.game.actions)} actions, hidden {hidden}")
    if args.imitation_deals > 0:
        samples = collect_teacher_decisions(args.env, args.imitation_deals, args.seed)
        if log:
            took = time.perf_counter() - began
            print(f"imitation: {len(samples.action)} heuristic decisions from {args.imitation_deals} deals ({took:.0f} s)")
        imitate(policy, samples, args.epochs, batch=256, lr=args.lr, seed=args.seed, log=log)
        if args.save_imitation:
            policy.save(args.save_imitation)
    if args.pg_deals > 0:
        if log:
            print(f"policy gradient: {args.pg_deals} deals against heuristic bots ({time.perf_counter() - began:.0f} s)")
        reinforce(policy, args.env, args.pg_deals, args.batch_deals, args.pg_lr, args.seed + 1, log=log)
    path = policy.save(args.out)
    if log:
        print(f"saved {path} after {time.perf_counter() - began:.0f} s; play it: policy:file={path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
