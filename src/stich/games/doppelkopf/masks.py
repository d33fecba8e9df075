"""Faces and physical-card masks of Doppelkopf: which faces a hand holds, their codes, how many copies.

A hand is a mask of physical cards (``copy * 24 + face``, two copies of each
of the 24 faces); most rules ask only which faces it holds.  These helpers
are :mod:`stich.games.doppelkopf.state`'s, which also makes them importable
under its name, as before they moved here.
"""

from __future__ import annotations

from stich.games.doppelkopf.contracts import FACE_MASK, N_FACES


def _face_table(offset: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(offset + i for i in range(12) if m >> i & 1) for m in range(1 << 12))


LOW_FACES = _face_table(0)
"""The faces (0-11) of each 12-bit mask of the lower faces, ascending."""
HIGH_FACES = _face_table(12)
"""The faces (12-23) of each 12-bit mask of the upper faces, ascending."""


def faces_of(mask: int) -> int:
    """Faces present in a physical-card mask."""
    return (mask | mask >> N_FACES) & FACE_MASK


def face_codes(faces: int, base: int = 0) -> list[int]:
    """Face indices of a face mask (plus ``base``), ascending."""
    if base:
        return [base + f for f in LOW_FACES[faces & 0xFFF] + HIGH_FACES[faces >> 12]]
    return list(LOW_FACES[faces & 0xFFF] + HIGH_FACES[faces >> 12])


def count_face(mask: int, f: int) -> int:
    """How many copies of face ``f`` a physical mask holds."""
    return (mask >> f & 1) + (mask >> (f + N_FACES) & 1)
