"""The learner's self-play in chunks (:mod:`stich.rl.selfplay`): the same episodes, and the same trained file, wherever they are played.

One process, ``--workers 2`` and a local Ray instance started by the test
(the ``ray_address`` fixture of tests/conftest.py; skipped without Ray) give
byte-identical decisions, episodes and ``.npz`` (issue 33: "results
byte-for-byte identical to --workers").  A driver joining a running instance
by address is tested once, for the arena (tests/arena/test_ray.py).  Kept small: a few Tapp Tarock deals
and a 16-unit network.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from stich.errors import OptionError
from stich.rl.examples import train_policy
from stich.rl.pettingzoo_env import env
from stich.rl.policy import MLPPolicy
from stich.rl.selfplay import Episode, InProcess, LearnerPlay, LocalProcesses, Runner, TeacherPlay, generate

ENV = "stich/tapp_tarock-standard-v1"
TRAIN = ["--env", ENV, "--imitation-deals", "6", "--epochs", "1", "--pg-deals", "6", "--batch-deals", "3", "--hidden", "16", "--quiet"]
"""A tiny training run: 6 imitation deals, then two policy-gradient steps of 3 deals each."""
PG_STEPS = 2


def _policy() -> MLPPolicy:
    e = env(ENV)
    return MLPPolicy.create(e.table.game, e.table.encoding.size, (16,), seed=3)


def _as_bytes(episodes: list[Episode]) -> list[tuple[Any, ...]]:
    """Everything an episode holds, arrays as their exact bytes (and dtype and shape)."""
    return [
        (e.deal, e.seat, e.reward, e.baseline, *((a.dtype.str, a.shape, a.tobytes()) for a in (e.x, e.mask, e.action))) for e in episodes
    ]


def _both_jobs(runner: Runner, policy: MLPPolicy) -> tuple[list[Episode], list[Episode]]:
    return generate(TeacherPlay(ENV, seed=4), range(5), runner), generate(LearnerPlay(ENV, seed=4), range(5), runner, policy)


def test_each_deal_depends_on_the_seed_and_its_index_alone() -> None:
    policy, runner = _policy(), InProcess()
    for job in (TeacherPlay(ENV, seed=4), LearnerPlay(ENV, seed=4)):
        whole = generate(job, range(6), runner, policy)
        assert [e.deal for e in whole] == list(range(6))
        # Deals 2..4 alone, and cut into other chunks, are the same deals played the same way.
        assert _as_bytes(generate(job, range(2, 5), runner, policy)) == _as_bytes(whole[2:5])
        assert _as_bytes(generate(job, range(6), runner, policy, per_worker=6)) == _as_bytes(whole)
    with pytest.raises(OptionError, match="deals must be consecutive"):
        generate(TeacherPlay(ENV, seed=4), range(0, 6, 2), runner)
    other = generate(LearnerPlay(ENV, seed=5), range(3), runner, policy)
    assert _as_bytes(other) != _as_bytes(generate(LearnerPlay(ENV, seed=4), range(3), runner, policy))


def test_episodes_hold_the_seats_decisions_and_the_duplicate_baseline() -> None:
    e, policy = env(ENV), _policy()
    teacher, learner = _both_jobs(InProcess(), policy)
    assert sum(len(ep.action) for ep in teacher) > 50
    for episode in teacher:  # every seat's decisions (at least each one's bid): legal actions of the teacher
        assert episode.seat == -1 and len(episode.action) >= e.table.seats
        assert episode.x.shape == (len(episode.action), e.table.encoding.size) and episode.x.dtype == np.float32
        assert all(episode.mask[i, a] == 1 for i, a in enumerate(episode.action))
    assert [ep.seat for ep in learner] == [d % e.table.seats for d in range(5)]  # the learner takes the seats in turn
    for episode in learner:
        assert all(episode.mask[i, a] == 1 for i, a in enumerate(episode.action))
        # The baseline is the heuristic's score in the learner's seat on the same deal, replayed by bots alone.
        e.reset(seed=4 * 1_000_003 + episode.deal)
        scores = train_policy.play_bots_deal(e, train_policy.bots_for(e, "heuristic", 4 * 1_000_003 + episode.deal))
        assert episode.baseline == scores[episode.seat]
    assert any(ep.reward != ep.baseline for ep in learner)  # the sampling policy plays otherwise than the heuristic


def _train(out: Path, *where: str) -> bytes:
    assert train_policy.main([*TRAIN, "--out", str(out), *where]) == 0
    return out.read_bytes()


def test_one_process_two_workers_and_ray_give_the_same_episodes_and_the_same_policy_file(
    tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    policy = _policy()
    teacher, learner = (_as_bytes(episodes) for episodes in _both_jobs(InProcess(), policy))
    one = _train(tmp_path / "one.npz")
    with LocalProcesses(2) as pool:
        assert [_as_bytes(episodes) for episodes in _both_jobs(pool, policy)] == [teacher, learner]
    assert _train(tmp_path / "two.npz", "--workers", "2") == one

    # On Ray (started only now: the local pools above fork this process, which is better done before it joins Ray).
    request.getfixturevalue("ray_address")  # this process joins the fixture's instance
    ray = pytest.importorskip("ray")
    from stich.arena.ray_runner import RayRunner

    with RayRunner() as runner:  # this process is connected already: the fixture's instance
        assert [_as_bytes(episodes) for episodes in _both_jobs(runner, policy)] == [teacher, learner]
    put, puts = ray.put, []
    monkeypatch.setattr(ray, "put", lambda value, **kw: (puts.append(type(value)), put(value, **kw))[1])
    assert _train(tmp_path / "ray.npz", "--ray") == one
    assert puts == [MLPPolicy] * PG_STEPS  # the weights go to the tasks once per policy-gradient step
    monkeypatch.undo()
    # --ray ADDRESS from another process (a driver joining a running instance) is the same RayRunner(ADDRESS) as
    # `stich arena --ray ADDRESS`, whose test (tests/arena/test_ray.py) starts that second driver: not a second time here.


def test_a_failure_in_a_worker_comes_back_as_its_own_error() -> None:
    with LocalProcesses(2) as pool, pytest.raises(OptionError, match="unknown bot 'nobody'"):
        generate(TeacherPlay(ENV, seed=1, teacher="nobody"), range(4), pool)


def test_without_ray_installed_the_error_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    with pytest.raises(SystemExit) as exit_:
        train_policy.main([*TRAIN, "--out", str(tmp_path / "x.npz"), "--ray"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "--ray needs Ray: pip install 'stich[ray]'" in err and "Traceback" not in err
    assert not (tmp_path / "x.npz").exists()


@pytest.mark.parametrize(
    ("where", "message"),
    [(["--workers", "2", "--ray"], "not allowed with argument --workers"), (["--workers", "0"], "--workers must be at least 1, not 0")],
)
def test_bad_runner_options_are_refused_naming_them(
    where: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        train_policy.main([*TRAIN, "--out", str(tmp_path / "x.npz"), *where])
    assert exit_.value.code == 2 and message in capsys.readouterr().err
