"""A finished Tarock-family deal in words, in the sitting's language, with the players' names.

The four Tarock games word their results in their own modules
(``describe_result``), in English and with ``seat 2``; the web's "Im
Einzelnen" (``static/js/result_details.js``) writes the same facts from the
result JSON in the reader's language.  This module is that writer for the
terminal, with the web's own sentences (:mod:`stich.cli.shared_texts`), so
that a German sitting shows no English line and both surfaces say the same
(decision 0053).  The rules layer stays free of any language: it is only read
here.  Doppelkopf's evaluation is worded in :func:`stich.cli.render.explain_result`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from stich.cli.texts import Texts

Name = Callable[[Any], str]
SeatList = Callable[[Sequence[int]], str]
Writer = Callable[[Mapping[str, Any], Texts, Name, SeatList], "list[str] | None"]

_MINUS = "\u2212"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n).replace("-", _MINUS)


def contract_label(game: str, contract: object, texts: Texts) -> str:
    """A contract's name as the web shows it (``contract.<game>.<name>``, then ``contract.<name>``)."""
    if not contract:
        return ""
    own = texts.shared(f"contract.{game}.{contract}", "")
    return own or texts.shared(f"contract.{contract}", str(contract).replace("_", " "))


def _item(name: object, texts: Texts) -> str:
    return texts.shared(f"item.{name}", str(name))


def _party(party: object, texts: Texts) -> str:
    return texts.shared(f"party.{party}", str(party))


def _by_against(game: str, r: Mapping[str, Any], tr: Texts, name: Name, seats: SeatList, *, defenders: str, talon: str) -> str:
    """The first line of a declarer's game (``detail.by_against``): contract, declarer, ``talon`` note, the seats in ``r[defenders]``."""
    contract = contract_label(game, r.get("contract"), tr)
    return tr.shared("detail.by_against", contract=contract, name=name(r.get("declarer")), talon=talon, others=seats(r.get(defenders, [])))


def _idle(r: Mapping[str, Any], tr: Texts, name: Name) -> str:
    """The note naming the seat that sits the deal out (``detail.idle``); empty when every seat plays."""
    return tr.shared("detail.idle", name=name(r["idle"])) if r.get("idle") is not None else ""


def _tapp(r: Mapping[str, Any], tr: Texts, name: Name, seats: SeatList) -> list[str] | None:
    if r.get("kind") == "all_pass":
        return [tr.shared("detail.all_pass_again", name=name(r.get("next_dealer")))]
    if r.get("kind") != "game":
        return None
    half = r.get("talon_taken")
    talon = tr.shared("detail.tapp.talon", half=tr.shared(f"talon.{half}", str(half))) if half else ""
    lines = [_by_against("tapp_tarock", r, tr, name, seats, defenders="defenders", talon=talon)]
    announced = r.get("announced") or []
    if announced:
        lines.append(tr.shared("detail.announced", items=", ".join(_item(a, tr) for a in announced)))
    p, t = r.get("points", {}), r.get("tricks", {})
    key = "detail.tapp.points_won" if r.get("won") else "detail.tapp.points_lost"
    lines.append(tr.shared(key, d=p.get("declarer"), o=p.get("defenders"), td=t.get("declarer"), to=t.get("defenders")))
    for item in r.get("items", []):
        factor = ""
        if item.get("factor", 1) != 1:
            doubling = tr.shared(f"doubling.{item.get('doubling')}", str(item.get("doubling")))
            factor = tr.shared("detail.factor", factor=item["factor"], doubling=doubling)
        to = _party("defenders" if item.get("to") == "defenders" else "declarer", tr)
        lines.append(tr.shared("detail.tapp.item", item=_item(item.get("name"), tr), value=item.get("value"), factor=factor, to=to))
    per = int(r.get("per_defender", 0))
    if per > 0:
        lines.append(tr.shared("detail.each_defender_pays", n=per))
    elif per < 0:
        lines.append(tr.shared("detail.declarer_pays_each", n=-per))
    for bonus in r.get("hand_bonuses", []):
        key = "detail.tapp.bonus_holder" if bonus.get("settlement") == "holder" else "detail.tapp.bonus_side"
        lines.append(tr.shared(key, item=_item(bonus.get("name"), tr), name=name(bonus.get("seat")), n=bonus.get("value")))
    return lines


def _dobbm(r: Mapping[str, Any], tr: Texts, name: Name, seats: SeatList) -> list[str] | None:
    if r.get("kind") == "all_pass":
        lines = [tr.shared("detail.all_pass_next", name=name(r.get("next_dealer")))]
        if r.get("collector") is not None:
            lines.append(tr.shared("detail.dobbm.stockerl", name=name(r["collector"]), n=r.get("stockerl")))
        return lines
    if r.get("kind") != "game":
        return None
    lines = [_by_against("dobbm", r, tr, name, seats, defenders="opponents", talon=_idle(r, tr, name))]
    p, t, talon = r.get("points", {}), r.get("tricks", {}), r.get("talon", {})
    laid = tr.shared("detail.dobbm.discards" if r.get("contract") == "dobbm" else "detail.dobbm.dobb")
    where = tr.shared("detail.dobbm.to_declarer" if talon.get("to") == "declarer" else "detail.dobbm.to_defenders")
    lines.append(
        tr.shared(
            "detail.dobbm.points_one" if talon.get("points") == 1 else "detail.dobbm.points",
            d=p.get("declarer"),
            o=p.get("defenders"),
            td=t.get("declarer"),
            to=t.get("defenders"),
            laid=laid,
            n=talon.get("points"),
            where=where,
        )
    )
    winner = r.get("winner")
    if winner is None:
        return [*lines, tr.shared("detail.dobbm.draw")]
    by = "detail.dobbm.declarer_by" if winner == "declarer" else "detail.dobbm.defenders_by"
    lines.append(tr.shared(by, margin=r.get("margin"), base=r.get("base")))
    factors = []
    if r.get("solo_factor", 1) != 1:
        factors.append(tr.shared("detail.dobbm.solo_factor", n=r["solo_factor"]))
    if r.get("doubles"):
        factors.append(tr.shared("detail.dobbm.doubles", n=r.get("multiplier"), retours=int(r["doubles"]) - 1))
    if factors:
        lines.append(tr.shared("detail.dobbm.per_opponent", factors=" ".join(factors), n=r.get("payment")))
    if r.get("match"):
        lines.append(tr.shared("detail.dobbm.match", side=_party(r["match"], tr)))
    pays = "detail.each_defender_pays" if winner == "declarer" else "detail.declarer_pays_each"
    lines.append(tr.shared(pays, n=r.get("payment")))
    return lines


def _droggn(r: Mapping[str, Any], tr: Texts, name: Name, seats: SeatList) -> list[str] | None:
    if r.get("kind") == "thrown":
        return [tr.shared("detail.all_pass_again", name=name(r.get("seat")))]
    if r.get("kind") != "played":
        return None
    lines = [_by_against("droggn", r, tr, name, seats, defenders="defenders", talon=_idle(r, tr, name))]
    p, t = r.get("card_points", {}), r.get("tricks", {})
    key = "detail.droggn.points_matsch" if r.get("matsch") else "detail.droggn.points"
    lines.append(tr.shared(key, d=p.get("declarer"), o=p.get("defenders"), td=t.get("declarer"), to=t.get("defenders")))
    if r.get("stopped_after_trick"):
        lines.append(tr.shared("detail.droggn.stopped", n=r["stopped_after_trick"]))
    lines.append(tr.shared("detail.declarer_wins" if r.get("winner") == "declarer" else "detail.defenders_win"))
    multiplier = int(r.get("multiplier", 1))
    if multiplier > 1:
        lines.append(tr.shared("detail.droggn.stakes", n=multiplier))
    for item in r.get("items", []):
        doubled = f" ({item['base']} × {multiplier})" if item.get("doubled") and item.get("points") != item.get("base") else ""
        sign = "+" if item.get("side") == "declarer" else _MINUS
        lines.append(f"{sign}{item.get('points')} {_item(item.get('name'), tr)}{doubled}")
    value = int(r.get("value", 0))
    lines.append(tr.shared("detail.droggn.value", value=_signed(value), n=value))
    return lines


def _dappen(r: Mapping[str, Any], tr: Texts, name: Name, seats: SeatList) -> list[str] | None:
    kind = r.get("kind")
    if kind == "thrown":
        return [tr.shared("detail.dappen.thrown")]
    if kind == "penalty":
        return [tr.shared("detail.dappen.penalty", name=name(r.get("seat")), n=r.get("per_player"))]
    if kind != "game":
        return None
    contract = contract_label("dappen", r.get("contract"), tr)
    lines = [tr.shared("detail.dappen.game", contract=contract, name=name(r.get("lone")), bidders=seats(r.get("bidders", [])))]
    if r.get("seven_fives"):
        lines.append(tr.shared("detail.dappen.seven_fives", name=name(r.get("lone"))))
    else:
        c, f, p, t = (r.get(k) or {} for k in ("cards", "face_points", "points", "tricks"))
        how = tr.shared("detail.dappen.pairs" if r.get("counting") == "pairs" else "detail.dappen.thirds")
        for side in ("lone", "opponents"):
            fields = {"tricks": t.get(side), "cards": c.get(side), "face": f.get(side), "points": p.get(side), "how": how}
            one = "_one" if t.get(side) == 1 else ""  # "1 Stich", not "1 Stiche"
            lines.append(tr.shared(f"detail.dappen.{side}{one}", **fields))
    if r.get("marsch") == "lone" and not r.get("seven_fives"):
        lines.append(tr.shared("detail.dappen.marsch_lone"))
    elif r.get("marsch") == "opponents":
        lines.append(tr.shared("detail.dappen.marsch_opponents"))
    winner = "detail.dappen.winner_lone" if r.get("winner") == "lone" else "detail.dappen.winner_opponents"
    lines.append(tr.shared(winner, n=r.get("losers_points")))
    if r.get("diff") is None:
        lines.append(tr.shared("detail.dappen.value", value=r.get("value"), factor=r.get("factor"), n=r.get("per_opponent")))
    else:
        lines.append(tr.shared("detail.dappen.diff", diff=r["diff"], value=r.get("value"), factor=r.get("factor"), n=r.get("per_opponent")))
    liability = r.get("liability")
    if liability:
        mode = tr.shared(f"choice.dappen.marsch_liability.{liability.get('mode')}", str(liability.get("mode")))
        lines.append(tr.shared("detail.dappen.liability", mode=mode, seats=seats(liability.get("responsible", []))))
    for row in r.get("ulti", []):
        key = "detail.dappen.ulti_won" if row.get("won") else "detail.dappen.ulti_lost"
        lines.append(tr.shared(key, trump=row.get("trump"), n=row.get("cents")))
    return lines


WRITERS: Mapping[str, Writer] = {"tapp_tarock": _tapp, "dobbm": _dobbm, "droggn": _droggn, "dappen": _dappen}
"""The games worded here, by game name."""


def result_lines(game: str, result: Mapping[str, Any], names: Sequence[str], texts: Texts) -> list[str] | None:
    """The deal's lines in ``texts``' language with the seat names, or ``None`` for a game or result kind not worded here."""
    writer = WRITERS.get(game)
    if writer is None:
        return None

    def name(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else str(seat)

    def seats(group: Sequence[int]) -> str:
        return ", ".join(name(s) for s in group)

    return writer(result, texts, name, seats)


def sheet_label(game: str, notes: Mapping[str, Any], names: Sequence[str], texts: Texts) -> str | None:
    """A Tarock-family sheet row's game from its notes, as the web's sheet words it (``Unterer (Anna)``, ``eingeworfen``).

    ``None`` where the notes do not say (the caller then shows the session's own label).
    """
    if game not in WRITERS:
        return None
    if notes.get("redeal") or notes.get("kind") == "thrown":
        return texts.shared("result.thrown_short")
    seat = notes.get("declarer", notes.get("lone"))
    if notes.get("kind") == "penalty":
        seat = notes.get("seat")
        contract = texts.shared("result.game")
    else:
        contract = contract_label(game, notes.get("contract"), texts)
    if not contract or not isinstance(seat, int) or not 0 <= seat < len(names):
        return None
    return texts.shared("result.summary", contract=contract, who=names[seat])
