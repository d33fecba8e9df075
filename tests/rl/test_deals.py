"""Where every environment's deals come from (stich.rl.deals, decision 0046): dealer modes, seeds, batch streams."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from stich.rl.deals import DEFAULT_DEALER, DealStream, check_dealer, reseed, spawn_seed
from stich.rl.gymnasium_env import StichGymEnv, make_vector
from stich.rl.pettingzoo_env import raw_env
from stich.rl.table import Table, TableConfig


def test_spawn_seed_is_the_ith_child_of_numpys_seed_sequence() -> None:
    children = np.random.SeedSequence(42).spawn(3)
    for i, child in enumerate(children):
        words = child.generate_state(2, dtype=np.uint64)
        assert spawn_seed(42, i) == int(words[0]) << 64 | int(words[1])


def test_an_int_seed_spawns_one_stream_per_slot_and_a_list_seeds_them_as_given() -> None:
    streams = [DealStream(4) for _ in range(3)]
    reseed(streams, 10)
    assert [s.rng.random() for s in streams] == [random.Random(spawn_seed(10, i)).random() for i in range(3)]
    reseed(streams, [7, 7, 9])
    assert [s.rng.random() for s in streams] == [random.Random(v).random() for v in (7, 7, 9)]


def test_a_seed_list_of_the_wrong_length_or_a_negative_seed_is_refused_and_nothing_is_reseeded() -> None:
    streams = [DealStream(4) for _ in range(3)]
    for s in streams:
        s.seed(1)
    with pytest.raises(ValueError, match="reset needs 3 seeds, got 2"):
        reseed(streams, [1, 2])
    with pytest.raises(ValueError, match="non-negative int"):
        reseed(streams, -1)
    assert [s.rng.random() for s in streams] == [random.Random(1).random()] * 3


def test_batches_seeded_s_and_s_plus_1_share_no_deal_stream() -> None:
    """With ``s + i`` seeds, slots 1..N-1 of seed s were slots 0..N-2 of seed s+1: every deal but one repeated."""
    n = 64
    first = [DealStream(4) for _ in range(n)]
    second = [DealStream(4) for _ in range(n)]
    reseed(first, 1000)
    reseed(second, 1001)
    deals_first = {stream.next_deal()[0] for stream in first}
    deals_second = {stream.next_deal()[0] for stream in second}
    assert len(deals_first) == n and len(deals_second) == n
    assert not deals_first & deals_second


def test_a_doppelkopf_batch_seeded_s_and_s_plus_1_deals_different_hands_in_every_slot() -> None:
    batched = pytest.importorskip("stich.rl.batched.doppelkopf")
    a, b = batched.DoppelkopfBatch(16), batched.DoppelkopfBatch(16)
    a.reset(seed=5)
    b.reset(seed=6)
    assert not set(a.deal_seeds.tolist()) & set(b.deal_seeds.tolist())
    table = Table(TableConfig())
    table.deal(spawn_seed(5, 3))
    assert table.current().seed == a.deal_seeds[3]  # slot i is the single env's reset(seed=spawn_seed(s, i))


def test_every_adapter_draws_the_dealer_per_deal_by_default() -> None:
    """One default (decision 0046): PettingZoo, Gymnasium, RLlib and the batches alike."""
    assert DEFAULT_DEALER == "random"
    assert raw_env("stich/dobbm-pagat-v1").table.config.dealer == "random"
    assert StichGymEnv("stich/dobbm-pagat-v1").table.config.dealer == "random"
    rllib_env = pytest.importorskip("stich.rl.rllib_env")
    assert rllib_env.StichMultiAgentEnv({"env_id": "stich/dobbm-pagat-v1"}).table.config.dealer == "random"
    batched = pytest.importorskip("stich.rl.batched.doppelkopf")
    tarock = pytest.importorskip("stich.rl.batched.tarock")
    assert batched.DoppelkopfBatch(1).dealer == "random"
    assert tarock.TarockBatch(1, "stich/dobbm-pagat-v1").dealer == "random"
    e = raw_env("stich/dobbm-pagat-v1")
    e.reset(seed=3)
    dealers = [e.table.current().dealer]
    for _ in range(39):
        e.reset()
        dealers.append(e.table.current().dealer)
    assert set(dealers) == set(range(e.table.seats))


def test_a_rotating_dealer_passes_the_deal_on_from_a_drawn_seat() -> None:
    table = Table(TableConfig("doppelkopf(players=5)", dealer="rotate"))
    starts = set()
    for seed in range(12):
        table.deal(seed)
        dealers = [table.current().dealer]
        for _ in range(9):
            table.deal()
            dealers.append(table.current().dealer)
        assert dealers == [(dealers[0] + k) % 5 for k in range(10)]
        assert Counter(dealers) == dict.fromkeys(range(5), 2)  # every seat deals (and sits out) equally often
        starts.add(dealers[0])
    assert len(starts) > 1  # the first dealer is drawn, not seat 0 every time


def test_a_fixed_dealer_stays_and_bad_dealers_are_refused_by_name() -> None:
    table = Table(TableConfig("stich/tapp_tarock-standard-v1", dealer=2))
    for seed in range(5):
        table.deal(seed)
        assert table.current().dealer == 2
    assert check_dealer(np.int64(1), 3) == 1
    for bad in (3, -1, "left", True, 1.0):
        with pytest.raises(ValueError, match=r"dealer must be a seat 0\.\.2, 'random' or 'rotate'"):
            check_dealer(bad, 3)
    with pytest.raises(ValueError, match="'rotate'"):
        raw_env("stich/tapp_tarock-standard-v1", dealer=5)


def test_the_gymnasium_vector_env_spawns_its_seeds_too() -> None:
    a, b = make_vector("stich/dobbm-pagat-v1", 3), make_vector("stich/dobbm-pagat-v1", 3)
    a.reset(seed=8)
    b.reset(seed=9)
    first = [env.unwrapped.table.current().seed for env in a.envs]  # type: ignore[attr-defined]
    second = [env.unwrapped.table.current().seed for env in b.envs]  # type: ignore[attr-defined]
    assert not set(first) & set(second)
    single = StichGymEnv("stich/dobbm-pagat-v1")
    single.reset(seed=spawn_seed(8, 2))
    assert single.table.current().seed == first[2]
