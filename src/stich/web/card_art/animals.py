"""Animal vignettes for the Cego trumps, after the animal tarock (Tiertarock) tradition of the Adler-Cego pack.

On the Cego pack trumps 3 to 21 show animals, usually a male in the upper
half and a female or a second pose in the lower half (21: cock and hen);
trump 1 is the *kleiner Mann* and trump 2 a fabulous beast.  These are flat,
simple drawings in a panel of the same size as the genre scenes
(:data:`stich.web.card_art.scenes.PANEL_W` × ``PANEL_H``).
"""

from __future__ import annotations

from collections.abc import Callable

from stich.web.card_art.scenes import GROUND, PANEL_H, PANEL_W, person
from stich.web.card_art.svg import INK, el, path

_BACKDROPS = ("#f8efd9", "#e6f0dc", "#f3e4e4", "#e2ebf3")


def _meadow(colour: str) -> str:
    return el("rect", x=0, y=0, width=PANEL_W, height=PANEL_H, fill=colour) + path(
        f"M0 {GROUND}Q104 {GROUND - 10} 208 {GROUND}V112H0Z", fill="#a9c46c", stroke="#5d7a3a", stroke_width=1.2
    )


def _eye(x: float, y: float, r: float = 2.6) -> str:
    return el("circle", cx=x, cy=y, r=r, fill=INK)


def _rooster(c: str) -> str:
    tail = "".join(
        path(
            f"M78 60Q{40 - k * 6} {20 + k * 10} {52 + k * 4} {78 - k * 2}", fill="none", stroke=col, stroke_width=7, stroke_linecap="round"
        )
        for k, col in enumerate(("#1f5f3a", "#2a4d8f", "#1f5f3a"))
    )
    return (
        tail
        + path("M96 88V100M112 88V100", stroke="#d9a43a", stroke_width=3)
        + el("ellipse", cx=104, cy=72, rx=30, ry=20, fill=c, stroke=INK, stroke_width=1.5)
        + path("M118 62Q126 40 136 34L146 40Q140 56 132 70Z", fill="#d98a2b", stroke=INK, stroke_width=1.5)
        + el("circle", cx=140, cy=36, r=10, fill=c, stroke=INK, stroke_width=1.5)
        + path("M132 27q3-9 6-2q3-9 6-1q4-6 5 3z", fill="#c8102e")
        + path("M149 35l10 3-10 3z", fill="#e8b020", stroke=INK, stroke_width=1)
        + path("M146 44q3 8-2 9q-3-4 0-9z", fill="#c8102e")
        + _eye(143, 34)
    )


def _hen(c: str) -> str:
    return (
        path("M96 86V100M108 86V100", stroke="#d9a43a", stroke_width=3)
        + path("M70 66Q60 46 76 44Q78 56 86 60Z", fill=c, stroke=INK, stroke_width=1.5)
        + el("ellipse", cx=102, cy=72, rx=30, ry=18, fill=c, stroke=INK, stroke_width=1.5)
        + el("circle", cx=132, cy=50, r=10, fill=c, stroke=INK, stroke_width=1.5)
        + path("M126 56Q128 64 124 70", fill="none", stroke=INK, stroke_width=1.5)
        + path("M128 41q3-6 6-1q3-5 5 1z", fill="#c8102e")
        + path("M141 49l8 3-8 3z", fill="#e8b020", stroke=INK, stroke_width=1)
        + path("M90 70q12 8 24 0", fill="none", stroke="#7a4a26", stroke_width=1.5)
        + _eye(135, 48)
    )


def _fish(c: str) -> str:
    return (
        el("rect", x=0, y=0, width=PANEL_W, height=PANEL_H, fill="#cfe4f3")
        + path("M20 96q10-6 20 0t20 0t20 0t20 0t20 0t20 0t20 0t20 0t20 0", fill="none", stroke="#6fa8d6", stroke_width=2)
        + path("M150 56L184 32V80Z", fill=c, stroke=INK, stroke_width=1.5)
        + path("M40 56Q90 14 152 56Q90 98 40 56Z", fill=c, stroke=INK, stroke_width=1.5)
        + path("M96 38q10-14 26-8l-6 12z", fill=c, stroke=INK, stroke_width=1.2)
        + path("M70 46q6 10 0 20M100 48q-4 8 0 16M118 50q-3 6 0 12", fill="none", stroke="#fff", stroke_width=1.4, opacity=0.7)
        + _eye(56, 52, 3)
    )


def _rabbit(c: str) -> str:
    return (
        el("ellipse", cx=96, cy=74, rx=30, ry=18, fill=c, stroke=INK, stroke_width=1.5)
        + el("circle", cx=66, cy=70, r=7, fill="#fff", stroke=INK, stroke_width=1.2)
        + el("ellipse", cx=128, cy=60, rx=15, ry=12, fill=c, stroke=INK, stroke_width=1.5)
        + path("M124 50Q112 18 120 14Q130 20 130 48ZM132 48Q134 16 144 16Q148 24 138 50Z", fill=c, stroke=INK, stroke_width=1.5)
        + path("M80 88l-6 6h14M108 88l4 6h12", fill="none", stroke=INK, stroke_width=1.5)
        + _eye(134, 57)
        + el("circle", cx=142, cy=63, r=2, fill="#c87a7a")
    )


def _deer(c: str, antlers: bool) -> str:
    horns = path(
        "M132 30Q128 12 118 8M130 20L122 16M140 30Q146 12 156 8M142 20L150 16",
        fill="none",
        stroke="#7a4a26",
        stroke_width=3,
        stroke_linecap="round",
    )
    return (
        path("M76 76V102M88 78V102M116 78V102M126 76V102", stroke=c, stroke_width=5)
        + el("ellipse", cx=102, cy=66, rx=34, ry=16, fill=c, stroke=INK, stroke_width=1.5)
        + path("M124 60L132 34L144 36L138 64Z", fill=c, stroke=INK, stroke_width=1.5)
        + path("M130 36Q138 24 150 36L156 46Q150 50 144 46Z", fill=c, stroke=INK, stroke_width=1.5)
        + path("M126 32l-8-8 10 4zM148 32l6-9-2 10z", fill=c, stroke=INK, stroke_width=1)
        + (horns if antlers else "")
        + path("M70 60q-6-4-4 6", fill="none", stroke=INK, stroke_width=1.5)
        + _eye(143, 38)
    )


def _owl(c: str) -> str:
    return (
        path("M20 96Q104 84 190 92", fill="none", stroke="#7a4a26", stroke_width=6, stroke_linecap="round")
        + el("ellipse", cx=104, cy=62, rx=24, ry=30, fill=c, stroke=INK, stroke_width=1.5)
        + path("M82 38L86 22L96 34ZM126 38L122 22L112 34Z", fill=c, stroke=INK, stroke_width=1.2)
        + el("circle", cx=94, cy=48, r=9, fill="#fff8d0", stroke=INK, stroke_width=1.2)
        + el("circle", cx=114, cy=48, r=9, fill="#fff8d0", stroke=INK, stroke_width=1.2)
        + _eye(94, 48, 4)
        + _eye(114, 48, 4)
        + path("M104 54l-4 6h8z", fill="#e8b020")
        + path("M92 70q4 4 8 0M104 76q4 4 8 0M96 82q4 4 8 0", fill="none", stroke="#fff", stroke_width=1.4, opacity=0.7)
        + path("M96 92v6M112 92v6", stroke="#e8b020", stroke_width=3)
    )


def _snail(c: str) -> str:
    spiral = "M112 60m-26 0a26 26 0 1 1 52 0a20 20 0 1 1-40 0a14 14 0 1 1 28 0a8 8 0 1 1-16 0"
    return (
        path("M60 88H156Q168 88 168 78L160 60Q156 52 150 58L148 80H70Z", fill="#d9c29a", stroke=INK, stroke_width=1.5)
        + path("M158 58L162 38M164 60L174 42", stroke=INK, stroke_width=1.5)
        + el("circle", cx=162, cy=37, r=2.5, fill=INK)
        + el("circle", cx=175, cy=41, r=2.5, fill=INK)
        + el("circle", cx=112, cy=60, r=28, fill=c, stroke=INK, stroke_width=1.5)
        + path(spiral, fill="none", stroke="#5a3a22", stroke_width=2)
    )


def _duck(c: str) -> str:
    return (
        el("rect", x=0, y=GROUND - 6, width=PANEL_W, height=PANEL_H - GROUND + 6, fill="#8fc0e0")
        + path("M60 74Q62 96 104 96Q146 96 150 70Q128 80 110 72Q84 60 60 74Z", fill=c, stroke=INK, stroke_width=1.5)
        + path("M132 74Q126 52 136 40", fill="none", stroke=c, stroke_width=12, stroke_linecap="round")
        + el("circle", cx=138, cy=38, r=11, fill=c, stroke=INK, stroke_width=1.5)
        + path("M147 38q12 0 14 4q-8 3-14 2z", fill="#e8a317", stroke=INK, stroke_width=1)
        + path("M84 78q16 8 36 0", fill="none", stroke="#2a4d8f", stroke_width=3)
        + _eye(140, 35)
    )


def _cat(c: str) -> str:
    return (
        path("M74 96Q50 96 46 76Q44 62 56 62", fill="none", stroke=c, stroke_width=8, stroke_linecap="round")
        + path("M78 98Q74 58 104 54Q134 58 130 98Z", fill=c, stroke=INK, stroke_width=1.5)
        + el("circle", cx=104, cy=42, r=17, fill=c, stroke=INK, stroke_width=1.5)
        + path("M90 32L88 14L100 27ZM118 32L120 14L108 27Z", fill=c, stroke=INK, stroke_width=1.2)
        + _eye(97, 40)
        + _eye(111, 40)
        + path("M104 46l-3 3h6zM104 49v3M88 48h-12M88 52l-11 3M120 48h12M120 52l11 3", fill="none", stroke=INK, stroke_width=1)
    )


def _fox(c: str) -> str:
    return (
        path("M70 70Q30 60 26 86Q44 96 76 82Z", fill=c, stroke=INK, stroke_width=1.5)
        + path("M30 84Q28 90 36 92", fill="none", stroke="#fff", stroke_width=4)
        + path("M80 80V100M92 82V100M118 82V100M128 80V100", stroke="#3a2415", stroke_width=4)
        + el("ellipse", cx=104, cy=72, rx=32, ry=14, fill=c, stroke=INK, stroke_width=1.5)
        + path("M128 68L142 44L168 58L144 72Z", fill=c, stroke=INK, stroke_width=1.5)
        + path("M142 44L140 30L152 44ZM150 48L156 34L160 52Z", fill=c, stroke=INK, stroke_width=1.2)
        + el("circle", cx=168, cy=58, r=3, fill=INK)
        + _eye(150, 52)
    )


def _butterfly(c: str) -> str:
    return (
        path("M104 56Q70 10 56 38Q50 60 104 60Z", fill=c, stroke=INK, stroke_width=1.5)
        + path("M104 56Q138 10 152 38Q158 60 104 60Z", fill=c, stroke=INK, stroke_width=1.5)
        + path("M104 62Q74 96 66 80Q62 66 104 62Z", fill="#e8b020", stroke=INK, stroke_width=1.5)
        + path("M104 62Q134 96 142 80Q146 66 104 62Z", fill="#e8b020", stroke=INK, stroke_width=1.5)
        + el("circle", cx=76, cy=38, r=5, fill="#fff")
        + el("circle", cx=132, cy=38, r=5, fill="#fff")
        + el("ellipse", cx=104, cy=60, rx=4, ry=18, fill=INK)
        + path("M102 44Q96 30 90 28M106 44Q112 30 118 28", fill="none", stroke=INK, stroke_width=1.5)
    )


def _sea_lion(c: str) -> str:
    # Trump 2: a fabulous beast, a lion's forepart with a fish's tail.
    return (
        el("rect", x=0, y=GROUND - 6, width=PANEL_W, height=PANEL_H - GROUND + 6, fill="#8fc0e0")
        + path("M110 70Q150 60 170 84Q180 96 196 80L192 104Q176 96 168 100Q150 84 116 90Z", fill="#4f9a8a", stroke=INK, stroke_width=1.5)
        + el("ellipse", cx=100, cy=74, rx=30, ry=18, fill=c, stroke=INK, stroke_width=1.5)
        + el("circle", cx=72, cy=50, r=22, fill="#b5651d", stroke=INK, stroke_width=1.5)
        + el("circle", cx=70, cy=52, r=13, fill=c, stroke=INK, stroke_width=1.2)
        + path("M76 84V100M88 86V100", stroke=c, stroke_width=6)
        + _eye(65, 48)
        + path("M62 58q4 3 8 0", fill="none", stroke=INK, stroke_width=1.5)
    )


def _little_man(lower: bool) -> str:
    # Trump 1: the kleiner Mann, a small Hanswurst figure with his pointed hat.
    hat = path("M96 36L104 8L112 36Z", fill="#c8102e", stroke=INK, stroke_width=1.2) if not lower else ""
    return _meadow(_BACKDROPS[1]) + person(104, "#e8b020", "#c8102e", 1.6, skirt=lower) + hat + person(40, "#2a4d8f", INK, 0.8)


_ANIMALS: tuple[tuple[Callable[[str], str], Callable[[str], str], tuple[str, str]], ...] = (
    (_rabbit, _rabbit, ("#b08a64", "#d8c2a8")),
    (_fish, _fish, ("#6f8fae", "#c4933a")),
    (lambda c: _deer(c, True), lambda c: _deer(c, False), ("#a0682f", "#b98550")),
    (_owl, _owl, ("#8a6a4a", "#b0a08a")),
    (_snail, _snail, ("#c4933a", "#a86b3c")),
    (_duck, _duck, ("#f4f1e8", "#b08a64")),
    (_cat, _cat, ("#8f8f8f", "#e0a060")),
    (_fox, _fox, ("#d2691e", "#c0702a")),
    (_butterfly, _butterfly, ("#d9534f", "#6a8fd6")),
)


def animal_scene(number: int, lower: bool) -> str:
    """The vignette of Cego trump ``number`` (1..21) in its upper or lower half."""
    if number == 1:
        return _little_man(lower)
    backdrop = _BACKDROPS[(number + (1 if lower else 0)) % len(_BACKDROPS)]
    if number == 2:
        return _meadow(backdrop) + _sea_lion("#d9a43a" if not lower else "#c99a5a")
    if number == 21:
        return _meadow(backdrop) + (_hen("#c0702a") if lower else _rooster("#e8e0d0"))
    male, female, (c_male, c_female) = _ANIMALS[(number - 3) % len(_ANIMALS)]
    if number >= 3 + len(_ANIMALS):
        c_male, c_female = c_female, c_male
    drawing = female(c_female) if lower else male(c_male)
    return _meadow(backdrop) + drawing
