"""Bots registered at run time (``stich arena --register NAME=TARGET``): loading, worker processes, errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from stich.arena import duplicate
from stich.arena.duplicate import parse_bot_spec, run_duplicate
from stich.bots import registry
from stich.bots.random_bot import RandomBot
from stich.core.registry import make_game
from stich.errors import OptionError

from .helpers import assert_one_error_line, run_cli

VARIANTS = '''
"""Bot factories for the tests: the Droggn heuristic itself, and a bot that always takes the first legal action."""
from stich.bots.droggn.heuristic import DroggnHeuristic


class FirstLegal:
    name = "first"

    def __init__(self, game, seat, seed, *, last=False):
        self.last = last

    def choose(self, observation):
        return observation.legal_actions[-1 if self.last else 0]


def same(game, seat, seed):
    return DroggnHeuristic(game, seat, seed)


not_a_factory = 3
'''


@pytest.fixture(autouse=True)
def _restore_registry() -> Iterator[None]:
    """Every test starts and ends with the built-in bots only (the dict is shared with the arena module)."""
    saved = dict(registry.BOTS)
    yield
    registry.BOTS.clear()
    registry.BOTS.update(saved)


@pytest.fixture
def variants(tmp_path: Path) -> Path:
    path = tmp_path / "variants.py"
    path.write_text(VARIANTS, encoding="utf-8")
    return path


def test_a_file_target_becomes_a_bot_name(variants: Path) -> None:
    registry.register_bot("first", f"{variants}:FirstLegal")
    assert "first" in registry.bot_names()
    assert registry.registered_bots() == (("first", f"{variants}:FirstLegal"),)
    game = make_game("droggn")
    bot = registry.make_bot("first", game, 0, 1)
    state = game.new_state(seed=4, dealer=0)
    observation = state.observation(state.current_player())
    assert bot.choose(observation) == observation.legal_actions[0]
    # options go to the factory like a built-in bot's
    last = duplicate.build_bot(parse_bot_spec("first:last=true"), game, 0, 1)
    assert last.choose(observation) == observation.legal_actions[-1]


def test_a_module_target_and_registering_twice() -> None:
    registry.register_bot("plain_random", "stich.bots.random_bot:RandomBot")
    registry.register_bot("plain_random", "stich.bots.random_bot:RandomBot")  # the same target again: nothing happens
    assert isinstance(registry.make_bot("plain_random", make_game("dobbm"), 1, 2), RandomBot)


def test_the_registered_bot_plays_the_match_in_worker_processes(variants: Path) -> None:
    registry.register_bot("same", f"{variants}:same")
    registry.register_bot("first", f"{variants}:FirstLegal")
    game = make_game("droggn")
    # the heuristic against itself (it is deterministic): every deal is a tie
    twin = run_duplicate(game, "same", ["heuristic"], deals=4, seed=5, workers=2)
    assert twin.labels == ("same", "heuristic")
    assert twin.differences() == [0.0] * 4
    # the first legal action against the heuristic loses, and the same deals give the same result in one process
    apart = run_duplicate(game, "first", ["heuristic"], deals=4, seed=5, workers=2)
    together = run_duplicate(game, "first", ["heuristic"], deals=4, seed=5, workers=1)
    assert apart.differences() == together.differences()
    assert sum(apart.differences()) < 0


def test_a_worker_without_the_registration_registers_it_from_the_chunk(variants: Path) -> None:
    # A spawned worker starts with the built-in bots only: the chunk carries the registrations to it.
    target = f"{variants}:same"
    registry.register_bot("same", target)
    chunk = duplicate._Chunk(
        "droggn", parse_bot_spec("same"), (parse_bot_spec("heuristic"),), ("same", "heuristic"), 5, 0, 2, False, (("same", target),)
    )
    del registry.BOTS["same"]
    result = duplicate._play_chunk(chunk)
    assert [d.pairings[0].difference for d in result.deals] == [0.0, 0.0]
    assert registry.BOTS["same"] == target


@pytest.mark.parametrize(
    ("name", "target", "message"),
    [
        ("x", "no_colon", "expected package.module:factory"),
        ("x", "{variants}:", "expected package.module:factory"),
        ("x", "{variants}.missing.py:same", "no file"),
        ("x", "stich.bots.no_such_module:Bot", "cannot import stich.bots.no_such_module"),
        ("x", "{variants}:not_a_factory", "has no callable 'not_a_factory'"),
        ("x", "{variants}:absent", "has no callable 'absent'"),
        ("Bad-Name", "{variants}:same", "use lower-case letters"),
        ("heuristic", "{variants}:same", "is a built-in bot"),
    ],
)
def test_bad_registrations_name_the_problem(variants: Path, name: str, target: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        registry.register_bot(name, target.format(variants=variants))
    assert registry.BOTS == registry.BUILTIN_BOTS


def test_a_name_taken_by_another_target_is_refused(variants: Path) -> None:
    registry.register_bot("mine", f"{variants}:same")
    with pytest.raises(OptionError, match="already registered"):
        registry.register_bot("mine", f"{variants}:FirstLegal")
    assert registry.BOTS["mine"] == f"{variants}:same"


def test_cli_register(capsys: pytest.CaptureFixture[str], variants: Path) -> None:
    status, out, err = run_cli(
        capsys, "arena", "droggn", "--register", f"same={variants}:same", "--bots", "same,heuristic", "--deals", "3", "--seed", "2",
        "--workers", "1", "--json",
    )  # fmt: skip
    assert status == 0, err
    data = json.loads(out)
    assert data["pairings"][0]["difference"]["mean"] == 0.0
    assert f"--register same={variants}:same --bots same,heuristic" in data["command"]


@pytest.mark.parametrize(
    ("register", "message"),
    [("same", "expected NAME=TARGET"), ("=x.py:f", "expected NAME=TARGET"), ("same={variants}:absent", "has no callable")],
)
def test_cli_bad_register_is_one_error_line(capsys: pytest.CaptureFixture[str], variants: Path, register: str, message: str) -> None:
    status, _out, err = run_cli(
        capsys, "arena", "droggn", "--register", register.format(variants=variants), "--bots", "heuristic,random", "--deals", "1",
        "--seed", "1",
    )  # fmt: skip
    assert message in assert_one_error_line(status, err)
