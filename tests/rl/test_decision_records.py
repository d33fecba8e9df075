"""Decision records (issue 45, step 2): the format, the generator and the command."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from stich.core.registry import make_game
from stich.rl.decision_records import ARRAYS, FORMAT, deal_seed, generate, generate_parallel, load, main, save
from stich.rl.encoding import Encoding


def test_records_hold_every_choice_as_the_acting_seat_saw_it(tmp_path: Path) -> None:
    game = make_game("tapp_tarock")
    records = generate(game, "pimc:worlds=2", deals=2, seed=3)
    arrays = records.arrays
    n = len(records)
    assert n > 10
    assert {name: arrays[name].shape[0] for name in ARRAYS} == dict.fromkeys(ARRAYS, n)
    encoding = Encoding(game)
    assert arrays["obs"].shape[1] == encoding.slices()[-1].stop
    # Every action taken is legal, every row had a choice.
    assert all(arrays["mask"][i, arrays["action"][i]] for i in range(n))
    assert (arrays["mask"].sum(axis=1) >= 2).all()
    # The search's values: the taken action among the weighed ones whenever the bot searched.
    searched = arrays["worlds"] > 0
    assert searched.any()
    assert all(np.isfinite(arrays["values"][i, arrays["action"][i]]) for i in np.flatnonzero(searched))
    assert np.isnan(arrays["values"][~arrays["mask"]]).all()  # an illegal action is never valued
    # Replaying the deals reproduces the rows: the same tensor, and the outcome is the seat's score.
    for deal in (0, 1):
        state = game.new_state(seed=deal_seed(3, deal), dealer=deal % game.num_seats)
        rows = [i for i in range(n) if arrays["deal"][i] == deal]
        assert rows
        for i in rows:
            while len(state.legal_codes()) < 2:
                state.apply(state.legal_codes()[0])
            seat = state.current_player()
            assert arrays["seat"][i] == seat
            np.testing.assert_array_equal(arrays["obs"][i], encoding.tensor(state.observation(seat)))
            state.apply(int(arrays["action"][i]))
        while not state.is_terminal():
            state.apply(state.legal_codes()[0])
        scores = state.result().scores
        assert [arrays["outcome"][i] for i in rows] == [scores[arrays["seat"][i]] for i in rows]
    # The file round-trips.
    path = tmp_path / "r.npz"
    save(records, path)
    again = load(path)
    assert again.meta == records.meta and again.meta["format"] == FORMAT and again.meta["game"] == game.canonical
    for name in ARRAYS:
        np.testing.assert_array_equal(again.arrays[name], arrays[name])


def test_a_shard_is_the_same_deal_as_in_the_whole_run() -> None:
    game = make_game("dappen")
    whole = generate(game, "heuristic", deals=3, seed=8)
    shard = generate(game, "heuristic", deals=1, seed=8, first_deal=2)
    rows = whole.arrays["deal"] == 2
    np.testing.assert_array_equal(whole.arrays["obs"][rows], shard.arrays["obs"])
    np.testing.assert_array_equal(whole.arrays["action"][rows], shard.arrays["action"])
    assert np.isnan(shard.arrays["values"]).all() and (shard.arrays["worlds"] == 0).all()  # the heuristic does not search


def test_several_processes_give_the_same_records() -> None:
    game = make_game("dappen")
    one = generate(game, "heuristic", deals=3, seed=4, first_deal=1)
    two = generate_parallel(game, "heuristic", deals=3, seed=4, first_deal=1, workers=2)
    assert two.meta == one.meta
    for name in ARRAYS:
        np.testing.assert_array_equal(two.arrays[name], one.arrays[name])


def test_the_command_writes_a_file_and_names_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d.npz"
    assert main(["dappen", "--bot", "heuristic", "--deals", "1", "--seed", "1", "--out", str(out)]) == 0
    assert len(load(out)) > 0
    assert main(["dappen", "--bot", "heuristic", "--deals", "0", "--seed", "1", "--out", str(out)]) == 2
    assert "deals" in capsys.readouterr().err
    other = tmp_path / "x.npz"
    np.savez_compressed(other, a=np.zeros(2))
    with pytest.raises(ValueError, match="meta"):
        load(other)
