"""The encoding pages (docs/rl/) are generated from the code and must be current."""

from __future__ import annotations

from stich.rl import docs


def test_encoding_pages_are_current() -> None:
    stale = [str(path) for path, text in docs.pages().items() if not path.exists() or path.read_text(encoding="utf-8") != text]
    assert not stale, f"run python -m stich.rl.docs: stale pages {stale}"


def test_every_slice_and_action_is_on_the_page() -> None:
    from stich.core.registry import make_game
    from stich.rl.encoding import Encoding

    text = docs.page("tapp_tarock")
    enc = Encoding(make_game("tapp_tarock"))
    for info in enc.slices():
        assert f"| `{info.name}` | {info.start} | {info.stop} |" in text
    assert f"{len(enc.actions)} actions" in text
