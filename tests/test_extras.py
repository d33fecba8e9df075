"""A command that needs an optional extra that is missing says which one in one line (issue 38).

The packages are "missing" by a ``None`` in ``sys.modules``, which makes their
import fail as if they were not installed, so the test runs in the full test
environment.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from stich.cli.main import main
from stich.core.extras import EXTRA_OF_PACKAGE, MissingExtra, is_missing_extra, missing_extra, needs_extra


def test_every_extra_named_exists_in_pyproject() -> None:
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    extras = set(project["project"]["optional-dependencies"])
    assert set(EXTRA_OF_PACKAGE.values()) <= extras


def test_the_message_names_the_extra_and_the_command() -> None:
    error = missing_extra("pettingzoo.utils", "stich.rl.pettingzoo_env")
    assert isinstance(error, ModuleNotFoundError) and error.name == "pettingzoo"
    assert str(error) == (
        "stich.rl.pettingzoo_env needs the optional extra 'rl' (pettingzoo is not installed): "
        "pip install 'stich[rl]' (make test installs every extra)"
    )
    assert is_missing_extra(error) and is_missing_extra(ModuleNotFoundError("x", name="ray"))
    assert not is_missing_extra(ModuleNotFoundError("x", name="stich_nonsense"))


def test_a_module_no_extra_brings_is_named_without_an_install_command() -> None:
    assert str(missing_extra("MySQLdb", "--database mysql")) == "--database mysql needs the Python module MySQLdb, which is not installed"


def test_needs_extra_imports_or_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    assert needs_extra("json", "here").__name__ == "json"
    monkeypatch.setitem(sys.modules, "redis", None)
    with pytest.raises(MissingExtra, match=r"--redis needs the optional extra 'redis'"):
        needs_extra("redis", "--redis")


def test_serve_without_the_redis_extra(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "redis", None)
    status = main(["serve", "--database", "postgresql+psycopg://u@127.0.0.1:1/x", "--redis", "redis://127.0.0.1:1", "--workers", "2"])
    err = capsys.readouterr().err
    assert status == 2
    assert err == (
        "stich: error: --redis needs the optional extra 'redis' (redis is not installed): "
        "pip install 'stich[redis]' (make test installs every extra)\n"
    )


def test_serve_without_the_postgresql_driver(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)
    status = main(["serve", "--database", "postgresql+psycopg://u@127.0.0.1:1/x"])
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err
    assert err.startswith("stich: error: --database postgresql+psycopg needs the optional extra 'postgresql'")
    assert "pip install 'stich[postgresql]'" in err


@pytest.mark.parametrize(
    ("blocked", "module", "extra"),
    [
        ("gymnasium", "stich.rl.gymnasium_env", "rl"),
        ("pettingzoo", "stich.rl.pettingzoo_env", "rl"),
        ("pyspiel", "stich.rl.openspiel_game", "openspiel"),
        ("ray", "stich.rl.rllib_env", "ray"),
    ],
)
def test_the_research_adapters_name_their_extra(blocked: str, module: str, extra: str) -> None:
    code = (
        f"import sys; sys.modules[{blocked!r}] = None\n"
        f"try:\n    import {module}\nexcept ModuleNotFoundError as exc:\n    print(type(exc).__name__, exc)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.startswith(f"MissingExtra {module} needs the optional extra '{extra}' ({blocked} is not installed)")


@pytest.mark.parametrize("example", ["train_policy", "rllib_ppo"])
def test_the_examples_say_the_missing_extra_in_one_line(example: str) -> None:
    code = f"import runpy, sys; sys.modules['gymnasium'] = None; runpy.run_module('stich.rl.examples.{example}', run_name='__main__')"
    done = subprocess.run([sys.executable, "-c", code, "--help"], capture_output=True, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        f"{example}: error: stich.rl.pettingzoo_env needs the optional extra 'rl' (gymnasium is not installed): "
        "pip install 'stich[rl]' (make test installs every extra)"
    )
