"""The pages generated from code (docs/options/) must be up to date."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_generated_pages_are_current() -> None:
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "tools" / "gen_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    stale = [str(path) for path, text in module.pages().items() if not path.exists() or path.read_text(encoding="utf-8") != text]
    assert not stale, f"run python tools/gen_docs.py: stale pages {stale}"
