"""No Python module under src/stich grows past a size a reader can hold (issue 39: "no module over ~1,000 lines").

The limit is a little above 1,000 so that a small fix does not force a split
on the spot; a module that reaches it is split where its parts differ.
"""

from __future__ import annotations

from pathlib import Path

LIMIT = 1_100
SOURCE = Path(__file__).resolve().parents[1] / "src" / "stich"


def test_no_module_is_over_the_limit() -> None:
    sizes = {path.relative_to(SOURCE).as_posix(): len(path.read_text(encoding="utf-8").splitlines()) for path in SOURCE.rglob("*.py")}
    assert len(sizes) > 100
    too_long = {name: lines for name, lines in sizes.items() if lines > LIMIT}
    assert too_long == {}, f"split these modules (over {LIMIT} lines): {too_long}"
