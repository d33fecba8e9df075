"""Which optional extra brings a missing package, and the error that says so.

``make run`` installs what play needs (the base dependencies of ``pyproject.toml``); the
research adapters, the cluster's drivers and the benchmark peers come with optional
extras (``pip install 'stich[rl]'``; ``make test`` installs them all).  A module that
needs one imports it through :func:`needs_extra`, so that a missing package ends in
one line naming the extra and the command that installs it, not in a bare
``No module named 'gymnasium'``; the command line prints that line without a
traceback (:func:`is_missing_extra`).
"""

from __future__ import annotations

import importlib
from types import ModuleType

EXTRA_OF_PACKAGE: dict[str, str] = {
    "gymnasium": "rl",
    "pettingzoo": "rl",
    "pyspiel": "openspiel",
    "open_spiel": "openspiel",
    "ray": "ray",
    "psycopg": "postgresql",
    "redis": "redis",
    "matplotlib": "plots",
    "rlcard": "bench",
}
"""The top-level package each optional extra brings, and the extra's name in ``pyproject.toml``."""


class MissingExtra(ModuleNotFoundError):
    """An optional package is not installed; the message names the extra that brings it and how to install it."""


def install_hint(package: str) -> str:
    """``pip install 'stich[EXTRA]'`` for the extra that brings ``package`` (a top-level package name of :data:`EXTRA_OF_PACKAGE`)."""
    return f"pip install 'stich[{EXTRA_OF_PACKAGE[package.partition('.')[0]]}]'"


def missing_extra(package: str, needed_by: str) -> MissingExtra:
    """The error for ``package`` missing where ``needed_by`` (a module or a command line option) needs it."""
    top = package.partition(".")[0]
    extra = EXTRA_OF_PACKAGE.get(top)
    if extra is None:  # not one of stich's extras: name the module, its install command is the user's to find
        return MissingExtra(f"{needed_by} needs the Python module {top}, which is not installed", name=top)
    return MissingExtra(
        f"{needed_by} needs the optional extra '{extra}' ({top} is not installed): {install_hint(top)} (make test installs every extra)",
        name=top,
    )


def needs_extra(package: str, needed_by: str) -> ModuleType:
    """Import ``package``; a missing one (or a missing package it needs) raises :class:`MissingExtra`."""
    try:
        return importlib.import_module(package)
    except ModuleNotFoundError as exc:
        raise missing_extra(exc.name or package, needed_by) from exc


def is_missing_extra(exc: BaseException) -> bool:
    """Whether ``exc`` is a missing optional package that a one-line message explains (no traceback needed)."""
    if isinstance(exc, MissingExtra):
        return True
    return isinstance(exc, ModuleNotFoundError) and (exc.name or "").partition(".")[0] in EXTRA_OF_PACKAGE
