"""The PettingZoo and Gymnasium envs on the compiled kernel (``backend="auto"`` for DDV) against the engine, step by step."""

from __future__ import annotations

import random

import numpy as np
import pytest

from stich.rl.batched import NotSupportedError
from stich.rl.gymnasium_env import StichGymEnv
from stich.rl.kernel_table import KernelTable, kernel_plays, table_for
from stich.rl.pettingzoo_env import raw_env
from stich.rl.table import Table, TableConfig

from .helpers import same_aec_view, same_illegal_error

pytest.importorskip("stich.rl.batched.doppelkopf")  # numba

DDV = "stich/doppelkopf-ddv-v1"


@pytest.mark.parametrize("dealer", ["random", "rotate", 2])
def test_the_kernel_env_is_the_engine_env_at_every_step_of_every_seat(dealer: str | int) -> None:
    kernel = raw_env(DDV, dealer=dealer, reward_scale=0.1)  # type: ignore[arg-type]
    engine = raw_env(DDV, dealer=dealer, reward_scale=0.1, backend="engine")  # type: ignore[arg-type]
    assert isinstance(kernel.table, KernelTable) and isinstance(engine.table, Table)
    rng = random.Random(str(dealer))
    for deal in range(12):
        seed = 100 + deal if deal % 3 == 0 else None  # reseeded now and then, else the next deal of the stream
        kernel.reset(seed=seed)
        engine.reset(seed=seed)
        agents = list(engine.possible_agents)
        same_aec_view(kernel, engine, agents)
        while engine.agents:
            _obs, _reward, terminated, _trunc, _info = engine.last()
            action = None if terminated else rng.choice(list(np.flatnonzero(engine.observe(engine.agent_selection)["action_mask"])))
            kernel.step(None if action is None else int(action))
            engine.step(None if action is None else int(action))
            same_aec_view(kernel, engine, agents)
        assert kernel.table.current().history == engine.table.current().history
        assert kernel.table.current().result().scores == engine.table.current().result().scores


def test_the_engine_state_is_replayed_on_demand_and_follows_the_deal() -> None:
    kernel, engine = raw_env(DDV), raw_env(DDV, backend="engine")
    kernel.reset(seed=5)
    engine.reset(seed=5)
    rng = random.Random(5)
    for _ in range(30):
        seat = engine.table.to_move()
        state = kernel.table.current()  # read every step: the kept state catches up one action at a time
        assert state.dealt == engine.table.current().dealt and state.history == engine.table.current().history
        assert kernel.table.info_state(seat) == engine.table.info_state(seat)
        code = rng.choice(engine.table.current().legal_codes())
        kernel.step(code)
        engine.step(code)


def test_illegal_actions_raise_the_engines_error_or_end_the_deal_with_the_penalty() -> None:
    kernel, engine = raw_env(DDV), raw_env(DDV, backend="engine")
    kernel.reset(seed=1)
    engine.reset(seed=1)
    illegal = same_illegal_error(kernel, engine)
    kernel = raw_env(DDV, illegal="penalty", illegal_penalty=-5.0)
    engine = raw_env(DDV, illegal="penalty", illegal_penalty=-5.0, backend="engine")
    for e in (kernel, engine):
        e.reset(seed=1)
        e.step(illegal)
    same_aec_view(kernel, engine, list(engine.possible_agents))
    assert kernel.infos == engine.infos


def test_an_action_text_is_taken_as_the_engine_takes_it() -> None:
    engine, kernel = Table(TableConfig(DDV)), KernelTable(TableConfig(DDV))
    kernel.deal(seed=3)
    engine.deal(seed=3)
    text = next(a.text for a in kernel.current().legal_actions())
    kernel.act(text)
    engine.act(text)
    assert kernel.current().history == engine.current().history
    assert np.array_equal(kernel.observe(kernel.to_move())["observation"], engine.observe(engine.to_move())["observation"])


def test_the_backend_is_the_kernel_only_where_it_plays_the_configuration() -> None:
    assert kernel_plays(DDV) and not kernel_plays("stich/doppelkopf-freedoko_standard-v1")
    assert isinstance(table_for(TableConfig("stich/doppelkopf-freedoko_standard-v1")), Table)
    assert isinstance(table_for(TableConfig(DDV), "engine"), Table)
    with pytest.raises(NotSupportedError, match="DDV preset only"):
        table_for(TableConfig("stich/doppelkopf-freedoko_standard-v1"), "kernel")
    with pytest.raises(ValueError, match="backend must be"):
        table_for(TableConfig(DDV), "gpu")  # type: ignore[arg-type]


def test_stich_no_numba_keeps_the_engine_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STICH_NO_NUMBA", "1")
    assert not kernel_plays(DDV)
    assert isinstance(raw_env(DDV).table, Table)


def _gym_deal(env: StichGymEnv, seed: int | None, rng: random.Random) -> list[tuple[object, ...]]:
    """One episode of the Gymnasium env, the learner's actions drawn from the mask: every step's observation, reward, end and info."""
    obs, info = env.reset(seed=seed)
    steps: list[tuple[object, ...]] = [(obs["observation"].tobytes(), obs["action_mask"].tobytes(), info)]
    terminated = False
    while not terminated:
        action = rng.choice(list(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(int(action))
        steps.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, terminated, truncated, info))
    return steps


@pytest.mark.parametrize(("opponents", "seat", "dealer"), [("random", 0, "random"), ("heuristic", 2, "rotate"), ("random", 3, 1)])
def test_the_gymnasium_env_on_the_kernel_is_the_engine_env(opponents: str, seat: int, dealer: str | int) -> None:
    kernel = StichGymEnv(DDV, opponents=opponents, seat=seat, dealer=dealer, reward_scale=0.5)  # type: ignore[arg-type]
    engine = StichGymEnv(DDV, opponents=opponents, seat=seat, dealer=dealer, reward_scale=0.5, backend="engine")  # type: ignore[arg-type]
    assert isinstance(kernel.table, KernelTable) and isinstance(engine.table, Table)
    for deal in range(6):
        seed = 40 + deal if deal % 3 == 0 else None  # reseeded now and then, else the next deal of the stream
        got, expected = _gym_deal(kernel, seed, random.Random(deal)), _gym_deal(engine, seed, random.Random(deal))
        assert got == expected
        _tensor, _mask, reward, _end, _trunc, info = expected[-1]
        assert reward == info["scores"][seat] * 0.5  # type: ignore[index]  # the learner's score, scaled, paid at the end
        assert kernel.table.current().history == engine.table.current().history


def test_the_gymnasium_env_takes_the_backend_option_as_the_pettingzoo_env_does() -> None:
    assert isinstance(StichGymEnv(DDV, backend="kernel").table, KernelTable)
    assert isinstance(StichGymEnv("stich/doppelkopf-house_classic-v1").table, Table)  # auto: the engine where no kernel plays
    with pytest.raises(ValueError, match="backend must be"):
        StichGymEnv(DDV, backend="gpu")  # type: ignore[arg-type]
    env = StichGymEnv(DDV, illegal="penalty", illegal_penalty=-3.0)
    obs, _ = env.reset(seed=2)
    _obs, reward, terminated, _trunc, info = env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert (reward, terminated, info) == (-3.0, True, {"illegal_action": int(np.flatnonzero(obs["action_mask"] == 0)[0])})
    assert not _obs["action_mask"].any()
