"""Card backs: one per pack, a repeating pattern inside a white margin.

Each back is a small ``<pattern>`` tile filling the card, so a back costs
well under a kilobyte.  The four packs get visibly different backs (blue
lattice, green German rosettes, red tarock diamonds, rose Cego dots) so that
a player can tell at a glance which pack is on the table.
"""

from __future__ import annotations

from stich.web.card_art.svg import GOLD, el, outline, path

_TILES: dict[str, tuple[str, str, str]] = {
    "french": ("#23407a", "#ffffff", "M0 0L12 12L24 0M0 24L12 12L24 24"),
    "german": ("#1f5f3a", "#e9d48a", "M12 2a10 10 0 1 0 0.1 0M12 7a5 5 0 1 0 0.1 0"),
    "tarock": ("#8c1d2c", "#f1c66a", "M12 0L24 12L12 24L0 12ZM12 8L16 12L12 16L8 12Z"),
    "cego": ("#8c3a55", "#f6c3d2", "M6 6m-3 0a3 3 0 1 0 6 0a3 3 0 1 0-6 0M18 18m-3 0a3 3 0 1 0 6 0a3 3 0 1 0-6 0"),
}


def back_body(pack: str, uid: str) -> str:
    """The back of ``pack``'s cards (``uid`` keeps the pattern id unique in a page that inlines several cards)."""
    ground, ink, tile = _TILES[pack]
    pattern_id = uid + "p"
    pattern = el(
        "pattern",
        el("rect", width=24, height=24, fill=ground) + path(tile, fill="none", stroke=ink, stroke_width=1.6, opacity=0.75),
        id=pattern_id,
        width=24,
        height=24,
        patternUnits="userSpaceOnUse",
    )
    medallion = el("ellipse", cx=120, cy=180, rx=46, ry=62, fill=ground, stroke=GOLD, stroke_width=4) + el(
        "ellipse", cx=120, cy=180, rx=36, ry=52, fill="none", stroke=ink, stroke_width=2
    )
    star = path("M120 146L128 170L152 180L128 190L120 214L112 190L88 180L112 170Z", fill=ink, opacity=0.9)
    return (
        pattern
        + outline("#ffffff")
        + el("rect", x=12, y=12, width=216, height=336, rx=8, fill=f"url(#{pattern_id})", stroke=ground, stroke_width=2)
        + medallion
        + star
    )
