"""Terminal rendering: cards with suit symbols and colours, sorted hands, tricks, evaluations.

Everything returns rich markup strings (or rich tables), so the same text
prints in colour at a terminal and as plain text into a file or a test's
captured output.  Text that comes from elsewhere (action texts, error
messages) is escaped before it is embedded in markup.

Hands are sorted the way Doppelkopf players hold them: the trumps of the
current game type from highest to lowest, then the plain suits clubs,
spades, hearts, diamonds, each from highest to lowest.  Games without a
sort of their own fall back to suit, then rank.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.markup import escape
from rich.table import Table

from stich.cards import Card, Suit, parse_card
from stich.core.game import Game, TrickView
from stich.errors import NotationError

SUIT_STYLE = {
    Suit.CLUBS: "bold",
    Suit.SPADES: "bold green",
    Suit.HEARTS: "bold red",
    Suit.DIAMONDS: "bold yellow",
    Suit.TAROCK: "bold magenta",
}
"""Colour per suit: the two red suits red and yellow (like a four-colour pack), the black ones plain and green."""

KIND_TITLES = {
    "normal": "normal game",
    "hochzeit": "wedding (Hochzeit)",
    "armut": "poverty (Armut)",
    "stille_hochzeit": "silent wedding (stille Hochzeit, scored as a solo)",
    "hochzeit_solo": "wedding without partner (played as a Karo solo)",
    "genscher": "Genscher (the holder of both ♦K chose a partner)",
}

ITEM_TEXTS = {
    "gewonnen": "won the game",
    "unter_90": "the other party has under 90 eyes",
    "unter_60": "the other party has under 60 eyes",
    "unter_30": "the other party has under 30 eyes",
    "schwarz": "the other party took no trick (schwarz)",
    "re_angesagt": "Re was announced",
    "kontra_angesagt": "Kontra was announced",
    "gegen_keine90": "120 eyes against a keine 90",
    "gegen_keine60": "90 eyes against a keine 60",
    "gegen_keine30": "60 eyes against a keine 30",
    "gegen_schwarz": "30 eyes against a schwarz",
    "gegen_die_alten": "Kontra won against the queens of clubs (gegen die Alten)",
    "doppelkopf": "Doppelkopf: a trick of 40 or more eyes",
    "fuchs_gefangen": "fox caught (an opponent's ♦A)",
    "karlchen": "Karlchen: ♣J won the last trick",
    "doppeltes_karlchen": "double Karlchen: both ♣J of one party in the last trick",
    "karlchen_gefangen": "Karlchen caught in the last trick",
    "fuchs_letzter_stich": "a fox (♦A) won the last trick",
    "dulle_gefangen": "Dulle caught: the second ♥10 beat the first",
    "herzstich": "Herzstich: a hearts trick nobody trumped",
    "geklopft": "a knock (Klopfen) raised the value",
}
"""Plain-language descriptions of the evaluation items and special points (keys of the breakdown)."""

_LEVEL_TEXT = {"keine90": "keine 90", "keine60": "keine 60", "keine30": "keine 30", "schwarz": "schwarz"}


# ----------------------------------------------------------------- cards


def card_text(card: Card, german_suits: bool = False) -> str:
    """The card as shown to a player, without colour (``♥10``, or ``R10`` with German suits)."""
    return card.display(german_suits)


def card_markup(card: Card, german_suits: bool = False) -> str:
    """The card with its suit colour as rich markup."""
    return f"[{SUIT_STYLE[card.suit]}]{escape(card.display(german_suits))}[/]"


def cards_markup(cards: Sequence[Card], german_suits: bool = False) -> str:
    """Cards separated by spaces, coloured."""
    return " ".join(card_markup(c, german_suits) for c in cards)


def action_markup(text: str, german_suits: bool = False) -> str:
    """An action text with its card shown as a coloured card: ``play H10`` -> ``play ♥10``."""
    verb, _, rest = text.partition(" ")
    if verb in ("play", "discard") and rest:
        shown = []
        for token in rest.split():
            try:
                shown.append(card_markup(parse_card(token), german_suits))
            except NotationError:
                shown.append(escape(token))
        return f"{escape(verb)} {' '.join(shown)}"
    return escape(text)


# ------------------------------------------------------------ hand order

SortKey = Callable[[Card], tuple[int, ...]]


def sort_hand(cards: Sequence[Card], game: Game, public: Mapping[str, Any]) -> list[Card]:
    """Cards in the order a player holds them (the game's :meth:`~stich.core.game.Game.hand_groups`)."""
    return [c for group in game.hand_groups(cards, public) for c in group]


def sort_key_for(game: Game, public: Mapping[str, Any]) -> SortKey:
    """A sort key giving the game's hand order for any card of its pack."""
    position = {card: (i,) for i, card in enumerate(sort_hand(game.deck.faces, game, public))}
    return lambda card: position.get(card, (len(position),))


def hand_markup(cards: Sequence[Card], game: Game, public: Mapping[str, Any], german_suits: bool = False) -> str:
    """A sorted hand, its groups (in Doppelkopf: trumps, then the plain cards) set off by bars."""
    parts = [cards_markup(group, german_suits) for group in game.hand_groups(cards, public)]
    return " [dim]|[/] ".join(parts) if parts else "[dim](no cards)[/]"


# ---------------------------------------------------------------- tricks


def trick_seat_order(trick: TrickView, active: Sequence[int]) -> list[int]:
    """The seats that played the cards of ``trick``, in play order (clockwise among ``active`` seats)."""
    if trick.leader not in active:
        return [trick.leader + i for i in range(len(trick.cards))]
    start = list(active).index(trick.leader)
    return [active[(start + i) % len(active)] for i in range(len(trick.cards))]


def trick_eyes(game: Game, cards: Sequence[Card]) -> int | None:
    """Card points in a trick, where the game counts them per trick."""
    return game.trick_points(cards)


def trick_markup(trick: TrickView, active: Sequence[int], names: Sequence[str], german_suits: bool = False) -> str:
    """``You ♥10 · Seat 1 ♣Q · ...`` (leader first)."""
    seats = trick_seat_order(trick, active)
    if not trick.cards:
        return "[dim](no cards yet)[/]"
    return "  ".join(f"{escape(names[s])} {card_markup(c, german_suits)}" for s, c in zip(seats, trick.cards, strict=True))


# ------------------------------------------------------------- evaluation


def game_title(kind: str, contract: str) -> str:
    """The game type in words (``Damen-Solo``, ``normal game``...)."""
    if kind == "solo":
        from stich.games.doppelkopf.contracts import CONTRACTS

        found = CONTRACTS.get(contract)
        return found.title if found else contract
    return KIND_TITLES.get(kind, kind)


def item_text(name: str) -> str:
    """A breakdown item or special point in words."""
    if name in ITEM_TEXTS:
        return ITEM_TEXTS[name]
    for party in ("re", "kontra"):
        prefix = f"{party}_"
        if name.startswith(prefix) and name.endswith("_angesagt"):
            level = name[len(prefix) : -len("_angesagt")]
            return f"{party.capitalize()} announced {_LEVEL_TEXT.get(level, level)}"
    return name.replace("_", " ")


def _signed(points: int) -> str:
    return f"{points:+d}"


def _party_label(party: str) -> str:
    return party.capitalize()


def explain_result(result: Mapping[str, Any], names: Sequence[str], game: Game | None = None) -> list[str]:
    """The evaluation of a finished deal, step by step, as markup lines.

    ``result`` is the JSON form of a :class:`~stich.core.game.DealResult`
    (``scores`` plus the game's breakdown); ``names`` are the seat names.
    Doppelkopf's breakdown is explained here item by item; other games
    describe their own results (``game.describe_result``).
    """
    scores = list(result.get("scores", []))
    lines: list[str] = []
    kind = str(result.get("kind", ""))
    if kind == "thrown" and isinstance(result.get("seat"), int):
        seat = result.get("seat")
        who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
        reason = str(result.get("reason", "")).replace("_", " ")
        lines.append(f"[bold]Thrown in[/] by {escape(who)} ({escape(reason)}): the deal is redealt and scores nothing.")
        lines.append(_scores_line(scores, names))
        return lines
    if "eyes" not in result:
        if game is not None:
            lines += [escape(named_seats(line, names)) for line in game.describe_result(result)]
        lines.append(_scores_line(scores, names))
        return lines

    def seats_text(seats: Sequence[int]) -> str:
        return ", ".join(escape(names[s]) for s in seats)

    re_seats, kontra_seats = list(result.get("re", [])), list(result.get("kontra", []))
    title = game_title(kind, str(result.get("contract", "")))
    lines.append(f"[bold]Game:[/] {escape(title)} — Re: {seats_text(re_seats)}; Kontra: {seats_text(kontra_seats)}")
    eyes, tricks = result.get("eyes", {}), result.get("tricks", {})
    lines.append(
        f"[bold]Eyes:[/] Re {eyes.get('re', 0)}, Kontra {eyes.get('kontra', 0)}"
        f"   [bold]Tricks:[/] Re {tricks.get('re', 0)}, Kontra {tricks.get('kontra', 0)}"
    )
    calls = result.get("calls", {})
    call_words = {"none": "none", "re_kontra": "Re/Kontra"} | _LEVEL_TEXT
    lines.append(
        f"[bold]Calls:[/] Re {escape(call_words.get(calls.get('re', 'none'), str(calls.get('re'))))}, "
        f"Kontra {escape(call_words.get(calls.get('kontra', 'none'), str(calls.get('kontra'))))}"
    )
    winner = result.get("winner")
    lines.append(f"[bold]Winner:[/] {_party_label(str(winner)) if winner else 'nobody (both parties missed their goal)'}")
    items = list(result.get("items", []))
    if items:
        lines.append("[bold]Game value:[/]")
        for item in items:
            lines.append(f"  {item['points']:>2} {escape(item_text(str(item['name'])))} ({_party_label(str(item['party']))})")
    multiplier = int(result.get("multiplier", 1))
    if multiplier != 1:
        lines.append(f"  × {multiplier} (bock)")
    specials = list(result.get("specials", []))
    if specials:
        lines.append("[bold]Special points:[/]")
        for sp in specials:
            where = f", trick {int(sp['trick']) + 1}" if sp.get("trick") is not None else ""
            lines.append(f"  {sp['points']:>2} {escape(item_text(str(sp['name'])))} ({_party_label(str(sp['party']))}{where})")
    value = int(result.get("value", 0))
    factor = " (the soloist scores it three times)" if result.get("solo") else ""
    lines.append(f"[bold]Value:[/] {value} for Re{escape(factor)}")
    lines.append(_scores_line(scores, names))
    return lines


_SEATS = re.compile(r"\b([Ss])eats? (\d+)((?:(?:, | and )\d+)*)")


def named_seats(line: str, names: Sequence[str]) -> str:
    """A game's result line with ``seat 0`` / ``seats 1, 2`` / ``seats 1 and 0`` replaced by the seat names ("You", "Seat 2")."""

    def name(match: re.Match[str]) -> str:
        seats = [int(n) for n in re.findall(r"\d+", match.group(2) + match.group(3))]
        if any(s >= len(names) for s in seats):
            return match.group(0)
        return ", ".join(names[s] for s in seats)

    return _SEATS.sub(name, line)


def _scores_line(scores: Sequence[int], names: Sequence[str]) -> str:
    parts = [f"{escape(names[s])} {_signed(v)}" for s, v in enumerate(scores)]
    return "[bold]Scores:[/] " + ", ".join(parts)


def sheet_table(rows: Sequence[Mapping[str, Any]], names: Sequence[str], title: str = "Score sheet") -> Table:
    """The score sheet (JSON rows of a session) as a rich table: scores per deal and running totals."""
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column("dealer", justify="right")
    table.add_column("game")
    for name in names:
        table.add_column(escape(name), justify="right")
    for row in rows:
        scores, totals = list(row["scores"]), list(row["totals"])
        cells = [f"{_signed(s)} = {t}" for s, t in zip(scores, totals, strict=True)]
        table.add_row(str(row["number"]), escape(names[int(row["dealer"])]), escape(named_seats(str(row.get("label", "")), names)), *cells)
    return table
