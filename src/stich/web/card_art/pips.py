"""Where the pips of a number card go.

French-suited number cards (also the suit cards of the tarock and Cego packs)
use the classic three-column layouts every card player knows: a ten has two
columns of four and two pips in the middle column, a seven has its odd pip
in the upper half, and pips in the lower half stand upside down.  German
packs put their pips in two columns, odd ones in the middle (the Bavarian
and Tell layouts).  Positions are card coordinates in the 240 × 360 viewBox;
the corner indices keep the strips ``x < 58`` (top) and ``x > 182``
(bottom) free.
"""

from __future__ import annotations

Pip = tuple[float, float, bool]
"""``(x, y, upside_down)`` of one pip."""
FRENCH_PIP = 42
GERMAN_PIP = 44
"""Pip sizes: the layouts below keep pips of these sizes apart and clear of the corner indices."""

_LEFT, _MID, _RIGHT = 80.0, 120.0, 160.0
_TOP, _BOTTOM = 68.0, 292.0


def _row(i: float) -> float:
    """The y of row ``i`` of 6 equal steps between the top and the bottom pip row."""
    return _TOP + (_BOTTOM - _TOP) * i / 6


def french_pips(count: int) -> list[Pip]:
    """Pip positions of a French-suited number card with ``count`` pips (1..10)."""
    if not 1 <= count <= 10:
        raise ValueError(f"a number card has 1..10 pips, not {count}")
    sides: list[float] = []
    middle: list[float] = []
    if count == 1:
        middle = [3]
    elif count == 2:
        middle = [0, 6]
    elif count == 3:
        middle = [0, 3, 6]
    elif count <= 5:
        sides = [0, 6]
        middle = [3] if count == 5 else []
    elif count <= 8:
        sides = [0, 3, 6]
        middle = {6: [], 7: [1.5], 8: [1.5, 4.5]}[count]
    else:
        sides = [0, 2, 4, 6]
        middle = [3] if count == 9 else [1, 5]
    pips = [(x, _row(i), i > 3) for i in sides for x in (_LEFT, _RIGHT)]
    pips += [(_MID, _row(i), i > 3) for i in middle]
    return pips


_G_LEFT, _G_RIGHT = 88.0, 152.0
_G_TOP, _G_BOTTOM = 74.0, 286.0


def german_pips(count: int) -> list[Pip]:
    """Pip positions of a German-suited number card with ``count`` pips (2..10): two columns, odd pips between."""
    if not 2 <= count <= 10:
        raise ValueError(f"a German number card has 2..10 pips, not {count}")
    rows = {2: 1, 3: 1, 4: 2, 5: 2, 6: 3, 7: 3, 8: 4, 9: 4, 10: 4}[count]
    step = (_G_BOTTOM - _G_TOP) / max(rows - 1, 1)
    ys = [(_G_TOP + _G_BOTTOM) / 2] if rows == 1 else [_G_TOP + step * k for k in range(rows)]
    pips: list[Pip] = [(x, y, False) for y in ys for x in (_G_LEFT, _G_RIGHT)]
    mid_x = (_G_LEFT + _G_RIGHT) / 2
    if count == 2:
        pips = [(mid_x, _G_TOP + 30, False), (mid_x, _G_BOTTOM - 30, False)]
    elif count == 3:
        pips = [(mid_x, y, False) for y in (_G_TOP + 10, (_G_TOP + _G_BOTTOM) / 2, _G_BOTTOM - 10)]
    elif count == 10:
        third = (_G_BOTTOM - _G_TOP) / 6
        pips += [(mid_x, _G_TOP + third, False), (mid_x, _G_BOTTOM - third, False)]
    elif count % 2:
        pips.append((mid_x, (ys[0] + ys[1]) / 2 if count == 7 else (_G_TOP + _G_BOTTOM) / 2, False))
    return pips
