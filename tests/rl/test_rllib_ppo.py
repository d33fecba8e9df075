"""The shipped RLlib PPO example (stich.rl.examples.rllib_ppo): two small iterations with action masking.

The one RLlib training test (it starts Ray and trains; about a minute of
CPU): it runs where torch is installed and is skipped otherwise (no stich
extra installs torch).  The config and the missing-torch message are checked
everywhere.
"""

from __future__ import annotations

import sys

import pytest

pytest.importorskip("ray.rllib")
from stich.rl.examples import rllib_ppo

ENV = "stich/tapp_tarock-standard-v1"


def test_the_config_shares_one_masked_policy_among_every_seat() -> None:
    config = rllib_ppo.build_config(ENV, batch_size=64)
    assert config.env_config == {"env_id": ENV, "reward_scale": 0.01, "illegal": "penalty"}
    assert set(config.policies) == {rllib_ppo.POLICY}
    assert config.policy_mapping_fn("player_2", None) == rllib_ppo.POLICY
    spec = config.rl_module_spec.rl_module_specs[rllib_ppo.POLICY]
    assert spec.module_class.__name__ == "ActionMaskingTorchRLModule"


def test_without_torch_the_example_says_what_to_install(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    assert rllib_ppo.main(["--iterations", "1"]) == 2
    assert "pip install torch" in capsys.readouterr().err


def test_two_ppo_iterations_train_and_the_greedy_policy_makes_no_illegal_move() -> None:
    pytest.importorskip("torch")
    result = rllib_ppo.run(ENV, 2, batch_size=128, check_deals=2)
    assert len(result.iterations) == 2 and result.iterations[-1]["episodes"] is not None
    assert result.greedy_moves > 0 and result.illegal_greedy_moves == 0
