"""RLlib PPO with action masking on a stich game: a short, complete run (issue 41).

    python -m stich.rl.examples.rllib_ppo --env stich/tapp_tarock-standard-v1 --iterations 2

Trains one policy shared by every seat (the tensor is relative to the seat,
so one policy plays them all) with RLlib's new API stack: PPO, the
action-masking module of RLlib's own examples
(``ActionMaskingTorchRLModule``, which reads the ``"observations"`` and
``"action_mask"`` keys :class:`stich.rl.rllib_env.StichMultiAgentEnv` gives)
and no Ray cluster beyond the local process (``num_env_runners=0``).  After
training, the greedy policy (the highest masked logit) plays ``--check-deals``
deals and the run reports how many of its moves were illegal: with the mask
applied, none can be.  The env trains in ``illegal="penalty"`` mode: RLlib's
env checker steps unmasked random actions once, which would otherwise raise.

Needs ``pip install 'stich[rl,rllib]' torch``: RLlib's learners need torch,
which no stich extra installs (it is large); without it the script says so.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from stich.core.extras import MissingExtra

try:  # the 'rl' and 'rllib' extras; run as a command, a missing one is one line, not a traceback
    from stich.rl.rllib_env import StichMultiAgentEnv
except MissingExtra as exc:
    if __name__ != "__main__":
        raise
    sys.exit(f"rllib_ppo: error: {exc}")

POLICY = "shared"


@dataclass
class RunResult:
    """What a run reports: returns per iteration and the greedy check."""

    iterations: list[dict[str, Any]]
    greedy_moves: int
    illegal_greedy_moves: int


def build_config(env_id: str, *, batch_size: int = 256, hidden: int = 64, seed: int = 0) -> Any:
    """The PPO config: the stich env, one shared policy for every agent, RLlib's action-masking module."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    ppo_config: Any = PPOConfig  # annotated in some ray releases only: through Any it passes mypy with all of them
    return (
        ppo_config()
        .environment(StichMultiAgentEnv, env_config={"env_id": env_id, "reward_scale": 0.01, "illegal": "penalty"})
        .framework("torch")
        .env_runners(num_env_runners=0, num_envs_per_env_runner=1)
        .learners(num_learners=0)
        .multi_agent(policies={POLICY}, policy_mapping_fn=lambda agent_id, episode, **kwargs: POLICY)
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    POLICY: RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config={"head_fcnet_hiddens": [hidden], "head_fcnet_activation": "relu"},
                    )
                }
            )
        )
        .training(train_batch_size_per_learner=batch_size, minibatch_size=min(batch_size, 128), num_epochs=1)
        .debugging(seed=seed)
    )


def greedy_check(module: Any, env_id: str, deals: int, seed: int = 0) -> tuple[int, int]:
    """Play ``deals`` deals with the greedy masked policy; ``(moves, illegal moves)``."""
    torch = importlib.import_module("torch")  # RLlib's learners need it; no stich extra installs it (nor its stubs)

    env = StichMultiAgentEnv({"env_id": env_id})
    moves = illegal = 0
    for deal in range(deals):
        obs, _infos = env.reset(seed=seed + deal)
        done = False
        while not done:
            ((agent, view),) = obs.items()
            batch = {"obs": {key: torch.as_tensor(value[None]) for key, value in view.items()}}
            logits = module.forward_inference(batch)["action_dist_inputs"][0].detach().numpy()
            action = int(np.argmax(logits))
            moves += 1
            if view["action_mask"][action] != 1:
                illegal += 1
                action = int(np.flatnonzero(view["action_mask"])[0])
            obs, _rewards, terminateds, _truncateds, _infos = env.step({agent: action})
            done = bool(terminateds["__all__"])
    return moves, illegal


def run(env_id: str, iterations: int, *, batch_size: int = 256, check_deals: int = 5, seed: int = 0) -> RunResult:
    """Train ``iterations`` PPO iterations, then the greedy check.

    Starts a Ray instance of its own (``address="local"``: a plain ``ray.init()``
    would join another one already running on the machine) unless the process
    is connected to Ray already, and stops what it started.
    """
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level=logging.WARNING)
    algo = build_config(env_id, batch_size=batch_size, seed=seed).build_algo()
    try:
        reports = []
        for _ in range(iterations):
            result = algo.train()
            runners = result.get("env_runners", {})
            mean = runners.get("episode_return_mean")
            reports.append(
                {
                    "episodes": int(runners.get("num_episodes", 0)),
                    "return_mean": None if mean is None else round(float(mean), 4),
                    "steps": int(result.get("num_env_steps_sampled_lifetime", 0)),
                }
            )
        module = algo.get_module(POLICY)
        moves, illegal = greedy_check(module, env_id, check_deals, seed)
    finally:
        algo.stop()
        if started:
            ray.shutdown()
    return RunResult(reports, moves, illegal)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--env", default="stich/tapp_tarock-standard-v1", help="environment id")
    parser.add_argument("--iterations", type=int, default=2, help="PPO iterations (default 2)")
    parser.add_argument("--batch-size", type=int, default=256, help="env steps per iteration (default 256)")
    parser.add_argument("--check-deals", type=int, default=5, help="deals the greedy policy plays afterwards (default 5)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        importlib.import_module("torch")
    except ImportError:
        print("RLlib's PPO needs torch: pip install torch (no stich extra installs it)", file=sys.stderr)
        return 2
    result = run(args.env, args.iterations, batch_size=args.batch_size, check_deals=args.check_deals, seed=args.seed)
    for k, report in enumerate(result.iterations, 1):
        print(f"iteration {k}: {report}")
    print(f"greedy policy: {result.illegal_greedy_moves} illegal of {result.greedy_moves} moves")
    return 0 if result.illegal_greedy_moves == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
