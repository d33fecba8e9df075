"""How an arena match stands, and two matches compared deal by deal on the deals both played.

An hour-long match need not be waited for, nor stopped, to be read: its
journal (``DIR/journal.jsonl``, docs/arena.md) holds every chunk of deals as
soon as it is done.  This tool reads it, or a finished match's
``results.json`` where there is no journal, or a copy of one kept by
``tools/strength_ladder.py keep`` (``docs/ladder/*.json``: its per-deal
outcomes in the compact form ``deal_differences`` that module describes)::

    python tools/match_status.py DIR                   # deals done, mean so far with its 95% interval, time left, fallbacks
    python tools/match_status.py DIR --against OTHER   # DIR's candidate against OTHER's, paired on the common deals
    python tools/match_status.py DIR --against OTHER --json
    python tools/match_status.py DIR --against docs/ladder/OLD.json   # a new match against a kept one

DIR and OTHER are each a match folder, a ``results.json`` or a kept copy.
A copy kept before ``keep`` kept the per-deal outcomes cannot be paired:
that is an error naming it.

``--against`` answers "is this variant better than that one?" from two
matches of the same game, seed and references: every deal both played
counts once, with the difference of the two candidates' duplicate
differences, and a Student t interval over those deals.  The two matches
share their cards, so this interval is narrower than the two matches'
intervals taken as independent, by as much as the candidates' results on
the same deals go together (Droggn's ISMCTS runs 4 and 3: +1.38, paired
-0.28 .. +3.04, where each match alone has an interval of about +-1.3;
docs/strength.md).  It works on running matches too, on the deals both
have done so far.

A search bot that left decisions to the heuristic because it could not
search them (no world fits, no sampler, out of time: :mod:`stich.bots.fallbacks`)
gets one line with the counts, as in the arena's summary; a match of an
older stich, without them, counts none.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stich.arena.duplicate import FallbackTally, PairingDeal
from stich.arena.journal import JOURNAL_FILE, JournalError, deal_outcome_from_json, fallbacks_from_json, read_journal
from stich.arena.report import RESULTS_FILE, fallback_line
from stich.arena.stats import mean_interval, win_rates

DEAL_DIFFERENCES = "deal_differences"
"""The key of the compact per-deal outcomes in a copy kept by ``tools/strength_ladder.py keep`` (described there)."""

DEAL_DIFFERENCES_VERSION = 1


class StatusError(Exception):
    """A folder or file without a readable match, or two matches that cannot be paired."""


@dataclass(frozen=True)
class DealDifferences:
    """Deal ``index``: the candidate's duplicate difference against each reference, in order (all that pairing uses)."""

    index: int
    differences: tuple[float, ...]


@dataclass
class Match:
    """What a match folder or file holds: its identity, the deals done so far and how long they took."""

    folder: Path
    """The folder, ``results.json`` or kept copy it was read from."""
    game: str
    seed: int
    candidate: str
    references: tuple[str, ...]
    deals: list[DealDifferences]
    target: int
    seconds: float
    runs: int
    pace: float | None
    """Seconds per deal in the last run (``None``: no deal played yet)."""
    fallbacks: FallbackTally
    """Per bot label, the decisions that fell back to the heuristic by reason (none for a match of an older stich)."""
    decisions: dict[str, int]
    """Per bot label, its decisions so far."""


def load(source: str | Path) -> Match:
    """The match in ``source``: a folder (its journal, or else its ``results.json``), a ``results.json`` or a kept copy.

    :class:`StatusError` if there is none, it cannot be read, or it has no per-deal outcomes.
    """
    source = Path(source)
    path = source / JOURNAL_FILE
    if source.is_dir() and path.exists():
        try:
            journal = read_journal(path)
        except JournalError as exc:
            raise StatusError(str(exc)) from None
        parts = journal.played.parts
        pace = parts[-1].seconds / (parts[-1].stop - parts[-1].first_deal) if parts else None
        key = journal.key
        return Match(
            source,
            key.game,
            key.seed,
            key.candidate,
            key.references,
            [_differences(deal.index, deal.pairings) for deal in journal.played.deals],
            journal.target,
            journal.played.seconds,
            len(parts),
            pace,
            journal.played.fallbacks,
            {label: timing.decisions for label, timing in journal.played.timings.items()},
        )
    path = source / RESULTS_FILE if source.is_dir() else source
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        if source.is_dir():
            raise StatusError(f"{source} holds no readable {JOURNAL_FILE} or {RESULTS_FILE}: {exc}") from None
        raise StatusError(f"{path} is no readable match folder or results file: {exc}") from None
    if not isinstance(data, dict):
        raise StatusError(f"{path}: expected a JSON object (an arena results.json or a kept copy of one)")
    for name, kind in (("game", str), ("seed", int), ("candidate", str), ("references", list)):
        if not isinstance(data.get(name), kind) or isinstance(data.get(name), bool):
            raise StatusError(f"{path}: field {name!r} is missing or has the wrong type; not an arena results.json")
    references = tuple(str(r) for r in data["references"])
    try:
        if "deal_outcomes" in data:
            outcomes = data["deal_outcomes"]
            if not isinstance(outcomes, list):
                raise StatusError(f"{path}: field 'deal_outcomes' must be a list")
            deals = [
                _differences(d.index, d.pairings)
                for d in (deal_outcome_from_json(d, f"{path.name} deal_outcomes[{i}]") for i, d in enumerate(outcomes))
            ]
        elif DEAL_DIFFERENCES in data:
            deals = kept_deals(data[DEAL_DIFFERENCES], len(references), str(path))
        else:
            raise StatusError(
                f"{path} has no per-deal outcomes (neither deal_outcomes nor {DEAL_DIFFERENCES}): a copy kept by "
                "tools/strength_ladder.py keep before keep kept them; it cannot be paired or followed deal by deal, "
                "keep the match's results.json again"
            )
        fallbacks = fallbacks_from_json(data.get("fallbacks"), path.name)
    except JournalError as exc:
        raise StatusError(str(exc)) from None
    if any(len(deal.differences) != len(references) for deal in deals):
        raise StatusError(f"{path}: a deal's outcomes do not have one pairing per reference ({len(references)})")
    timing = data.get("timing") or {}
    seconds = float(data.get("seconds", 0.0))
    pace = seconds / len(deals) if deals else None
    return Match(
        source,
        data["game"],
        data["seed"],
        data["candidate"],
        references,
        deals,
        len(deals),
        seconds,
        len(data.get("parts") or [1]),
        pace,
        fallbacks,
        {label: int(t.get("decisions", 0)) for label, t in timing.items() if isinstance(t, dict)},
    )


def _differences(index: int, pairings: tuple[PairingDeal, ...]) -> DealDifferences:
    return DealDifferences(index, tuple(p.difference for p in pairings))


def _whole(value: Any, least: int, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise StatusError(f"{field} must be a whole number, at least {least}, not {value!r}")
    return value


def kept_deals(data: Any, references: int, where: str) -> list[DealDifferences]:
    """The deals of a kept copy's ``deal_differences`` (``references``: how many the match has).

    Raises :class:`StatusError` naming ``where`` and the field of what is wrong.
    """
    at = f"{where}: field '{DEAL_DIFFERENCES}"
    if not isinstance(data, dict):
        raise StatusError(f"{at}' must be an object")
    if data.get("version") != DEAL_DIFFERENCES_VERSION:
        raise StatusError(f"{at}.version' is {data.get('version')!r}; this tool reads version {DEAL_DIFFERENCES_VERSION}")
    ranges = data.get("indices")
    if not isinstance(ranges, list):
        raise StatusError(f"{at}.indices' must be a list of [first, stop) ranges")
    indices: list[int] = []
    for i, pair in enumerate(ranges):
        field = f"{at}.indices[{i}]'"
        if not isinstance(pair, list) or len(pair) != 2:
            raise StatusError(f"{field} must be a [first, stop) range, not {pair!r}")
        first = _whole(pair[0], indices[-1] + 1 if indices else 0, f"{field}: its first deal (after the ranges before it)")
        stop = _whole(pair[1], first + 1, f"{field}: its stop (after its first deal)")
        indices.extend(range(first, stop))
    rotations = data.get("rotations")
    if isinstance(rotations, list):
        if len(rotations) != len(indices):
            raise StatusError(f"{at}.rotations' has {len(rotations)} numbers for {len(indices)} deals")
        counts = [_whole(r, 1, f"{at}.rotations[{k}]'") for k, r in enumerate(rotations)]
    else:
        counts = [_whole(rotations, 1, f"{at}.rotations'")] * len(indices)
    sums = data.get("difference_sums")
    if not isinstance(sums, list) or len(sums) != references:
        raise StatusError(f"{at}.difference_sums' must be a list with one list per reference ({references})")
    for j, values in enumerate(sums):
        if not isinstance(values, list) or len(values) != len(indices):
            size = len(values) if isinstance(values, list) else type(values).__name__
            raise StatusError(f"{at}.difference_sums[{j}]' must be a list of {len(indices)} numbers, one per deal, not {size}")
        for k, value in enumerate(values):
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise StatusError(f"{at}.difference_sums[{j}][{k}]' must be a number, not {value!r}")
    return [DealDifferences(index, tuple(values[k] / counts[k] for values in sums)) for k, index in enumerate(indices)]


def _interval(values: list[float]) -> dict[str, Any]:
    """Mean, Student t interval and win rate of per-deal differences."""
    interval = mean_interval(values)
    rates = win_rates(values)
    return {"deals": len(values), "mean": interval.mean, "ci_t": list(interval.t) if interval.t else None, "win_rate": rates.win_rate}


def status(match: Match) -> dict[str, Any]:
    """Deals done, time and time left, and per reference the mean difference so far with its interval."""
    done = len(match.deals)
    left = max(0, match.target - done)
    return {
        "folder": str(match.folder),
        "game": match.game,
        "seed": match.seed,
        "candidate": match.candidate,
        "deals": done,
        "target": match.target,
        "seconds": round(match.seconds, 1),
        "runs": match.runs,
        "seconds_left": round(left * match.pace, 1) if match.pace is not None else None,
        "pairings": {
            reference: _interval([deal.differences[j] for deal in match.deals]) if match.deals else None
            for j, reference in enumerate(match.references)
        },
        "fallbacks": match.fallbacks,
        "decisions": match.decisions,
    }


def compare(first: Match, second: Match) -> dict[str, Any]:
    """``first``'s candidate against ``second``'s on the deals both played: per reference the paired difference of their differences."""
    for name in ("game", "seed", "references"):
        if getattr(first, name) != getattr(second, name):
            raise StatusError(
                f"the matches differ in {name} ({getattr(first, name)} vs {getattr(second, name)}): their deals cannot be paired"
            )
    theirs = {deal.index: deal for deal in second.deals}
    common = [(deal, theirs[deal.index]) for deal in first.deals if deal.index in theirs]
    if not common:
        raise StatusError("the matches have no deal in common yet")
    pairings = {}
    for j, reference in enumerate(first.references):
        a = [mine.differences[j] for mine, _ in common]
        b = [other.differences[j] for _, other in common]
        pairings[reference] = {
            "paired": _interval([x - y for x, y in zip(a, b, strict=True)]),
            "first": _interval(a),
            "second": _interval(b),
        }
    return {"first": first.candidate, "second": second.candidate, "deals": len(common), "pairings": pairings}


def _signed_interval(data: dict[str, Any] | None) -> str:
    if data is None:
        return "no deals yet"
    ci = data["ci_t"]
    span = f"{ci[0]:+.3f} .. {ci[1]:+.3f}" if ci else "no interval from one deal"
    return f"{data['mean']:+.3f} ({span}) per deal over {data['deals']} deals, won {100 * data['win_rate']:.1f}%"


def status_text(data: dict[str, Any]) -> list[str]:
    """:func:`status` as lines for people."""
    left = "" if data["seconds_left"] is None or data["deals"] >= data["target"] else f", about {data['seconds_left']:.0f} s left"
    runs = f" in {data['runs']} runs" if data["runs"] > 1 else ""
    lines = [
        f"{data['folder']}: {data['game']}, seed {data['seed']}, candidate {data['candidate']}",
        f"  {data['deals']} of {data['target']} deals, {data['seconds']:.0f} s{runs}{left}",
    ]
    lines += [f"  vs {reference}: {_signed_interval(p)}" for reference, p in data["pairings"].items()]
    for label, counts in data["fallbacks"].items():
        line = fallback_line(label, counts, data["decisions"].get(label))
        if line is not None:
            lines.append(f"  {line}")
    return lines


def compare_text(data: dict[str, Any]) -> list[str]:
    """:func:`compare` as lines for people."""
    lines = [f"{data['first']} against {data['second']} on {data['deals']} common deals:"]
    for reference, p in data["pairings"].items():
        lines += [
            f"  vs {reference}: paired {_signed_interval(p['paired'])}",
            f"    first alone  {_signed_interval(p['first'])}",
            f"    second alone {_signed_interval(p['second'])}",
        ]
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print the status of a match, or the comparison of two."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "folder", help="an arena --out folder (running, stopped or finished), its results.json, or a copy kept by strength_ladder.py keep"
    )
    parser.add_argument(
        "--against",
        metavar="OTHER",
        help="another match of the same game, seed and references (folder, results.json or kept copy): compare on the common deals",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        match = load(args.folder)
        data = status(match)
        lines = status_text(data)
        if args.against is not None:
            data = {"status": data, "comparison": compare(match, load(args.against))}
            lines += compare_text(data["comparison"])
    except StatusError as exc:
        print(f"match_status: error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(data) if args.json else "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
