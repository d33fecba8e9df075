"""What an arena match reports: the statistics as JSON, a text summary, ``deals.csv``, ``records.jsonl`` and plots.

:func:`summarize` turns an :class:`~stich.arena.duplicate.ArenaResult` into
one JSON-able dictionary (the ``--json`` output and the body of
``results.json``); :func:`summary_text` renders it for people.
:func:`write_outputs` writes the files of ``--out DIR``.  Plotting needs
matplotlib, which is imported only by :func:`write_plots`, so the arena runs
without it; a missing matplotlib raises :class:`PlotsUnavailable`, which the
command line turns into a warning.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import os
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from stich import __version__
from stich.arena.duplicate import ArenaResult
from stich.arena.stats import (
    ANCHOR_RATING,
    ELO_SCALE,
    LEVEL,
    PairResult,
    duplicate_score,
    elo_difference,
    fit_ratings,
    mean_interval,
    win_rates,
)
from stich.bots.fallbacks import FALLBACK_REASONS
from stich.core.errors import StichError
from stich.core.records import dumps_record

RESULTS_FILE = "results.json"
DEALS_FILE = "deals.csv"
RECORDS_FILE = "records.jsonl"
DISTRIBUTION_PLOT = "score_distribution.png"
RATINGS_PLOT = "ratings.png"

DEALS_COLUMNS = ("index", "seed", "dealer", "reference", "rotations", "candidate_mean", "reference_mean", "difference")
"""Columns of ``deals.csv``: one row per deal and reference."""


class PlotsUnavailable(StichError):
    """matplotlib is not installed, so no plots can be drawn."""


class OutputError(StichError, OSError):
    """An output file that cannot be written."""


# --------------------------------------------------------------------- statistics
def _pairing(result: ArenaResult, j: int) -> dict[str, Any]:
    """The statistics of the candidate against reference ``j``."""
    diffs = result.differences(j)
    interval = mean_interval(diffs)
    rates = win_rates(diffs)
    score = duplicate_score(rates)
    elo, elo_se = elo_difference(score)
    pairings = [deal.pairings[j] for deal in result.deals]
    ordered = sorted(diffs)
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    rotations = sum(len(p.seats) for p in pairings)
    return {
        "candidate": result.candidate_label,
        "reference": result.reference_labels[j],
        "deals": len(diffs),
        "rotations": rotations,
        "candidate_mean": sum(p.candidate_mean for p in pairings) / len(pairings),
        "reference_mean": sum(p.reference_mean for p in pairings) / len(pairings),
        "difference": interval.to_json(),
        "median_difference": median,
        "outcomes": rates.to_json(),
        "expected_score": score.expected,
        "expected_score_se": score.se,
        "elo_difference": elo,
        "elo_difference_se": elo_se,
    }


def summarize(result: ArenaResult, *, command: str | None = None, include_deals: bool = False) -> dict[str, Any]:
    """Everything the match measured as one JSON-able dictionary.

    ``command`` is the command line that reproduces the match; with
    ``include_deals`` the per-deal outcomes (seeds, seats, every score) are
    added under ``"deal_outcomes"`` (``results.json`` has them, ``--json`` not).
    """
    pairings = [_pairing(result, j) for j in range(len(result.references))]
    anchor = result.reference_labels[0]
    pairs = [PairResult(p["candidate"], p["reference"], p["elo_difference"], p["elo_difference_se"]) for p in pairings]
    ratings = fit_ratings(result.labels, pairs, anchor)
    data: dict[str, Any] = {
        "stich_version": __version__,
        "command": command,
        "game": result.game,
        "seed": result.seed,
        "deals": len(result.deals),
        "candidate": result.candidate.text,
        "references": [spec.text for spec in result.references],
        "bots": list(result.labels),
        "seeds": {
            "deal": "derive_seed(seed, i), dealer i % seats",
            "bot": "stich.arena.duplicate.arena_bot_seed(seed, i, seat), the same in the baseline and every rotation",
        },
        "reuse_baseline": result.reuse_baseline,
        "games_played": result.games_played,
        "workers": result.workers,
        "seconds": round(result.seconds, 3),
        "parts": [part.to_json() for part in result.parts],
        "level": LEVEL,
        "pairings": pairings,
        "ratings": {
            "anchor": anchor,
            "anchor_rating": ANCHOR_RATING,
            "scale": ELO_SCALE,
            "method": "E = (wins + ties/2 + 1)/(n + 2); D = 400*log10(E/(1-E)); weighted least squares, anchor fixed",
            "bots": [r.to_json() for r in ratings],
        },
        "timing": {
            label: {"decisions": t.decisions, "seconds": round(t.seconds, 6), "mean_ms": t.mean_ms, "max_ms": t.max_ms}
            for label, t in result.timings.items()
        },
        "fallbacks": {label: dict(counts) for label, counts in result.fallbacks.items()},
    }
    if include_deals:
        data["deal_outcomes"] = [deal.to_json() for deal in result.deals]
    return data


# --------------------------------------------------------------------- text
def _signed(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:+.{digits}f}"


def _interval(pair: list[float] | None, digits: int = 3) -> str:
    return "n/a (needs 2 deals)" if pair is None else f"{_signed(pair[0], digits)} .. {_signed(pair[1], digits)}"


def _runs(data: dict[str, Any]) -> str:
    """`` in 2 runs (resumed at deal 340)`` for a match stopped and resumed, else nothing."""
    parts = data.get("parts") or []
    if len(parts) < 2:
        return ""
    starts = ", ".join(str(part["first_deal"]) for part in parts[1:])
    return f" in {len(parts)} runs (resumed at deal{'s' if len(parts) > 2 else ''} {starts})"


def fallback_line(label: str, counts: Mapping[str, int], decisions: int | None = None) -> str | None:
    """``pimc:level=1: 3 of 41,220 decisions fell back to the heuristic (no world fits: 3)``, or ``None`` without fallbacks.

    ``counts``: reason -> decisions (:mod:`stich.bots.fallbacks`); ``decisions``: all of the bot's decisions, when known.
    """
    total = sum(counts.values())
    if not total:
        return None
    words: dict[str, str] = {reason: text for reason, text in FALLBACK_REASONS.items()}
    order = [*(reason for reason in words if reason in counts), *sorted(set(counts) - set(words))]
    reasons = ", ".join(f"{words.get(reason, reason)}: {counts[reason]:,}" for reason in order if counts[reason])
    if decisions is not None:
        return f"{label}: {total:,} of {decisions:,} decisions fell back to the heuristic ({reasons})"
    return f"{label}: {total:,} decision{'s' if total != 1 else ''} fell back to the heuristic ({reasons})"


def fallback_lines(data: Mapping[str, Any]) -> list[str]:
    """One :func:`fallback_line` per bot of a summary (or ``results.json``) with fallbacks; none for an older one without the key."""
    timing = data.get("timing") or {}
    lines = []
    for label, counts in (data.get("fallbacks") or {}).items():
        decisions = timing.get(label, {}).get("decisions")
        line = fallback_line(label, counts, decisions)
        if line is not None:
            lines.append(line)
    return lines


REUSE_NOTE = " (rotations reuse the baseline's actions)"
"""Added to the references' line of the summary of a match played with ``reuse_baseline``."""


def summary_text(data: dict[str, Any]) -> list[str]:
    """The summary of :func:`summarize` as plain text lines."""
    pct = round(100 * data["level"])
    lines = [
        f"game:       {data['game']}",
        f"deals:      {data['deals']} (seed {data['seed']}), {data['games_played']} games played",
        f"candidate:  {data['candidate']}",
        f"references: {', '.join(data['references'])}{REUSE_NOTE if data.get('reuse_baseline') else ''}",
        f"time:       {data['seconds']:.2f} s with {data['workers']} worker{'s' if data['workers'] != 1 else ''}{_runs(data)}",
    ]
    for p in data["pairings"]:
        diff = p["difference"]
        out = p["outcomes"]
        t_label = f"t, df {diff['df']}" if diff["df"] is not None else "t"
        lines += [
            "",
            f"{p['candidate']} vs {p['reference']}: {p['deals']} deals, {p['rotations']} candidate seats",
            f"  mean difference per deal: {_signed(diff['mean'])} (median {_signed(p['median_difference'])})",
            f"    {pct}% CI (normal):  {_interval(diff['ci_normal'])}",
            f"    {pct}% CI ({t_label}): {_interval(diff['ci_t'])}",
            f"  candidate mean {_signed(p['candidate_mean'])}, reference mean {_signed(p['reference_mean'])} per seat",
            f"  deals won {100 * out['win_rate']:.1f}%, tied {100 * out['tie_rate']:.1f}%, lost {100 * out['loss_rate']:.1f}%",
            f"  duplicate score E {p['expected_score']:.3f} -> Elo difference {_signed(p['elo_difference'], 0)}"
            f" (se {p['elo_difference_se']:.0f})",
        ]
    ratings = data["ratings"]
    lines += ["", f"ratings (Elo, {ratings['anchor']} anchored at {ratings['anchor_rating']:.0f}; {pct}% interval):"]
    width = max(len(r["bot"]) for r in ratings["bots"])
    for r in ratings["bots"]:
        span = "anchor" if r["interval"] is None else f"{r['interval'][0]:.0f} .. {r['interval'][1]:.0f}"
        lines.append(f"  {r['bot']:<{width}}  {r['rating']:6.0f}  ({span})")
    lines += ["", "time per decision:"]
    for label, t in data["timing"].items():
        lines.append(f"  {label:<{width}}  {t['mean_ms']:8.3f} ms  (slowest {t['max_ms']:.1f} ms; {t['decisions']} decisions)")
    fallbacks = fallback_lines(data)
    if fallbacks:
        lines += ["", 'decisions not searched (see docs/arena.md, "Fallbacks"):', *(f"  {line}" for line in fallbacks)]
    if data.get("out"):
        lines += ["", f"files:      {data['out']}"]
    return lines


def print_summary(data: dict[str, Any], as_json: bool) -> None:
    """Print the summary as text, or as one JSON object."""
    if as_json:
        print(json.dumps(data, ensure_ascii=False, allow_nan=False))
        return
    for line in summary_text(data):
        print(line)


# --------------------------------------------------------------------- files
def prepare_out_dir(path: str | Path) -> Path:
    """Create the output folder (and its parents) now, so a bad path fails before any deal is played."""
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise OutputError(f"--out {out} is a file, not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create the folder {out}: {exc.strerror or exc}") from None
    return out


class RecordWriter:
    """Writes deal records to ``records.jsonl`` as they arrive (a match can hold more games than fit in memory).

    With ``keep`` (a resumed match) the file's first ``keep`` bytes, the
    records of the deals already played, stay and the rest is cut off before
    new records are appended.
    """

    def __init__(self, path: str | Path, keep: int | None = None) -> None:
        self.path = Path(path)
        self.count = 0
        size = self.path.stat().st_size if keep is not None and self.path.exists() else 0
        if keep is not None and size < keep:
            raise OutputError(f"{self.path} has {size} bytes, fewer than the {keep} its match's journal counts; it cannot go on")
        try:
            if keep is not None and size:
                os.truncate(self.path, keep)
            mode = "w" if keep is None else "a"
            self._handle: IO[str] = open(self.path, mode, encoding="utf-8", newline="\n")  # noqa: SIM115 - closed in __exit__
        except OSError as exc:
            raise OutputError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def __call__(self, records: list[dict[str, Any]]) -> None:
        """Append ``records``, one JSON object per line."""
        for record in records:
            self._handle.write(dumps_record(record))
            self._handle.write("\n")
        self.count += len(records)

    def size(self) -> int:
        """The file's size once everything written so far is in it (what a match's journal notes after each chunk)."""
        self._handle.flush()
        return os.fstat(self._handle.fileno()).st_size

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self._handle.close()


def write_deals_csv(path: str | Path, result: ArenaResult) -> None:
    """One row per deal and reference: :data:`DEALS_COLUMNS`."""
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(DEALS_COLUMNS)
        for deal in result.deals:
            for p in deal.pairings:
                writer.writerow(
                    [
                        deal.index,
                        deal.seed,
                        deal.dealer,
                        p.reference,
                        len(p.seats),
                        repr(p.candidate_mean),
                        repr(p.reference_mean),
                        repr(p.difference),
                    ]
                )


def write_results_json(path: str | Path, data: dict[str, Any]) -> None:
    """``results.json``: the full summary, indented."""
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        json.dump(data, handle, ensure_ascii=False, indent=2, allow_nan=False)
        handle.write("\n")


def histogram_edges(values: list[float], most: int = 60) -> list[float]:
    """Bin edges for per-deal differences, which take few, evenly spaced values (multiples of 1/rotations).

    Each bin is a whole number of the smallest gap between distinct values
    wide and centred on those values, so no bin catches one value more than
    its neighbour does (which would draw false gaps); at most ``most`` bins.
    """
    distinct = sorted(set(values))
    if len(distinct) < 2:
        centre = distinct[0] if distinct else 0.0
        return [centre - 0.5, centre + 0.5]
    step = min(b - a for a, b in itertools.pairwise(distinct))
    span = distinct[-1] - distinct[0]
    width = step * max(1, math.ceil(span / step / most))
    count = math.floor(span / width) + 1
    start = distinct[0] - width / 2
    return [start + k * width for k in range(count + 1)]


def write_plots(out: Path, result: ArenaResult, data: dict[str, Any]) -> list[Path]:
    """Draw ``score_distribution.png`` and ``ratings.png``; raises :class:`PlotsUnavailable` without matplotlib."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotsUnavailable("matplotlib is not installed, so no plots were drawn (pip install 'stich[plots]')") from None

    pairings = data["pairings"]
    fig = Figure(figsize=(7.0, 2.8 * len(pairings) + 0.6), layout="constrained")
    axes = fig.subplots(len(pairings), 1, squeeze=False)
    for j, p in enumerate(pairings):
        ax = axes[j][0]
        diffs = result.differences(j)
        ax.hist(diffs, bins=histogram_edges(diffs), color="#4c72b0", alpha=0.85)
        ax.axvline(0.0, color="black", linewidth=0.8)
        mean = p["difference"]["mean"]
        ax.axvline(mean, color="#c44e52", linewidth=1.5, label=f"mean {mean:+.3f}")
        ci = p["difference"]["ci_t"]
        if ci is not None:
            ax.axvspan(ci[0], ci[1], color="#c44e52", alpha=0.2, label=f"95% CI {ci[0]:+.3f} .. {ci[1]:+.3f}")
        ax.set_title(f"{p['candidate']} vs {p['reference']}: duplicate difference per deal ({p['deals']} deals)", fontsize=10)
        ax.set_xlabel("candidate mean - reference mean (score per deal)")
        ax.set_ylabel("deals")
        ax.legend(fontsize=8)
    fig.suptitle(result.game, fontsize=9)
    distribution = out / DISTRIBUTION_PLOT
    fig.savefig(distribution, dpi=110)

    bots = data["ratings"]["bots"]
    fig = Figure(figsize=(7.0, 0.6 * len(bots) + 1.4), layout="constrained")
    ax = fig.subplots()
    names = [r["bot"] for r in bots]
    values = [r["rating"] for r in bots]
    lows = [0.0 if r["interval"] is None else r["rating"] - r["interval"][0] for r in bots]
    highs = [0.0 if r["interval"] is None else r["interval"][1] - r["rating"] for r in bots]
    positions = list(range(len(bots)))
    ax.errorbar(values, positions, xerr=[lows, highs], fmt="o", color="#4c72b0", capsize=4)
    ax.set_yticks(positions, names)
    ax.set_ylim(len(bots) - 0.5, -0.5)
    ax.axvline(data["ratings"]["anchor_rating"], color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlabel(f"Elo rating ({data['ratings']['anchor']} anchored at {data['ratings']['anchor_rating']:.0f}; 95% interval)")
    ax.set_title(result.game, fontsize=9)
    ratings = out / RATINGS_PLOT
    fig.savefig(ratings, dpi=110)
    return [distribution, ratings]


def write_outputs(out: Path, result: ArenaResult, data: dict[str, Any]) -> list[str]:
    """Write ``results.json`` and ``deals.csv`` and try the plots; returns warning lines (plots skipped)."""
    try:
        write_results_json(out / RESULTS_FILE, data)
        write_deals_csv(out / DEALS_FILE, result)
    except OSError as exc:
        raise OutputError(f"cannot write into {out}: {exc.strerror or exc}") from None
    try:
        write_plots(out, result, data)
    except PlotsUnavailable as exc:
        return [str(exc)]
    return []
