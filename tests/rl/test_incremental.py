"""The incremental encoder: at every step of every preset its tensor is the full encoding's, whichever seats ask when."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from stich.core.game import Observation
from stich.rl.encoding import Encoding
from stich.rl.ids import game_for
from stich.rl.incremental import IncrementalEncoder
from stich.rl.leak_check import random_points
from stich.rl.slices import Ones, Values, Writer

from .helpers import CONFIGS


@pytest.mark.parametrize("config", CONFIGS)
def test_every_tensor_is_the_full_encodings_at_every_step(config: str) -> None:
    game = game_for(config)
    fresh, encoder = Encoding(game), IncrementalEncoder(Encoding(game))
    rng = random.Random(config)
    compared = kept = 0
    for seed in range(3):
        encoder.forget(seed % 2)
        for state in random_points(game, seed):
            # Two rows: this deal in row seed % 2, the other row still holds the last deal's tensors.
            for seat in rng.sample(range(game.num_seats), rng.randint(1, game.num_seats)):
                obs = state.observation(seat)
                before = encoder._kept.get(seed % 2, {}).get(seat)
                tensor = encoder.tensor(obs, seed % 2)
                assert np.array_equal(tensor, fresh.tensor(obs)), (config, seed, len(state.history), seat)
                assert not tensor.flags.writeable
                compared += 1
                kept += before is not None
    assert compared > 100 and kept > compared // 2  # most tensors were built from a kept one


def test_a_slice_is_rewritten_exactly_when_its_source_changed() -> None:
    game = game_for("stich/tapp_tarock-standard-v1")
    encoding = Encoding(game)
    written: list[str] = []

    def spying(name: str, write: Writer) -> Writer:
        def spy(obs: Observation, base: int, ones: Ones, values: Values) -> None:
            written.append(name)
            write(obs, base, ones, values)

        return spy

    encoding.parts = tuple((info, dataclasses.replace(part, write=spying(info.name, part.write))) for info, part in encoding.parts)
    encoder = IncrementalEncoder(encoding)
    state = game.new_state(seed=5, dealer=0)
    seat = state.current_player()
    encoder.tensor(state.observation(seat))
    assert len(written) == len(encoding.parts)  # the first tensor of a seat: every slice
    written.clear()
    encoder.tensor(state.observation(seat))
    assert written == []  # nothing changed
    state.apply(state.legal_codes()[0])
    encoder.tensor(state.observation(seat))
    assert "actions" in written and "to_move" in written and "hand" not in written and "dealer" not in written
    written.clear()
    encoder.forget(0)
    encoder.tensor(state.observation(seat))
    assert len(written) == len(encoding.parts)  # a forgotten row starts afresh
