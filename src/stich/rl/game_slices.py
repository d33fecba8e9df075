"""Each game's own slices: contract, parties, bidding, announcements and doubles, talon and discards.

The slices every game shares (hand, tricks, actions so far) are in
:mod:`stich.rl.encoding`; here each game names where its observation keeps the
rest and which values they can take.  ``IGNORED`` lists the observation keys
no slice reads, each with the reason (a repeat of another key, or display
text); a test plays every preset and checks that every key the engine writes
is read or listed there.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from stich.games.dappen.pack import CONTRACTS as DAPPEN_CONTRACTS
from stich.games.dappen.pack import LADDERS as DAPPEN_LADDERS
from stich.games.dappen.state import PHASE_NAMES as DAPPEN_PHASES
from stich.games.dobbm.pack import CONTRACTS as DOBBM_CONTRACTS
from stich.games.dobbm.state import PHASE_NAMES as DOBBM_PHASES
from stich.games.doppelkopf.actions import HOCHZEIT_SUITS
from stich.games.doppelkopf.contracts import SOLO_NAMES
from stich.games.doppelkopf.state import PHASE_NAMES as DOPPELKOPF_PHASES
from stich.games.droggn.pack import CONTRACTS as DROGGN_CONTRACTS
from stich.games.droggn.state import PHASE_NAMES as DROGGN_PHASES
from stich.games.tapp_tarock.actions import ANNOUNCE_WORDS as TAPP_ANNOUNCE_WORDS
from stich.games.tapp_tarock.pack import CONTRACTS as TAPP_CONTRACTS
from stich.games.tapp_tarock.pack import DOUBLING_NAMES, ITEMS
from stich.games.tapp_tarock.state import PHASE_NAMES as TAPP_PHASES
from stich.rl.slices import (
    Layout,
    Slice,
    cards_at,
    multi_hot,
    number,
    one_hot,
    per_seat,
    per_seat_flags,
    per_seat_number,
    present,
    seat,
    seats,
)

PHASES: dict[str, tuple[str, ...]] = {
    "doppelkopf": DOPPELKOPF_PHASES,
    "tapp_tarock": TAPP_PHASES,
    "dobbm": DOBBM_PHASES,
    "droggn": DROGGN_PHASES,
    "dappen": DAPPEN_PHASES,
}
"""Every phase name of each game, in the engine's order."""

_SHARED_KEYS = {
    "public.dealer": "shared slice dealer",
    "public.active": "shared slice active",
    "public.hand_sizes": "shared slice hand_sizes",
}


def _log2(x: float) -> float:
    return math.log2(x) if x > 0 else 0.0


def _doppelkopf(layout: Layout) -> list[Slice]:
    kinds = ("normal", "solo", "stille_hochzeit", "hochzeit", "hochzeit_solo", "armut", "genscher")
    calls = tuple(range(7))
    return [
        one_hot("kind", ("public", "kind"), kinds, "game type as the table knows it (a silent wedding shows as normal)"),
        one_hot("contract", ("public", "contract"), ("normal", *SOLO_NAMES), "contract (card order) as the table knows it"),
        seat(layout, "soloist", ("public", "soloist"), "soloist"),
        present("pflichtsolo", ("public", "pflichtsolo"), "the solo is a compulsory solo"),
        seat(layout, "hochzeiter", ("public", "hochzeiter"), "player who announced a wedding"),
        one_hot(
            "hochzeit_suit",
            ("public", "hochzeit_suit"),
            HOCHZEIT_SUITS,
            "suit a wedding named (hochzeit_rule=named_suit)",
        ),
        number("clarification_trick", ("public", "clarification_trick"), 12, "wedding clarification trick number"),
        per_seat(layout, "reservations", ("public", "reservations"), ("gesund", "vorbehalt"), "reservation said"),
        one_hot("calls_re", ("public", "calls", "re"), calls, "Re's announcement level (0 none, 1 re, 2 keine 90, ... 5 schwarz)"),
        one_hot("calls_kontra", ("public", "calls", "kontra"), calls, "Kontra's announcement level"),
        per_seat(layout, "parties", ("public", "parties"), ("re", "kontra"), "parties known to the table"),
        one_hot("own_party", ("private", "party"), ("re", "kontra"), "this seat's own party, once it knows it"),
        seat(layout, "schweine", ("public", "schweine"), "holder of the Schweine"),
        seat(layout, "superschweine", ("public", "superschweine"), "holder of the Superschweine"),
        cards_at(
            layout,
            "schweine_cards",
            ("public", "schweine_cards"),
            "cards known to rank above the Dullen (Schweine)",
        ),
        seat(layout, "genscher", ("public", "genscher", "seat"), "player who played a Genscher"),
        seat(layout, "genscher_partner", ("public", "genscher", "partner"), "partner the Genscher chose"),
        seats(layout, "knocks", ("public", "knocks"), "players who knocked (knocking: an anonymous raise)"),
        seat(layout, "poor", ("public", "poor"), "poor player (Armut)"),
        seat(layout, "armut_taker", ("public", "armut_taker"), "player who took the poverty"),
        number("armut_trumps_returned", ("public", "armut_trumps_returned"), 3, "trumps returned in the poverty"),
        number("multiplier", ("public", "multiplier"), 4, "log2 of the bock multiplier", _log2),
        per_seat_flags(layout, "owes_solo", ("public", "owes_solo"), "still owes a compulsory solo"),
        seat(layout, "thrown_by", ("public", "thrown", "seat"), "player who threw the cards in"),
        cards_at(layout, "thrown_hand", ("public", "thrown", "hand"), "hand shown by the player who threw in"),
        cards_at(layout, "armut_given", ("private", "armut_given"), "cards this seat handed over as the poor player"),
        cards_at(layout, "armut_returned", ("private", "armut_returned"), "cards returned in the poverty (poor player and taker)"),
    ]


_DOPPELKOPF_IGNORED: dict[str, str] = {}


def _tapp_tarock(layout: Layout) -> list[Slice]:
    names = tuple(c.name for c in TAPP_CONTRACTS)
    out = [
        one_hot("bid", ("public", "bid"), names, "highest bid so far"),
        seat(layout, "holder", ("public", "holder"), "holder of the highest bid"),
        seats(layout, "passed", ("public", "passed"), "players who passed"),
        seat(layout, "forehand", ("public", "forehand"), "forehand (first to bid and lead)"),
        seat(layout, "declarer", ("public", "declarer"), "declarer"),
        one_hot("contract", ("public", "contract"), names, "contract"),
        one_hot("talon_taken", ("public", "talon_taken"), ("lower", "upper"), "talon half the declarer took"),
        multi_hot("announced", ("public", "announced"), TAPP_ANNOUNCE_WORDS, "announcements (ultimo, valat)"),
    ]
    out += [one_hot(f"doubling_{item}", ("public", "doubling", item), DOUBLING_NAMES[1:], f"doubling level on {item}") for item in ITEMS]
    out += [
        number("discarded", ("public", "discarded"), 3, "cards the declarer laid away"),
        number("discarded_tarocks", ("public", "discarded_tarocks"), 3, "tarocks among them (announced)"),
        cards_at(layout, "shown_tarocks", ("public", "shown_tarocks"), "tarocks shown among the discards"),
        cards_at(layout, "talon_lower", ("public", "talon", "lower"), "lower talon half, once exposed"),
        cards_at(layout, "talon_upper", ("public", "talon", "upper"), "upper talon half, once exposed"),
        cards_at(layout, "own_talon_half", ("private", "talon_half"), "talon half this seat took (declarer)"),
        cards_at(layout, "own_discards", ("private", "discards"), "cards this seat laid away (declarer)"),
        cards_at(layout, "end_discards", ("public", "piles", "discards"), "discards shown at the end"),
        cards_at(layout, "end_talon_lower", ("public", "piles", "talon_lower"), "untaken lower half shown at the end"),
        cards_at(layout, "end_talon_upper", ("public", "piles", "talon_upper"), "untaken upper half shown at the end"),
        present("thrown", ("public", "thrown"), "all passed, the deal is thrown in"),
        per_seat_number(layout, "tricks_won_public", ("public", "tricks_won"), 16, "tricks won"),
    ]
    return out


_TAPP_IGNORED = {"public.kind": "the contract in words (display); slice contract has it"}


def _dobbm(layout: Layout) -> list[Slice]:
    contracts = tuple(DOBBM_CONTRACTS)
    return [
        seat(layout, "idle", ("public", "idle"), "dealer who sits out (5 players)"),
        present("mussrunde", ("public", "mussrunde"), "a Mußrunde deal"),
        seat(layout, "forced_declarer", ("public", "forced_declarer"), "player forced to declare"),
        per_seat(layout, "bids", ("public", "bids"), ("pass", "dobbm", "solo", "accept"), "each player's bid"),
        one_hot("contract", ("public", "contract"), contracts, "contract"),
        seat(layout, "declarer", ("public", "declarer"), "declarer"),
        seats(layout, "defenders", ("public", "defenders"), "defenders"),
        number("doubles", ("public", "doubles"), 4, "doublings so far"),
        number("solo_factor", ("public", "solo_factor"), 2, "contract factor"),
        number("dobb_cards", ("public", "dobb_cards"), 4, "cards left in the Dobb"),
        number("discards_made", ("public", "discards_made"), 4, "cards laid away"),
        present("thrown", ("public", "thrown"), "the deal is thrown in"),
        cards_at(layout, "own_dobb", ("private", "dobb"), "the Dobb this seat took (declarer)"),
        cards_at(layout, "own_discards", ("private", "discards"), "cards this seat laid away (declarer)"),
        cards_at(layout, "laid_away", ("public", "laid_away"), "cards laid away, shown at the end"),
        number("laid_away_points", ("public", "laid_away_points"), 30, "their card points"),
    ]


_DOBBM_IGNORED = {
    "public.kind": "repeats contract",
    "public.soloist": "repeats declarer",
    "public.multiplier": "2 ** doubles",
    "public.doubling": "the doubling calls in order; the actions slice counts each seat's calls",
}


def _droggn(layout: Layout) -> list[Slice]:
    names = tuple(c.name for c in DROGGN_CONTRACTS)
    return [
        seat(layout, "idle", ("public", "idle"), "dealer who sits out (4 players)"),
        one_hot("contract", ("public", "contract"), names, "contract"),
        seat(layout, "declarer", ("public", "declarer"), "declarer"),
        seats(layout, "defenders", ("public", "defenders"), "defenders"),
        number("talon_cards", ("public", "talon_cards"), 3, "cards left in the talon"),
        number("discarded", ("public", "discarded"), 3, "cards laid away"),
        cards_at(layout, "bought", ("public", "bought"), "card bought"),
        seat(layout, "bought_from", ("public", "bought_from"), "player the card was bought from"),
        cards_at(layout, "laid_out", ("public", "laid_out"), "card laid out (Pagat or Gstieß)"),
        seat(layout, "laid_out_by", ("public", "laid_out_by"), "player who laid it out"),
        number("doubles", ("public", "doubles"), 4, "doublings so far"),
        number("declarer_pile", ("public", "pile_cards", "declarer"), 54, "cards in the declarer's pile"),
        number("defenders_pile", ("public", "pile_cards", "defenders"), 54, "cards in the defenders' pile"),
        one_hot("gstiess_to", ("public", "gstiess_to"), ("declarer", "defenders"), "side the Gstieß went back to"),
        present("thrown", ("public", "thrown"), "the deal is thrown in"),
        present("stopped", ("public", "stopped"), "the play was stopped (decided early)"),
        cards_at(layout, "shown_talon", ("public", "shown_talon"), "talon shown to the table"),
        cards_at(layout, "own_talon", ("private", "talon"), "talon this seat took (declarer)"),
        cards_at(layout, "own_discards", ("private", "discards"), "cards this seat laid away (declarer)"),
        cards_at(layout, "offered", ("private", "offered"), "card offered face down for the bought card (declarer and seller)"),
    ]


_DROGGN_IGNORED = {
    "public.multiplier": "2 ** doubles",
    "public.bids": "the bids in order; the actions slice counts each seat's bids",
}


def _dappen(layout: Layout) -> list[Slice]:
    contracts = tuple(DAPPEN_CONTRACTS)
    bids = tuple(dict.fromkeys(b for ladder in DAPPEN_LADDERS.values() for b in ladder))
    return [
        seat(layout, "idle", ("public", "idle"), "dealer who sits out"),
        one_hot("contract", ("public", "contract"), contracts, "contract"),
        seat(layout, "lone", ("public", "lone"), "lone player (declarer)"),
        seat(layout, "solo_bidder", ("public", "solo_bidder"), "player who bid a solo"),
        seat(layout, "holder", ("public", "holder"), "holder of the highest Dapp-round bid"),
        one_hot("bid", ("public", "bid"), bids, "highest Dapp-round bid"),
        seat(layout, "challenger", ("public", "challenger"), "player who challenged"),
        seats(layout, "bidders", ("public", "bidders"), "players still bidding"),
        multi_hot("ulti", ("public", "ulti"), (1, 2, 3), "Ulti announced (trump number)"),
        cards_at(layout, "ulti_cards", ("public", "ulti_cards"), "cards announced as Ulti"),
        number("dapp_size", ("public", "dapp_size"), 12, "cards in the Dapp"),
        number("discarded", ("public", "discarded"), 12, "cards laid away"),
        present("thrown", ("public", "thrown"), "the deal is thrown in"),
        cards_at(layout, "seven_fives", ("public", "seven_fives"), "the seven fives shown"),
        seat(layout, "penalty", ("public", "penalty", "seat"), "player penalised"),
        cards_at(layout, "penalty_hand", ("public", "penalty", "hand"), "the penalised player's hand"),
        cards_at(layout, "talon", ("public", "talon"), "talon shown at the end"),
        cards_at(layout, "own_discards", ("private", "discards"), "cards this seat laid away (lone player)"),
        present("must_dapp", ("private", "must_dapp"), "this seat must dapp"),
        present("gstiess_kept_back", ("private", "gstiess_kept_back"), "this seat kept the Gstieß back"),
    ]


_DAPPEN_IGNORED = {
    "public.soloist": "repeats lone",
    "public.kind": "repeats contract",
    "public.contract_title": "the contract in words (display)",
    "public.ulti_tricks": "the trick an Ulti card fell in; the tricks slices hold it",
}

GAME_SLICES: dict[str, Callable[[Layout], list[Slice]]] = {
    "doppelkopf": _doppelkopf,
    "tapp_tarock": _tapp_tarock,
    "dobbm": _dobbm,
    "droggn": _droggn,
    "dappen": _dappen,
}
"""Each game's own slices, built for one configured game."""

IGNORED: dict[str, dict[str, str]] = {
    "doppelkopf": {**_SHARED_KEYS, **_DOPPELKOPF_IGNORED},
    "tapp_tarock": {**_SHARED_KEYS, **_TAPP_IGNORED},
    "dobbm": {**_SHARED_KEYS, **_DOBBM_IGNORED},
    "droggn": {**_SHARED_KEYS, **_DROGGN_IGNORED},
    "dappen": {**_SHARED_KEYS, **_DAPPEN_IGNORED},
}
"""Observation keys no game slice reads, with the reason."""
