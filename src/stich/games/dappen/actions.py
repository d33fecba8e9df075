"""Dappen's action space.  The integer codes are stable: records and learned
policies depend on them, so new actions are only ever appended.

* ``play <card>`` — codes 0..53, one per card;
* ``discard <card>`` — codes 54..107, laying a card away after taking the Dapp [§4];
* ``pass`` — "Fort!" in the bidding, giving way to an overcall, or ending the Ulti layout [§3, §5.1];
* ``hold`` — "selber": keep the game against an overcall [§3.2-§3.4];
* ``bid solo``, ``bid dapp``, ``bid strecken``, ``bid stupfen``, ``bid ein_hannes``,
  ``bid zwei_hannes``, ``bid geiss`` [§3];
* ``announce ulti3``, ``announce ulti2``, ``announce ulti1`` — lay out trump 3, 2 or 1 for an Ulti [§5.1].
"""

from __future__ import annotations

from stich.core.game import ActionSpace
from stich.games.dappen.pack import FACES, N_FACES

PLAY = 0
DISCARD = PLAY + N_FACES
PASS = DISCARD + N_FACES
HOLD = PASS + 1
BID = HOLD + 1
BID_NAMES = ("solo", "dapp", "strecken", "stupfen", "ein_hannes", "zwei_hannes", "geiss")
"""``bid <name>``: codes BID + 0..6."""
ULTI = BID + len(BID_NAMES)
ULTI_NUMBERS = (3, 2, 1)
"""``announce ulti<k>``: codes ULTI + 0..2 for trumps 3, 2, 1."""

_TEXTS = (
    [f"play {c.text}" for c in FACES]
    + [f"discard {c.text}" for c in FACES]
    + ["pass", "hold"]
    + [f"bid {name}" for name in BID_NAMES]
    + [f"announce ulti{k}" for k in ULTI_NUMBERS]
)
ACTIONS = ActionSpace(_TEXTS)
BID_CODE = {name: BID + i for i, name in enumerate(BID_NAMES)}
ULTI_CODE = {k: ULTI + i for i, k in enumerate(ULTI_NUMBERS)}
CODE_ULTI = {code: k for k, code in ULTI_CODE.items()}
