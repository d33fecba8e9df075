"""The journal of an arena match (``journal.jsonl`` in ``--out DIR``), from which a stopped match goes on.

A 1,000-deal match between search bots takes an hour or more; it may be
stopped by Ctrl-C, a time limit or a closed laptop.  ``stich arena ...
--resume`` goes on from the journal: every deal of a match is seeded on its
own (:mod:`stich.arena.duplicate`), so the deals still to play do not depend
on the ones already played, and the finished match is the same match.

The journal is JSON Lines, appended and flushed as the match goes:

* a ``match`` line first: what the match is (format, game, seed, candidate,
  references, ``reuse_baseline``, bots added with ``--register``);
* a ``run`` line when a run starts: its first deal, the number of deals it
  aims at, its workers, the stich version and the command;
* a ``chunk`` line each time a chunk of deals is done, in deal order: the
  outcomes of its deals, the decision timings, the decisions that fell back
  to the heuristic (``fallbacks``: per bot label that counts them, by
  reason; a journal written before stich counted them has none, read as
  none), the games played, the run's seconds so far and the size of
  ``records.jsonl`` after the chunk's records.

A run killed while writing leaves a last line without its newline; reading
drops it.  Records written after the last chunk line are cut off
``records.jsonl`` when the match goes on, so both files hold the same deals.
The timings and fallbacks of those lost deals are lost with them, the rest
add up over the runs.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from stich import __version__
from stich.arena.duplicate import BotTiming, DealOutcome, FallbackTally, PairingDeal, PlayedDeals, RunPart, add_fallbacks
from stich.errors import StichError

__all__ = [
    "JOURNAL_FILE",
    "JOURNAL_FORMAT",
    "JOURNAL_VERSION",
    "Journal",
    "JournalError",
    "JournalWriter",
    "MatchKey",
    "deal_outcome_from_json",
    "fallbacks_from_json",
    "read_journal",
]

JOURNAL_FILE = "journal.jsonl"
JOURNAL_FORMAT = "stich-arena-journal"
JOURNAL_VERSION = 1


class JournalError(StichError, ValueError):
    """A journal that cannot be read (naming the line and field) or that belongs to another match."""


@dataclass(frozen=True)
class MatchKey:
    """What makes two runs the same match: everything that decides the deals and the bots, but not their number."""

    game: str
    seed: int
    candidate: str
    references: tuple[str, ...]
    reuse_baseline: bool
    registered: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """JSON form (the ``match`` line without its format fields)."""
        return {
            "game": self.game,
            "seed": self.seed,
            "candidate": self.candidate,
            "references": list(self.references),
            "reuse_baseline": self.reuse_baseline,
            "registered": [list(pair) for pair in self.registered],
        }

    def differences(self, other: MatchKey) -> list[str]:
        """What differs from ``other``, one ``field: ours, theirs`` text per field (empty: the same match)."""
        mine, theirs = self.to_json(), other.to_json()
        return [f"{key} {json.dumps(mine[key])} vs {json.dumps(theirs[key])}" for key in mine if mine[key] != theirs[key]]


@dataclass
class Journal:
    """What a journal holds: the match, the deals it has, and where its two files end."""

    key: MatchKey
    target: int
    """The number of deals the last run was to play."""
    played: PlayedDeals
    """The deals done, their timings and games; ``parts`` and ``seconds`` are those of the runs that played them."""
    records_bytes: int
    """The size ``records.jsonl`` had after the last chunk's records."""
    valid_bytes: int
    """The length of the journal's readable part (a last line cut off by a kill is not in it)."""
    versions: tuple[str, ...] = ()
    """The stich versions of the runs, in order."""

    @property
    def done(self) -> int:
        """The number of deals played."""
        return self.played.stop

    @property
    def finished(self) -> bool:
        """Whether the last run played every deal it was to play."""
        return self.done >= self.target


# --------------------------------------------------------------------- reading
def _field(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``data[key]``, which must be of ``kind`` (``bool`` never counts as a number)."""
    if key not in data:
        raise JournalError(f"{where}: missing field {key!r}")
    value = data[key]
    numeric = kind in (int, float) or (isinstance(kind, tuple) and int in kind)
    if not isinstance(value, kind) or (numeric and isinstance(value, bool)):
        raise JournalError(f"{where}: field {key!r} has the wrong type ({type(value).__name__})")
    return value


def _count(data: dict[str, Any], key: str, where: str) -> int:
    value: int = _field(data, key, int, where)
    if value < 0:
        raise JournalError(f"{where}: field {key!r} must not be negative, not {value}")
    return value


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise JournalError(f"{where}: expected a number, not {value!r}")
    return value


def _key(data: dict[str, Any], where: str) -> MatchKey:
    if data.get("format") != JOURNAL_FORMAT:
        raise JournalError(f"{where}: field 'format' must be {JOURNAL_FORMAT!r}; this is not an arena journal")
    version = _field(data, "version", int, where)
    if version != JOURNAL_VERSION:
        raise JournalError(f"{where}: field 'version' is {version}; this stich reads journal version {JOURNAL_VERSION}")
    references = _field(data, "references", list, where)
    registered = _field(data, "registered", list, where)
    if not references or not all(isinstance(r, str) for r in references):
        raise JournalError(f"{where}: field 'references' must be a list of bot names")
    if not all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in registered):
        raise JournalError(f"{where}: field 'registered' must be a list of [name, target] pairs")
    return MatchKey(
        game=_field(data, "game", str, where),
        seed=_count(data, "seed", where),
        candidate=_field(data, "candidate", str, where),
        references=tuple(references),
        reuse_baseline=_field(data, "reuse_baseline", bool, where),
        registered=tuple((name, target) for name, target in registered),
    )


def _scores(data: dict[str, Any], key: str, size: int, where: str) -> tuple[float, ...]:
    values = _field(data, key, list, where)
    if len(values) != size:
        raise JournalError(f"{where}: field {key!r} has {len(values)} scores for {size} seats")
    return tuple(_number(v, f"{where}.{key}") for v in values)


def _pairing(data: Any, where: str) -> PairingDeal:
    if not isinstance(data, dict):
        raise JournalError(f"{where}: expected an object")
    seats = _field(data, "seats", list, where)
    if not seats or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in seats):
        raise JournalError(f"{where}: field 'seats' must be a non-empty list of seat numbers")
    return PairingDeal(
        reference=_field(data, "reference", str, where),
        seats=tuple(seats),
        candidate_scores=_scores(data, "candidate_scores", len(seats), where),
        reference_scores=_scores(data, "reference_scores", len(seats), where),
    )


def deal_outcome_from_json(data: Any, where: str) -> DealOutcome:
    """A :class:`DealOutcome` from its JSON form (a journal's ``deals``, ``results.json``'s ``deal_outcomes``).

    Raises :class:`JournalError` naming ``where`` and the field of what is wrong.
    """
    if not isinstance(data, dict):
        raise JournalError(f"{where}: expected an object")
    pairings = _field(data, "pairings", list, where)
    return DealOutcome(
        index=_count(data, "index", where),
        seed=_count(data, "seed", where),
        dealer=_count(data, "dealer", where),
        pairings=tuple(_pairing(p, f"{where}.pairings[{j}]") for j, p in enumerate(pairings)),
    )


def _timings(data: Any, where: str) -> dict[str, BotTiming]:
    if not isinstance(data, dict):
        raise JournalError(f"{where}: field 'timings' must be an object")
    out = {}
    for label, values in data.items():
        if not isinstance(values, list) or len(values) != 3:
            raise JournalError(f"{where}.timings[{label!r}]: expected [decisions, seconds, slowest seconds]")
        decisions = values[0]
        if isinstance(decisions, bool) or not isinstance(decisions, int) or decisions < 0:
            raise JournalError(f"{where}.timings[{label!r}]: the number of decisions must be a count")
        at = f"{where}.timings[{label!r}]"
        out[label] = BotTiming(decisions, _number(values[1], at), _number(values[2], at))
    return out


def fallbacks_from_json(data: Any, where: str) -> FallbackTally:
    """Fallback counts from their JSON form (a journal chunk's ``fallbacks``, ``results.json``'s): label -> reason -> count.

    ``None`` (the field is missing: written before stich counted them) is no
    fallbacks.  Raises :class:`JournalError` naming ``where`` and the label of what is wrong.
    """
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise JournalError(f"{where}: field 'fallbacks' must be an object")
    out: FallbackTally = {}
    for label, counts in data.items():
        at = f"{where}.fallbacks[{label!r}]"
        if not isinstance(counts, dict):
            raise JournalError(f"{at}: expected an object of counts by reason")
        for reason, count in counts.items():
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise JournalError(f"{at}: the count of {reason!r} must be a whole number, at least 0, not {count!r}")
        out[label] = dict(counts)
    return out


@dataclass
class _Run:
    """A ``run`` line and what its chunks added up to."""

    first: int
    target: int
    workers: int
    stop: int
    seconds: float = 0.0


def read_journal(path: str | Path) -> Journal:
    """Read a journal; raises :class:`JournalError` naming the line and field of what is wrong.

    A last line without its newline (a run killed while writing it) is left
    out; any other unreadable line is an error.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise JournalError(f"cannot read {path}: {exc.strerror or exc}") from None
    lines = raw.split(b"\n")
    complete = lines[:-1]  # the part after the last newline is empty, or a line cut off by a kill
    if not complete:
        raise JournalError(f"{path} is empty: the match stopped before it began")
    key: MatchKey | None = None
    runs: list[_Run] = []
    versions: list[str] = []
    deals: list[DealOutcome] = []
    timings: dict[str, BotTiming] = {}
    fallbacks: FallbackTally = {}
    games = 0
    records_bytes = 0
    valid = 0
    for number, line in enumerate(complete, start=1):
        where = f"{path.name} line {number}"
        try:
            entry = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise JournalError(f"{where}: not JSON ({exc})") from None
        if not isinstance(entry, dict) or len(entry) != 1:
            raise JournalError(f"{where}: expected an object with one of 'match', 'run', 'chunk'")
        kind, data = next(iter(entry.items()))
        if not isinstance(data, dict):
            raise JournalError(f"{where}: field {kind!r} must be an object")
        if kind == "match":
            if number != 1:
                raise JournalError(f"{where}: a second 'match' line")
            key = _key(data, f"{where} 'match'")
        elif key is None:
            raise JournalError(f"{where}: the journal must begin with a 'match' line")
        elif kind == "run":
            first = _count(data, "first_deal", f"{where} 'run'")
            if first != len(deals):
                raise JournalError(f"{where} 'run': field 'first_deal' is {first}, but {len(deals)} deals were played before")
            target = _count(data, "deals", f"{where} 'run'")
            workers = _count(data, "workers", f"{where} 'run'")
            versions.append(_field(data, "stich_version", str, f"{where} 'run'"))
            runs.append(_Run(first, target, workers, first))
        elif kind == "chunk":
            if not runs:
                raise JournalError(f"{where}: a 'chunk' line before any 'run' line")
            ctx = f"{where} 'chunk'"
            start, stop = _count(data, "start", ctx), _count(data, "stop", ctx)
            chunk = [deal_outcome_from_json(d, f"{ctx}.deals[{j}]") for j, d in enumerate(_field(data, "deals", list, ctx))]
            if start != len(deals) or [d.index for d in chunk] != list(range(start, stop)):
                span = f"deal {start} does" if stop == start + 1 else f"deals {start} to {stop - 1} do"
                raise JournalError(f"{ctx}: {span} not follow the {len(deals)} deals before")
            for label, timing in _timings(data.get("timings"), ctx).items():
                timings.setdefault(label, BotTiming()).add(timing.decisions, timing.seconds, timing.max_seconds)
            add_fallbacks(fallbacks, fallbacks_from_json(data.get("fallbacks"), ctx))
            deals.extend(chunk)
            games += _count(data, "games", ctx)
            size = _count(data, "records_bytes", ctx)
            if size < records_bytes:
                raise JournalError(f"{ctx}: field 'records_bytes' went down from {records_bytes} to {size}")
            records_bytes = size
            runs[-1].stop = stop
            runs[-1].seconds = _number(_field(data, "seconds", (int, float), ctx), f"{ctx}.seconds")
        else:
            raise JournalError(f"{where}: unknown entry {kind!r}; expected 'match', 'run' or 'chunk'")
        valid += len(line) + 1
    if key is None:  # pragma: no cover - the loop raises first
        raise JournalError(f"{path}: no 'match' line")
    parts = tuple(RunPart(r.first, r.stop, r.workers, r.seconds) for r in runs if r.stop > r.first)
    played = PlayedDeals(deals, timings, games, math.fsum(p.seconds for p in parts), parts, fallbacks)
    target = runs[-1].target if runs else 0
    return Journal(key, target, played, records_bytes, valid, tuple(versions))


# --------------------------------------------------------------------- writing
class JournalWriter:
    """Keeps the journal of a run: a ``run`` line now, a ``chunk`` line per :meth:`chunk`, each flushed at once.

    Without ``resume`` it starts a new journal with the ``match`` line of
    ``key``; with the :class:`Journal` read from the file it cuts off what
    that could not read and appends.
    """

    def __init__(self, path: str | Path, key: MatchKey, *, deals: int, workers: int, command: str, resume: Journal | None = None) -> None:
        self.path = Path(path)
        self.stop = resume.done if resume is not None else 0
        try:
            if resume is None:
                self._handle: IO[bytes] = open(self.path, "wb")  # noqa: SIM115 - closed in close()
                self._write({"match": {"format": JOURNAL_FORMAT, "version": JOURNAL_VERSION, **key.to_json()}})
            else:
                self._handle = open(self.path, "r+b")  # noqa: SIM115 - closed in close()
                self._handle.truncate(resume.valid_bytes)
                self._handle.seek(resume.valid_bytes)
            run = {"first_deal": self.stop, "deals": deals, "workers": workers, "stich_version": __version__, "command": command}
            self._write({"run": run})
        except OSError as exc:
            raise JournalError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def _write(self, entry: dict[str, Any]) -> None:
        self._handle.write(json.dumps(entry, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8") + b"\n")
        self._handle.flush()

    def chunk(self, played: PlayedDeals, records_bytes: int) -> None:
        """Note a chunk of deals done (``played.seconds``: the run's seconds so far), after its records were written."""
        if not played.deals:
            return
        entry = {
            "start": played.deals[0].index,
            "stop": played.stop,
            "games": played.games,
            "seconds": round(played.seconds, 3),
            "records_bytes": records_bytes,
            "timings": {label: [t.decisions, t.seconds, t.max_seconds] for label, t in played.timings.items()},
            "fallbacks": played.fallbacks,
            "deals": [deal.to_json() for deal in played.deals],
        }
        self._write({"chunk": entry})
        self.stop = played.stop

    def close(self) -> None:
        """Close the file."""
        self._handle.close()

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
