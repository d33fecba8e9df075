"""Run the bot ladder's duplicate matches and write ``docs/strength.md`` from their results.

The ladder of issue 4 is random < heuristic < pimc < ismcts, for every game.
A rung counts as reached when, over at least 1,000 duplicate deals, the lower
end of the 95% interval of the mean score difference against the rung below
is above zero.  This script runs those matches with ``stich arena`` (one
process per match, ``--workers`` processes each) and renders the table with
the exact command of every match, so anyone can reproduce a line::

    python tools/strength_ladder.py run --deals 1000 --seed 1 --workers 16 --out ladder
    python tools/strength_ladder.py render ladder --output docs/strength.md

``run`` writes one arena output folder per match under ``--out``
(``<game>__<candidate>__vs__<reference>``, with ``results.json``, the deal
records and plots); ``keep`` copies each ``results.json`` into
``docs/ladder``, which git keeps, so the table can be rendered again later
and a new match compared deal by deal with a kept one
(``tools/match_status.py NEW --against docs/ladder/OLD.json``); ``render``
reads every ``results.json`` below the folders it is given and every such
copy in them.  Where one of those folders holds a ``standings.json``
(``{"tapp_tarock": {"heuristic": RUN, "pimc": RUN, "ismcts": RUN}, ...}``,
a run being a kept copy's file name without ``.json``), ``render`` also
writes the standings: per game and rung the one run the ladder stands on,
between the markers ``<!-- standings:start -->`` and
``<!-- standings:end -->``.  Which run that is stays a person's choice
(the latest with the current bots, or the best of several variants), made
in that file and explained in the text; the numbers come from the run.

``--games`` and ``--rungs`` select a part of the ladder; ``run
--reuse-baseline`` passes ``--reuse-baseline`` to every match (time-budgeted
references, docs/arena.md); ``run --resume`` goes on with a ladder that was
stopped: a match whose folder holds it finished is kept, a stopped one goes
on (``stich arena --resume``), the others are played::

    python tools/strength_ladder.py keep ladder --into docs/ladder
    python tools/strength_ladder.py render docs/ladder --output docs/strength.md --module src/stich/bots/ladder_standings.py

``--module`` writes the same standings as Python
(:mod:`stich.bots.ladder_standings`), from which the code takes the
strongest bot per game (:func:`stich.bots.ladder.strongest`: the web's
``GET /api/bots``); a test checks that both are current.

A kept copy is the match's ``results.json`` with its per-deal outcomes
(``deal_outcomes``, about 500 KB per 1,000 deals) replaced by their compact
form, ``deal_differences`` (2 to 3 KB per 1,000 deals and reference; each
list on one line)::

    "deal_differences": {
     "difference_sums": [[0, -6, 2, ...]],  # per reference, in the order of "references", per deal: the
                                            # candidate's scores minus the reference's, summed over its rotations
     "indices": [[0, 1000]],                # the deals' indices, as [first, stop) ranges in deal order
     "rotations": 3,                        # per deal the candidate's rotations (seats it played in); one number
                                            # when all deals have the same, else a list with one per deal
     "version": 1
    }

A deal's duplicate difference against a reference is its sum divided by its
rotations, the same number as in ``deal_outcomes`` (scores are whole numbers,
so the sums are too; a sum that is not would be rounded to 6 decimals).  That
is all a paired comparison uses: deals are paired by index, and a deal's cards
follow from the match's seed and its index.  Copies kept before this form have
no ``deal_differences``: ``render`` reads them as before, ``match_status``
says that they cannot be paired.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from stich.bots.ladder import MIN_DEALS, Standing, reached

GAMES = ("doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen")

DEFAULT_RUNGS: dict[str, tuple[str, str]] = {
    "heuristic": ("heuristic", "random"),
    "pimc": ("pimc:level=1", "heuristic"),
    "ismcts": ("ismcts:level=1", "pimc:level=1"),
}
"""Rung name -> (candidate spec, reference spec): each rung against the rung below."""

GAME_ARGUMENTS: dict[str, tuple[str, ...]] = {
    "dobbm": ("--option", "retour_limit=2"),
}
"""Extra ``stich arena`` arguments per game.  Dobbm's default has no limit on
Retours (PAGAT), so one deal of a match can be worth 2^20 times another and
the mean difference has no usable interval; the ladder caps Retours at two,
a house limit the dossier allows (``retour_limit``, §5)."""


def _folder_name(game: str, candidate: str, reference: str) -> str:
    def clean(spec: str) -> str:
        return spec.replace(":", "-").replace("=", "").replace(",", "_")

    return f"{game}__{clean(candidate)}__vs__{clean(reference)}"


def run_matches(args: argparse.Namespace) -> int:
    """Play the selected matches one after the other, each with ``--workers`` processes."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rungs = _selected_rungs(args.rungs)
    for game in _selected_games(args.games):
        for rung in rungs:
            candidate, reference = rungs[rung]
            folder = out / _folder_name(game, candidate, reference)
            command = [
                sys.executable,
                "-m",
                "stich.cli.main",
                "arena",
                game,
                *GAME_ARGUMENTS.get(game, ()),
                "--bots",
                f"{candidate},{reference}",
                "--deals",
                str(args.deals),
                "--seed",
                str(args.seed),
                "--workers",
                str(args.workers),
                "--out",
                str(folder),
                "--json",
                *(["--reuse-baseline"] if args.reuse_baseline else []),
            ]
            if args.resume:
                state = _match_state(folder, args.deals)
                if state == "finished":
                    print(f"ladder: {game}: {candidate} vs {reference}: played already, kept", flush=True)
                    continue
                if state == "stopped":
                    command.append("--resume")
            started = time.monotonic()
            print(f"ladder: {game}: {candidate} vs {reference} ...", flush=True)
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                print(f"ladder: {game}: {candidate} vs {reference} failed:\n{done.stderr}", file=sys.stderr, flush=True)
                continue
            summary = json.loads(done.stdout)
            pair = summary["pairings"][0]
            low, high = pair["difference"]["ci_t"]
            print(
                f"ladder: {game}: {candidate} vs {reference}: {pair['difference']['mean']:+.3f} ({low:+.3f} .. {high:+.3f}) "
                f"in {time.monotonic() - started:.0f} s",
                flush=True,
            )
    return 0


def _match_state(folder: Path, deals: int) -> str:
    """``finished`` (its results cover ``deals`` deals), ``stopped`` (a journal to go on from) or ``new``."""
    from stich.arena.journal import JOURNAL_FILE, JournalError, read_journal

    path = folder / JOURNAL_FILE
    if not path.exists():
        return "new"
    try:
        journal = read_journal(path)
    except JournalError:
        return "stopped"  # stich arena --resume names what is wrong with it
    return "finished" if journal.done >= deals and (folder / "results.json").exists() else "stopped"


def _selected_games(text: str | None) -> list[str]:
    if not text:
        return list(GAMES)
    games = [g.strip() for g in text.split(",") if g.strip()]
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        raise SystemExit(f"strength_ladder: unknown game(s) {', '.join(unknown)}; choose from {', '.join(GAMES)}")
    return games


def _selected_rungs(text: str | None) -> dict[str, tuple[str, str]]:
    if not text:
        return dict(DEFAULT_RUNGS)
    rungs: dict[str, tuple[str, str]] = {}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        if part in DEFAULT_RUNGS:
            rungs[part] = DEFAULT_RUNGS[part]
            continue
        if ">" not in part:
            raise SystemExit(f"strength_ladder: --rungs: {part!r} is neither a rung ({', '.join(DEFAULT_RUNGS)}) nor 'CANDIDATE>REFERENCE'")
        candidate, reference = (s.strip() for s in part.split(">", 1))
        rungs[part] = (candidate, reference)
    return rungs


STANDINGS_FILE = "standings.json"
"""The file, in a folder given to ``render``, that names each game's current run per rung (see :func:`standings_table`)."""


def _results(folders: list[str]) -> list[dict[str, Any]]:
    """Every match result below ``folders``: arena ``results.json`` files and the compact copies ``keep`` writes."""
    found: list[dict[str, Any]] = []
    for folder in folders:
        paths = set(Path(folder).rglob("results.json")) | set(Path(folder).glob("*.json"))
        for path in sorted(paths):
            if path.name == STANDINGS_FILE:
                continue  # read by _standings, with its own errors
            data = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, dict) and "pairings" in data:
                folder = Path(str(data.get("out", ""))).name
                if path.name != "results.json" and folder and path.stem.startswith(folder):
                    # a compact copy: what its name adds to the match folder's is the run's label
                    data["label"] = path.stem[len(folder) :].strip("-_") or "–"
                data["_name"] = path.parent.name if path.name == "results.json" else path.stem
                found.append(data)
    return found


RUNGS = {rung: f"{rung} > {reference.split(':', 1)[0]}" for rung, (_candidate, reference) in DEFAULT_RUNGS.items()}
"""The ladder's rungs (:data:`DEFAULT_RUNGS`) with their standings column heads, each against the rung below."""


def _reached(pair: dict[str, Any]) -> bool:
    """Whether a pairing reaches its rung (:func:`stich.bots.ladder.reached`)."""
    return reached(pair["difference"]["ci_t"][0], pair["deals"])


def _standings(folders: list[str]) -> dict[str, Any] | None:
    """The :data:`STANDINGS_FILE` of the first folder that has one, checked; ``None`` where none has."""
    for folder in folders:
        path = Path(folder) / STANDINGS_FILE
        if not path.exists():
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise SystemExit(f"strength_ladder: {path} is not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise SystemExit(f"strength_ladder: {path} must hold an object of games")
        for game, rungs in data.items():
            if game not in GAMES:
                raise SystemExit(f"strength_ladder: {path}: unknown game {game!r} (games: {', '.join(GAMES)})")
            if not isinstance(rungs, dict):
                raise SystemExit(f"strength_ladder: {path}: field {game!r} must map rungs to runs")
            for rung, run in rungs.items():
                if rung not in RUNGS:
                    raise SystemExit(f"strength_ladder: {path}: field {game}.{rung}: unknown rung (rungs: {', '.join(RUNGS)})")
                if not isinstance(run, str):
                    raise SystemExit(f"strength_ladder: {path}: field {game}.{rung} must name a run (a kept copy's name without .json)")
        return data
    return None


def standing_runs(standings: dict[str, Any], results: list[dict[str, Any]]) -> dict[str, dict[str, Standing]]:
    """Per game and rung, the named run's :class:`~stich.bots.ladder.Standing` (games in :data:`GAMES`' order).

    ``standings`` maps game -> rung -> run, a run being a kept copy's file
    name without ``.json`` (or an arena output folder's name).
    """
    by_name = {data["_name"]: data for data in results}
    found: dict[str, dict[str, Standing]] = {}
    for game in GAMES:
        rungs = standings.get(game)
        if not rungs:
            continue
        found[game] = {}
        for rung in RUNGS:
            name = rungs.get(rung)
            if name is None:
                continue
            data = by_name.get(name)
            if data is None:
                raise SystemExit(f"strength_ladder: {STANDINGS_FILE}: field {game}.{rung} names {name!r}, which no folder given holds")
            pair = data["pairings"][0]
            (low, high), mean = pair["difference"]["ci_t"], float(pair["difference"]["mean"])
            found[game][rung] = Standing(name, data.get("label", "–"), mean, float(low), float(high), int(pair["deals"]))
    return found


def standings_table(standings: dict[str, Any], results: list[dict[str, Any]]) -> str:
    """One row per game, one cell per rung: the named run's mean per deal, its interval, whether the rung is reached, and the run.

    The table above it lists every run, this one only those the ladder stands on (:func:`standing_runs`).
    """
    lines = ["| game | " + " | ".join(RUNGS.values()) + " |", "|---|" + "---|" * len(RUNGS)]
    for game, rungs in standing_runs(standings, results).items():
        cells = []
        for rung in RUNGS:
            kept = rungs.get(rung)
            if kept is None:
                cells.append("–")
                continue
            verdict = "**reached**" if kept.reached else "not reached"
            run = f"run `{kept.label}`, " if kept.label != "–" else ""
            cells.append(f"{_signed(kept.mean)} ({_signed(kept.low)} .. {_signed(kept.high)}), {verdict}<br>{run}{kept.deals:,} deals")
        lines.append(f"| {game} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


STANDINGS_MODULE = "src/stich/bots/ladder_standings.py"
"""Where ``render --module`` writes the standings for the code (the web's strongest bot per game)."""


def standings_module(standings: dict[str, Any], results: list[dict[str, Any]]) -> str:
    """The Python module :mod:`stich.bots.ladder_standings`: the runs of :func:`standing_runs` as data."""
    lines = [
        '"""The bot ladder\'s standings per game and rung: the kept run each stands on, with its numbers (docs/strength.md).',
        "",
        f"Generated by ``python tools/strength_ladder.py render docs/ladder --module {STANDINGS_MODULE}``",
        "from docs/ladder/standings.json and the runs it names; do not edit by hand (tests/test_strength_ladder.py",
        "checks that it is current).  :func:`stich.bots.ladder.strongest` reads the strongest bot per game from it.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from stich.bots.ladder import Standing",
        "",
        "STANDINGS: dict[str, dict[str, Standing]] = {",
    ]
    for game, rungs in standing_runs(standings, results).items():
        lines.append(f"    {game!r}: {{".replace("'", '"'))
        for rung, kept in rungs.items():
            lines += [f'        "{rung}": Standing(']
            lines += [f"            {field}={json.dumps(value, ensure_ascii=False)}," for field, value in kept._asdict().items()]
            lines += ["        ),"]
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _signed(value: float) -> str:
    """``value`` with its sign and two decimals, three where two would show a non-zero bound as 0.00."""
    return f"{value:+.3f}" if value and abs(value) < 0.005 else f"{value:+.2f}"


def _replace_block(body: str, start: str, end: str, block: str, before: str | None = None) -> str:
    """``body`` with the text between the markers ``start`` and ``end`` replaced by ``block`` (markers included).

    Without the markers the block goes in front of ``before`` where that is
    in ``body``, else at the end.
    """
    if start in body and end in body:
        return body[: body.index(start)] + block + body[body.index(end) + len(end) :]
    if before is not None and before in body:
        return body[: body.index(before)] + block + "\n\n" + body[body.index(before) :]
    return body + ("\n" if body and not body.endswith("\n") else "") + block + "\n"


DEAL_DIFFERENCES = "deal_differences"
"""The key of a kept copy's compact per-deal outcomes (the module docstring gives its form)."""

DEAL_DIFFERENCES_VERSION = 1


def deal_differences(outcomes: Any, references: int, where: str) -> dict[str, Any]:
    """The compact form of ``results.json``'s ``deal_outcomes`` (``references``: how many the match has).

    Raises :class:`SystemExit` naming ``where`` and the deal of what cannot be read.
    """
    from stich.arena.journal import JournalError, deal_outcome_from_json

    if not isinstance(outcomes, list):
        raise SystemExit(f"strength_ladder: {where}: field 'deal_outcomes' must be a list")
    try:
        deals = [deal_outcome_from_json(d, f"{where} deal_outcomes[{i}]") for i, d in enumerate(outcomes)]
    except JournalError as exc:
        raise SystemExit(f"strength_ladder: {exc}") from None
    indices: list[list[int]] = []
    rotations: list[int] = []
    sums: list[list[int | float]] = [[] for _ in range(references)]
    for i, deal in enumerate(deals):
        at = f"{where} deal_outcomes[{i}]"
        if len(deal.pairings) != references:
            raise SystemExit(f"strength_ladder: {at}: {len(deal.pairings)} pairings for {references} references")
        if {len(p.seats) for p in deal.pairings} != {len(deal.pairings[0].seats)}:
            raise SystemExit(f"strength_ladder: {at}: its pairings have different numbers of rotations")
        if indices and deal.index == indices[-1][1]:
            indices[-1][1] += 1
        elif indices and deal.index < indices[-1][1]:
            raise SystemExit(f"strength_ladder: {at}: deal {deal.index} out of order (after deal {indices[-1][1] - 1})")
        else:
            indices.append([deal.index, deal.index + 1])
        rotations.append(len(deal.pairings[0].seats))
        for j, pairing in enumerate(deal.pairings):
            total = math.fsum(pairing.candidate_scores) - math.fsum(pairing.reference_scores)
            sums[j].append(int(total) if total.is_integer() else round(total, 6))
    return {
        "version": DEAL_DIFFERENCES_VERSION,
        "indices": indices,
        "rotations": rotations[0] if rotations and len(set(rotations)) == 1 else rotations,
        "difference_sums": sums,
    }


def _dumps(data: dict[str, Any]) -> str:
    """``data`` as indented JSON, each list of ``deal_differences`` on one line (a line per deal would triple its size)."""
    compact = data.get(DEAL_DIFFERENCES)
    if not isinstance(compact, dict):
        return json.dumps(data, indent=1, sort_keys=True) + "\n"
    inline: dict[str, str] = {}

    def one_line(value: Any) -> Any:
        if not isinstance(value, list):
            return value
        token = f"@deal_differences:{len(inline)}@"
        inline[json.dumps(token)] = json.dumps(value, separators=(",", ":"))
        return token

    shown = {key: one_line(value) for key, value in compact.items()}
    shown["difference_sums"] = [one_line(sums) for sums in compact["difference_sums"]]
    text = json.dumps({**data, DEAL_DIFFERENCES: shown}, indent=1, sort_keys=True)
    for token, value in inline.items():
        text = text.replace(token, value, 1)
    return text + "\n"


def keep(args: argparse.Namespace) -> int:
    """Copy each match's ``results.json`` into ``--into`` (kept in git), its per-deal outcomes in their compact form."""
    into = Path(args.into)
    into.mkdir(parents=True, exist_ok=True)
    kept = 0
    for folder in args.folders:
        for path in sorted(Path(folder).rglob("results.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            outcomes = data.pop("deal_outcomes", None)
            if outcomes is not None:
                data[DEAL_DIFFERENCES] = deal_differences(outcomes, len(data.get("references") or []), str(path))
            target = into / f"{path.parent.name}{args.suffix}.json"
            target.write_text(_dumps(data), encoding="utf-8")
            kept += 1
    print(f"strength_ladder: kept {kept} result(s) in {into}")
    return 0


def _game_name(canonical: str) -> str:
    return canonical.split("(", 1)[0]


def _ms_per_decision(data: dict[str, Any], bot: str) -> str:
    timing = data.get("timing", {}).get(bot)
    if not timing:
        return "–"
    return f"{timing['mean_ms']:.1f}"


def _max_ms(data: dict[str, Any], bot: str) -> str:
    timing = data.get("timing", {}).get(bot, {})
    value = timing.get("max_ms")
    return "–" if value is None else f"{value:.0f}"


def render(args: argparse.Namespace) -> int:
    """Write the Markdown table of every result found."""
    results = _results(args.folders)
    if not results:
        raise SystemExit(f"strength_ladder: no match results below {', '.join(args.folders)}")
    standings = _standings(args.folders)
    order = {g: i for i, g in enumerate(GAMES)}
    rank = {"random": 0, "heuristic": 1, "pimc": 2, "ismcts": 3}

    def ladder_position(data: dict[str, Any]) -> tuple[int, int, int]:
        reference = data["references"][0].split(":", 1)[0]
        return (order.get(_game_name(data["game"]), 99), rank.get(data["candidate"].split(":", 1)[0], 9), rank.get(reference, 9))

    results.sort(key=ladder_position)
    lines = [
        "| game | candidate | reference | deals | mean diff / deal | 95% CI (t) | deals won | Elo diff "
        "| candidate ms/decision (slowest) | lower bound > 0 | run |",
        "|---|---|---|---:|---:|---|---:|---:|---:|---|---|",
    ]
    commands: list[str] = []
    for data in results:
        for pair in data["pairings"]:
            diff = pair["difference"]
            low, high = diff["ci_t"]
            verdict = "yes" if _reached(pair) else ("no" if pair["deals"] >= MIN_DEALS else f"(only {pair['deals']} deals)")
            lines.append(
                f"| {data['game']} | `{pair['candidate']}` | `{pair['reference']}` | {pair['deals']} | {diff['mean']:+.2f} "
                f"| {low:+.2f} .. {high:+.2f} | {100 * pair['outcomes']['win_rate']:.1f}% | {pair['elo_difference']:+.0f} "
                f"| {_ms_per_decision(data, pair['candidate'])} ({_max_ms(data, pair['candidate'])}) | {verdict} "
                f"| {data.get('label', '–')} |"
            )
        command = re.sub(r"--out \S*?([^/\s]+)$", r"--out ladder/\1", data["command"])
        runs = len(data.get("parts") or [])
        resumed = f" in {runs} runs (--resume)" if runs > 1 else ""
        commands.append(f"{command}   # {data['seconds']:.0f} s with {data['workers']} workers{resumed}")
    text = "\n".join(lines) + "\n"
    if args.output == "-":
        head = standings_table(standings, results) + "\n" if standings is not None else ""
        sys.stdout.write(head + text + "\n" + "\n".join(commands) + "\n")
        return 0
    path = Path(args.output)
    body = path.read_text(encoding="utf-8") if path.exists() else ""
    start, end = "<!-- ladder-table:start -->", "<!-- ladder-table:end -->"
    block = f"{start}\n{text}\n```\n" + "\n".join(commands) + f"\n```\n{end}"
    body = _replace_block(body, start, end, block)
    if standings is not None:
        first, last = "<!-- standings:start -->", "<!-- standings:end -->"
        body = _replace_block(body, first, last, f"{first}\n{standings_table(standings, results)}{last}", before=start)
    path.write_text(body, encoding="utf-8")
    print(f"strength_ladder: wrote {len(results)} match(es) to {path}")
    if args.module is not None:
        if standings is None:
            raise SystemExit(f"strength_ladder: --module needs a {STANDINGS_FILE} in a folder given")
        Path(args.module).write_text(standings_module(standings, results), encoding="utf-8")
        print(f"strength_ladder: wrote the standings to {args.module}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``run`` the matches, ``keep`` their results or ``render`` the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="play the ladder's duplicate matches")
    run.add_argument("--deals", type=int, default=MIN_DEALS)
    run.add_argument("--seed", type=int, default=1)
    run.add_argument("--workers", type=int, default=2)
    run.add_argument("--out", default="ladder")
    run.add_argument("--games", help=f"comma-separated subset of {', '.join(GAMES)}")
    run.add_argument(
        "--reuse-baseline", action="store_true", help="pass --reuse-baseline to every match (references with a time budget, docs/arena.md)"
    )
    run.add_argument(
        "--resume", action="store_true", help="keep the matches played already, go on with stopped ones (stich arena --resume)"
    )
    run.add_argument("--rungs", help="';'-separated rungs (heuristic, pimc, ismcts) or CANDIDATE>REFERENCE specs")
    run.set_defaults(func=run_matches)
    ren = sub.add_parser("render", help="write the table of results into docs/strength.md (between its markers)")
    ren.add_argument("folders", nargs="+")
    ren.add_argument("--output", default="docs/strength.md", help="the Markdown file, or - for standard output")
    ren.add_argument("--module", help=f"also write the standings as Python for the code (the repository's: {STANDINGS_MODULE})")
    ren.set_defaults(func=render)
    kp = sub.add_parser("keep", help="copy match results, their per-deal outcomes compact, into a folder kept in git (docs/ladder)")
    kp.add_argument("folders", nargs="+")
    kp.add_argument("--into", default="docs/ladder")
    kp.add_argument("--suffix", default="", help="appended to each file name (two runs of the same match)")
    kp.set_defaults(func=keep)
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
