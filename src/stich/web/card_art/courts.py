"""Court cards: stylised double-headed busts of kings, queens, cavaliers, jacks, Obers and Unters.

One half-figure is drawn in the card's upper half (y 0..180) and repeated
turned round for the lower half, as on the double-headed packs these games
are played with.  Each rank has its own headgear and attribute so that the
courts can be told apart at a glance, not only by the index:

* king: crown, beard, sceptre;  queen: long hair, tiara, a flower;
* jack (Bube): feathered cap, halberd;  cavalier (Reiter): plumed helmet and
  his horse's head;
* Ober: broad hat, his suit sign held up high;  Unter: cap, the sign held low.

The robe colour belongs to the rank, the front panel changes with the suit.
The top-left strip (``x < 60``, ``y < 102``) stays free for the corner index.
"""

from __future__ import annotations

from dataclasses import dataclass

from stich.web.card_art.svg import GOLD, INK, SKIN, el, path

FX = 132
"""Centre line of the figure: right of the middle, clear of the corner index."""
HEAD_Y = 74


@dataclass(frozen=True)
class CourtColours:
    """Colours of one pack's court cards: robes per rank, front panels per suit, the frame."""

    robes: dict[str, str]
    panels: tuple[str, str, str, str]
    frame: str
    ground: str
    hair: str
    queen_hair: str


def _face() -> str:
    return (
        el("rect", x=FX - 7, y=HEAD_Y + 14, width=14, height=14, fill=SKIN)
        + el("circle", cx=FX, cy=HEAD_Y, r=19, fill=SKIN, stroke="#7a5a40", stroke_width=1.5)
        + el("circle", cx=FX - 7, cy=HEAD_Y - 2, r=2.2, fill=INK)
        + el("circle", cx=FX + 7, cy=HEAD_Y - 2, r=2.2, fill=INK)
        + path(f"M{FX - 11} {HEAD_Y - 7}q4-3 8 0M{FX + 3} {HEAD_Y - 7}q4-3 8 0", fill="none", stroke="#5a3a22", stroke_width=1.4)
        + path(f"M{FX} {HEAD_Y}l-2 6h3", fill="none", stroke="#9a6a4a", stroke_width=1.4)
        + path(f"M{FX - 5} {HEAD_Y + 10}q5 3 10 0", fill="none", stroke="#a0403a", stroke_width=2, stroke_linecap="round")
    )


def _body(robe: str, panel: str, collar: str, ermine: bool) -> str:
    shoulders = f"M{FX - 64} 180V136Q{FX - 60} 107 {FX - 26} 101H{FX + 26}Q{FX + 60} 107 {FX + 64} 136V180Z"
    front = f"M{FX - 16} 101H{FX + 16}L{FX + 24} 180H{FX - 24}Z"
    out = path(shoulders, fill=robe, stroke=INK, stroke_width=2)
    out += path(front, fill=panel, stroke=INK, stroke_width=1.5)
    out += path(f"M{FX - 20} 140H{FX + 20}M{FX - 22} 160H{FX + 22}", stroke=GOLD, stroke_width=3)
    out += path(
        f"M{FX - 58} 150Q{FX - 44} 140 {FX - 30} 150M{FX + 30} 150Q{FX + 44} 140 {FX + 58} 150", fill="none", stroke=GOLD, stroke_width=3
    )
    out += el("ellipse", cx=FX, cy=102, rx=27, ry=8, fill=collar, stroke=INK, stroke_width=1.5)
    if ermine:
        out += path(f"M{FX - 16} 101v3M{FX - 5} 103v3M{FX + 6} 103v3M{FX + 17} 101v3", stroke=INK, stroke_width=2.5)
    return out


def _crown(hair: str) -> str:
    crown = f"M{FX - 21} 60L{FX - 24} 34L{FX - 12} 47L{FX} 28L{FX + 12} 47L{FX + 24} 34L{FX + 21} 60Z"
    beard = f"M{FX - 19} {HEAD_Y + 2}Q{FX - 18} {HEAD_Y + 34} {FX} {HEAD_Y + 36}Q{FX + 18} {HEAD_Y + 34} {FX + 19} {HEAD_Y + 2}"
    beard += f"Q{FX + 10} {HEAD_Y + 16} {FX} {HEAD_Y + 14}Q{FX - 10} {HEAD_Y + 16} {FX - 19} {HEAD_Y + 2}Z"
    return (
        path(beard, fill=hair, stroke=INK, stroke_width=1.2)
        + path(crown, fill=GOLD, stroke=INK, stroke_width=2)
        + el("circle", cx=FX, cy=52, r=3.5, fill="#c8102e")
        + el("circle", cx=FX - 13, cy=54, r=2.5, fill="#2a4d8f")
        + el("circle", cx=FX + 13, cy=54, r=2.5, fill="#2a4d8f")
    )


def _queen_hair(hair: str) -> str:
    return path(
        f"M{FX - 21} {HEAD_Y}Q{FX - 28} {HEAD_Y + 30} {FX - 36} {HEAD_Y + 36}H{FX + 36}Q{FX + 28} {HEAD_Y + 30} {FX + 21} {HEAD_Y}"
        f"Q{FX + 20} {HEAD_Y - 26} {FX} {HEAD_Y - 24}Q{FX - 20} {HEAD_Y - 26} {FX - 21} {HEAD_Y}Z",
        fill=hair,
        stroke=INK,
        stroke_width=1.5,
    )


def _tiara() -> str:
    return path(
        f"M{FX - 16} {HEAD_Y - 15}Q{FX} {HEAD_Y - 26} {FX + 16} {HEAD_Y - 15}"
        f"L{FX + 8} {HEAD_Y - 30}L{FX} {HEAD_Y - 22}L{FX - 8} {HEAD_Y - 30}Z",
        fill=GOLD,
        stroke=INK,
        stroke_width=1.5,
    )


def _fringe(hair: str) -> str:
    return path(
        f"M{FX - 19} {HEAD_Y - 2}Q{FX - 20} {HEAD_Y - 21} {FX} {HEAD_Y - 21}"
        f"Q{FX + 20} {HEAD_Y - 21} {FX + 19} {HEAD_Y - 2}Q{FX} {HEAD_Y - 12} {FX - 19} {HEAD_Y - 2}Z",
        fill=hair,
    )


def _cap(colour: str, feather: str) -> str:
    return path(
        f"M{FX + 8} {HEAD_Y - 20}Q{FX + 30} {HEAD_Y - 50} {FX + 44} {HEAD_Y - 44}Q{FX + 30} {HEAD_Y - 34} {FX + 14} {HEAD_Y - 16}Z",
        fill=feather,
        stroke=INK,
        stroke_width=1.2,
    ) + el(
        "ellipse",
        cx=FX - 2,
        cy=HEAD_Y - 18,
        rx=26,
        ry=9,
        fill=colour,
        stroke=INK,
        stroke_width=1.5,
        transform=f"rotate(-8 {FX} {HEAD_Y - 18})",
    )


def _broad_hat(colour: str, feather: str) -> str:
    return (
        path(
            f"M{FX - 16} {HEAD_Y - 18}Q{FX - 14} {HEAD_Y - 40} {FX} {HEAD_Y - 40}Q{FX + 14} {HEAD_Y - 40} {FX + 16} {HEAD_Y - 18}Z",
            fill=colour,
            stroke=INK,
            stroke_width=1.5,
        )
        + path(
            f"M{FX - 12} {HEAD_Y - 34}Q{FX - 40} {HEAD_Y - 60} {FX - 46} {HEAD_Y - 40}Q{FX - 30} {HEAD_Y - 40} {FX - 12} {HEAD_Y - 28}Z",
            fill=feather,
            stroke=INK,
            stroke_width=1.2,
        )
        + el("ellipse", cx=FX, cy=HEAD_Y - 17, rx=34, ry=7, fill=colour, stroke=INK, stroke_width=1.5)
        + path(f"M{FX - 15} {HEAD_Y - 24}H{FX + 15}", stroke=GOLD, stroke_width=3)
    )


def _helmet(plume: str) -> str:
    return (
        path(
            f"M{FX - 4} {HEAD_Y - 34}Q{FX + 20} {HEAD_Y - 62} {FX + 46} {HEAD_Y - 40}Q{FX + 24} {HEAD_Y - 40} {FX + 8} {HEAD_Y - 28}Z",
            fill=plume,
            stroke=INK,
            stroke_width=1.2,
        )
        + path(
            f"M{FX - 21} {HEAD_Y - 2}Q{FX - 22} {HEAD_Y - 34} {FX} {HEAD_Y - 34}Q{FX + 22} {HEAD_Y - 34} {FX + 21} {HEAD_Y - 2}"
            f"L{FX + 14} {HEAD_Y - 6}Q{FX} {HEAD_Y - 12} {FX - 14} {HEAD_Y - 6}Z",
            fill="#c9ced6",
            stroke=INK,
            stroke_width=1.8,
        )
        + path(f"M{FX} {HEAD_Y - 34}V{HEAD_Y - 10}", stroke="#7d8590", stroke_width=3)
    )


def _moustache(hair: str) -> str:
    return path(
        f"M{FX - 11} {HEAD_Y + 8}Q{FX} {HEAD_Y + 2} {FX + 11} {HEAD_Y + 8}Q{FX} {HEAD_Y + 6} {FX - 11} {HEAD_Y + 8}Z",
        fill=hair,
        stroke=hair,
        stroke_width=2,
    )


def _hand(x: float, y: float) -> str:
    return el("circle", cx=x, cy=y, r=6.5, fill=SKIN, stroke="#7a5a40", stroke_width=1.2)


def _sceptre() -> str:
    x = FX - 46
    return (
        path(f"M{x} 62V178", stroke=GOLD, stroke_width=5)
        + el("circle", cx=x, cy=56, r=8, fill=GOLD, stroke=INK, stroke_width=1.5)
        + path(f"M{x} 45v6M{x - 3} 48h6", stroke=INK, stroke_width=1.8)
        + _hand(x, 146)
    )


def _necklace() -> str:
    return path(f"M{FX - 18} 106Q{FX} 124 {FX + 18} 106", fill="none", stroke=GOLD, stroke_width=2.5) + el(
        "circle", cx=FX, cy=116, r=4, fill="#c8102e", stroke=GOLD, stroke_width=1.5
    )


def _lips() -> str:
    return path(f"M{FX - 5} {HEAD_Y + 10}q5 4 10 0q-5-2-10 0z", fill="#c8102e")


def _flower() -> str:
    x = FX - 44
    return (
        path(f"M{x + 8} 176Q{x} 150 {x} 126", fill="none", stroke="#2f7d3a", stroke_width=3)
        + path(f"M{x} 146q-12-4-14 4q8 4 14-4Z", fill="#2f7d3a")
        + el("circle", cx=x, cy=120, r=9, fill="#c8102e", stroke=INK, stroke_width=1.2)
        + el("circle", cx=x, cy=120, r=3.5, fill=GOLD)
        + _hand(x + 2, 150)
    )


def _halberd() -> str:
    x = FX - 48
    return (
        path(f"M{x} 40V178", stroke="#7a5230", stroke_width=4)
        + path(f"M{x} 40l-6 14h-12q4 10 14 12l4-4zM{x} 28l-4 12h8z", fill="#c9ced6", stroke=INK, stroke_width=1.5)
        + _hand(x, 140)
    )


def _horse(colour: str, mane: str) -> str:
    # Head and neck of the cavalier's horse, facing left, in front of the rider.
    head = "M60 180L58 142Q58 118 46 110L45 101L40 108L34 103L33 112Q22 118 15 134Q12 142 19 145L28 143Q34 141 38 136L42 150L38 180Z"
    return group_translate(
        path(head, fill=colour, stroke=INK, stroke_width=2)
        + path("M45 104Q62 116 62 150L60 180", fill="none", stroke=mane, stroke_width=6, stroke_linecap="round")
        + el("circle", cx=35, cy=121, r=2.6, fill=INK)
        + path("M20 136q3 2 6 0", stroke=INK, stroke_width=1.5, fill="none")
        + path("M40 146L24 134", stroke="#7a5230", stroke_width=2.5),
        FX - 84,
        0,
    )


def group_translate(body: str, dx: float, dy: float) -> str:
    """``body`` moved by ``(dx, dy)``."""
    return el("g", body, transform=f"translate({dx} {dy})")


def court_half(kind: str, colours: CourtColours, suit_index: int, sign: str) -> str:
    """The upper half-figure of a court card of ``kind`` (king, queen, cavalier, jack, ober, unter).

    ``sign`` is the suit sign the figure carries (a ``<use>`` element placed by the caller's coordinates
    convention: it is drawn as given, so the caller decides where it sits for each kind, see :func:`sign_spot`).
    """
    robe = colours.robes[kind]
    panel = colours.panels[suit_index]
    hair = colours.hair
    behind = ""
    head = ""
    front = ""
    collar = "#f7f3ea"
    ermine = False
    if kind == "king":
        head = _crown("#d9d4c7" if suit_index % 2 else hair)
        front = _sceptre()
        ermine = True
    elif kind == "queen":
        behind = _queen_hair(colours.queen_hair)
        head = _fringe(colours.queen_hair) + _tiara() + _lips()
        front = _flower() + _necklace()
    elif kind == "jack":
        head = _fringe(hair) + _cap(panel, "#f7f3ea")
        front = _halberd()
        collar = GOLD
    elif kind == "cavalier":
        head = _helmet(panel)
        front = _horse("#f0e6d2" if suit_index % 2 else "#8a5a35", INK if suit_index % 2 else "#3a2415")
        collar = "#c9ced6"
    elif kind == "ober":
        head = _moustache(hair) + _broad_hat(robe, panel)
        front = path(f"M{FX + 40} 118L{FX + 54} 72", stroke=robe, stroke_width=9, stroke_linecap="round") + _hand(FX + 55, 70)
    elif kind == "unter":
        head = _fringe(hair) + _cap(robe, panel)
        front = path(f"M{FX + 38} 120L{FX + 50} 146", stroke=robe, stroke_width=9, stroke_linecap="round") + _hand(FX + 50, 146)
    else:
        raise ValueError(f"no court figure {kind!r}")
    return behind + _body(robe, panel, collar, ermine) + _face() + head + front + sign


def sign_spot(kind: str) -> tuple[float, float, float]:
    """Where a court's suit sign sits in the upper half: ``(x, y, size)``.

    The Ober holds his sign up high, the Unter low at his side; French and
    tarock courts show it beside the head, as the French pattern does.
    """
    if kind == "ober":
        return FX + 56, 52, 38
    if kind == "unter":
        return FX + 52, 164, 34
    return 196, 40, 34
