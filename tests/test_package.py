"""The package as a user gets it: an sdist and a wheel built from this tree, installed outside the repository.

``python -m build`` makes the sdist and then the wheel *from the sdist*, so a file
the sdist forgot fails here too.  The wheel goes into a fresh venv in a temporary
folder (uv from the dev extra, the base dependencies at their locked versions from
``uv export``), and the installed ``stich`` then lists the rules, plays a few deals
and serves the platform until ``/api/health`` answers, together with the files the
platform needs beside the code (static pages, translations, card art, migrations).
Issue 38.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# The files beside the code that the platform reads at run time, by pattern (as the wheel names them).
PACKAGE_DATA = (
    "stich/py.typed",
    "stich/schemas/",
    "stich/web/static/index.html",
    "stich/web/static/i18n/de.json",
    "stich/web/static/i18n/en.json",
    "stich/web/static/css/",
    "stich/web/static/js/",
    "stich/rl/models/",
    "script.py.mako",
)


def _uv() -> str:
    uv = pytest.importorskip("uv", reason="the dev extra's uv installs the wheel (make test installs it)")
    return str(uv.find_uv_bin())


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return int(answer.status), bytes(answer.read())


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sdist and the wheel ``python -m build`` makes of this tree (with the locked setuptools, no download)."""
    pytest.importorskip("build", reason="the dev extra's build makes the packages (make test installs it)")
    out = tmp_path_factory.mktemp("dist")
    # A copy of the tracked and new files, so that building writes nothing into the working tree.
    tree = tmp_path_factory.mktemp("tree") / "stich"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    for name in filter(None, (entry.decode() for entry in listed)):
        source = ROOT / name
        if source.is_file():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, tree / name)
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(tree)], check=True, capture_output=True)
    (sdist,) = out.glob("stich-*.tar.gz")
    (wheel,) = out.glob("stich-*.whl")
    return sdist, wheel


def test_the_sdist_and_the_wheel_carry_the_platforms_files(built: tuple[Path, Path]) -> None:
    sdist, wheel = built
    with tarfile.open(sdist) as archive:
        in_sdist = archive.getnames()
    with zipfile.ZipFile(wheel) as archive:
        in_wheel = archive.namelist()
    for pattern in PACKAGE_DATA:
        assert any(pattern in name for name in in_wheel), f"the wheel lacks {pattern}"
        assert any(pattern in name for name in in_sdist), f"the sdist lacks {pattern}"
    # Every file under src/stich that git knows ends up in the wheel (code and data alike).
    tracked = subprocess.run(["git", "ls-files", "src/stich"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    missing = [name for name in tracked if name.removeprefix("src/") not in in_wheel]
    assert missing == [], f"tracked files missing from the wheel: {missing[:10]}"


def test_the_installed_wheel_lists_plays_and_serves(built: tuple[Path, Path], tmp_path: Path) -> None:
    _, wheel = built
    uv = _uv()
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never", "VIRTUAL_ENV": "", "PYTHONPATH": ""}
    env.pop("UV_PROJECT_ENVIRONMENT", None)
    venv = tmp_path / "venv"
    base = Path(getattr(sys, "_base_executable", sys.executable))
    subprocess.run([uv, "venv", "--quiet", "--python", str(base), str(venv)], check=True, env=env)
    python = venv / "bin" / "python"
    # The base dependencies at their locked versions (hashes checked), then the wheel itself.
    locked = tmp_path / "requirements.txt"
    subprocess.run(
        [uv, "export", "--frozen", "--no-emit-project", "--no-dev", "--quiet", "--output-file", str(locked)],
        cwd=ROOT,
        check=True,
        env=env,
    )
    subprocess.run([uv, "pip", "install", "--quiet", "--python", str(python), "-r", str(locked)], check=True, env=env)
    subprocess.run([uv, "pip", "install", "--quiet", "--python", str(python), "--no-deps", str(wheel)], check=True, env=env)

    stich = venv / "bin" / "stich"
    work = tmp_path / "elsewhere"  # not the repository: only the installed package can answer
    work.mkdir()
    run_env = {**env, "HOME": str(work), "XDG_DATA_HOME": str(work / "data")}
    where = subprocess.run(
        [str(python), "-c", "import stich; print(stich.__file__)"], cwd=work, env=run_env, capture_output=True, text=True
    )
    assert str(venv) in where.stdout, where.stdout + where.stderr
    rules = subprocess.run([str(stich), "rules"], cwd=work, env=run_env, capture_output=True, text=True, check=True)
    assert "doppelkopf" in rules.stdout and "dappen" in rules.stdout
    records = work / "deals.jsonl"
    subprocess.run(
        [str(stich), "sim", "doppelkopf", "--games", "3", "--seed", "1", "--bots", "random,random,random,random", "--out", str(records)],
        cwd=work,
        env=run_env,
        capture_output=True,
        check=True,
    )
    assert len(records.read_text().splitlines()) == 3

    port = _free_port()
    server = subprocess.Popen(
        [str(stich), "serve", "--port", str(port), "--database", f"sqlite:///{work / 'stich.db'}"],
        cwd=work,
        env=run_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        base_url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                status, body = _get(f"{base_url}/api/health")
                break
            except OSError:
                assert server.poll() is None, server.stdout.read().decode() if server.stdout else "the server stopped"
                assert time.monotonic() < deadline, "stich serve did not answer /api/health within 60 s"
                time.sleep(0.2)
        assert status == 200 and json.loads(body)["status"] == "ok"
        # The files beside the code, served by the installed package (the database was migrated to get here).
        assert b"<html" in _get(f"{base_url}/")[1].lower()
        assert json.loads(_get(f"{base_url}/static/i18n/de.json")[1])
        pack = json.loads(_get(f"{base_url}/api/cards/packs")[1])["packs"][0]
        assert b"<svg" in _get(f"{base_url}/cards/{pack['name']}/{pack['cards'][0]}.svg")[1]
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_the_build_backend_is_pinned_to_the_locked_versions() -> None:
    """``uv sync`` builds stich with setuptools in an isolated environment: pinned to what the lock holds."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    locked = {package["name"]: package["version"] for package in lock["package"]}
    pins = dict(pin.split("==") for pin in project["tool"]["uv"]["build-constraint-dependencies"])
    assert pins == {name: locked[name] for name in pins}, "make lock moved setuptools/wheel: update build-constraint-dependencies"
