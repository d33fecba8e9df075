"""Doppelkopf's action space.  The integer codes are stable: records and
learned policies depend on them, so new actions are only ever appended.
"""

from __future__ import annotations

from stich.core.game import ActionSpace
from stich.games.doppelkopf.contracts import FACES, N_FACES, SOLO_NAMES

PLAY = 0
"""``play <card>``: codes 0..23, one per face (the copy is chosen by the engine)."""
DISCARD = PLAY + N_FACES
"""``discard <card>``: codes 24..47 (cards handed over in a poverty)."""
GESUND = DISCARD + N_FACES
VORBEHALT = GESUND + 1
PASS = GESUND + 2
HOCHZEIT = GESUND + 3
ARMUT = GESUND + 4
SCHMEISSEN = GESUND + 5
ACCEPT = GESUND + 6
DECLINE = GESUND + 7
ANNOUNCE = GESUND + 8
"""``announce re|kontra|keine90|keine60|keine30|schwarz``: codes ANNOUNCE + 0..5."""
ANNOUNCE_WORDS = ("re", "kontra", "keine90", "keine60", "keine30", "schwarz")
SOLO = ANNOUNCE + len(ANNOUNCE_WORDS)
"""``solo <type>``: one code per game type of :data:`SOLO_NAMES`."""
GENSCHER = SOLO + len(SOLO_NAMES)
"""``genscher <seat>``: codes GENSCHER + 0..4, the partner a Genscher chooses (decision 0025); ``pass`` declines."""
GENSCHER_SEATS = 5
HOCHZEIT_SUITS = ("kreuz", "pik", "herz")
"""Plain suits of a normal game a bride may name (``hochzeit_rule=named_suit``), in suit order C S H."""
HOCHZEIT_SUIT = GENSCHER + GENSCHER_SEATS
"""``hochzeit kreuz|pik|herz``: codes HOCHZEIT_SUIT + 0..2, a wedding whose partner is found in the named suit."""
SCHWEINE = HOCHZEIT_SUIT + len(HOCHZEIT_SUITS)
"""``schweine``: the holder shows his Schweine before one of his cards (``schweine=holder_choice``, decision 0002)."""
KLOPFEN = SCHWEINE + 1
"""``klopfen``: an anonymous raise that names no party (``knocking``, decision 0028)."""

_TEXTS = (
    [f"play {c.text}" for c in FACES]
    + [f"discard {c.text}" for c in FACES]
    + ["gesund", "vorbehalt", "pass", "hochzeit", "armut", "schmeissen", "accept", "decline"]
    + [f"announce {w}" for w in ANNOUNCE_WORDS]
    + [f"solo {name}" for name in SOLO_NAMES]
    + [f"genscher {seat}" for seat in range(GENSCHER_SEATS)]
    + [f"hochzeit {suit}" for suit in HOCHZEIT_SUITS]
    + ["schweine", "klopfen"]
)
ACTIONS = ActionSpace(_TEXTS)
SOLO_CODE = {name: SOLO + i for i, name in enumerate(SOLO_NAMES)}
