"""Which combinations of Doppelkopf options the engine must refuse: one oracle for tests/core/test_options.py and test_conformance.py."""

from __future__ import annotations

from typing import Any


def contradiction(values: dict[str, Any]) -> str | None:
    """The contradictions options.py documents between Doppelkopf options (a key word of the refusal's message), or None.

    Written apart from the engine's own checks, as the oracle both the option tests and the conformance
    suite hold the engine to.
    """
    if values["superschweine"] and values["schweine"] == "off":
        return "superschweine"
    schweine_defaults = {"schweine_fixed": "play_start", "schweine_announce": "reservation", "schweine_in_solo": "off"}
    if values["schweine"] == "off" and any(values[k] != v for k, v in schweine_defaults.items()):
        return "schweine"
    if values["superschweine_card"] != "nine" and not values["superschweine"]:
        return "superschweine_card"
    if values["schweine"] == "holder_choice" and values["schweine_announce"] != "reservation":
        return "holder_choice"
    if values["superschweine_in_solo"] and (not values["superschweine"] or values["schweine_in_solo"] == "off"):
        return "superschweine_in_solo"
    if values["dullen_in_color_solo"] != "hearts" and not values["dullen"]:
        return "dullen_in_color_solo"
    if values["second_dulle_beats_first"] and not values["dullen"]:
        return "dullen"
    if (values["second_dulle_except_last_trick"] or values["second_dulle_in_solo"]) and not values["second_dulle_beats_first"]:
        return "second_dulle_beats_first"
    if not values["solos"]:
        return "solo"
    if values["solo_always_triple"] and values["counting"] == "plus_minus":
        return "solo_always_triple"
    if values["specials_before_doubling"] and values["call_scoring"] != "double":
        return "specials_before_doubling"
    if values["armut_offer"] != "clockwise" and not values["armut"]:
        return "armut_offer"
    if values["knocking"] and not values["announcements"]:
        return "knocking"
    if values["bock_applies_to_specials"] and not values["bock"]:
        return "bock"
    if values["sp_dulle_gefangen"] and not values["second_dulle_beats_first"]:
        return "second_dulle_beats_first"
    return None
