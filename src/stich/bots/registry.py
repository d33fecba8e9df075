"""Bots by name, as the command line and the arena name them.

The four built-in bots are :data:`BUILTIN_BOTS`.  An experiment adds its own
with :func:`register_bot` (``stich arena --register NAME=TARGET``): a
variant of a heuristic, say, dueled against the current one on duplicate
deals before it replaces it.  A *target* names a bot factory, called as
``factory(game, seat, seed, **options)``, either as ``package.module:attr``
(importable) or as ``path/to/file.py:attr``.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from collections.abc import Callable
from pathlib import Path

from stich.bots.base import Bot
from stich.core.game import Game
from stich.errors import OptionError

BUILTIN_BOTS: dict[str, str] = {
    "random": "stich.bots.random_bot:RandomBot",
    "heuristic": "stich.bots.heuristic:make_heuristic",
    "pimc": "stich.bots.pimc:make_pimc",
    "ismcts": "stich.bots.ismcts:make_ismcts",
    "policy": "stich.rl.policy_bot:make_policy_bot",
    "learned": "stich.rl.learned_bot:make_learned",
}
"""The bots every ``stich`` knows: name -> factory target.

``policy`` (a trained network, ``policy:file=PATH``) and ``learned`` (the
packaged network of each game, issue 45) live in ``stich.rl``, a layer above
the bots: the registry names it by its target and loads it only
when a spec asks for it (it needs the ``rl`` extra's numpy), so this package
never imports ``stich.rl`` (decision 0031).
"""

BOTS: dict[str, str] = dict(BUILTIN_BOTS)
"""Every bot known in this process: the built-in ones and those added by :func:`register_bot`."""

BOT_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
"""What a bot name looks like (lower case, digits and ``_``; it is also the name in ``--bots``)."""


def bot_names() -> list[str]:
    """Names of the available bots."""
    return list(BOTS)


def registered_bots() -> tuple[tuple[str, str], ...]:
    """The bots added by :func:`register_bot` in this process, as (name, target) pairs (for worker processes)."""
    return tuple((name, target) for name, target in BOTS.items() if name not in BUILTIN_BOTS)


def _file_module(path: Path, target: str) -> object:
    """The module of the Python file ``path``, loaded once per process under a name derived from its path."""
    resolved = path.resolve()
    name = "stich_registered_" + re.sub(r"\W", "_", str(resolved))
    module = sys.modules.get(name)
    if module is not None:
        return module
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise OptionError(f"bot target {target!r}: {path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # before executing it: dataclasses and pickling look the module up by name
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def load_factory(target: str) -> Callable[..., Bot]:
    """The bot factory named by ``target`` (``package.module:attr`` or ``path/to/file.py:attr``).

    Raises :class:`OptionError` naming the target when it is malformed, its
    module cannot be found or it has no callable ``attr``.
    """
    module_name, sep, attr = target.rpartition(":")
    if not sep or not module_name or not attr.isidentifier():
        raise OptionError(f"bot target {target!r}: expected package.module:factory or path/to/file.py:factory")
    module: object
    if module_name.endswith(".py"):
        path = Path(module_name)
        if not path.is_file():
            raise OptionError(f"bot target {target!r}: no file {module_name}")
        module = _file_module(path, target)
    else:
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise OptionError(f"bot target {target!r}: cannot import {module_name} ({exc})") from None
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise OptionError(f"bot target {target!r}: {module_name} has no callable {attr!r}")
    return factory  # type: ignore[no-any-return]


def register_bot(name: str, target: str) -> None:
    """Make ``target``'s factory available as bot ``name`` in this process (checked by loading it now).

    Registering a name again with the same target does nothing; a built-in
    name or a name taken by another target raises :class:`OptionError`.
    """
    if not BOT_NAME.match(name):
        raise OptionError(f"bot name {name!r}: use lower-case letters, digits and _ (starting with a letter)")
    known = BOTS.get(name)
    if known == target:
        return
    if name in BUILTIN_BOTS:
        raise OptionError(f"bot name {name!r} is a built-in bot; register the variant under another name")
    if known is not None:
        raise OptionError(f"bot name {name!r} is already registered as {known!r}")
    load_factory(target)
    BOTS[name] = target


def preload_builtin_bots() -> None:
    """Import the factory modules of the built-in bots of this package now.

    The search bots bring numba with them: seconds of imports.  A server calls
    this before it serves, so that the first table with a ``pimc`` seat does
    not stop its event loop for those seconds (long enough for a worker to
    lose its table leases).  Bots outside :mod:`stich.bots` (``policy``) are
    left to load when asked for.
    """
    for target in BUILTIN_BOTS.values():
        if target.startswith(f"{__package__}."):
            load_factory(target)


def make_bot(name: str, game: Game, seat: int, seed: int) -> Bot:
    """A bot by name for ``seat`` of ``game``, seeded."""
    target = BOTS.get(name)
    if target is None:
        raise OptionError(f"unknown bot {name!r}; available: {', '.join(BOTS)}")
    bot: Bot = load_factory(target)(game, seat, seed)
    return bot
