"""The examples in docs/research.md run as written, and its id table lists every preset id."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from stich.core.registry import game_class, game_names

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", TEXT, flags=re.DOTALL)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_every_python_example_runs(index: int) -> None:
    exec(compile(BLOCKS[index], f"{DOC}:block{index}", "exec"), {})


def test_the_id_table_names_every_preset() -> None:
    for name in game_names():
        row = next(line for line in TEXT.splitlines() if line.startswith("| ") and f"stich/{name}-" in line)
        for preset in game_class(name).option_table.presets:
            assert f"-{preset}-v1`" in row, (name, preset)
