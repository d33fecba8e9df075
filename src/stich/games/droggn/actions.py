"""Droggn's action space.  The integer codes are stable: records and learned
policies depend on them, so new actions are only ever appended.

Verbs (dossier sections in brackets):

* ``pass`` — "weiter" / "gut" in the bidding [§3.2], no buy [§4.2], "gut" /
  "komm" in the doubling round [§5.3];
* ``bid ansager|solo|super|super_mord`` [§3];
* ``discard <card>`` — one of the three cards laid away after taking the talon [§4.1];
* ``offer <card>`` — the card placed face down for the bought card, ``buy <card>`` — the card named [§4.2];
* ``lay_out T1`` / ``lay_out T22`` — lay out the Pagat (or, in a Super Mord, the Gstieß) [§5.1, §5.2];
* ``liege`` — the declarer's "ich liege": done, over to the doubling round [§5.3];
* ``schwacher``, ``retour`` — doubling [§5.3];
* ``play <card>`` [§6].
"""

from __future__ import annotations

from stich.core.game import Action, ActionSpace
from stich.errors import NotationError
from stich.games.droggn.pack import CONTRACTS, FACES, GSTIESS, N_FACES, PAGAT

CARD_VERBS = ("play", "discard", "offer", "buy", "lay_out")
"""Verbs whose argument is a card (written in upper case)."""

PLAY = 0
"""``play <card>``: one code per face."""
DISCARD = PLAY + N_FACES
OFFER = DISCARD + N_FACES
BUY = OFFER + N_FACES
PASS = BUY + N_FACES
BID = PASS + 1
"""``bid <contract>``: BID + the contract's level."""
LAY_OUT = BID + len(CONTRACTS)
"""``lay_out T1`` (LAY_OUT), ``lay_out T22`` (LAY_OUT + 1)."""
LIEGE = LAY_OUT + 2
SCHWACHER = LIEGE + 1
RETOUR = SCHWACHER + 1

_TEXTS = (
    [f"play {c.text}" for c in FACES]
    + [f"discard {c.text}" for c in FACES]
    + [f"offer {c.text}" for c in FACES]
    + [f"buy {c.text}" for c in FACES]
    + ["pass"]
    + [f"bid {c.name}" for c in CONTRACTS]
    + [f"lay_out {FACES[PAGAT].text}", f"lay_out {FACES[GSTIESS].text}"]
    + ["liege", "schwacher", "retour"]
)


class DroggnActionSpace(ActionSpace):
    """The core action space, reading the card of every card verb in any case (``buy sk`` = ``buy SK``)."""

    def parse(self, text: str) -> Action:
        words = text.split()
        if not words:
            raise NotationError("empty action")
        words[0] = words[0].lower()
        if len(words) > 1 and words[0] in CARD_VERBS:
            words[1:] = [w.upper() for w in words[1:]]
        else:
            words = [w.lower() for w in words]
        action = self.by_text.get(" ".join(words))
        if action is None:
            raise NotationError(f"unknown action {text!r}")
        return action


ACTIONS = DroggnActionSpace(_TEXTS)
