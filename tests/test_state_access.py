"""Game states are read through their typed public attributes, never through ``__dict__``.

A ``state.__dict__["party"]`` read escapes the type checker and breaks
silently when a game renames an attribute; the search, the bots and the
analysis read the states' public attributes and accessors instead (behind a
check of the state's type where a module serves every game).  Only
:mod:`stich.core.game`, where ``State`` lives, touches the attribute dict:
its cheap ``clone`` and the per-state caches of observation parts.
"""

from __future__ import annotations

import re
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src" / "stich"
ALLOWED = {"core/game.py"}


def test_only_the_state_base_touches_a_states_attribute_dict() -> None:
    modules = {path.relative_to(SOURCE).as_posix(): path.read_text(encoding="utf-8") for path in SOURCE.rglob("*.py")}
    assert "core/game.py" in modules and "search/perfect_info.py" in modules
    readers = sorted(name for name, text in modules.items() if re.search(r"\b__dict__\b", text) and name not in ALLOWED)
    assert readers == [], f"read the states' public attributes instead of __dict__ in: {readers}"
