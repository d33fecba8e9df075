"""Tarock trumps and the Fool, in the Industrie und Glück style and in the Cego (animal tarock) style.

*Industrie und Glück* (the Austrian tarock pack of Tapp Tarock): a large
Roman numeral at the top and, turned round, at the bottom, and two genre
scenes, one per half.  *Cego*: the number in Arabic figures in a pink box at
the top, and animals in both halves (trump 1 the kleiner Mann, 2 a fabulous
beast, 21 cock and hen).  In both packs the corner index is the trump's
number in white (or dark) on a solid badge, so that a trump is told from a
suit card of the same number at a glance.  The Fool (``T22``: Sküs in Tapp
Tarock, Gstieß in Cego and Droggn) has no number: a jester musician fills
the card, and the badge shows a fool's cap.
"""

from __future__ import annotations

from dataclasses import dataclass

from stich.web.card_art.animals import animal_scene
from stich.web.card_art.faces import INDEX_X
from stich.web.card_art.scenes import PANEL_H, PANEL_W, genre_scene
from stich.web.card_art.svg import CX, GOLD, INK, PAPER, SKIN, el, group, path, rotated, text

PANEL_X = 16
PANEL_Y = 60


@dataclass(frozen=True)
class TrumpStyle:
    """Colours of one pack's trumps."""

    name: str
    badge: str
    badge_ink: str
    frame: str
    fool_ground: str
    fool_colours: tuple[str, str, str]


INDUSTRIE = TrumpStyle("tarock", "#2d2440", "#ffffff", "#2d2440", "#f3ead2", ("#c8102e", "#e8b020", "#2a4d8f"))
CEGO = TrumpStyle("cego", "#e58aa5", "#1b1b1b", "#8c3a55", "#f6e6ea", ("#2f7d3a", "#e8b020", "#c8102e"))


def roman(number: int) -> str:
    """``number`` (1..3999) in Roman numerals: ``21`` -> ``XXI``."""
    if not 1 <= number <= 3999:
        raise ValueError(f"no Roman numeral for {number}")
    out = []
    for value, letters in (
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        while number >= value:
            out.append(letters)
            number -= value
    return "".join(out)


def _badge(style: TrumpStyle) -> str:
    return el("rect", x=6, y=6, width=50, height=54, rx=8, fill=style.badge)


def number_index(style: TrumpStyle, number: int) -> str:
    """The corner index of a numbered trump: its number in Arabic figures on a badge."""
    label = str(number)
    squeeze: dict[str, str | float | None] = {"textLength": 42, "lengthAdjust": "spacingAndGlyphs"} if len(label) > 1 else {}
    return _badge(style) + text(label, INDEX_X, 47, 38, fill=style.badge_ink, **squeeze)


FOOL_CAP = "M-21 12Q-25-6-36-16Q-18-14-9 0Q-7-22 0-32Q7-22 9 0Q18-14 36-16Q25-6 21 12Z"


def fool_cap(x: float, y: float, scale: float, colours: tuple[str, str, str]) -> str:
    """A fool's cap with three bells, centred on ``(x, y)``: the sign of the Sküs / Gstieß."""
    bells = "".join(
        el("circle", cx=bx, cy=by, r=5.5, fill=GOLD, stroke=INK, stroke_width=1.5) for bx, by in ((-36, -16), (0, -32), (36, -16))
    )
    body = (
        path(FOOL_CAP, fill=colours[0], stroke=INK, stroke_width=2)
        + path("M0-32Q-7-22-9 0L9 0Q7-22 0-32Z", fill=colours[1])
        + el("rect", x=-23, y=8, width=46, height=9, rx=3, fill=colours[2], stroke=INK, stroke_width=1.5)
        + bells
    )
    return el("g", body, transform=f"translate({x:g} {y:g}) scale({scale:g})")


def fool_index(style: TrumpStyle) -> str:
    """The corner index of the Fool: the fool's cap on the badge."""
    return el("rect", x=2, y=2, width=58, height=62, rx=10, fill=PAPER) + _badge(style) + fool_cap(INDEX_X, 36, 0.62, style.fool_colours)


def _panel(body: str, clip_id: str, style: TrumpStyle) -> str:
    return group(body, clip_path=f"url(#{clip_id})", transform=f"translate({PANEL_X} {PANEL_Y})") + el(
        "rect", x=PANEL_X, y=PANEL_Y, width=PANEL_W, height=PANEL_H, rx=6, fill="none", stroke=style.frame, stroke_width=2.5
    )


def trump_body(style: TrumpStyle, number: int, uid: str) -> str:
    """The picture of numbered trump ``number`` (1..21): numerals and the two vignettes."""
    clip_id = uid + "c"
    clip = el("clipPath", el("rect", width=PANEL_W, height=PANEL_H, rx=6), id=clip_id)
    scene = animal_scene if style is CEGO else genre_scene
    if style is CEGO:
        head = el("rect", x=CX - 34, y=12, width=68, height=42, rx=6, fill="#f6c3d2", stroke=style.frame, stroke_width=2) + text(
            str(number), CX, 46, 32, fill=INK, font_family="Georgia,serif"
        )
    else:
        label = roman(number)
        squeeze: dict[str, str | float | None] = {"textLength": 108, "lengthAdjust": "spacingAndGlyphs"} if len(label) > 4 else {}
        head = text(label, CX, 50, 40, fill=style.badge, **squeeze)
    upper = head + _panel(scene(number, False), clip_id, style)
    lower = head + _panel(scene(number, True), clip_id, style)
    ornament = el("path", d="M40 180H200M112 180l8-5 8 5-8 5z", stroke=style.frame, stroke_width=1.6, fill=GOLD)
    return clip + upper + rotated(lower) + ornament


def _jester(colours: tuple[str, str, str], lute: bool) -> str:
    red, yellow, blue = colours
    x = CX
    legs = (
        path(f"M{x - 22} 250L{x - 26} 318H{x - 10}L{x - 4} 250Z", fill=red, stroke=INK, stroke_width=1.8)
        + path(f"M{x + 4} 250L{x + 10} 318H{x + 26}L{x + 22} 250Z", fill=blue, stroke=INK, stroke_width=1.8)
        + path(
            f"M{x - 26} 318Q{x - 44} 318 {x - 46} 308L{x - 10} 318ZM{x + 26} 318Q{x + 44} 318 {x + 46} 308L{x + 10} 318Z",
            fill=yellow,
            stroke=INK,
            stroke_width=1.5,
        )
    )
    tunic = path(f"M{x - 30} 150H{x + 30}L{x + 40} 258H{x - 40}Z", fill=yellow, stroke=INK, stroke_width=2)
    diamonds = "".join(
        path(f"M{x + dx} {y - 12}l9 12-9 12-9-12z", fill=red if (i + j) % 2 else blue)
        for j, y in enumerate((176, 204, 232))
        for i, dx in enumerate((-20, 0, 20))
    )
    belt = el("rect", x=x - 34, y=214, width=68, height=8, fill=INK)
    ruff = path(
        f"M{x - 32} 148" + "".join(f"l8 {8 if k % 2 == 0 else -8}" for k in range(8)) + f"L{x + 32} 144Q{x} 132 {x - 32} 148Z",
        fill="#fbf6e6",
        stroke=INK,
        stroke_width=1.5,
    )
    head = (
        el("circle", cx=x, cy=118, r=20, fill=SKIN, stroke="#7a5a40", stroke_width=1.5)
        + path(f"M{x - 9} 116h5M{x + 4} 116h5", stroke=INK, stroke_width=2.4, stroke_linecap="round")
        + path(f"M{x - 8} 126q8 7 16 0", fill="none", stroke="#a0403a", stroke_width=2, stroke_linecap="round")
        + el("circle", cx=x - 11, cy=123, r=3, fill="#e88a8a", opacity=0.7)
        + el("circle", cx=x + 11, cy=123, r=3, fill="#e88a8a", opacity=0.7)
    )
    cap = fool_cap(x, 88, 1.25, colours)
    if lute:
        instrument = (
            path(f"M{x - 6} 206L{x + 56} 150", stroke="#5a3a22", stroke_width=6, stroke_linecap="round")
            + el(
                "ellipse",
                cx=x - 14,
                cy=214,
                rx=26,
                ry=20,
                fill="#b5651d",
                stroke=INK,
                stroke_width=2,
                transform=f"rotate(-40 {x - 14} 214)",
            )
            + el("circle", cx=x - 10, cy=210, r=5, fill=INK)
            + path(f"M{x + 52} 146l10-8 4 6-10 8z", fill="#5a3a22")
        )
    else:
        instrument = (
            el("rect", x=x - 30, y=200, width=60, height=34, rx=4, fill=red, stroke=INK, stroke_width=2)
            + el("ellipse", cx=x, cy=200, rx=30, ry=7, fill="#f3ead2", stroke=INK, stroke_width=2)
            + path(f"M{x - 26} 206L{x + 26} 230M{x + 26} 206L{x - 26} 230", stroke=GOLD, stroke_width=2)
            + path(f"M{x - 40} 170L{x - 8} 196M{x + 40} 170L{x + 10} 194", stroke="#5a3a22", stroke_width=4, stroke_linecap="round")
        )
    arms = path(
        f"M{x - 30} 160Q{x - 46} 186 {x - 20} 206M{x + 30} 160Q{x + 48} 170 {x + 40} 190",
        fill="none",
        stroke=red,
        stroke_width=10,
        stroke_linecap="round",
    )
    return legs + tunic + diamonds + belt + arms + ruff + head + cap + instrument


def fool_body(style: TrumpStyle) -> str:
    """The picture of the Fool: a jester musician (with a lute in the tarock pack, a drum in the Cego pack) on a starry ground."""
    frame = el("rect", x=16, y=16, width=208, height=328, rx=10, fill=style.fool_ground, stroke=style.frame, stroke_width=3)
    stars = "".join(
        path(f"M{sx} {sy - 7}l2 5 5 2-5 2-2 5-2-5-5-2 5-2z", fill=GOLD, opacity=0.8)
        for sx, sy in ((76, 40), (186, 60), (200, 120), (40, 150), (204, 230), (60, 300), (184, 300), (36, 230), (150, 30))
    )
    return frame + stars + _jester(style.fool_colours, style is INDUSTRIE)
