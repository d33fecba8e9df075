"""Bot specs: a bot by name with options, ``pimc:level=3,worlds=20``, as every command and the web server take it.

``stich sim``, ``stich play``, ``stich arena`` and the web tables all read
``--bots`` (or a seat's bot) with :func:`parse_bot_specs` /
:func:`parse_bot_spec` and build the bots with :func:`build_bot`, so a spec
one of them takes, the others take too.  A spec names a bot of
:mod:`stich.bots.registry`; each option must be a keyword parameter of that
bot's factory (checked while parsing, so a typo fails before any deal).
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from stich.bots.base import Bot
from stich.bots.registry import BOT_NAME, BOTS, bot_names, load_factory, make_bot
from stich.core.game import Game
from stich.errors import OptionError

OptionValue = bool | int | float | str
"""The value of one bot option."""

_KEY = re.compile(r"^[a-z_][a-z0-9_]*$")
_RESERVED = ("game", "seat", "seed")


def _parse_value(text: str) -> OptionValue:
    """An option value: ``true``/``false``, an integer, a float, or else the text itself."""
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        return text
    return value if math.isfinite(value) else text


def _format_value(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class BotSpec:
    """A bot by registry name with keyword options, e.g. ``pimc:time=0.5`` (``name="pimc"``, ``options=(("time", 0.5),)``)."""

    name: str
    options: tuple[tuple[str, OptionValue], ...] = ()

    @property
    def text(self) -> str:
        """The canonical text form, ``name`` or ``name:key=value,...`` (keys in the order given)."""
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{key}={_format_value(value)}" for key, value in self.options)

    def __str__(self) -> str:
        return self.text

    def kwargs(self) -> dict[str, OptionValue]:
        """The options as keyword arguments of the bot's factory."""
        return dict(self.options)


def _available() -> str:
    return ", ".join(bot_names())


def _factory(name: str) -> Callable[..., Bot]:
    """The registry's factory (class or function) of bot ``name``."""
    target = BOTS.get(name)
    if target is None:
        raise OptionError(f"unknown bot {name!r}; available: {_available()}")
    return load_factory(target)


def check_options(spec: BotSpec) -> None:
    """Every option of ``spec`` must be a keyword parameter of its factory (or the factory takes ``**kwargs``)."""
    if not spec.options:
        return
    factory = _factory(spec.name)
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature: let the call decide
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return
    accepted = [
        name
        for name, p in params.items()
        if name not in _RESERVED and p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    ]
    for key, _value in spec.options:
        if key not in accepted:
            takes = f"its options: {', '.join(accepted)}" if accepted else "it takes no options"
            raise OptionError(f"bot {spec.name!r} has no option {key!r}; {takes}")


def required_options(name: str) -> list[str]:
    """The options bot ``name`` cannot do without: its factory's keyword-only parameters without a default (``policy``: ``file``)."""
    try:
        params = inspect.signature(_factory(name)).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
        return []
    return [key for key, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is inspect.Parameter.empty]


def check_required(spec: BotSpec) -> None:
    """Every required option of ``spec``'s bot (:func:`required_options`) must be given, else :class:`OptionError` naming it."""
    given = {key for key, _value in spec.options}
    missing = [key for key in required_options(spec.name) if key not in given]
    if missing:
        example = ",".join(f"{key}=..." for key in missing)
        raise OptionError(f"bot {spec.name!r} needs option {missing[0]!r}: {spec.name}:{example}")


def parse_bot_spec(text: str) -> BotSpec:
    """One bot spec, ``name`` or ``name:key=value,key=value``; raises :class:`OptionError` naming the problem."""
    name, sep, rest = text.strip().partition(":")
    name = name.strip()
    if not name:
        raise OptionError(f"empty bot name in {text!r}; available: {_available()}")
    if name not in BOTS:
        raise OptionError(f"unknown bot {name!r}; available: {_available()}")
    options: list[tuple[str, OptionValue]] = []
    if sep:
        items = [item.strip() for item in rest.split(",")]
        if not any(items):
            raise OptionError(f"bot {text.strip()!r}: expected key=value options after ':'")
        for item in items:
            key, eq, value = item.partition("=")
            key = key.strip()
            if not eq or not _KEY.match(key) or not value.strip():
                raise OptionError(f"bot {name!r}: expected key=value, got {item!r}")
            if key in (k for k, _ in options):
                raise OptionError(f"bot {name!r}: option {key!r} given twice")
            options.append((key, _parse_value(value.strip())))
    spec = BotSpec(name, tuple(options))
    check_options(spec)
    check_required(spec)
    return spec


def parse_bot_specs(text: str) -> list[BotSpec]:
    """A comma-separated list of bot specs; a part with ``=`` but no ``:`` continues the previous bot's options.

    ``"heuristic,random"`` -> two bots; ``"pimc:time=0.5,worlds=20,random"`` ->
    ``pimc:time=0.5,worlds=20`` and ``random``.
    """
    groups: list[str] = []
    for part in text.split(","):
        piece = part.strip()
        if "=" in piece and ":" not in piece:
            if not groups or ":" not in groups[-1]:
                raise OptionError(f"option {piece!r} in {text!r} follows no bot; write name:key=value")
            groups[-1] += "," + piece
        else:
            if not piece:
                raise OptionError(f"empty bot name in {text!r}; available: {_available()}")
            if not BOT_NAME.match(piece.partition(":")[0].strip()):
                raise OptionError(f"unknown bot {piece.partition(':')[0].strip()!r}; available: {_available()}")
            groups.append(piece)
    return [parse_bot_spec(group) for group in groups]


def build_bot(spec: BotSpec, game: Game, seat: int, seed: int) -> Bot:
    """The bot of ``spec`` for ``seat`` of ``game``; a factory that rejects the options raises :class:`OptionError`."""
    if not spec.options:
        return make_bot(spec.name, game, seat, seed)
    try:
        return _factory(spec.name)(game, seat, seed, **spec.kwargs())
    except (TypeError, ValueError) as exc:
        raise OptionError(f"bot {spec.text!r}: {exc}") from None
