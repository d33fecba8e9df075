"""The one rule for the names people go by: account names and guest names alike.

A name is first *normalised* (:func:`normalise`): Unicode NFKC (so a
full-width ``ａｌｉｃｅ`` or a no-break space becomes the plain character),
surrounding white space (line breaks too) trimmed and every inner run of
spaces made one.  The normalised name must then follow :data:`NAME_RULE`:

* 3 to 24 characters (:data:`MIN_LENGTH`, :data:`MAX_LENGTH`);
* only Latin letters (``a``-``z`` and their accented forms such as ``ä``,
  ``ß``, ``é``), the digits ``0``-``9``, spaces and ``_ . -``; so no control
  or invisible characters, and no letters of other scripts that look like
  Latin ones (a Cyrillic ``а`` in ``аlice``);
* starting with a letter or a digit.

Two names are the same name when their :func:`name_key` is equal: the
normalised name case-folded (``Alice``, ``ALICE`` and ``alice`` are one name;
so are ``Strauß`` and ``Strauss``).  Accounts are unique by this key, and a
guest may not go by an account's name.

The rule is stated once, here, in English and German (:data:`NAME_RULE`);
the browser client's translations carry exactly these texts (a test compares
them) and the API's refusals quote the English one.
"""

from __future__ import annotations

import re
import unicodedata

MIN_LENGTH = 3
"""Fewest characters of a name (after normalising)."""
MAX_LENGTH = 24
"""Most characters of a name (after normalising)."""

NAME_RULE = {
    "en": f"Names have {MIN_LENGTH} to {MAX_LENGTH} characters: letters (also ä, ö, ü, ß, é …), digits, spaces and _ . -, "
    "starting with a letter or digit.",
    "de": f"Namen haben {MIN_LENGTH} bis {MAX_LENGTH} Zeichen: Buchstaben (auch ä, ö, ü, ß, é …), Ziffern, Leerzeichen und _ . -, "
    "am Anfang ein Buchstabe oder eine Ziffer.",
}
"""The rule in the words players read (English, German); the client's ``login.name_rules``."""

DELETED_PLAYER = "deleted player"
"""The name a deleted account's seats and records keep (issue 44, decision 0056); the client shows "gelöschter Spieler" in German."""

RESERVED = frozenset({"deleted player", "geloschter spieler", "geloeschter spieler", "gelöschter spieler"})
"""Name keys nobody may take (:func:`reserved`): the deleted player's name in either language, so nobody can pass for one."""

PUNCTUATION = frozenset(" _.-")
"""The characters besides letters and digits that a name may hold."""

_SPACES = re.compile(" +")


class BadName(ValueError):
    """A name that breaks :data:`NAME_RULE`; the message is the rule itself."""

    def __init__(self) -> None:
        super().__init__(NAME_RULE["en"])


def normalise(name: str) -> str:
    """``name`` in NFKC, trimmed, with each inner run of spaces made one (no check; an inner tab or line break stays and is refused)."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", name)).strip()


def _latin_letter(char: str) -> bool:
    return unicodedata.category(char).startswith("L") and unicodedata.name(char, "").startswith("LATIN ")


def _allowed(char: str) -> bool:
    return ("0" <= char <= "9") or char in PUNCTUATION or _latin_letter(char)


def follows_rule(normalised: str) -> bool:
    """Whether an already normalised name follows :data:`NAME_RULE`."""
    return MIN_LENGTH <= len(normalised) <= MAX_LENGTH and all(_allowed(char) for char in normalised) and normalised[0] not in PUNCTUATION


def checked_name(name: str) -> str:
    """The normalised ``name`` if it follows :data:`NAME_RULE`; raises :class:`BadName` otherwise."""
    normalised = normalise(name)
    if not follows_rule(normalised):
        raise BadName()
    return normalised


def name_key(name: str) -> str:
    """The key two names are compared by: normalised, case-folded and normalised again (NFKC_Casefold in effect)."""
    return unicodedata.normalize("NFKC", normalise(name).casefold())


def reserved(name: str) -> bool:
    """Whether ``name`` is one of the :data:`RESERVED` names (compared by :func:`name_key`)."""
    return name_key(name) in RESERVED
