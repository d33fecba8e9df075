"""The two kinds of table a lobby offers, and what a table's list of deals holds, for people to read.

* **free play** (``kind="free"``): any number of deals and nothing
  compulsory: a Doppelkopf table without Pflichtsolo (so no Vorführung), a
  Dobbm table without the closing Mußrunde.  The lobby's default, because a
  short list with compulsory solos is a row of forced solos (issue 28).
* **a list** (``kind="list"``): the game's own list: one or more whole
  rounds of the length its session rules set (Doppelkopf: 24 games at four
  players, 30 at five, the Pflichtsoli included [doppelkopf.md §2.1, §2.2];
  the other games: their ``session_*``/``list_deals`` option), with the
  compulsory deals the options ask for.

A request without ``kind`` keeps the options it names unchanged (the API as
it was).  :func:`session_rules` describes a configured table's list as data
(length, who deals, what is compulsory); the client words it in German and
English.  :func:`forced_seat` tells a deal's compulsory declarer, which is
public at the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from stich.core.game import Game
from stich.core.registry import game_class, game_names, session_class
from stich.core.session import Session
from stich.web.protocol import ApiError

TableKind = Literal["free", "list"]

COMPULSORY_OPTION = {"doppelkopf": "pflichtsolo", "dobbm": "mussrunde_at_end"}
"""Per game, the option that makes deals of a list compulsory; a free table has it off."""

DEALER_RULE = {"doppelkopf": "rotates", "tapp_tarock": "rotates", "dappen": "rotates", "dobbm": "declarer", "droggn": "declarer"}
"""Who deals next [each dossier's §2]: the next seat in turn, or the declarer of the deal just played."""


def kind_options(game: str, preset: str | None, options: Mapping[str, Any], kind: TableKind | None) -> dict[str, Any]:
    """The options of a table of ``kind``: a free table turns the game's compulsory option off.

    Asking for a free table with the compulsory option on (in the options or
    through the preset) is a contradiction, refused naming the field.
    """
    chosen = dict(options)
    name = COMPULSORY_OPTION.get(game)
    if kind != "free" or name is None or game not in game_names():
        return chosen
    if chosen.get(name) is True:
        raise ApiError(422, f"options.{name}", f"a free table has no compulsory deals; {name}=true needs kind 'list'")
    presets = game_class(game).option_table.presets
    if preset is not None and presets.get(preset, {}).get(name) is True:
        raise ApiError(422, "kind", f"preset {preset!r} sets {name}=true, which only a list has; choose kind 'list'")
    chosen[name] = False
    return chosen


def list_length(game: Game) -> int:
    """Counted deals in one list (round) of ``game`` as configured, as its session rules set it."""
    session: Session = session_class(game.name)(game, 0, None)
    target = getattr(session, "target", None)
    return int(target) if isinstance(target, int) and target > 0 else game.num_seats


def kind_deals(game: Game, kind: TableKind | None, deals: int | None) -> int:
    """The number of deals of a table: a list is one round unless ``deals`` names whole rounds; else ``deals`` (default 1)."""
    if kind != "list":
        return 1 if deals is None else deals
    length = list_length(game)
    if deals is None:
        return length
    if deals % length:
        message = f"a list of {game.name} as configured has {length} deals a round; {deals} is not a whole number of rounds"
        raise ApiError(422, "deals", message)
    return deals


def session_rules(game: Game, deals: int, requested: str | None = None) -> dict[str, Any]:
    """A table's list as data for the client to word: length, kind, who deals, what is compulsory.

    ``kind`` is ``list`` when the compulsory option is on or the deals are
    whole rounds of a game without one, unless its creator asked for a
    ``requested`` kind: a game without compulsory deals plays the same deals
    either way, so a free Dappen table of six deals stays free play;
    ``compulsory`` names what is
    compulsory (``pflichtsolo``, with ``vorfuehrung`` when owed solos are
    forced at the round's end; ``mussrunde``), or ``None``.
    """
    length = list_length(game)
    option = COMPULSORY_OPTION.get(game.name)
    compulsory_on = option is not None and bool(getattr(game.options, option))
    whole_rounds = deals % length == 0
    kind = "list" if (compulsory_on if option is not None else whole_rounds) else "free"
    if option is None and requested in ("free", "list"):
        kind = requested  # the same deals either way: only the creator's word tells them apart (issue 40, defect 7)
    compulsory = None
    if compulsory_on:
        compulsory = "pflichtsolo" if game.name == "doppelkopf" else "mussrunde"
    idle = getattr(game.options, "players", game.num_seats) > _active_players(game)
    return {
        "game": game.name,
        "kind": kind,
        "deals": deals,
        "list_length": length,
        "rounds": deals // length if whole_rounds else None,
        "seats": game.num_seats,
        "active": _active_players(game),
        "dealer_sits_out": idle,
        "dealer": DEALER_RULE.get(game.name, "rotates"),
        "compulsory": compulsory,
        "vorfuehrung": bool(compulsory == "pflichtsolo" and getattr(game.options, "vorfuehrung", False)),
    }


def _active_players(game: Game) -> int:
    """Players who take part in a deal (the dealer sits out at a table with one seat more)."""
    options = game.options
    active = getattr(options, "active_players", None)
    if isinstance(active, int):
        return active
    if game.name in ("doppelkopf", "dobbm") and game.num_seats == 5:
        return 4
    if game.name == "droggn" and game.num_seats == 4:
        return 3
    if game.name == "tapp_tarock" and game.num_seats == 4:
        return 3
    return game.num_seats


def forced_seat(session: Session | None) -> dict[str, Any] | None:
    """The compulsory declarer of the pending deal, public at the table: ``{"seat", "why"}`` or ``None``.

    ``why`` is ``vorfuehrung`` (a Doppelkopf Pflichtsolo forced at the end of
    the round [doppelkopf.md §2.3]) or ``mussrunde`` (Dobbm [dobbm.md §3.4]).
    """
    if session is None or session.pending is None:
        return None
    seat = getattr(session, "forced", None)
    if not isinstance(seat, int):
        return None
    return {"seat": seat, "why": "vorfuehrung" if session.game.name == "doppelkopf" else "mussrunde"}
