"""Tiny helpers for writing SVG text by hand: number formatting, elements, the card document.

The card art is written as plain strings rather than through an XML library:
the output stays small and byte-for-byte deterministic (the same card always
gives the same SVG, so HTTP caching and ETags work), and nothing outside the
standard library is needed.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

WIDTH = 240
HEIGHT = 360
"""Every card face and back uses the viewBox ``0 0 240 360`` (the 2 : 3 shape of a playing card)."""
CX = WIDTH / 2
CY = HEIGHT / 2
RADIUS = 14
"""Corner radius of the card outline."""

SERIF = "Georgia,'Times New Roman',Times,serif"
SANS = "'Helvetica Neue',Arial,'Liberation Sans',sans-serif"
"""Font stacks: common system faces ending in a generic family, no web fonts."""

INK = "#1b1b1b"
PAPER = "#fffdf6"
GOLD = "#e2b13c"
SKIN = "#f4d3b4"


def num(value: float) -> str:
    """A coordinate with at most one decimal and no trailing zeros (``12.0`` -> ``12``)."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def attrs(**values: str | float | None) -> str:
    """Attribute text; ``stroke_width`` becomes ``stroke-width``; ``None`` values are left out."""
    parts = []
    for key, value in values.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        text = num(value) if isinstance(value, float | int) and not isinstance(value, bool) else str(value)
        parts.append(f"{name}={quoteattr(text)}")
    return " ".join(parts)


def el(tag: str, body: str = "", /, **values: str | float | None) -> str:
    """One element: ``<tag a="..."/>`` or ``<tag a="...">body</tag>``."""
    head = f"{tag} {attrs(**values)}".rstrip()
    return f"<{head}>{body}</{tag}>" if body else f"<{head}/>"


def text(content: str, x: float, y: float, size: float, /, **values: str | float | None) -> str:
    """A ``<text>`` element, centred on ``x`` unless ``text_anchor`` says otherwise."""
    values.setdefault("text_anchor", "middle")
    values.setdefault("font_family", SERIF)
    values.setdefault("font_weight", "bold")
    return el("text", escape(content), x=x, y=y, font_size=size, **values)


def path(d: str, /, **values: str | float | None) -> str:
    """A ``<path>`` element."""
    return el("path", d=d, **values)


def group(body: str, /, **values: str | float | None) -> str:
    """A ``<g>`` element (empty body gives nothing)."""
    return el("g", body, **values) if body else ""


def rotated(body: str) -> str:
    """``body`` turned half round the card's centre: the lower half of a double-headed card."""
    return group(body, transform=f"rotate(180 {num(CX)} {num(CY)})")


def document(title: str, defs: str, body: str) -> str:
    """A standalone SVG card document with the given accessible title."""
    head = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img">'
    defs_text = f"<defs>{defs}</defs>" if defs else ""
    return f"{head}<title>{escape(title)}</title>{defs_text}{body}</svg>"


def outline(fill: str = PAPER, stroke: str = "#8a8378") -> str:
    """The card's rounded outline."""
    return el("rect", x=1, y=1, width=WIDTH - 2, height=HEIGHT - 2, rx=RADIUS, fill=fill, stroke=stroke, stroke_width=2)
