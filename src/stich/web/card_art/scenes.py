"""Genre vignettes for the Industrie und Glück trumps: villages, churches, mills, boats and people.

The Industrie und Glück trumps show two small scenes of everyday life, one
in each half of the card.  These are simple flat drawings in the same
spirit, composed from a few motifs (houses, a church, trees, a mill, a
castle, mountains, water and boats, people, sun, moon, birds).  Every scene
is drawn in a panel of ``PANEL_W`` × ``PANEL_H`` with its ground line near
the bottom; :func:`genre_scene` picks the motifs for a trump number and a
half, so each trump has its own pair of scenes.
"""

from __future__ import annotations

from stich.web.card_art.svg import INK, el, path

PANEL_W = 208
PANEL_H = 112
GROUND = 88
"""The ground line of a scene (y in the panel)."""

_SKIES = ("#cfe6f5", "#f7e3c6", "#dfe9d8", "#e7dcef", "#d6e4f0", "#f5d7c8")
_GRASS = ("#8fbf6a", "#a9c46c", "#7fae5e", "#b7c98a")


def _sky(colour: str) -> str:
    return el("rect", x=0, y=0, width=PANEL_W, height=PANEL_H, fill=colour)


def _ground(colour: str, wave: int) -> str:
    y = GROUND
    return path(f"M0 {y}Q{52 + wave} {y - 8} 104 {y}T208 {y}V112H0Z", fill=colour, stroke="#4d6b34", stroke_width=1.2)


def _hills(wave: int) -> str:
    return path(
        f"M0 {GROUND - 6}Q{40 + wave} {GROUND - 38} 90 {GROUND - 16}Q{140 - wave} {GROUND - 44} 208 {GROUND - 12}V{GROUND}H0Z",
        fill="#b9d3a8",
    )


def _mountains() -> str:
    return path(
        f"M0 {GROUND - 4}L36 30L62 56L96 18L132 58L160 36L208 {GROUND - 8}V{GROUND}H0Z", fill="#9fb3c8", stroke="#5d7087", stroke_width=1.2
    ) + path("M28 38L36 30L44 40L38 37ZM86 28L96 18L106 30L97 26ZM153 42L160 36L168 44L160 41Z", fill="#fff")


def _sun(x: float, y: float) -> str:
    rays = "".join(f"M{x} {y}l{dx} {dy}" for dx, dy in ((0, -16), (11, -11), (16, 0), (11, 11), (0, 16), (-11, 11), (-16, 0), (-11, -11)))
    return path(rays, stroke="#e8a317", stroke_width=2.2) + el(
        "circle", cx=x, cy=y, r=9, fill="#f6c445", stroke="#c98a10", stroke_width=1.2
    )


def _moon(x: float, y: float, r: float = 12) -> str:
    return path(
        f"M{x} {y - r}A{r} {r} 0 1 0 {x} {y + r}A{r * 0.75} {r} 0 1 1 {x} {y - r}Z", fill="#f3e08a", stroke="#b59a2a", stroke_width=1.2
    )


def _stars() -> str:
    return "".join(
        el("circle", cx=x, cy=y, r=1.6, fill="#fff8d0") for x, y in ((20, 14), (50, 30), (150, 12), (182, 32), (120, 22), (80, 10))
    )


def _birds(x: float, y: float) -> str:
    return path(f"M{x} {y}q5-5 10 0q5-5 10 0M{x + 24} {y - 10}q4-4 8 0q4-4 8 0", fill="none", stroke=INK, stroke_width=1.4)


def _house(x: float, wall: str, roof: str, w: int = 34) -> str:
    h = 24
    y = GROUND - h + 2
    return (
        el("rect", x=x, y=y, width=w, height=h, fill=wall, stroke=INK, stroke_width=1.2)
        + path(f"M{x - 4} {y}L{x + w / 2} {y - 18}L{x + w + 4} {y}Z", fill=roof, stroke=INK, stroke_width=1.2)
        + el("rect", x=x + 5, y=y + 6, width=8, height=7, fill="#7fb2d9", stroke=INK, stroke_width=0.8)
        + el("rect", x=x + w - 13, y=y + 10, width=8, height=h - 10, fill="#7a4a26", stroke=INK, stroke_width=0.8)
    )


def _church(x: float) -> str:
    y = GROUND + 2
    return (
        el("rect", x=x, y=y - 26, width=40, height=26, fill="#f1ead8", stroke=INK, stroke_width=1.2)
        + path(f"M{x - 3} {y - 26}L{x + 20} {y - 40}L{x + 43} {y - 26}Z", fill="#a4452f", stroke=INK, stroke_width=1.2)
        + el("rect", x=x + 40, y=y - 52, width=16, height=52, fill="#f1ead8", stroke=INK, stroke_width=1.2)
        + path(f"M{x + 38} {y - 52}L{x + 48} {y - 76}L{x + 58} {y - 52}Z", fill="#5b7a3a", stroke=INK, stroke_width=1.2)
        + path(f"M{x + 48} {y - 76}v-8M{x + 45} {y - 81}h6", stroke=INK, stroke_width=1.4)
        + el("circle", cx=x + 48, cy=y - 42, r=4, fill="#fff", stroke=INK, stroke_width=1)
        + path(f"M{x + 9} {y}v-12a5 5 0 0 1 10 0v12", fill="#7a4a26", stroke=INK, stroke_width=0.8)
    )


def _tree(x: float, fir: bool, size: float = 1.0) -> str:
    y = GROUND + 2
    trunk = el("rect", x=x - 2.5 * size, y=y - 12 * size, width=5 * size, height=12 * size, fill="#7a4a26")
    if fir:
        crown = path(
            f"M{x} {y - 48 * size}L{x + 14 * size} {y - 10 * size}H{x - 14 * size}Z", fill="#2f6b3a", stroke="#1d4526", stroke_width=1
        )
    else:
        crown = el("circle", cx=x, cy=y - 26 * size, r=15 * size, fill="#4f9a45", stroke="#2d5f28", stroke_width=1)
    return trunk + crown


def _mill(x: float) -> str:
    y = GROUND + 2
    cx, cy = x + 14, y - 40
    sails = path(f"M{cx - 24} {cy - 24}L{cx + 24} {cy + 24}M{cx + 24} {cy - 24}L{cx - 24} {cy + 24}", stroke="#6b4a2a", stroke_width=4)
    return (
        path(f"M{x} {y}L{x + 5} {y - 40}H{x + 23}L{x + 28} {y}Z", fill="#e9dcc0", stroke=INK, stroke_width=1.2)
        + path(f"M{x + 3} {y - 40}L{cx} {y - 54}L{x + 25} {y - 40}Z", fill="#a4452f", stroke=INK, stroke_width=1.2)
        + sails
        + el("circle", cx=cx, cy=cy, r=3, fill=INK)
    )


def _castle(x: float) -> str:
    y = GROUND + 2
    battlement = "".join(f"M{x + dx} {y - 50}v-6h6v6" for dx in (0, 12, 58, 70))
    return (
        el("rect", x=x, y=y - 50, width=18, height=50, fill="#c9c0ad", stroke=INK, stroke_width=1.2)
        + el("rect", x=x + 58, y=y - 50, width=18, height=50, fill="#c9c0ad", stroke=INK, stroke_width=1.2)
        + el("rect", x=x + 18, y=y - 34, width=40, height=34, fill="#ddd5c2", stroke=INK, stroke_width=1.2)
        + path(battlement, fill="#c9c0ad", stroke=INK, stroke_width=1)
        + path(f"M{x + 30} {y}v-14a8 8 0 0 1 16 0v14Z", fill="#5a3a22")
        + path(f"M{x + 67} {y - 56}v-16l12 5-12 5", fill="#c8102e", stroke=INK, stroke_width=1)
    )


def _water() -> str:
    return el("rect", x=0, y=GROUND - 4, width=PANEL_W, height=PANEL_H - GROUND + 4, fill="#6fa8d6") + path(
        f"M10 {GROUND + 6}q8-4 16 0M60 {GROUND + 14}q8-4 16 0M120 {GROUND + 8}q8-4 16 0M170 {GROUND + 16}q8-4 16 0",
        fill="none",
        stroke="#e8f3fb",
        stroke_width=1.6,
    )


def _boat(x: float) -> str:
    y = GROUND + 2
    return (
        path(f"M{x} {y - 6}H{x + 50}L{x + 42} {y + 4}H{x + 8}Z", fill="#8a5a35", stroke=INK, stroke_width=1.2)
        + path(f"M{x + 24} {y - 6}V{y - 50}", stroke=INK, stroke_width=1.6)
        + path(f"M{x + 26} {y - 48}L{x + 48} {y - 10}H{x + 26}Z", fill="#fbf6e6", stroke=INK, stroke_width=1)
        + path(f"M{x + 22} {y - 44}L{x + 6} {y - 10}H{x + 22}Z", fill="#e8d9b0", stroke=INK, stroke_width=1)
    )


def person(x: float, coat: str, hat: str, size: float = 1.0, skirt: bool = False) -> str:
    """A small standing figure whose feet are on the ground line at ``x``."""
    y = GROUND + 4
    s = size
    body = (
        path(
            f"M{x - 9 * s} {y - 8 * s}L{x - 6 * s} {y - 30 * s}H{x + 6 * s}L{x + 9 * s} {y - 8 * s}Z", fill=coat, stroke=INK, stroke_width=1
        )
        if not skirt
        else path(
            f"M{x - 13 * s} {y - 4 * s}L{x - 5 * s} {y - 30 * s}H{x + 5 * s}L{x + 13 * s} {y - 4 * s}Z",
            fill=coat,
            stroke=INK,
            stroke_width=1,
        )
    )
    legs = path(f"M{x - 4 * s} {y - 8 * s}V{y}M{x + 4 * s} {y - 8 * s}V{y}", stroke=INK, stroke_width=2.4 * s)
    return (
        legs
        + body
        + el("circle", cx=x, cy=y - 36 * s, r=6 * s, fill="#f4d3b4", stroke=INK, stroke_width=1)
        + path(
            f"M{x - 8 * s} {y - 40 * s}H{x + 8 * s}M{x - 5 * s} {y - 40 * s}V{y - 46 * s}H{x + 5 * s}V{y - 40 * s}",
            stroke=hat,
            stroke_width=2.4 * s,
            fill=hat,
        )
    )


def _fence(x0: float, x1: float) -> str:
    y = GROUND + 4
    posts = "".join(f"M{x} {y}v-14" for x in range(int(x0), int(x1) + 1, 8))
    return path(f"{posts}M{x0} {y - 10}H{x1}M{x0} {y - 4}H{x1}", stroke="#8a5a35", stroke_width=1.6)


def _village(v: int) -> str:
    return (
        _hills(v)
        + _ground(_GRASS[v % 4], v)
        + _house(24, "#f3e6c4", "#a4452f")
        + _church(120 - v)
        + _tree(78, v % 2 == 0)
        + _tree(188, True, 0.8)
    )


def _farm(v: int) -> str:
    return (
        _hills(-v)
        + _ground(_GRASS[(v + 1) % 4], -v)
        + _house(110, "#efe0bd", "#7a5a3a", 44)
        + _fence(20, 100)
        + _tree(180, False)
        + person(60, "#2a4d8f", INK)
    )


def _alps(v: int) -> str:
    return (
        _mountains()
        + _ground(_GRASS[(v + 2) % 4], v)
        + _tree(30, True)
        + _tree(48, True, 0.8)
        + _house(140, "#f3e6c4", "#5a3a22")
        + person(100, "#2f7d3a", "#2f7d3a")
    )


def _lake(v: int) -> str:
    return _hills(v) + _water() + _boat(70 + v) + _tree(20, False, 0.8) + _birds(150, 24)


def _mill_scene(v: int) -> str:
    return (
        _hills(v)
        + _ground(_GRASS[v % 4], v)
        + _mill(40)
        + person(110, "#c8102e", INK, skirt=True)
        + person(134, "#2a4d8f", INK)
        + _tree(180, False)
    )


def _castle_scene(v: int) -> str:
    return _hills(-v) + _ground(_GRASS[(v + 3) % 4], v) + _castle(96) + _tree(40, True) + _tree(64, True, 0.7)


def _dance(v: int) -> str:
    return (
        _ground(_GRASS[(v + 1) % 4], v)
        + _tree(104, False, 1.4)
        + person(56, "#c8102e", INK, skirt=True)
        + person(76, "#2f7d3a", INK)
        + person(140, "#6a3d9a", INK, skirt=True)
        + person(160, "#2a4d8f", INK)
    )


def _market(v: int) -> str:
    awning = path("M40 50H120L112 60H48Z", fill="#c8102e", stroke=INK, stroke_width=1.2) + path(
        "M50 60V90M110 60V90", stroke="#7a4a26", stroke_width=3
    )
    stall = el("rect", x=44, y=72, width=72, height=10, fill="#d9a43a", stroke=INK, stroke_width=1)
    return (
        _ground("#d8c9a3", v)
        + _house(140, "#f3e6c4", "#a4452f")
        + awning
        + stall
        + person(30, "#2a4d8f", INK)
        + person(80, "#6a3d9a", INK, skirt=True)
    )


_SCENES = (_village, _lake, _farm, _alps, _mill_scene, _castle_scene, _dance, _market)


def genre_scene(number: int, lower: bool) -> str:
    """The scene of trump ``number``'s upper or lower half (its own pair of motifs for every trump)."""
    index = number * 2 + (1 if lower else 0)
    v = index % 7
    sky = _SKIES[index % len(_SKIES)]
    if number == 21:
        # The Mond: a night scene with the moon in both halves.
        return _sky("#2c3e66") + _stars() + _moon(160, 30, 16) + _SCENES[index % len(_SCENES)](v)
    scene = _SCENES[(number * 3 + (5 if lower else 0)) % len(_SCENES)]
    extra = _sun(172, 24) if index % 3 == 0 else (_birds(30, 22) if index % 3 == 1 else "")
    return _sky(sky) + extra + scene(v)
