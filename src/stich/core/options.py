"""Typed, validated, frozen rules options with named presets and a canonical string.

Each game declares its options as a frozen dataclass whose fields are built with
:func:`option`; the field metadata carries the one-line doc, the dossier section
and the allowed values.  This module turns such a dataclass into an option
table (for ``stich rules``), parses ``KEY=VALUE`` text, applies presets and
writes the canonical game string, e.g. ``doppelkopf(preset=ddv,nines=false)``:
the preset followed by every option that differs from that preset, in
declaration order.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from stich.errors import OptionError

T = TypeVar("T")

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def option(
    default: Any,
    doc: str,
    section: str,
    *,
    choices: tuple[str, ...] | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
) -> Any:
    """Declare one option field: default, one-line doc, dossier section, limits.

    A ``frozenset`` default makes a set-valued option whose members must come
    from ``choices``; its text form joins members with ``+``.
    """
    return dataclasses.field(
        default=default,
        metadata={"doc": doc, "section": section, "choices": choices, "min": minimum, "max": maximum},
    )


@dataclass(frozen=True)
class OptionInfo:
    """Description of one option, as shown by ``stich rules``."""

    name: str
    type: str
    default: Any
    doc: str
    section: str
    choices: tuple[str, ...] | None
    minimum: int | None
    maximum: int | None

    def to_json(self) -> dict[str, Any]:
        """JSON form for ``stich rules --json``."""
        return {
            "name": self.name,
            "type": self.type,
            "default": to_jsonable(self.default),
            "doc": self.doc,
            "section": self.section,
            "choices": list(self.choices) if self.choices else None,
            "min": self.minimum,
            "max": self.maximum,
        }


def to_jsonable(value: Any) -> Any:
    """Option value in JSON form (sets become sorted lists)."""
    if isinstance(value, frozenset):
        return sorted(value)
    return value


def option_infos(cls: type[Any]) -> list[OptionInfo]:
    """The option table of an options dataclass, in declaration order."""
    infos = []
    for f in dataclasses.fields(cls):
        default = f.default
        if isinstance(default, bool):
            kind = "bool"
        elif isinstance(default, int):
            kind = "int"
        elif isinstance(default, frozenset):
            kind = "set"
        else:
            kind = "str"
        infos.append(
            OptionInfo(
                f.name,
                kind,
                default,
                f.metadata.get("doc", ""),
                f.metadata.get("section", ""),
                f.metadata.get("choices"),
                f.metadata.get("min"),
                f.metadata.get("max"),
            )
        )
    return infos


def format_value(value: Any) -> str:
    """Canonical text form of an option value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, frozenset):
        return "+".join(sorted(value)) if value else "none"
    return str(value)


def parse_value(info: OptionInfo, raw: Any) -> Any:
    """Convert text (or a JSON value) to the option's type, checking its limits."""
    name = info.name
    if info.type == "bool":
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise OptionError(f"option {name} takes true or false, not {raw!r}")
    if info.type == "int":
        if isinstance(raw, bool):
            raise OptionError(f"option {name} takes an integer, not {raw!r}")
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise OptionError(f"option {name} takes an integer, not {raw!r}") from None
        if info.minimum is not None and value < info.minimum:
            raise OptionError(f"option {name} must be at least {info.minimum}, not {value}")
        if info.maximum is not None and value > info.maximum:
            raise OptionError(f"option {name} must be at most {info.maximum}, not {value}")
        return value
    if info.type == "set":
        if isinstance(raw, (list, tuple, set, frozenset)):
            members = [str(m) for m in raw]
        else:
            text = str(raw).strip()
            members = [] if text in ("", "none") else [m.strip() for m in text.split("+")]
        allowed = info.choices or ()
        bad = [m for m in members if m not in allowed]
        if bad:
            raise OptionError(f"option {name}: unknown member {bad[0]!r}; allowed: {', '.join(allowed)}")
        return frozenset(members)
    text = str(raw).strip()
    if info.choices and text not in info.choices:
        raise OptionError(f"option {name} takes one of {', '.join(info.choices)}, not {raw!r}")
    return text


class OptionTable:
    """Options dataclass + presets of one game: parsing, validation, canonical text."""

    def __init__(self, game: str, cls: type[Any], presets: Mapping[str, Mapping[str, Any]], default_preset: str) -> None:
        self.game = game
        self.cls = cls
        self.infos = option_infos(cls)
        self.by_name = {info.name: info for info in self.infos}
        self.presets: dict[str, dict[str, Any]] = {}
        self.default_preset = default_preset
        for preset, overrides in presets.items():
            self.presets[preset] = {k: self._check(k, v) for k, v in overrides.items()}
        if default_preset not in self.presets:
            raise ValueError(f"default preset {default_preset} not declared")

    def _check(self, key: str, raw: Any) -> Any:
        info = self.by_name.get(key)
        if info is None:
            raise OptionError(f"{self.game} has no option {key!r}; options: {', '.join(self.by_name)}")
        return parse_value(info, raw)

    def preset_values(self, preset: str) -> dict[str, Any]:
        """All option values of a preset (defaults filled in)."""
        if preset not in self.presets:
            raise OptionError(f"{self.game} has no preset {preset!r}; presets: {', '.join(self.presets)}")
        values = {info.name: info.default for info in self.infos}
        values.update(self.presets[preset])
        return values

    def build(self, preset: str | None = None, overrides: Mapping[str, Any] | None = None) -> tuple[str, Any]:
        """Validated options instance for a preset plus overrides; returns (preset, options)."""
        preset = preset or self.default_preset
        values = self.preset_values(preset)
        for key, raw in (overrides or {}).items():
            values[key] = self._check(key, raw)
        try:
            return preset, self.cls(**values)
        except OptionError:
            raise
        except (TypeError, ValueError) as exc:  # pragma: no cover - dataclass misuse
            raise OptionError(str(exc)) from exc

    def canonical(self, preset: str, options: Any) -> str:
        """``game(preset=P,key=value,...)`` listing only values that differ from the preset."""
        base = self.preset_values(preset)
        parts = [f"preset={preset}"]
        for info in self.infos:
            value = getattr(options, info.name)
            if value != base[info.name]:
                parts.append(f"{info.name}={format_value(value)}")
        return f"{self.game}({','.join(parts)})"


_GAME_STRING = re.compile(r"^\s*([a-z_][a-z0-9_]*)\s*(?:\((.*)\))?\s*$")


def parse_game_string(text: str) -> tuple[str, dict[str, str]]:
    """Split ``name(k=v,...)`` into the name and the raw key/value pairs."""
    match = _GAME_STRING.match(text)
    if not match:
        raise OptionError(f"not a game string: {text!r} (expected e.g. doppelkopf(preset=ddv,nines=false))")
    name, inner = match.group(1), match.group(2)
    pairs: dict[str, str] = {}
    if inner and inner.strip():
        for part in inner.split(","):
            key, sep, value = part.partition("=")
            if not sep or not key.strip():
                raise OptionError(f"expected KEY=VALUE in {text!r}, got {part!r}")
            key = key.strip()
            if key in pairs:
                raise OptionError(f"option {key} given twice in {text!r}")
            pairs[key] = value.strip()
    return name, pairs


def parse_assignments(items: list[str] | tuple[str, ...]) -> dict[str, str]:
    """Parse ``KEY=VALUE`` command-line items."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"expected KEY=VALUE, got {item!r}")
        out[key.strip()] = value.strip()
    return out
