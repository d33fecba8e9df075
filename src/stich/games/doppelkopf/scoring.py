"""Evaluation of a finished Doppelkopf deal: who won, what it is worth (dossier §7).

:func:`evaluate` turns the :class:`~stich.games.doppelkopf.outcome.DealFacts`
of a finished deal into a :class:`~stich.core.game.DealResult`.  The steps
follow the dossier (DDV tournament rules, TSR 7):

1. **Eyes and tricks** per party, from the tricks (A 11, 10 10, K 4, Q 3,
   J 2, 9 0; 240 in all).
2. **Goals** (§7.1): a party with its own absage needs 151 / 181 / 211 eyes
   or every trick (schwarz); else, against an opposing absage, it needs
   90 / 60 / 30 eyes or one trick; else Re needs 121 and Kontra 120, except
   that when only Kontra was called Re needs 120 and Kontra 121 (the option
   ``re_needs_121_when_only_kontra`` keeps Re at 121 and Kontra at 120).
   The winner is the single party that reached its goal; if both failed
   there is no winner (TSR 7.1.3).
3. **Game value** (§7.2) as a list of *items*, each credited to one party.
   With a winner every item goes to the winner; with no winner each party
   keeps only its own "under" and "against" items and the two are netted
   (dossier A-15).  Item names:

   ``gewonnen``
       (a) the game was won: 1.
   ``unter_90``, ``unter_60``, ``unter_30``
       (a) the other party finished under 90 / 60 / 30 eyes: 1 each.
   ``schwarz``
       (a) the other party took no trick: 1.
   ``re_angesagt``, ``kontra_angesagt``
       (b) Re / Kontra was called: 2 each.  With ``call_scoring="double"``
       each call doubles the value instead, and the item carries the points
       that its doubling added (so the items still sum to the value); with
       ``specials_before_doubling`` the doublings double the special points
       too (the items then carry that part as well).
   ``geklopft``
       [VAR] one item per knock (``knocking``, decision 0028): 2, or with
       ``call_scoring="double"`` the points its doubling adds, to the winner.
   ``re_keine90_angesagt`` ... ``re_schwarz_angesagt``, ``kontra_keine90_angesagt`` ...
       (c)/(d) each absage level called by Re / by Kontra: 1 each.  Levels
       are cumulative: a called ``keine60`` scores ``keine90`` too.
   ``gegen_keine90``, ``gegen_keine60``, ``gegen_keine30``, ``gegen_schwarz``
       (e)/(f) the party reached 120 / 90 / 60 / 30 eyes against the other
       party's keine 90 / keine 60 / keine 30 / schwarz: 1 each (for
       schwarz the 30 eyes count, a single trick is not enough, A-16).

4. **Special points** (§7.3), in normal games (``normal``, ``hochzeit``,
   ``armut``) only, unless ``specials_in_solo``.  Each has the trick it was
   made in (``None`` for ``gegen_die_alten``).  Names:

   ``gegen_die_alten``
       Kontra won a normal game (never in a solo-scored game).
   ``doppelkopf``
       a trick of 40 or more eyes, to the party that won it.
   ``fuchs_gefangen``
       a diamond ace played by one party and won by the other (the diamond
       aces of ``schweine_seat`` are not foxes, A-24).
   ``karlchen`` / ``doppeltes_karlchen``
       the jack of clubs wins the last trick: 1, or 2 with
       ``sp_double_karlchen`` when one party played both jacks of clubs into it.
   ``karlchen_gefangen``
       [VAR] per jack of clubs in the last trick played by the party that lost it.
   ``fuchs_letzter_stich``
       [VAR] a diamond ace (not a Schwein) wins the last trick.
   ``dulle_gefangen``
       [VAR] the later of two hearts tens in one trick wins it, and the two
       were played by different parties.
   ``herzstich``
       [VAR] a plain hearts card was led and nobody trumped the trick.

5. **Value for Re**: the signed item sum (Re items plus, Kontra items minus),
   times the bock ``multiplier``, plus the netted special points (times the
   multiplier too with ``bock_applies_to_specials``).  Each Re seat scores
   the value and each Kontra seat minus the value; in a solo (and a silent
   or failed wedding) the soloist scores three times the value (§7.4).
   Seats outside ``active_seats`` score 0.  With ``counting=plus`` only the
   entries above 0 are booked, with ``minus`` only those below 0 (§7.8); there
   a solo nobody won books its net value once, not triple (decision 0043).

The ``breakdown`` of the result is JSON with exactly these keys: ``kind`` and
``contract`` (copied from the facts), ``re`` and ``kontra`` (sorted seats),
``eyes`` and ``tricks`` (``{"re": n, "kontra": n}``), ``calls`` (each party's
highest call as a name from ``LEVEL_NAMES``), ``winner`` (``"re"``,
``"kontra"`` or ``None``), ``items`` (``{name, party, points}``), ``specials``
(``{name, party, points, trick}``), ``multiplier`` (bock), ``value`` (the net
value for Re after everything, before the solo factor) and ``solo`` (scored
as a solo).
Decisions on unclear points: docs/decisions/0003-doppelkopf-evaluation.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from stich.cards import Card, Suit
from stich.core.game import DealResult
from stich.core.tricks import PlayedTrick
from stich.games.doppelkopf.contracts import CJ, DA, EYES, FACES, H10, SUITS, TRUMP, card_order
from stich.games.doppelkopf.options import DoppelkopfOptions
from stich.games.doppelkopf.outcome import KEINE30, KEINE60, KEINE90, LEVEL_NAMES, NONE, SCHWARZ, DealFacts

RE = "re"
KONTRA = "kontra"
PARTIES = (RE, KONTRA)

NORMAL_KINDS = frozenset({"normal", "hochzeit", "armut", "genscher"})
"""Game kinds that score special points under the DDV rules, and the only ones with gegen die Alten (§7.3)."""

SOLO_FACTOR = 3
DOPPELKOPF_EYES = 40
ABSAGEN = (KEINE90, KEINE60, KEINE30, SCHWARZ)
OWN_ABSAGE_GOAL = {KEINE90: 151, KEINE60: 181, KEINE30: 211}
"""Eyes a party needs after its own absage (schwarz: every trick)."""
AGAINST_ABSAGE_GOAL = {KEINE90: 90, KEINE60: 60, KEINE30: 30}
"""Eyes a party needs against the other side's absage (schwarz: one trick)."""
UNDER_MARKS = ((90, "unter_90"), (60, "unter_60"), (30, "unter_30"))
AGAINST_MARKS = {KEINE90: 120, KEINE60: 90, KEINE30: 60, SCHWARZ: 30}
"""Eyes that earn the (e)/(f) point against each level of the other side's absage."""

_EYES: dict[Card, int] = dict(zip(FACES, EYES, strict=True))
_CJ, _DA, _H10 = FACES[CJ], FACES[DA], FACES[H10]


@dataclass(frozen=True)
class Item:
    """One game-value item (§7.2), credited to ``party``."""

    name: str
    party: str
    points: int

    def to_json(self) -> dict[str, Any]:
        """JSON form used in the breakdown."""
        return {"name": self.name, "party": self.party, "points": self.points}


@dataclass(frozen=True)
class Special:
    """One special point (§7.3), credited to ``party``, made in trick ``trick`` (0-based)."""

    name: str
    party: str
    points: int
    trick: int | None

    def to_json(self) -> dict[str, Any]:
        """JSON form used in the breakdown."""
        return {"name": self.name, "party": self.party, "points": self.points, "trick": self.trick}


@dataclass(frozen=True)
class Tally:
    """Per-party eyes, tricks and highest call of a finished deal."""

    eyes: dict[str, int]
    tricks: dict[str, int]
    level: dict[str, int]
    knocks: int = 0


def other(party: str) -> str:
    """The opposing party."""
    return KONTRA if party == RE else RE


def card_eyes(card: Card) -> int:
    """Eyes (card points) of one Doppelkopf card."""
    return _EYES[card]


def trick_eyes(trick: PlayedTrick) -> int:
    """Eyes in one trick."""
    return sum(map(_EYES.__getitem__, trick.cards))  # card_eyes per card, without a call each (twice per trick per deal)


def winning_card(trick: PlayedTrick) -> Card:
    """The card that won ``trick``: the one played by its winner."""
    return trick.cards[trick.seats.index(trick.winner)]


# --- eyes, tricks and the winner (§7.1)


def tally(facts: DealFacts) -> Tally:
    """Count eyes and tricks per party."""
    eyes = {RE: 0, KONTRA: 0}
    tricks = {RE: 0, KONTRA: 0}
    for trick in facts.tricks:
        party = RE if trick.winner in facts.re_seats else KONTRA
        eyes[party] += trick_eyes(trick)
        tricks[party] += 1
    return Tally(eyes, tricks, {RE: facts.re_level, KONTRA: facts.kontra_level}, facts.knocks)


def goal_reached(party: str, t: Tally, options: DoppelkopfOptions) -> bool:
    """Whether ``party`` reached its goal (§7.1)."""
    own, opp = t.level[party], t.level[other(party)]
    eyes = t.eyes[party]
    if own >= KEINE90:
        return t.tricks[other(party)] == 0 if own == SCHWARZ else eyes >= OWN_ABSAGE_GOAL[own]
    if opp >= KEINE90:
        return t.tricks[party] >= 1 if opp == SCHWARZ else eyes >= AGAINST_ABSAGE_GOAL[opp]
    only_kontra_called = t.level[RE] == NONE and t.level[KONTRA] != NONE
    if only_kontra_called and not options.re_needs_121_when_only_kontra:
        return eyes >= (120 if party == RE else 121)
    return eyes >= (121 if party == RE else 120)


def find_winner(t: Tally, options: DoppelkopfOptions) -> str | None:
    """The single party that reached its goal, or ``None`` (TSR 7.1.3)."""
    reached = [party for party in PARTIES if goal_reached(party, t, options)]
    if len(reached) == 2:
        raise ValueError(f"both parties reached their goal (eyes {t.eyes}, tricks {t.tricks}): inconsistent deal facts")
    return reached[0] if reached else None


# --- game value (§7.2)


def under_items(party: str, t: Tally) -> Iterator[Item]:
    """(a) the other party finished under 90 / 60 / 30 eyes, or took no trick."""
    opp = other(party)
    for mark, name in UNDER_MARKS:
        if t.eyes[opp] < mark:
            yield Item(name, party, 1)
    if t.tricks[opp] == 0:
        yield Item("schwarz", party, 1)


def against_items(party: str, t: Tally) -> Iterator[Item]:
    """(e)/(f) the party reached 120 / 90 / 60 / 30 eyes against each level of the other side's absage."""
    for level in ABSAGEN:
        if t.level[other(party)] >= level and t.eyes[party] >= AGAINST_MARKS[level]:
            yield Item(f"gegen_{LEVEL_NAMES[level]}", party, 1)


def announcement_items(winner: str, t: Tally) -> Iterator[Item]:
    """(c)/(d): one point to the winner for each absage level either party called."""
    for caller in PARTIES:
        for level in ABSAGEN:
            if t.level[caller] >= level:
                yield Item(f"{caller}_{LEVEL_NAMES[level]}_angesagt", winner, 1)


def call_items(winner: str, t: Tally, base: int, options: DoppelkopfOptions) -> Iterator[Item]:
    """(b): Re / Kontra called, then each knock; +2 each, or (``call_scoring="double"``) the points each doubling adds to ``base``."""
    value = base
    for caller in PARTIES:
        if t.level[caller] != NONE:
            points = value if options.call_scoring == "double" else 2
            value += points
            yield Item(f"{caller}_angesagt", winner, points)
    for _ in range(t.knocks):
        # [VAR §5.5, decision 0028] each knock raises like a call whose party nobody names
        points = value if options.call_scoring == "double" else 2
        value += points
        yield Item("geklopft", winner, points)


def value_items(winner: str | None, t: Tally, options: DoppelkopfOptions, specials_for_winner: int = 0) -> list[Item]:
    """All game-value items in dossier order (§7.2); without a winner only each party's own items (A-15).

    ``specials_for_winner`` (the net special points from the winner's side) joins the base that the
    doublings double when ``specials_before_doubling`` is on [§7.8 VAR]; the special points themselves
    are still added once by :func:`evaluate`, so items plus specials make (base + specials) x 2^calls.
    """
    if winner is None:
        return [item for party in PARTIES for item in (*under_items(party, t), *against_items(party, t))]
    head = [Item("gewonnen", winner, 1), *under_items(winner, t)]
    absagen = list(announcement_items(winner, t))
    against = list(against_items(winner, t))
    base = sum(item.points for item in head + absagen + against)
    if options.specials_before_doubling:
        base += specials_for_winner
    return head + list(call_items(winner, t, base, options)) + absagen + against


# --- special points (§7.3)

PartyOf = Callable[[int], str]


def specials_count(facts: DealFacts, options: DoppelkopfOptions) -> bool:
    """Whether special points count in this deal (§7.3, A-9)."""
    return not facts.is_solo_scoring or options.specials_in_solo


def trick_specials(index: int, trick: PlayedTrick, party_of: PartyOf, facts: DealFacts, options: DoppelkopfOptions) -> Iterator[Special]:
    """Doppelkopf, caught foxes and (variant) a caught Dulle in one trick."""
    taker = party_of(trick.winner)
    if options.sp_doppelkopf and trick_eyes(trick) >= DOPPELKOPF_EYES:
        yield Special("doppelkopf", taker, 1, index)
    if options.sp_fuchs:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            if card == _DA and not facts.schwein_in(index, seat) and party_of(seat) != taker:
                yield Special("fuchs_gefangen", taker, 1, index)
    if options.sp_dulle_gefangen and dulle_caught(trick, party_of, Card.parse(options.contract(facts.contract).dulle)):
        yield Special("dulle_gefangen", taker, 1, index)
    if options.sp_herzstich and hearts_untrumped(trick, facts, options):
        yield Special("herzstich", taker, 1, index)


def hearts_untrumped(trick: PlayedTrick, facts: DealFacts, options: DoppelkopfOptions) -> bool:
    """[VAR] Herzstich: a plain hearts card led and no trump in the trick (FreeDoko's "heart trick")."""
    order = card_order(options.contract(facts.contract), options.dullen)
    faces = [FACES.index(card) for card in trick.cards]
    return order.eff[faces[0]] == SUITS.index(Suit.HEARTS) and all(order.eff[f] != TRUMP for f in faces)


def dulle_caught(trick: PlayedTrick, party_of: PartyOf, dulle: Card = _H10) -> bool:
    """Both Dullen (hearts tens, or the short suit's, decision 0027) in the trick, from different parties, the later one won."""
    dullen = [seat for seat, card in zip(trick.seats, trick.cards, strict=True) if card == dulle]
    return len(dullen) == 2 and dullen[1] == trick.winner and party_of(dullen[0]) != party_of(dullen[1])


def last_trick_specials(
    index: int, trick: PlayedTrick, party_of: PartyOf, facts: DealFacts, options: DoppelkopfOptions
) -> Iterator[Special]:
    """Karlchen and the last-trick variants: doppeltes Karlchen, Karlchen gefangen, Fuchs im letzten Stich."""
    taker = party_of(trick.winner)
    top = winning_card(trick)
    charlies = [seat for seat, card in zip(trick.seats, trick.cards, strict=True) if card == _CJ]
    if options.sp_karlchen and top == _CJ:
        double = options.sp_double_karlchen and len(charlies) == 2 and all(party_of(s) == taker for s in charlies)
        yield Special("doppeltes_karlchen", taker, 2, index) if double else Special("karlchen", taker, 1, index)
    if options.sp_karlchen_gefangen:
        for seat in charlies:
            if party_of(seat) != taker:
                yield Special("karlchen_gefangen", taker, 1, index)
    if options.sp_fuchs_last_trick and top == _DA and not facts.schwein_in(index, trick.winner):
        yield Special("fuchs_letzter_stich", taker, 1, index)


def special_points(facts: DealFacts, options: DoppelkopfOptions, winner: str | None) -> list[Special]:
    """All special points of the deal, both parties (§7.3)."""
    if not specials_count(facts, options):
        return []

    def party_of(seat: int) -> str:
        return RE if seat in facts.re_seats else KONTRA

    out: list[Special] = []
    if options.sp_gegen_die_alten and winner == KONTRA and facts.kind in NORMAL_KINDS:
        out.append(Special("gegen_die_alten", KONTRA, 1, None))
    for index, trick in enumerate(facts.tricks):
        out.extend(trick_specials(index, trick, party_of, facts, options))
    if facts.tricks:
        last = len(facts.tricks) - 1
        out.extend(last_trick_specials(last, facts.tricks[last], party_of, facts, options))
    return out


# --- scores


def signed(points: int, party: str) -> int:
    """Points seen from Re: plus for Re, minus for Kontra."""
    return points if party == RE else -points


def check_parties(facts: DealFacts) -> tuple[list[int], list[int]]:
    """Sorted Re and Kontra seats; raises ``ValueError`` on a table that cannot be scored zero-sum."""
    re = sorted(facts.re_seats)
    kontra = sorted(s for s in facts.active_seats if s not in facts.re_seats)
    expected_re = 1 if facts.is_solo_scoring else 2
    if len(facts.active_seats) != 4 or len(re) != expected_re or not set(re) <= set(facts.active_seats):
        raise ValueError(f"cannot score {facts.kind}: Re {re} among active seats {list(facts.active_seats)}")
    return re, kontra


def seat_scores(facts: DealFacts, value: int, options: DoppelkopfOptions, winner: str | None = None) -> tuple[int, ...]:
    """Score per seat: Re +value (a soloist 3×value), Kontra −value, idle seats 0 (§7.4–7.6).

    [VAR §7.8 counting] ``plus`` books the game only for the side the value
    credits, ``minus`` only for the side it debits.  There the solo's triple is
    the price of a decided solo (decision 0043, FreeDoko's ``GameSummary::points``):
    the soloist's entry is 3×value when the solo has a ``winner``, and the plain
    net value when nobody won it (§7.2, TSR 7.1.3); with ``solo_always_triple``
    ("solo always counts triple") every entry of a solo is tripled, the
    opponents' included.  A value of 0 books nothing.
    """
    factor = SOLO_FACTOR if facts.is_solo_scoring else 1
    scores = [0] * facts.num_seats
    for seat in facts.active_seats:
        scores[seat] = factor * value if seat in facts.re_seats else -value
    if options.counting == "plus_minus":
        return tuple(scores)
    keep_sign = 1 if options.counting == "plus" else -1
    solo = facts.is_solo_scoring
    soloist = SOLO_FACTOR if solo and (winner is not None or options.solo_always_triple) else 1
    opponents = SOLO_FACTOR if solo and options.solo_always_triple else 1
    out = [0] * facts.num_seats
    for seat in facts.active_seats:
        entry = value if seat in facts.re_seats else -value
        if entry * keep_sign > 0:
            out[seat] = entry * (soloist if seat in facts.re_seats else opponents)
    return tuple(out)


def deal_value(facts: DealFacts, t: Tally, options: DoppelkopfOptions) -> tuple[str | None, list[Item], list[Special], int]:
    """The winner, the game-value items, the special points of ``facts.tricks`` and the value for Re, for the eyes and tricks ``t``.

    :func:`evaluate` passes the deal's own tally; the analysis passes a tally
    of final eyes a solver found and facts without tricks (the game value
    alone, no trick's special points).
    """
    winner = find_winner(t, options)
    specials = special_points(facts, options, winner)
    for_winner = sum(s.points if s.party == winner else -s.points for s in specials) if winner is not None else 0
    items = value_items(winner, t, options, for_winner)
    game_value = sum(signed(i.points, i.party) for i in items) * facts.multiplier
    special_value = sum(signed(s.points, s.party) for s in specials)
    return winner, items, specials, game_value + special_value * (facts.multiplier if options.bock_applies_to_specials else 1)


def evaluate(facts: DealFacts, options: DoppelkopfOptions) -> DealResult:
    """Score a finished deal (dossier §7).  See the module docstring for the items and the breakdown."""
    re, kontra = check_parties(facts)
    t = tally(facts)
    winner, items, specials, value = deal_value(facts, t, options)
    breakdown: dict[str, Any] = {
        "kind": facts.kind,
        "contract": facts.contract,
        "re": re,
        "kontra": kontra,
        "eyes": dict(t.eyes),
        "tricks": dict(t.tricks),
        "calls": {party: LEVEL_NAMES[t.level[party]] for party in PARTIES},
        "winner": winner,
        "items": [i.to_json() for i in items],
        "specials": [s.to_json() for s in specials],
        "multiplier": facts.multiplier,
        "value": value,
        "solo": facts.is_solo_scoring,
    }
    return DealResult(seat_scores(facts, value, options, winner), breakdown)
