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
from stich.cli.result_lines import result_lines, sheet_label
from stich.cli.texts import Texts
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


def hand_markup(
    cards: Sequence[Card], game: Game, public: Mapping[str, Any], german_suits: bool = False, texts: Texts | None = None
) -> str:
    """A sorted hand, its groups (in Doppelkopf: trumps, then the plain cards) set off by bars."""
    parts = [cards_markup(group, german_suits) for group in game.hand_groups(cards, public)]
    return " [dim]|[/] ".join(parts) if parts else f"[dim]{(texts or Texts())('no_cards')}[/]"


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


def trick_markup(
    trick: TrickView, active: Sequence[int], names: Sequence[str], german_suits: bool = False, texts: Texts | None = None
) -> str:
    """``You ♥10 · Seat 1 ♣Q · ...`` (leader first)."""
    seats = trick_seat_order(trick, active)
    if not trick.cards:
        return f"[dim]{(texts or Texts())('no_cards_yet')}[/]"
    return "  ".join(f"{escape(names[s])} {card_markup(c, german_suits)}" for s, c in zip(seats, trick.cards, strict=True))


# ------------------------------------------------------------- evaluation


def game_title(kind: str, contract: str, texts: Texts | None = None) -> str:
    """The game type in words (``Damen-Solo``, ``normal game`` / ``Normalspiel``...)."""
    if kind == "solo":
        from stich.games.doppelkopf.contracts import CONTRACTS

        found = CONTRACTS.get(contract)
        return found.title if found else contract
    tr = texts or Texts()
    return tr(f"kind.{kind}") if tr.has(f"kind.{kind}") else kind


def item_text(name: str, texts: Texts | None = None) -> str:
    """A breakdown item or special point in words."""
    tr = texts or Texts()
    if tr.has(f"item.{name}"):
        return tr(f"item.{name}")
    for party in ("re", "kontra"):
        prefix = f"{party}_"
        if name.startswith(prefix) and name.endswith("_angesagt"):
            level = name[len(prefix) : -len("_angesagt")]
            return tr("ev.announced", party=party.capitalize(), level=_LEVEL_TEXT.get(level, level))
    return name.replace("_", " ")


def _signed(points: int) -> str:
    return f"{points:+d}"


def _party_label(party: str) -> str:
    return party.capitalize()


def call_text(party: str, level: str, texts: Texts | None = None) -> str:
    """A party's highest call in words: ``Re`` / ``Kontra`` for the plain call, ``keine 90``..., or none."""
    if level == "none":
        return (texts or Texts())("ev.call_none")
    if level == "re_kontra":
        return _party_label(party)
    return _LEVEL_TEXT.get(level, level)


def explain_result(result: Mapping[str, Any], names: Sequence[str], game: Game | None = None, texts: Texts | None = None) -> list[str]:
    """The evaluation of a finished deal, step by step, as markup lines.

    ``result`` is the JSON form of a :class:`~stich.core.game.DealResult`
    (``scores`` plus the game's breakdown); ``names`` are the seat names.
    Doppelkopf's breakdown is explained here item by item, in the language of
    ``texts``; the Tarock games' results in the web's words
    (:mod:`stich.cli.result_lines`); a game or result kind not worded there
    falls back to the game's own English lines (``game.describe_result``).
    """
    tr = texts or Texts()
    scores = list(result.get("scores", []))
    lines: list[str] = []
    kind = str(result.get("kind", ""))
    worded = result_lines(game.name, result, names, tr) if game is not None else None
    if worded is not None:
        return [*(escape(line) for line in worded), _scores_line(scores, names, tr)]
    if kind == "thrown" and isinstance(result.get("seat"), int):
        seat = result.get("seat")
        who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
        reason = str(result.get("reason", "")).replace("_", " ")
        lines.append(tr("ev.thrown", who=escape(who), reason=escape(reason)))
        lines.append(_scores_line(scores, names, tr))
        return lines
    if "eyes" not in result:
        if game is not None:
            lines += [escape(named_seats(line, names)) for line in game.describe_result(result)]
        lines.append(_scores_line(scores, names, tr))
        return lines

    def seats_text(seats: Sequence[int]) -> str:
        return ", ".join(escape(names[s]) for s in seats)

    re_seats, kontra_seats = list(result.get("re", [])), list(result.get("kontra", []))
    title = game_title(kind, str(result.get("contract", "")), tr)
    lines.append(tr("ev.game", title=escape(title), re=seats_text(re_seats), kontra=seats_text(kontra_seats)))
    eyes, tricks = result.get("eyes", {}), result.get("tricks", {})
    lines.append(
        tr(
            "ev.eyes",
            re=eyes.get("re", 0),
            kontra=eyes.get("kontra", 0),
            re_tricks=tricks.get("re", 0),
            kontra_tricks=tricks.get("kontra", 0),
        )
    )
    calls = result.get("calls", {})
    lines.append(
        tr(
            "ev.calls",
            re=escape(call_text("re", str(calls.get("re", "none")), tr)),
            kontra=escape(call_text("kontra", str(calls.get("kontra", "none")), tr)),
        )
    )
    winner = result.get("winner")
    lines.append(tr("ev.winner", party=_party_label(str(winner)) if winner else tr("ev.nobody")))
    items = list(result.get("items", []))
    if items:
        lines.append(tr("ev.game_value"))
        for item in items:
            lines.append(f"  {item['points']:>2} {escape(item_text(str(item['name']), tr))} ({_party_label(str(item['party']))})")
    multiplier = int(result.get("multiplier", 1))
    if multiplier != 1:
        lines.append(tr("ev.bock", n=multiplier))
    specials = list(result.get("specials", []))
    if specials:
        lines.append(tr("ev.specials"))
        for sp in specials:
            where = tr("ev.trick", n=int(sp["trick"]) + 1) if sp.get("trick") is not None else ""
            lines.append(f"  {sp['points']:>2} {escape(item_text(str(sp['name']), tr))} ({_party_label(str(sp['party']))}{where})")
    value = int(result.get("value", 0))
    factor = tr("ev.solo_factor") if result.get("solo") else ""
    lines.append(tr("ev.value", value=value, factor=escape(factor)))
    lines.append(_scores_line(scores, names, tr))
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


def _scores_line(scores: Sequence[int], names: Sequence[str], texts: Texts) -> str:
    parts = [f"{escape(names[s])} {_signed(v)}" for s, v in enumerate(scores)]
    return texts("ev.scores") + ", ".join(parts)


def doppelkopf_sheet_label(notes: Mapping[str, Any], names: Sequence[str], texts: Texts) -> str | None:
    """A Doppelkopf sheet row's game in the sitting's language, from the row's notes (``None`` if they are missing).

    The session's own ``label`` is one fixed text for records (``Pflichtsolo Damen (seat 2)``); the
    terminal words it from the notes so that the sheet speaks the same language as the rest of the screen.
    """
    kind = notes.get("kind")
    if not isinstance(kind, str):
        return None
    from stich.games.doppelkopf.contracts import CONTRACTS

    def who(key: str) -> str:
        seat = notes.get(key)
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    contract = str(notes.get("contract", ""))
    if kind == "solo":
        found = CONTRACTS.get(contract)
        title = found.title if found else contract
        key = "sheet.vorfuehrung" if notes.get("forced") else "sheet.pflichtsolo" if notes.get("pflicht") else "sheet.lustsolo"
        label = texts(key, title=title, who=who("soloist"))
    elif kind in ("stille_hochzeit", "hochzeit_solo"):
        label = texts(f"sheet.{kind}", who=who("soloist"))
    elif kind == "hochzeit" and "hochzeiter" in notes:
        label = texts("sheet.hochzeit", who=who("hochzeiter"))
    elif kind == "genscher" and "genscher" in notes:
        pair = notes["genscher"]
        label = texts("sheet.genscher", who=names[pair[0]], partner=names[pair[1]])
    elif kind == "armut" and "poor" in notes:
        label = texts("sheet.armut", who=who("poor"), taker=who("armut_taker"))
    elif kind == "normal":
        label = texts("sheet.normal")
    else:
        return None
    multiplier = notes.get("multiplier", 1)
    return texts("sheet.bock", n=multiplier, label=label) if isinstance(multiplier, int) and multiplier > 1 else label


def sheet_table(
    rows: Sequence[Mapping[str, Any]], names: Sequence[str], title: str | None = None, texts: Texts | None = None, game: str = "doppelkopf"
) -> Table:
    """The score sheet (JSON rows of a session) as a rich table: scores per deal and running totals.

    A row's game is worded from its notes in the sitting's language (Doppelkopf here, ``game``'s
    Tarock-family rows in :func:`stich.cli.result_lines.sheet_label`); only rows whose notes say
    too little show the session's own label.
    """
    tr = texts or Texts()
    table = Table(title=title or tr("sheet.title"), title_justify="left", show_edge=False, pad_edge=False)
    table.add_column(tr("sheet.number"), justify="right")
    table.add_column(tr("sheet.dealer"), justify="right")
    table.add_column(tr("sheet.game"))
    for name in names:
        table.add_column(escape(name), justify="right")
    for row in rows:
        scores, totals = list(row["scores"]), list(row["totals"])
        cells = [f"{_signed(s)} = {t}" for s, t in zip(scores, totals, strict=True)]
        notes = row.get("notes")
        label = None
        if isinstance(notes, Mapping):
            label = sheet_label(game, notes, names, tr) if game != "doppelkopf" else doppelkopf_sheet_label(notes, names, tr)
        if label is None:
            label = named_seats(str(row.get("label", "")), names)
        table.add_row(str(row["number"]), escape(names[int(row["dealer"])]), escape(label), *cells)
    return table
