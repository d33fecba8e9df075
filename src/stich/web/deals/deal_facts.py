"""What one finished deal was for one seat: contract, party, result, announcements (issue 28: richer history).

Read from the stored deal record alone (its ``result`` and ``actions``), so
the history list and the statistics say the same about every deal:

* ``party`` is the seat's side.  Doppelkopf: ``re``, ``kontra``, or ``solo``
  for the soloist (a solo's Re party is one player), ``idle`` for the dealer
  who sits out at a five-player table.  The Tarock-family
  games: ``declarer`` (the seat that declared: ``declarer``/``lone`` in the
  result), ``defender`` (``defenders``/``opponents``), or ``idle`` for a
  seat that sat the deal out (the dealer of a five-player Dobbm, say).
  A thrown-in deal has the party ``none``.
* ``won`` is the seat's score above 0 (``True``), below 0 (``False``), or
  ``None`` at 0, the same test the statistics' won/lost columns use.
* An announcement is an action of the seat that starts with ``announce``
  (Doppelkopf's Re, Kontra, keine 90 …; Tapp Tarock's Ultimo and Valat;
  Dappen's Ulti).  It is won when what was announced came true: Doppelkopf
  by the announcing party winning the deal, Tapp Tarock by the announced
  item's points going to the announcing side, Dappen by the Ulti with that
  trump being won.  Doublings (Kontra on a Tarock game, Dobbm's Retour) are
  answers, not announcements, and are not counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

THROWN_IN_KINDS = frozenset({"all_pass", "thrown", "thrown_in", "schmeissen", "redeal"})
"""Result kinds of a deal nobody played (all passed, thrown in): it is no played deal in the statistics."""


def thrown_in(result: Mapping[str, Any]) -> bool:
    """Whether a deal's result is a thrown-in deal (the same test as the client's ``thrownIn``)."""
    return bool(result.get("redeal")) or result.get("kind") in THROWN_IN_KINDS


@dataclass(frozen=True)
class DealFacts:
    """One seat's view of one finished deal, as the history and the statistics show it."""

    game: str
    """The game's name (``doppelkopf``, ``tapp_tarock`` …), without options."""
    score: int
    thrown_in: bool
    contract: str | None
    """The contract played (``normal``, ``damen``, ``dreier``, ``solo`` …); ``None`` for a thrown-in deal."""
    party: str
    """``re``, ``kontra``, ``solo``; ``declarer``, ``defender``; ``idle`` (sat out); ``none`` for a thrown-in deal."""
    won: bool | None
    announcements: int
    """How many announcements the seat made in the deal."""
    announcements_won: int
    """How many of them came true."""

    @property
    def declared(self) -> bool:
        """Whether the seat played the deal's contract alone: a Doppelkopf soloist, a Tarock declarer."""
        return self.party in ("solo", "declarer")

    def to_json(self) -> dict[str, Any]:
        """The facts for the history list."""
        return {
            "contract": self.contract,
            "party": self.party,
            "won": self.won,
            "announcements": self.announcements,
            "announcements_won": self.announcements_won,
        }


def _game_name(record: Mapping[str, Any]) -> str:
    return str(record["game"]).split("(", 1)[0]


def _seat_list(result: Mapping[str, Any], *keys: str) -> list[int]:
    for key in keys:
        value = result.get(key)
        if isinstance(value, list):
            return [seat for seat in value if isinstance(seat, int)]
    return []


def _declaring_seat(result: Mapping[str, Any]) -> int | None:
    for key in ("declarer", "lone", "soloist"):
        value = result.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def party_of(game: str, result: Mapping[str, Any], seat: int) -> str:
    """The seat's side in a finished deal (see the module's docstring)."""
    if thrown_in(result):
        return "none"
    if game == "doppelkopf":
        if seat in _seat_list(result, "re"):
            return "solo" if result.get("solo") else "re"
        return "kontra" if seat in _seat_list(result, "kontra") else "idle"  # the dealer who sits out at five
    if _declaring_seat(result) == seat:
        return "declarer"
    return "defender" if seat in _seat_list(result, "defenders", "opponents") else "idle"


def _announcement_won(game: str, result: Mapping[str, Any], party: str, announced: str, score: int) -> bool:
    """Whether what ``party`` announced (``announced``: the action's argument) came true."""
    if game == "doppelkopf":
        side = "re" if party in ("re", "solo") else "kontra"
        return result.get("winner") == side
    if game == "tapp_tarock":
        side = "declarer" if party == "declarer" else "defenders"
        items = [item for item in result.get("items") or [] if item.get("name") == f"{announced}_announced"]
        return any(item.get("to") == side for item in items)
    if game == "dappen" and announced.startswith("ulti") and announced[4:].isdigit():
        trump = int(announced[4:])
        return any(entry.get("trump") == trump and entry.get("won") for entry in result.get("ulti") or [])
    return score > 0  # a game whose result does not itemise the announcement: the deal's outcome for the seat


def deal_facts(record: Mapping[str, Any], seat: int, game: str | None = None) -> DealFacts:
    """The facts of a finished deal's record for ``seat`` (``game``: the game's name, else read from the record)."""
    result: Mapping[str, Any] = record["result"]
    game = game or _game_name(record)
    scores: Sequence[int] = result["scores"]
    score = int(scores[seat])
    gone = thrown_in(result)
    party = party_of(game, result, seat)
    announced = [
        str(text).split(" ", 1)[1] for actor, text in record.get("actions") or [] if actor == seat and str(text).startswith("announce ")
    ]
    won_announcements = sum(_announcement_won(game, result, party, name, score) for name in announced) if not gone else 0
    contract = None if gone else (result.get("contract") or result.get("kind"))
    return DealFacts(
        game=game,
        score=score,
        thrown_in=gone,
        contract=None if contract is None else str(contract),
        party=party,
        won=None if score == 0 else score > 0,
        announcements=len(announced),
        announcements_won=won_announcements,
    )


def _tally(facts: Sequence[DealFacts], key: str) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for fact in facts:
        entry = out.setdefault(str(getattr(fact, key)), {"deals": 0, "won": 0})
        entry["deals"] += 1
        entry["won"] += fact.won is True
    return dict(sorted(out.items()))


def richer_stats(facts: Sequence[DealFacts]) -> dict[str, Any]:
    """The richer statistics of one game's played deals (no thrown-in ones).

    ``parties``: deals and deals won per side (Re/Kontra/solo, declarer/defender/idle);
    ``declared``: deals the person played alone (a solo, a Tarock contract) and won;
    ``contracts``: those per contract; ``announcements``: made and won.
    """
    alone = [fact for fact in facts if fact.declared]
    return {
        "parties": _tally(facts, "party"),
        "declared": {"deals": len(alone), "won": sum(fact.won is True for fact in alone)},
        "contracts": _tally(alone, "contract"),
        "announcements": {"made": sum(fact.announcements for fact in facts), "won": sum(fact.announcements_won for fact in facts)},
    }
