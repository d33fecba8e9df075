"""How an arena match stands, and two matches compared deal by deal on the deals both played.

An hour-long match need not be waited for, nor stopped, to be read: its
journal (``DIR/journal.jsonl``, docs/arena.md) holds every chunk of deals as
soon as it is done.  This tool reads it, or a finished match's
``results.json`` where there is no journal::

    python tools/match_status.py DIR                   # deals done, mean so far with its 95% interval, time left, fallbacks
    python tools/match_status.py DIR --against OTHER   # DIR's candidate against OTHER's, paired on the common deals
    python tools/match_status.py DIR --against OTHER --json

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
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stich.arena.duplicate import DealOutcome, FallbackTally
from stich.arena.journal import JOURNAL_FILE, JournalError, deal_outcome_from_json, fallbacks_from_json, read_journal
from stich.arena.report import RESULTS_FILE, fallback_line
from stich.arena.stats import mean_interval, win_rates


class StatusError(Exception):
    """A folder without a readable match, or two matches that cannot be paired."""


@dataclass
class Match:
    """What a match folder holds: its identity, the deals done so far and how long they took."""

    folder: Path
    game: str
    seed: int
    candidate: str
    references: tuple[str, ...]
    deals: list[DealOutcome]
    target: int
    seconds: float
    runs: int
    pace: float | None
    """Seconds per deal in the last run (``None``: no deal played yet)."""
    fallbacks: FallbackTally
    """Per bot label, the decisions that fell back to the heuristic by reason (none for a match of an older stich)."""
    decisions: dict[str, int]
    """Per bot label, its decisions so far."""


def load(folder: str | Path) -> Match:
    """The match in ``folder``, from its journal or else from ``results.json``; :class:`StatusError` if neither is readable."""
    folder = Path(folder)
    path = folder / JOURNAL_FILE
    if path.exists():
        try:
            journal = read_journal(path)
        except JournalError as exc:
            raise StatusError(str(exc)) from None
        parts = journal.played.parts
        pace = parts[-1].seconds / (parts[-1].stop - parts[-1].first_deal) if parts else None
        key = journal.key
        return Match(
            folder,
            key.game,
            key.seed,
            key.candidate,
            key.references,
            journal.played.deals,
            journal.target,
            journal.played.seconds,
            len(parts),
            pace,
            journal.played.fallbacks,
            {label: timing.decisions for label, timing in journal.played.timings.items()},
        )
    path = folder / RESULTS_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise StatusError(f"{folder} holds no readable {JOURNAL_FILE} or {RESULTS_FILE}: {exc}") from None
    if "deal_outcomes" not in data:
        raise StatusError(f"{path} has no deal_outcomes (a copy kept by tools/strength_ladder.py keep?)")
    try:
        deals = [deal_outcome_from_json(d, f"{path.name} deal_outcomes[{i}]") for i, d in enumerate(data["deal_outcomes"])]
        fallbacks = fallbacks_from_json(data.get("fallbacks"), path.name)
    except JournalError as exc:
        raise StatusError(str(exc)) from None
    timing = data.get("timing") or {}
    seconds = float(data.get("seconds", 0.0))
    pace = seconds / len(deals) if deals else None
    return Match(
        folder,
        data["game"],
        data["seed"],
        data["candidate"],
        tuple(data["references"]),
        deals,
        len(deals),
        seconds,
        len(data.get("parts") or [1]),
        pace,
        fallbacks,
        {label: int(t.get("decisions", 0)) for label, t in timing.items() if isinstance(t, dict)},
    )


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
            reference: _interval([deal.pairings[j].difference for deal in match.deals]) if match.deals else None
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
        a = [mine.pairings[j].difference for mine, _ in common]
        b = [other.pairings[j].difference for _, other in common]
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
    parser.add_argument("folder", help="an arena --out folder (running, stopped or finished)")
    parser.add_argument(
        "--against", metavar="OTHER", help="another match of the same game, seed and references: compare on the common deals"
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
