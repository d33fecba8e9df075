"""Game records: write any deal or list as self-contained JSON, read it back, replay and re-check it.

A *deal record* holds everything needed to repeat one deal exactly: the
canonical game string and its rules version, the seed (if any), the dealer,
the session context, every seat's dealt hand in text notation, every action
with its seat, and the result.  A *list record* (German "Liste") holds the
deal records of a session in order, with its score sheet and totals.  A
``.jsonl`` file holds one record per line.  ``docs/records.md`` documents the
format; ``stich/schemas/record.schema.json`` is its JSON Schema.

Replaying trusts nothing in the record: :func:`replay_deal` rebuilds the game
from its string, re-deals, re-checks every action against the rules and
recomputes the result; :func:`replay_list` also re-runs the session, so each
deal's seed, dealer and context and the final score sheet are checked too.
Every problem is a :class:`~stich.errors.RecordError` whose ``where``
names the field or position (``deal[2][5]``, ``actions[17][1]``,
``deals[3].result.scores``...), so a broken file never ends in a traceback.

Records read the attributes every :class:`~stich.core.game.State` keeps:
``dealt`` (the dealt hands as physical-card masks), ``dealer``, ``seed``
(``None`` for an explicit deal), ``context`` (what the session passed to
``new_state``) and ``history``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from stich import __version__
from stich.cards import format_cards, iter_bits, parse_card
from stich.core import registry
from stich.core.game import TERMINAL, Action, Game, State
from stich.core.registry import game_from_string
from stich.core.session import Session
from stich.errors import IllegalActionError, NotationError, OptionError, RecordError, StichError

__all__ = [
    "CONTEXT_SHAPES",
    "FORMAT_VERSION",
    "MAX_DEPTH",
    "MAX_INTEGER",
    "MAX_SEED",
    "SessionFactory",
    "deal_record",
    "dumps_record",
    "list_record",
    "load_schema",
    "parse_record",
    "play_session",
    "read_jsonl",
    "replay_any",
    "replay_deal",
    "replay_list",
    "session_class",
    "validate_record",
    "write_jsonl",
]

FORMAT_VERSION = 1
"""Version of the record layout itself; a game's ``rules_version`` versions its outcomes."""

MAX_SEED = (1 << 64) - 1
"""Seeds are 64-bit: the dealing generator (:mod:`stich.core.rng`) works modulo 2**64."""

DEAL_KEYS = ("format", "type", "game", "rules_version", "stich_version", "seed", "dealer", "context", "deal", "actions", "result")
"""Required keys of a deal record, in the order :func:`dumps_record` writes them."""
LIST_KEYS = ("format", "type", "game", "rules_version", "stich_version", "seed", "deals_requested", "deals", "sheet", "totals")
"""Required keys of a list record, in the order :func:`dumps_record` writes them."""
OPTIONAL_KEYS = ("players", "meta")
"""Keys either kind of record may have."""
SHEET_ROW_KEYS = ("number", "dealer", "label", "scores", "totals", "notes")
"""Keys every score-sheet row has (see :class:`stich.core.session.SheetRow`)."""
MAX_DEPTH = 32
"""Deepest nesting of arrays and objects a record may have; the records stich writes nest 6 levels at most (a list's deal results)."""
MAX_INTEGER = MAX_SEED
"""Largest magnitude of a number anywhere in a record: a seed is the largest number a record needs."""
MAX_INTEGER_DIGITS = len(str(MAX_INTEGER))
"""Digits of :data:`MAX_INTEGER`: a longer integer is refused before Python converts it (and before its 4,300-digit limit)."""

SessionFactory = Callable[[Game, int, int | None], Session]
"""Builds a fresh session: ``factory(game, seed, deals_requested)``."""


# --------------------------------------------------------------------- writing
def deal_record(state: State, *, players: Sequence[str] | None = None, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The deal record of ``state``, finished or not (``result`` is ``None`` while the deal runs).

    ``players`` names the seats (one name per seat); ``meta`` is free-form
    JSON data (bot names, timestamps...) that replay ignores.
    """
    game = state.game
    record: dict[str, Any] = {
        "format": FORMAT_VERSION,
        "type": "deal",
        "game": game.canonical,
        "rules_version": game.rules_version,
        "stich_version": __version__,
        "seed": state.seed,
        "dealer": state.dealer,
        "context": _json_form(dict(state.context), "context"),
        "deal": [_hand_texts(game, mask) for mask in state.dealt],
        "actions": [[seat, game.actions[code].text] for seat, code in state.history],
        "result": _json_form(state.result().to_json(), "result") if state.is_terminal() else None,
    }
    _add_optional(record, game, players, meta)
    return record


def list_record(
    session: Session,
    states: Sequence[State],
    *,
    players: Sequence[str] | None = None,
    meta: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The list record of ``session``, whose deals were ``states`` (in order).

    The session keeps only its score sheet, so the caller passes the states it
    played: every booked deal, plus optionally the pending unfinished one last.
    :func:`play_session` plays a whole session and returns exactly that list.
    Raises ``ValueError`` if ``states`` do not belong to ``session``.
    """
    booked = len(session.rows)
    if len(states) not in (booked, booked + 1):
        raise ValueError(f"the session has booked {booked} deals but {len(states)} states were given")
    if len(states) == booked + 1 and states[-1] is not session.pending:
        raise ValueError("the state after the booked deals must be the session's pending deal")
    for index, state in enumerate(states):
        if state.game != session.game:
            raise ValueError(f"state {index} is a deal of {state.game}, the session plays {session.game}")
        if index < booked and not state.is_terminal():
            raise ValueError(f"state {index} is not finished but the session booked it")
    game = session.game
    record: dict[str, Any] = {
        "format": FORMAT_VERSION,
        "type": "list",
        "game": game.canonical,
        "rules_version": game.rules_version,
        "stich_version": __version__,
        "seed": session.seed,
        "deals_requested": session.limit,
        "deals": [deal_record(state) for state in states],
        "sheet": _json_form(session.sheet(), "sheet"),
        "totals": list(session.totals),
    }
    _add_optional(record, game, players, meta)
    return record


def play_session(session: Session, choose: Callable[[State], Action | int | str], *, max_deals: int | None = None) -> list[State]:
    """Play ``session`` to its end (or ``max_deals`` more deals), ``choose`` picking every action.

    Returns the played states in order, ready for :func:`list_record`.
    ``choose`` sees the full state; bots that must only see observations are
    wrapped by the caller (``lambda s: bot.choose(s.observation(s.current_player()))``).
    """
    states: list[State] = []
    while max_deals is None or len(states) < max_deals:
        state = session.next_deal()
        if state is None:
            break
        while not state.is_terminal():
            state.apply(choose(state))
        session.book(state)
        states.append(state)
    return states


def dumps_record(record: Mapping[str, Any]) -> str:
    """One record as compact one-line JSON, top-level keys in the documented order.

    Keys of a record are written in the order of :data:`DEAL_KEYS` or
    :data:`LIST_KEYS`, then ``players`` and ``meta``, then anything else
    sorted; nested deal records of a list likewise.  Non-ASCII text (player
    names) is written as UTF-8, not escaped.
    """
    return json.dumps(_ordered(record), ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def write_jsonl(path: str | Path, records: Iterable[Mapping[str, Any]]) -> int:
    """Write ``records`` to ``path`` as JSON Lines (UTF-8, one record per line); returns the count.

    A file that cannot be written raises :class:`RecordError` with the path as ``where``.
    """
    count = 0
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            for record in records:
                out.write(dumps_record(record))
                out.write("\n")
                count += 1
    except OSError as exc:
        raise RecordError(f"cannot write the file: {exc.strerror or exc}", str(path)) from None
    return count


def read_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line number, record)`` for each non-blank line of a JSON Lines file.

    Lines are numbered from 1.  Each line is read by :func:`parse_record`: a
    line that is not UTF-8 JSON, not a JSON object or nested too deep raises
    :class:`RecordError` with ``where="line N"``, a number no record can hold
    with ``where="line N: FIELD"`` (``line 3: context.multiplier``); an
    unreadable file raises it with ``where`` set to the path.  Records are
    parsed, not validated: pass them to :func:`validate_record` or a replay
    function.
    """
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below; opening errors become RecordError
    except OSError as exc:
        raise RecordError(f"cannot read the file: {exc.strerror or exc}", str(path)) from None
    with handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                record = parse_record(raw)
            except RecordError as exc:
                raise RecordError(exc.reason, f"line {number}: {exc.where}" if exc.where else f"line {number}") from None
            yield number, record


def parse_record(data: bytes | str) -> dict[str, Any]:
    """Parse one record's JSON text (UTF-8 bytes or text), refusing what no record holds, before it can do harm.

    Refused with a :class:`RecordError`: bytes that are not UTF-8, nesting
    deeper than :data:`MAX_DEPTH` (found before parsing, so deep input
    cannot exhaust the stack), text that is not JSON or not a JSON object,
    and a number that is not finite (``NaN``, ``Infinity``, ``1e400``) or an
    integer beyond ±:data:`MAX_INTEGER` (a thousands-digit integer is never
    converted).  Problems in the text have an empty ``where`` (the caller
    names the line or file); a bad number's ``where`` is its JSON path
    (``deals[3].context.multiplier``).  Nothing else is validated: pass the
    record to :func:`validate_record` or a replay function.
    """
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"not UTF-8 text (byte {exc.start + 1})") from None
    else:
        text = data
    _check_nesting(text)
    try:
        obj = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_BadNumber)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    if not isinstance(obj, dict):
        raise RecordError(f"a record must be a JSON object, got {_type_name(obj)}")
    _check_values(obj)
    return obj


_JSON_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')
"""A JSON string (skipped whole, so brackets in text do not count) or one bracket."""
_JSON_PLACES = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{},:]')
"""As :data:`_JSON_NESTING`, with the commas and colons that say where in its parent a value sits."""


def _check_nesting(text: str) -> None:
    """Refuse JSON text nested deeper than :data:`MAX_DEPTH` without parsing it, naming the path where it gets too deep."""
    depth = 0
    for match in _JSON_NESTING.finditer(text):
        char = match.group()[0]
        if char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise RecordError(f"nested deeper than {MAX_DEPTH} levels; records nest a few levels", _too_deep_path(text))
        elif char in "]}":
            depth -= 1


def _too_deep_path(text: str) -> str:
    """The JSON path of the first array or object in ``text`` that sits deeper than :data:`MAX_DEPTH`."""
    frames: list[list[Any]] = []  # per open bracket: its kind, then the index or key of the current value
    last_string = ""
    for match in _JSON_PLACES.finditer(text):
        token = match.group()
        char = token[0]
        if char in "[{":
            if len(frames) == MAX_DEPTH:
                break
            frames.append([char, 0 if char == "[" else ""])
        elif char in "]}":
            if frames:
                frames.pop()
        elif char == "," and frames and frames[-1][0] == "[":
            frames[-1][1] += 1
        elif char == ":" and frames:
            frames[-1][1] = last_string
        elif char == '"':
            try:
                last_string = str(json.loads(token))
            except ValueError:
                last_string = token.strip('"')
    where = ""
    for kind, place in frames:
        where = f"{where}[{place}]" if kind == "[" else _key_path(where, place)
    return where


class _BadNumber:
    """A number in JSON text that no record can hold, kept as written until its path is known."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        digits = sum(ch.isdigit() for ch in self.text)
        return f"{self.text[:12]}... ({digits} digits)" if len(self.text) > 24 else self.text


def _parse_int(text: str) -> int | _BadNumber:
    if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
        return _BadNumber(text)
    return int(text)


def _parse_float(text: str) -> float | _BadNumber:
    value = float(text)
    return value if math.isfinite(value) else _BadNumber(text)


def load_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of records, shipped as ``stich/schemas/record.schema.json``."""
    text = resources.files("stich").joinpath("schemas", "record.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


# ------------------------------------------------------------------ validation
def validate_record(obj: Any) -> None:
    """Check the structure of a deal or list record; raise :class:`RecordError` naming the first bad field.

    Structure means keys, JSON types, value ranges and card notation: what the
    JSON Schema states too (the two are tested to agree), and the bounds every
    record keeps: nesting at most :data:`MAX_DEPTH` deep, numbers finite,
    integers within ±:data:`MAX_INTEGER`, object keys strings, nothing but
    JSON values.  Whether the deal fits the game and the actions are legal is
    the replay's job.
    """
    _check_values(obj)
    _check_record(obj, "")


def _check_values(obj: Any) -> None:
    """Refuse anything in ``obj`` that is not bounded JSON data, naming its path (iterative: ``obj`` may be deep)."""
    stack: list[tuple[Any, str, int]] = [(obj, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if isinstance(value, (Mapping, list, tuple)):  # a record built in Python may hold tuples: JSON writes them as arrays
            if depth >= MAX_DEPTH:
                raise RecordError(f"nested deeper than {MAX_DEPTH} levels; records nest a few levels", where)
            if not isinstance(value, Mapping):
                stack.extend((item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value))
                continue
            for key, item in value.items():
                if not isinstance(key, str):
                    raise RecordError(f"object keys must be strings, got {_type_name(key)} {key!r}", where)
                stack.append((item, _key_path(where, key), depth + 1))
        elif isinstance(value, _BadNumber):
            raise RecordError(f"{value!r} is not a number a record can hold: {_NUMBER_RULE}", where)
        elif isinstance(value, float) and not (math.isfinite(value) and abs(value) <= MAX_INTEGER):
            raise RecordError(f"{value} is not a number a record can hold: {_NUMBER_RULE}", where)
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INTEGER:
            raise RecordError(f"{_integer_text(value)} is not a number a record can hold: {_NUMBER_RULE}", where)
        elif value is not None and not isinstance(value, (str, int, float)):
            raise RecordError(f"{type(value).__name__} is not JSON data", where)


def _integer_text(value: int) -> str:
    """A huge integer, short: in full up to 80 bits, else its first digits and length (never converting thousands of digits)."""
    if value.bit_length() <= 80:
        return str(value)
    digits = int(value.bit_length() * math.log10(2)) + 1
    return f"an integer of about {digits} digits" if digits > 4000 else f"{str(value)[:12]}... ({digits} digits)"


_NUMBER_RULE = f"numbers must be finite and at most {MAX_INTEGER} in magnitude"


def _key_path(prefix: str, key: str) -> str:
    """The JSON path of ``key`` under ``prefix`` (``deals[3].context``), an odd or long key quoted and cut short."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,39}", key):
        key = json.dumps(key if len(key) <= 40 else key[:37] + "...")
    return f"{prefix}.{key}" if prefix else key


def _check_record(obj: Any, prefix: str, *, only_deal: bool = False) -> None:
    where = prefix.rstrip(".")
    if not isinstance(obj, Mapping):
        raise RecordError(f"a record must be a JSON object, got {_type_name(obj)}", where)
    if "format" not in obj:
        raise RecordError("missing required key", prefix + "format")
    fmt = obj["format"]
    if not _is_int(fmt):
        raise RecordError(f"must be an integer, got {_describe(fmt)}", prefix + "format")
    if fmt != FORMAT_VERSION:
        raise RecordError(f"record format {fmt} is not supported; this stich reads format {FORMAT_VERSION}", prefix + "format")
    if "type" not in obj:
        raise RecordError("missing required key", prefix + "type")
    kind = obj["type"]
    if only_deal and kind != "deal":
        raise RecordError(f'the deals of a list must be deal records (type "deal"), got {_describe(kind)}', prefix + "type")
    if kind == "deal":
        _check_deal(obj, prefix)
    elif kind == "list":
        _check_list(obj, prefix)
    else:
        raise RecordError(f'must be "deal" or "list", got {_describe(kind)}', prefix + "type")


def _check_keys(obj: Mapping[str, Any], required: Sequence[str], prefix: str) -> None:
    for key in required:
        if key not in obj:
            raise RecordError("missing required key", prefix + key)
    allowed = set(required) | set(OPTIONAL_KEYS)
    for key in obj:
        if key not in allowed:
            raise RecordError(
                f"unknown key; a {obj['type']} record has {', '.join([*required, *OPTIONAL_KEYS])}", _key_path(prefix.rstrip("."), str(key))
            )


def _check_header(obj: Mapping[str, Any], prefix: str) -> None:
    game = obj["game"]
    if not isinstance(game, str) or not game:
        raise RecordError(f"must be a non-empty game string such as doppelkopf(preset=ddv), got {_describe(game)}", prefix + "game")
    _check_int(obj["rules_version"], prefix + "rules_version", minimum=1)
    if not isinstance(obj["stich_version"], str):
        raise RecordError(f"must be a string, got {_describe(obj['stich_version'])}", prefix + "stich_version")


def _check_optional(obj: Mapping[str, Any], prefix: str) -> None:
    if "players" in obj:
        players = obj["players"]
        if not isinstance(players, list):
            raise RecordError(f"must be an array of names, got {_describe(players)}", prefix + "players")
        for i, name in enumerate(players):
            if not isinstance(name, str):
                raise RecordError(f"must be a string, got {_describe(name)}", f"{prefix}players[{i}]")
    if "meta" in obj and not isinstance(obj["meta"], Mapping):
        raise RecordError(f"must be an object, got {_describe(obj['meta'])}", prefix + "meta")


def _check_deal(obj: Mapping[str, Any], prefix: str) -> None:
    _check_keys(obj, DEAL_KEYS, prefix)
    _check_header(obj, prefix)
    if obj["seed"] is not None:
        _check_int(obj["seed"], prefix + "seed", minimum=0, maximum=MAX_SEED, extra="or null")
    _check_int(obj["dealer"], prefix + "dealer", minimum=0)
    if not isinstance(obj["context"], Mapping):
        raise RecordError(f"must be an object, got {_describe(obj['context'])}", prefix + "context")
    hands = obj["deal"]
    if not isinstance(hands, list):
        raise RecordError(f"must be an array with one hand per seat, got {_describe(hands)}", prefix + "deal")
    for s, hand in enumerate(hands):
        if not isinstance(hand, list):
            raise RecordError(f"must be an array of cards, got {_describe(hand)}", f"{prefix}deal[{s}]")
        for j, text in enumerate(hand):
            _check_card(text, f"{prefix}deal[{s}][{j}]")
    actions = obj["actions"]
    if not isinstance(actions, list):
        raise RecordError(f"must be an array of [seat, action] pairs, got {_describe(actions)}", prefix + "actions")
    for i, pair in enumerate(actions):
        where = f"{prefix}actions[{i}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise RecordError(f'must be a [seat, action] pair such as [0, "play H10"], got {_describe(pair)}', where)
        _check_int(pair[0], where + "[0]", minimum=0)
        if not isinstance(pair[1], str) or not pair[1]:
            raise RecordError(f"must be an action text such as 'play H10', got {_describe(pair[1])}", where + "[1]")
    result = obj["result"]
    if result is not None:
        if not isinstance(result, Mapping):
            raise RecordError(f"must be an object or null (unfinished deal), got {_describe(result)}", prefix + "result")
        if "scores" not in result:
            raise RecordError("missing required key", prefix + "result.scores")
        _check_int_list(result["scores"], prefix + "result.scores")
    _check_optional(obj, prefix)


def _check_list(obj: Mapping[str, Any], prefix: str) -> None:
    _check_keys(obj, LIST_KEYS, prefix)
    _check_header(obj, prefix)
    _check_int(obj["seed"], prefix + "seed", minimum=0, maximum=MAX_SEED)
    if obj["deals_requested"] is not None:
        _check_int(obj["deals_requested"], prefix + "deals_requested", minimum=0, extra="or null")
    deals = obj["deals"]
    if not isinstance(deals, list):
        raise RecordError(f"must be an array of deal records, got {_describe(deals)}", prefix + "deals")
    for i, deal in enumerate(deals):
        _check_record(deal, f"{prefix}deals[{i}].", only_deal=True)
    sheet = obj["sheet"]
    if not isinstance(sheet, list):
        raise RecordError(f"must be an array of score-sheet rows, got {_describe(sheet)}", prefix + "sheet")
    for k, row in enumerate(sheet):
        where = f"{prefix}sheet[{k}]"
        if not isinstance(row, Mapping):
            raise RecordError(f"must be an object, got {_describe(row)}", where)
        for key in SHEET_ROW_KEYS:
            if key not in row:
                raise RecordError("missing required key", f"{where}.{key}")
        _check_int(row["number"], where + ".number", minimum=0)
        _check_int(row["dealer"], where + ".dealer", minimum=0)
        if not isinstance(row["label"], str):
            raise RecordError(f"must be a string, got {_describe(row['label'])}", where + ".label")
        _check_int_list(row["scores"], where + ".scores")
        _check_int_list(row["totals"], where + ".totals")
        if not isinstance(row["notes"], Mapping):
            raise RecordError(f"must be an object, got {_describe(row['notes'])}", where + ".notes")
    _check_int_list(obj["totals"], prefix + "totals")
    _check_optional(obj, prefix)


def _check_int(value: Any, where: str, *, minimum: int | None = None, maximum: int | None = None, extra: str = "") -> None:
    if not _is_int(value):
        raise RecordError(f"must be an integer{' ' + extra if extra else ''}, got {_describe(value)}", where)
    if minimum is not None and value < minimum:
        raise RecordError(f"must be at least {minimum}, got {value}", where)
    if maximum is not None and value > maximum:
        raise RecordError(f"must be at most {maximum}, got {value}", where)


def _check_int_list(value: Any, where: str) -> None:
    if not isinstance(value, list):
        raise RecordError(f"must be an array of integers, got {_describe(value)}", where)
    for i, item in enumerate(value):
        if not _is_int(item):
            raise RecordError(f"must be an integer, got {_describe(item)}", f"{where}[{i}]")


def _check_card(text: Any, where: str) -> None:
    if not isinstance(text, str):
        raise RecordError(f"must be a card such as H10, got {_describe(text)}", where)
    try:
        card = parse_card(text)
    except NotationError as exc:
        raise RecordError(str(exc), where) from None
    if card.text != text:
        raise RecordError(f"write the card as {card.text}, not {text!r} (records use the canonical notation)", where)


# ------------------------------------------------------------------- contexts
ContextCheck = Callable[[Any, Game], str | None]
"""Checks one context value for a game: ``None`` when it is good, else what is wrong with it."""


def _seat_flags(value: Any, game: Game) -> str | None:
    if not isinstance(value, (list, tuple)) or not all(isinstance(flag, bool) for flag in value):
        return f"must be an array of booleans, one per seat, got {_describe(value)}"
    if len(value) != game.num_seats:
        return f"{game} has {game.num_seats} seats, so this needs {game.num_seats} booleans, got {len(value)}"
    return None


def _seat_or_null(value: Any, game: Game) -> str | None:
    if value is None or (_is_int(value) and 0 <= value < game.num_seats):
        return None
    return f"must be a seat 0..{game.num_seats - 1} or null, got {_describe(value)}"


def _factor(value: Any, game: Game) -> str | None:
    return None if _is_int(value) and value >= 1 else f"must be an integer of at least 1, got {_describe(value)}"


def _flag(value: Any, game: Game) -> str | None:
    return None if isinstance(value, bool) else f"must be true or false, got {_describe(value)}"


CONTEXT_SHAPES: dict[str, dict[str, ContextCheck]] = {
    "doppelkopf": {"owes_solo": _seat_flags, "multiplier": _factor, "forced_soloist": _seat_or_null},
    "dobbm": {"forced_declarer": _seat_or_null, "mussrunde": _flag},
    "tapp_tarock": {},
    "droggn": {},
    "dappen": {},
}
"""The context keys each game's ``new_state`` reads (its docstring documents them), and the shape of each.

A game that starts reading a new context key adds it here; a record with a
key its game does not read is refused, so a misspelt key never silently
falls back to its default.  A game missing from this table is not checked.
"""


def _check_context(record: Mapping[str, Any], game: Game, prefix: str) -> None:
    """Check the record's ``context`` against :data:`CONTEXT_SHAPES`, naming the key (``context.owes_solo``)."""
    shapes = CONTEXT_SHAPES.get(game.name)
    if shapes is None:
        return
    context = record["context"]
    for key, value in context.items():
        where = _key_path(prefix + "context", key)
        check = shapes.get(key)
        if check is None:
            known = f"reads {', '.join(shapes)}" if shapes else "reads no context keys"
            raise RecordError(f"unknown context key; a deal of {game.name} {known}", where)
        problem = check(value, game)
        if problem is not None:
            raise RecordError(problem, where)


# ---------------------------------------------------------------------- replay
def replay_deal(record: Mapping[str, Any]) -> State:
    """Replay a deal record and re-check everything in it; return the replayed state.

    Checks, in order: the structure (:func:`validate_record`); the game string
    and ``rules_version``; the dealt hands hold exactly the pack and, when
    ``seed`` is not null, are the hands that seed deals with this dealer (the
    state is then dealt from the seed, so it keeps its seed); every action is
    made by the seat to move and is legal; the deal is finished exactly when
    ``result`` is not null; the recomputed result equals ``result``, scores and
    every breakdown key.  Raises :class:`RecordError` naming the first
    problem.
    """
    validate_record(record)
    if record["type"] != "deal":
        raise RecordError("expected a deal record, got a list record (use replay_list or replay_any)", "type")
    game = _game_of(record, "")
    _check_context(record, game, "")
    masks = _deal_masks(record, game, "")
    seed = record["seed"]
    if seed is not None:
        expected = game.deal(seed, record["dealer"])
        _compare_hands(game, masks, expected, "", f"the hand seed {seed} deals to seat {{seat}} with dealer {record['dealer']}")
    state = _new_state(record, game, masks, "")
    _play(record, state, "")
    return state


def replay_list(record: Mapping[str, Any], *, session_factory: SessionFactory | None = None) -> Session:
    """Replay a list record deal by deal through a fresh session; return that session.

    The session is rebuilt from ``game``, ``seed`` and ``deals_requested`` by
    ``session_factory`` (default: the game's session class, see
    :func:`session_class`).  For each deal record: its game and rules version
    are the list's, its ``seed``, ``dealer`` and ``context`` are what the
    session deals next (a deal with ``seed`` null was dealt by hand and is
    handed to the session as explicit hands), its hands are that deal, and it
    replays as in :func:`replay_deal`; a finished deal is booked.  Only the
    last deal may be unfinished, and a list may end before the session is over
    (a list recorded part-way).  Finally the score sheet and totals must equal
    the recomputed ones.  Raises :class:`RecordError` naming the first problem.
    """
    validate_record(record)
    if record["type"] != "list":
        raise RecordError("expected a list record, got a deal record (use replay_deal or replay_any)", "type")
    game = _game_of(record, "")
    factory: SessionFactory = session_factory if session_factory is not None else session_class(game)
    try:
        session = factory(game, record["seed"], record["deals_requested"])
    except StichError as exc:
        raise RecordError(f"cannot start the list: {exc}", "deals_requested") from None
    deals = record["deals"]
    for i, deal in enumerate(deals):
        prefix = f"deals[{i}]."
        deal_game = _game_of(deal, prefix)
        if deal_game != game:
            raise RecordError(f"a list of {game} cannot hold a deal of {deal_game}", prefix + "game")
        _check_context(deal, game, prefix)
        masks = _deal_masks(deal, game, prefix)
        state = _next_session_deal(session, deal, game, masks, prefix)
        if state is None:
            raise RecordError(f"the list is over after {i} deals, but the record holds {len(deals)}", f"deals[{i}]")
        if deal["dealer"] != state.dealer:
            raise RecordError(f"the session deals this deal with dealer {state.dealer}, not {deal['dealer']}", prefix + "dealer")
        context = _json_form(dict(session.context()), "context")
        if not _same(deal["context"], context):
            raise RecordError(
                f"the session deals this deal with context {_short(context)}, not {_short(deal['context'])}", prefix + "context"
            )
        _compare_hands(game, masks, state.dealt, prefix, "the hand the session deals to seat {seat}")
        _play(deal, state, prefix)
        if state.is_terminal():
            try:
                session.book(state)
            except StichError as exc:
                raise RecordError(f"the session cannot book this deal: {exc}", prefix + "result") from None
        elif i != len(deals) - 1:
            raise RecordError(f"deal {i} is unfinished, but only the last deal of a list may be", prefix + "actions")
    _compare_value(record["sheet"], _json_form(session.sheet(), "sheet"), "sheet")
    _compare_value(record["totals"], list(session.totals), "totals")
    return session


def _next_session_deal(session: Session, deal: Mapping[str, Any], game: Game, masks: Sequence[int], prefix: str) -> State | None:
    """The session's next deal: dealt from the session's seed, or from the record's hands when its seed is null."""
    if session.is_over():
        return None
    if deal["seed"] is None:
        try:
            return session.next_deal(hands=[game.deck.cards(m) for m in masks])
        except StichError as exc:
            raise RecordError(str(exc), prefix + "deal") from None
    expected_seed = session.deal_seed(session.deal_index)
    if deal["seed"] != expected_seed:
        raise RecordError(
            f"deal index {session.deal_index} (from 0) of a list with seed {session.seed} is dealt from seed {expected_seed}, "
            f"not {deal['seed']}",
            prefix + "seed",
        )
    return session.next_deal()


def replay_any(record: Mapping[str, Any], *, session_factory: SessionFactory | None = None) -> State | Session:
    """Replay a deal record (returns its :class:`State`) or a list record (returns its :class:`Session`)."""
    validate_record(record)
    if record["type"] == "list":
        return replay_list(record, session_factory=session_factory)
    return replay_deal(record)


def session_class(game: Game) -> type[Session]:
    """The session class of ``game`` (from the registry).

    Raises :class:`RecordError` (``where="game"``) when the game has no session rules.
    """
    try:
        return registry.session_class(game.name)
    except OptionError as exc:
        raise RecordError(str(exc), "game") from None


def _game_of(record: Mapping[str, Any], prefix: str) -> Game:
    """The configured game of a record, with its rules version checked."""
    try:
        game = game_from_string(record["game"])
    except StichError as exc:
        raise RecordError(str(exc), prefix + "game") from None
    if record["rules_version"] != game.rules_version:
        raise RecordError(
            f"the record was made under rules version {record['rules_version']} of {game.name}, "
            f"this stich plays version {game.rules_version}; outcomes may differ",
            prefix + "rules_version",
        )
    players = record.get("players")
    if players is not None and len(players) != game.num_seats:
        raise RecordError(
            f"{game} has {game.num_seats} seats, so players needs {game.num_seats} names, got {len(players)}", prefix + "players"
        )
    return game


def _deal_masks(record: Mapping[str, Any], game: Game, prefix: str) -> list[int]:
    """Physical-card masks of the record's hands, checking they hold exactly the pack."""
    hands = record["deal"]
    n = game.num_seats
    parts = game.deal_parts
    if len(hands) != len(parts):
        raise RecordError(
            f"{game} deals {len(parts)} piles ({', '.join(parts)}), so the deal needs {len(parts)}, got {len(hands)}", prefix + "deal"
        )
    if record["dealer"] >= n:
        raise RecordError(f"must be a seat 0..{n - 1}, got {record['dealer']}", prefix + "dealer")
    deck = game.deck
    used = 0
    seen: dict[int, list[str]] = {}
    masks = []
    for s, hand in enumerate(hands):
        mask = 0
        for j, text in enumerate(hand):
            where = f"{prefix}deal[{s}][{j}]"
            face = deck.face_index.get(parse_card(text))
            bits = [] if face is None else [1 << (c * deck.n_faces + face) for c in range(deck.copies)]
            bits = [bit for bit in bits if bit & deck.full_mask]
            if face is None or not bits:
                raise RecordError(f"{text} is not in the pack of {game}", where)
            seen.setdefault(face, []).append(f"deal[{s}][{j}]")
            free = [bit for bit in bits if not used & bit]
            if not free:
                places = ", ".join(seen[face])
                raise RecordError(f"{text} is dealt {len(seen[face])} times ({places}) but the pack holds it {len(bits)} times", where)
            used |= free[0]
            mask |= free[0]
        masks.append(mask)
    missing = deck.full_mask & ~used
    if missing:
        raise RecordError(f"the hands do not hold the whole pack; missing: {format_cards(deck.cards(missing))}", prefix + "deal")
    return masks


def _compare_hands(game: Game, masks: Sequence[int], expected: Sequence[int], prefix: str, what: str) -> None:
    """Check each seat's faces equal the expected deal's (which copy of a face is which does not matter)."""
    n_faces = game.deck.n_faces
    for seat, (mask, want) in enumerate(zip(masks, expected, strict=True)):
        got_faces = sorted(i % n_faces for i in iter_bits(mask))
        want_faces = sorted(i % n_faces for i in iter_bits(want))
        if got_faces != want_faces:
            wanted = " ".join(_hand_texts(game, want)) or "no cards"
            raise RecordError(f"is not {what.format(seat=seat)}: {wanted}", f"{prefix}deal[{seat}]")


def _new_state(record: Mapping[str, Any], game: Game, masks: Sequence[int], prefix: str) -> State:
    """A fresh state for a checked deal: from the seed when there is one, else from the explicit hands.

    When the game refuses, the deal is tried once more without the context:
    if that is accepted, the context is what the game refused (a
    ``forced_soloist`` that is the idle dealer, say) and the error names it.
    """
    seed = record["seed"]
    dealer = record["dealer"]

    def deal(context: Mapping[str, Any]) -> State:
        if seed is not None:
            return game.new_state(seed=seed, dealer=dealer, context=context)
        return game.new_state(hands=[game.deck.cards(m) for m in masks], dealer=dealer, context=context)

    try:
        return deal(record["context"])
    except _ENGINE_REFUSALS as exc:
        reason = str(exc)
    try:
        deal({})
    except _ENGINE_REFUSALS as exc:
        raise RecordError(str(exc), prefix + "deal") from None
    raise RecordError(f"the game rejects this context: {reason}", prefix + "context")


_ENGINE_REFUSALS = (StichError, ValueError, TypeError, KeyError, IndexError, OverflowError)
"""What ``Game.new_state`` raises for piles or a context it cannot deal from (not only its own NotationError)."""


def _play(record: Mapping[str, Any], state: State, prefix: str) -> None:
    """Apply the record's actions to ``state`` with every check, then compare the result."""
    actions = record["actions"]
    for i, (seat, text) in enumerate(actions):
        where = f"{prefix}actions[{i}]"
        to_move = state.current_player()
        if to_move == TERMINAL:
            raise RecordError(f"the deal is over after {i} actions, but the record has {len(actions)}", where)
        if seat != to_move:
            raise RecordError(f"seat {seat} acts, but seat {to_move} is to move", where + "[0]")
        try:
            action = state.to_action(text)
        except NotationError as exc:
            raise RecordError(f"{exc} in {state.game.name}", where + "[1]") from None
        try:
            state.apply(action)
        except IllegalActionError as exc:
            raise RecordError(f"illegal action for seat {seat}: {exc}", where) from None
    recorded = record["result"]
    if not state.is_terminal():
        if recorded is not None:
            raise RecordError(
                f"the deal is not over after these {len(actions)} actions (seat {state.current_player()} to move) but a result is given",
                prefix + "actions",
            )
        return
    computed = _json_form(state.result().to_json(), "result")
    if recorded is None:
        raise RecordError(f"the deal is over but result is null; the replay gives scores {computed['scores']}", prefix + "result")
    if not _same(recorded["scores"], computed["scores"]):
        raise RecordError(f"recorded {recorded['scores']}, the replay gives {computed['scores']}", prefix + "result.scores")
    for key, value in computed.items():
        if key not in recorded:
            raise RecordError(f"missing; the replay gives {_short(value)}", f"{prefix}result.{key}")
        if not _same(recorded[key], value):
            raise RecordError(f"recorded {_short(recorded[key])}, the replay gives {_short(value)}", f"{prefix}result.{key}")
    for key in recorded:
        if key not in computed:
            raise RecordError("not part of the result the replay computes", _key_path(prefix + "result", key))


def _compare_value(recorded: Any, computed: Any, where: str) -> None:
    """Compare recomputed JSON data with the record's, naming the first differing element."""
    if isinstance(computed, list) and isinstance(recorded, list):
        if len(recorded) != len(computed):
            raise RecordError(f"has {len(recorded)} entries, the replay gives {len(computed)}", where)
        for i, (a, b) in enumerate(zip(recorded, computed, strict=True)):
            _compare_value(a, b, f"{where}[{i}]")
        return
    if isinstance(computed, dict) and isinstance(recorded, Mapping):
        for key, value in computed.items():
            if key not in recorded:
                raise RecordError(f"missing; the replay gives {_short(value)}", f"{where}.{key}")
            _compare_value(recorded[key], value, f"{where}.{key}")
        for key in recorded:
            if key not in computed:
                raise RecordError("not part of what the replay computes", _key_path(where, key))
        return
    if not _same(recorded, computed):
        raise RecordError(f"recorded {_short(recorded)}, the replay gives {_short(computed)}", where)


# --------------------------------------------------------------------- helpers
def _hand_texts(game: Game, mask: int) -> list[str]:
    """A dealt hand in text notation, in the pack's face order (both copies of a face together)."""
    deck = game.deck
    return [deck.card(i).text for i in sorted(iter_bits(mask), key=lambda i: (i % deck.n_faces, i))]


def _add_optional(record: dict[str, Any], game: Game, players: Sequence[str] | None, meta: Mapping[str, Any] | None) -> None:
    if players is not None:
        names = list(players)
        if len(names) != game.num_seats or not all(isinstance(name, str) for name in names):
            raise ValueError(f"players must be {game.num_seats} names, one per seat, got {names!r}")
        record["players"] = names
    if meta is not None:
        record["meta"] = _json_form(dict(meta), "meta")


def _json_default(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"{type(value).__name__} is not JSON data")


def _json_form(value: Any, what: str) -> Any:
    """``value`` exactly as it reads back from JSON (tuples become lists, keys strings)."""
    try:
        return json.loads(json.dumps(value, default=_json_default, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{what} cannot be written as JSON: {exc}") from None


def _ordered(record: Mapping[str, Any]) -> dict[str, Any]:
    keys = LIST_KEYS if record.get("type") == "list" else DEAL_KEYS
    order = [k for k in (*keys, *OPTIONAL_KEYS) if k in record]
    order += sorted(k for k in record if k not in order)
    out = {k: record[k] for k in order}
    if record.get("type") == "list" and isinstance(out.get("deals"), list):
        out["deals"] = [_ordered(d) if isinstance(d, Mapping) else d for d in out["deals"]]
    return out


def _same(a: Any, b: Any) -> bool:
    """JSON equality that tells ``1``, ``1.0`` and ``true`` apart and ignores key order."""
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def _describe(value: Any) -> str:
    """Type and a short rendering of a bad value, for error messages."""
    if isinstance(value, (list, Mapping)):
        return _type_name(value)
    return f"{_type_name(value)} {_short(value)}"


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."
