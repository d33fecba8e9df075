"""``stich rules``: the games, their presets and every option, read from the option tables."""

from __future__ import annotations

import json
from typing import Any

from stich.core.options import OptionInfo, format_value, to_jsonable
from stich.core.registry import game_class, game_names


def allowed_text(info: OptionInfo) -> str:
    """The values an option accepts, in words."""
    if info.type == "bool":
        return "true, false"
    if info.type == "int":
        low = "" if info.minimum is None else str(info.minimum)
        high = "" if info.maximum is None else str(info.maximum)
        return f"{low}..{high}" if low or high else "any integer"
    if info.type == "set":
        return "any of " + "+".join(info.choices or ()) + " (join with +, or none)"
    if info.choices:
        return ", ".join(info.choices)
    return "any text"


def games_summary() -> list[dict[str, Any]]:
    """Name, title, rules version and presets of every implemented game."""
    out = []
    for name in game_names():
        cls = game_class(name)
        table = cls.option_table
        out.append(
            {
                "name": name,
                "title": cls.title,
                "rules_version": cls.rules_version,
                "presets": list(table.presets),
                "default_preset": table.default_preset,
            }
        )
    return out


def game_rules(name: str) -> dict[str, Any]:
    """A game's presets (with their overrides) and every option, as JSON."""
    cls = game_class(name)
    table = cls.option_table
    presets = [
        {"name": preset, "default": preset == table.default_preset, "overrides": {k: to_jsonable(v) for k, v in overrides.items()}}
        for preset, overrides in table.presets.items()
    ]
    options = []
    for info in table.infos:
        entry = info.to_json()
        entry["allowed"] = allowed_text(info)
        options.append(entry)
    return {"name": name, "title": cls.title, "rules_version": cls.rules_version, "presets": presets, "options": options}


def rules_text(name: str) -> list[str]:
    """``stich rules GAME`` as text lines."""
    data = game_rules(name)
    cls = game_class(name)
    lines = [f"{name}: {data['title']} (rules version {data['rules_version']})", "", "Presets:"]
    width = max(len(p["name"]) for p in data["presets"])
    for preset in data["presets"]:
        raw = cls.option_table.presets[preset["name"]]
        overrides = ", ".join(f"{k}={format_value(v)}" for k, v in raw.items()) or "(the defaults)"
        mark = "  [default]" if preset["default"] else ""
        lines.append(f"  {preset['name']:<{width}}  {overrides}{mark}")
    lines += ["", "Options (set with --option KEY=VALUE; a preset's overrides replace these defaults):"]
    for info in cls.option_table.infos:
        lines.append(f"  {info.name}  ({info.type}, default {format_value(info.default)}; allowed: {allowed_text(info)}; §{info.section})")
        lines.append(f"      {info.doc}")
    return lines


def list_text() -> list[str]:
    """``stich rules`` without a game as text lines."""
    games = games_summary()
    width = max(len(g["name"]) for g in games)
    lines = ["Games (stich rules GAME shows the options):"]
    for g in games:
        presets = ", ".join(g["presets"])
        lines.append(f"  {g['name']:<{width}}  {g['title']}  presets: {presets} (default {g['default_preset']})")
    return lines


def run_rules(game: str | None, as_json: bool) -> int:
    """Print the list of games or one game's rules options."""
    if as_json:
        payload: Any = game_rules(game) if game else {"games": games_summary()}
        print(json.dumps(payload, ensure_ascii=False, indent=2))
        return 0
    for line in rules_text(game) if game else list_text():
        print(line)
    return 0
