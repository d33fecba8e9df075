"""Dobbm's action space.  The integer codes are stable: records and learned
policies depend on them, so new actions are only ever appended.

* ``play <card>`` (0..35) and ``discard <card>`` (36..71), one code per card;
* ``pass`` — *weiter*, before anybody has bid (§3.1);
* ``bid dobbm`` / ``bid solo`` — *i dob* / *Solo* (§3.1);
* ``accept`` — *gut* / *spiel zu*: accept the bid already made (§3.1), let the
  game stand in the doubling round (§5);
* ``double`` — a defender's *Schwacher* (§5.2);
* ``retour`` — the declarer's or a defender's *Retour* (§5.3, §5.4).
"""

from __future__ import annotations

from stich.core.game import ActionSpace
from stich.games.dobbm.pack import FACES, N_FACES

PLAY = 0
DISCARD = PLAY + N_FACES
PASS = DISCARD + N_FACES
BID_DOBBM = PASS + 1
BID_SOLO = PASS + 2
ACCEPT = PASS + 3
DOUBLE = PASS + 4
RETOUR = PASS + 5

_TEXTS = (
    [f"play {c.text}" for c in FACES]
    + [f"discard {c.text}" for c in FACES]
    + ["pass", "bid dobbm", "bid solo", "accept", "double", "retour"]
)
ACTIONS = ActionSpace(_TEXTS)
BID_CODE = {"dobbm": BID_DOBBM, "solo": BID_SOLO}
BID_NAME = {code: name for name, code in BID_CODE.items()}
