"""The single envs of the Tarock family on the compiled card play (``backend="auto"``) against the engine, step by step.

:class:`~stich.rl.kernel_table.TarockKernelTable` runs a deal in a ``TarockBatch`` of one with the learner bidding:
the bidding, talon, discards, announcements and doubling in the engine, the card play in the kernel.  Every
preset and table size of Tapp Tarock, Dobbm, Droggn and Dappen is played side by side with the engine env: every
agent's tensor and mask, the agent to act, rewards, terminations and info-state strings at every step, the deal
stream under three dealer modes and reseeding, the engine's errors for illegal actions, the penalty, text
actions, and the Gymnasium env with its bots.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from stich.rl.encoding import Encoding
from stich.rl.gymnasium_env import StichGymEnv
from stich.rl.kernel_table import TarockKernelTable, kernel_plays, table_for
from stich.rl.leak_check import leak_configs
from stich.rl.pettingzoo_env import raw_env
from stich.rl.table import Table, TableConfig

from .helpers import same_aec_view, same_illegal_error

pytest.importorskip("stich.rl.batched.tarock")  # numba

TAROCK = [c for c in leak_configs() if "doppelkopf" not in c]
"""Every preset and every other table size of the four games."""
DEALERS: list[str | int] = ["random", "rotate", 1]


def _choose(env: object, rng: random.Random) -> int:
    """A random legal action of the agent to act; in Dappen ``pass`` three times in four where legal, so that its Solo
    round seldom ends the bidding at once (Dapp rounds, overcalls, discards and all-pass deals occur)."""
    table = env.table  # type: ignore[attr-defined]
    legal = [int(a) for a in np.flatnonzero(env.observe(env.agent_selection)["action_mask"])]  # type: ignore[attr-defined]
    pass_code = table.game.actions.by_text.get("pass")
    if table.game.name == "dappen" and pass_code is not None and pass_code.code in legal and rng.random() < 0.75:
        return int(pass_code.code)
    return rng.choice(legal)


@pytest.mark.parametrize("env_id", TAROCK)
def test_the_kernel_env_is_the_engine_env_at_every_step_of_every_seat(env_id: str) -> None:
    dealer = DEALERS[TAROCK.index(env_id) % len(DEALERS)]
    kernel = raw_env(env_id, dealer=dealer, reward_scale=0.25)  # type: ignore[arg-type]
    engine = raw_env(env_id, dealer=dealer, reward_scale=0.25, backend="engine")  # type: ignore[arg-type]
    assert isinstance(kernel.table, TarockKernelTable) and isinstance(engine.table, Table)
    rng = random.Random(env_id)
    agents = list(engine.possible_agents)
    cards = 0
    for deal in range(4):
        seed = 7 + deal if deal != 1 else None  # reseeded, then the stream's next deal
        kernel.reset(seed=seed)
        engine.reset(seed=seed)
        same_aec_view(kernel, engine, agents)
        while engine.agents:
            _obs, _reward, terminated, _trunc, _info = engine.last()
            if not terminated:
                seat = engine.table.to_move()
                assert kernel.table.info_state(seat) == engine.table.info_state(seat)
                cards += not kernel.table.batch._in_engine[0]
            action = None if terminated else _choose(engine, rng)
            kernel.step(action)
            engine.step(action)
            same_aec_view(kernel, engine, agents)
        k, e = kernel.table.current(), engine.table.current()
        assert (k.dealt, k.dealer, k.history) == (e.dealt, e.dealer, e.history)
        assert kernel.table.final_scores() == list(e.result().scores)
        assert [kernel.table.info_state(s) for s in range(len(agents))] == [engine.table.info_state(s) for s in range(len(agents))]
    assert cards > 0  # card play ran in the kernel


@pytest.mark.parametrize("env_id", ["stich/tapp_tarock-standard-v1", "stich/droggn-stubai-v1", "stich/dappen-furtwangen-v1"])
def test_illegal_actions_raise_the_engines_error_or_end_the_deal_with_the_penalty(env_id: str) -> None:
    for cards in (False, True):  # once in the bidding (the engine's rows), once in the card play (the kernel's)
        kernel, engine = raw_env(env_id), raw_env(env_id, backend="engine")
        kernel.reset(seed=4)
        engine.reset(seed=4)
        rng = random.Random(4)
        while cards and kernel.table.batch._in_engine[0]:
            action = _choose(engine, rng)
            kernel.step(action)
            engine.step(action)
        illegal = same_illegal_error(kernel, engine)
        penalised = [raw_env(env_id, illegal="penalty", illegal_penalty=-5.0, backend=b) for b in ("auto", "engine")]  # type: ignore[arg-type]
        for env in penalised:
            env.reset(seed=4)
            for _seat, code in engine.table.current().history:
                env.step(code)
            env.step(illegal)
        same_aec_view(*penalised, list(engine.possible_agents))
        assert penalised[0].infos == penalised[1].infos and penalised[0].rewards[engine.agent_selection] == -5.0


def test_an_action_text_is_taken_as_the_engine_takes_it_in_either_phase() -> None:
    config = TableConfig("stich/dobbm-pagat-v1")
    engine, kernel = Table(config), TarockKernelTable(config)
    kernel.deal(seed=3)
    engine.deal(seed=3)
    while not kernel.finished():
        text = random.Random(len(engine.current().history)).choice(engine.current().legal_actions()).text
        kernel.act(text)
        engine.act(text)
        assert kernel.current().history == engine.current().history
        seat = max(engine.to_move(), 0)
        assert np.array_equal(kernel.observe(seat)["observation"], engine.observe(seat)["observation"])
    assert kernel.rewards() == engine.rewards()


def test_every_tarock_configuration_is_the_kernels_and_the_engine_stays_on_request() -> None:
    assert all(kernel_plays(c) for c in TAROCK)
    assert isinstance(table_for(TableConfig("stich/dappen-waldau-v1")), TarockKernelTable)
    assert isinstance(table_for(TableConfig("droggn(players=4)"), "kernel"), TarockKernelTable)
    assert isinstance(table_for(TableConfig("stich/dobbm-pagat-v1"), "engine"), Table)
    assert isinstance(StichGymEnv("stich/tapp_tarock-standard-v1").table, Table)  # bots read the engine state: slower on the kernel
    assert isinstance(StichGymEnv("stich/tapp_tarock-standard-v1", backend="kernel").table, TarockKernelTable)


def test_stich_no_numba_keeps_the_engine_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STICH_NO_NUMBA", "1")
    assert not kernel_plays("stich/dobbm-pagat-v1")
    assert isinstance(raw_env("stich/dobbm-pagat-v1").table, Table)
    with pytest.raises(ImportError, match="STICH_NO_NUMBA"):
        table_for(TableConfig("stich/dobbm-pagat-v1"), "kernel")


def _gym_deal(env: StichGymEnv, seed: int | None, rng: random.Random) -> list[tuple[object, ...]]:
    """One episode, the learner's actions drawn from the mask: every step's observation, reward, end and info."""
    obs, info = env.reset(seed=seed)
    steps: list[tuple[object, ...]] = [(obs["observation"].tobytes(), obs["action_mask"].tobytes(), info)]
    terminated = False
    while not terminated:
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
        steps.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, terminated, truncated, info))
    return steps


@pytest.mark.parametrize(
    ("env_id", "opponents", "seat"), [("stich/tapp_tarock-standard-v1", "heuristic", 1), ("stich/dappen-buchenbach-v1", "random", 0)]
)
def test_the_gymnasium_env_on_the_kernel_is_the_engine_env(env_id: str, opponents: str, seat: int) -> None:
    kernel = StichGymEnv(env_id, opponents=opponents, seat=seat, dealer="rotate", reward_scale=0.5, backend="kernel")
    engine = StichGymEnv(env_id, opponents=opponents, seat=seat, dealer="rotate", reward_scale=0.5, backend="engine")
    assert isinstance(kernel.table, TarockKernelTable) and isinstance(engine.table, Table)
    for deal in range(3):
        seed = 40 if deal == 0 else None
        assert _gym_deal(kernel, seed, random.Random(deal)) == _gym_deal(engine, seed, random.Random(deal))
        assert kernel.table.current().history == engine.table.current().history


def test_the_batch_calls_behind_the_table_refuse_what_they_do_not_serve() -> None:
    from stich.rl.batched.tarock import TarockBatch

    with pytest.raises(ValueError, match="learner"):
        TarockBatch(1, "stich/dobbm-pagat-v1", bidding="random").deal_given(0, 5, 0)
    two = TarockBatch(2, "stich/dobbm-pagat-v1", bidding="learner")
    two.reset(seed=1)
    with pytest.raises(RuntimeError, match="batch of one"):
        two.step_single(int(np.flatnonzero(two.legal_action_mask[0])[0]))
    table = TarockKernelTable(TableConfig("stich/dobbm-pagat-v1"))
    table.deal(seed=1)
    with pytest.raises(ValueError, match="not finished"):
        table.batch.finished_state(0)
    while not table.finished():
        table.act(int(np.flatnonzero(table.observe(table.to_move())["action_mask"])[0]))
    assert table.batch.finished_state(0).result().scores == tuple(table.final_scores() or ())


@pytest.mark.parametrize("env_id", TAROCK)
def test_a_deal_played_out_ends_with_the_engines_tensors_and_scores(env_id: str) -> None:
    """The end of a deal played in the kernel: the cards replayed through the state's transition give the engine's
    deal and scores, seat 0's final tensor (the kernel's, the end's slices written from seat 0's observation) and
    every other seat's are the engine encoding's of the finished state."""
    table = TarockKernelTable(TableConfig(env_id, dealer="random"))
    encoding = Encoding(table.game)
    rng = random.Random(env_id)
    played_out = 0
    for deal in range(8):
        table.deal(seed=100 + deal)
        while not table.finished():
            table.act(rng.choice([int(a) for a in np.flatnonzero(table.observe(table.to_move())["action_mask"])]))
        state = table.batch.finished_state(0)
        reference = table.game.new_state(seed=table._deal[0], dealer=table._deal[1])  # type: ignore[index]
        for _seat, code in state.history:
            reference.apply(code)  # every action checked by the engine
        assert reference.is_terminal() and reference.result().scores == state.result().scores == tuple(table.final_scores() or ())
        played_out += bool(table.batch._played_out[0])
        for seat in range(table.seats):
            assert np.array_equal(table.observe(seat)["observation"], encoding.tensor(reference.observation(seat))), (deal, seat)
    assert played_out > 0


def test_a_code_the_mask_refuses_before_the_first_card_changes_nothing() -> None:
    from stich.errors import IllegalActionError

    table = TarockKernelTable(TableConfig("stich/tapp_tarock-standard-v1"))
    table.deal(seed=2)
    batch = table.batch
    illegal = int(np.flatnonzero(batch.legal_action_mask[0] == 0)[0])
    history = list(batch.handed_over(0).history)
    with pytest.raises(IllegalActionError, match="not legal"):
        batch.step_single(illegal)
    assert batch.handed_over(0).history == history and batch._in_engine[0]
