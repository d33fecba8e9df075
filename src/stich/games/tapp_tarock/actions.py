"""Tapp Tarock's action space.  The integer codes are stable: records and
learned policies depend on them, so new actions are only ever appended.
"""

from __future__ import annotations

from stich.core.game import ActionSpace
from stich.games.tapp_tarock.pack import CONTRACTS, FACES, HALVES, ITEMS, N_FACES

PLAY = 0
"""``play <card>``: codes 0..53, one per face."""
DISCARD = PLAY + N_FACES
"""``discard <card>``: codes 54..107 (the declarer's three discards, one at a time)."""
PASS = DISCARD + N_FACES
"""``pass``: in the bidding "ich passe"; after announcing "ich liege"; a defender's "gut"."""
BID = PASS + 1
"""``bid dreier|unterer|oberer|solo``: codes BID + level - 1."""
HOLD = BID + len(CONTRACTS)
"""``hold``: take over the current bid ("halte ich")."""
TAKE = HOLD + 1
"""``take lower|upper``: the talon half the declarer picks up."""
ANNOUNCE = TAKE + len(HALVES)
"""``announce ultimo|valat``."""
ANNOUNCE_WORDS = ("ultimo", "valat")
KONTRA = ANNOUNCE + len(ANNOUNCE_WORDS)
"""``kontra <item>`` (defenders), ``rekontra <item>`` (declarer), ``subkontra <item>`` (defenders), item game|ultimo|valat."""
DOUBLING_WORDS = ("kontra", "rekontra", "subkontra")

_TEXTS = (
    [f"play {c.text}" for c in FACES]
    + [f"discard {c.text}" for c in FACES]
    + ["pass"]
    + [f"bid {c.name}" for c in CONTRACTS]
    + ["hold"]
    + [f"take {h}" for h in HALVES]
    + [f"announce {w}" for w in ANNOUNCE_WORDS]
    + [f"{word} {item}" for word in DOUBLING_WORDS for item in ITEMS]
)
ACTIONS = ActionSpace(_TEXTS)
END_CODE = len(_TEXTS)


def doubling_code(level: int, item: int) -> int:
    """Code of ``kontra`` (level 1), ``rekontra`` (2) or ``subkontra`` (3) of item index ``item``."""
    return KONTRA + (level - 1) * len(ITEMS) + item
