"""reset(seed=...) of the batches: how the per-deal streams are reseeded (stich.rl.batched.streams)."""

from __future__ import annotations

import random

import pytest

from stich.rl.batched.streams import reseed


def test_an_int_seed_gives_deal_i_the_seed_plus_i_and_a_list_one_seed_each() -> None:
    streams = [random.Random() for _ in range(3)]
    reseed(streams, 10)
    assert [s.random() for s in streams] == [random.Random(10 + i).random() for i in range(3)]
    reseed(streams, [7, 7, 9])
    assert [s.random() for s in streams] == [random.Random(v).random() for v in (7, 7, 9)]


def test_a_seed_list_of_the_wrong_length_is_refused_and_nothing_is_reseeded() -> None:
    streams = [random.Random(1) for _ in range(3)]
    with pytest.raises(ValueError, match="reset needs 3 seeds, got 2"):
        reseed(streams, [1, 2])
    assert [s.random() for s in streams] == [random.Random(1).random()] * 3
