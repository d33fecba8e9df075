"""Screen card-play decisions of search bots on the true deal, far cheaper than a duplicate match.

A duplicate match (``stich arena``) needs an hour to tell two bots apart by a
tenth of a point per deal: every rotation plays a whole deal, the reference
bots' own time-budgeted noise included.  This tool asks a narrower question
faster.  Deals are played by a *continuation* policy (the ``heuristic`` bot
in every seat unless ``--continuation`` names another); at every card-play
decision with a choice, each bot under test chooses on that seat's
observation only, and every card chosen is valued on the **true** deal: it
is played, the continuation policy plays the deal out, and the seat's final
score is the card's value.  A bot's *gain* at a decision is its card's value
minus the value of the continuation's own card there (0 where it agrees).

The bots never see the true deal; only the valuation does, after they chose.
Decisions within one deal are not independent, so intervals are taken over
deals (the gains of a deal summed), not over decisions::

    python tools/decision_quality.py dobbm --option retour_limit=2 \\
        --bots pimc:time=0.025,ismcts:time=0.025 --deals 400 --workers 2

**What it can and cannot show.**  A card is valued against the continuation
policy, not against the bots a match would seat.  The ``pimc`` bot values its
candidates with the heuristic bots playing on (``stich.bots.pimc``), so with
the default continuation this screen is tilted towards ``pimc``; it compares
variants of one bot fairly, and ``--continuation pimc:worlds=4`` brings the
valuation closer to a match against ``pimc`` at many times the cost.  One
decision is changed at a time: a bot whose cards only pay together (a plan
over several tricks) shows less here than in a match.  A screen is a reason
to run a match, never a replacement for it (docs/strength.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

from stich.arena.duplicate import BotSpec, build_bot, parse_bot_spec, parse_bot_specs
from stich.arena.stats import mean_interval
from stich.bots.base import Bot
from stich.cli.common import build_game
from stich.core.game import Game, State
from stich.core.rng import derive_seed
from stich.errors import StichError
from stich.search.ismcts import heuristic_step
from stich.search.perfect_info import in_trick_play, teams
from stich.search.scores import score_value

SIDE_NAMES: dict[str, dict[int, str]] = {
    "doppelkopf": {0: "re", 1: "kontra", -1: "idle"},
    "dappen": {0: "lone", 1: "others"},
}
"""Names of the team labels of :func:`~stich.search.perfect_info.teams` per game (``declarer``/``defender`` elsewhere)."""

DEFAULT_SIDES = {0: "declarer", 1: "defender"}


@dataclass(frozen=True)
class Decision:
    """One screened decision: where it was, the continuation's card, each bot's card and its gain over that card."""

    deal: int
    seat: int
    side: str
    legal: int
    line: str
    picks: dict[str, str]
    gains: dict[str, float]


def side_name(game: Game, label: int) -> str:
    """The name of a team label of ``game`` (a seat's own label before teams exist: ``open``)."""
    names = SIDE_NAMES.get(game.name, DEFAULT_SIDES)
    return names.get(label, "open")


def play_out(state: State, bots: Sequence[Bot]) -> None:
    """Play ``state`` to its end in place, every seat by its bot (a single legal action without asking)."""
    while not state.is_terminal():
        heuristic_step(state, bots)


def value_after(state: State, code: int, seat: int, bots: Sequence[Bot]) -> float:
    """``seat``'s final score when ``code`` is played in (a clone of) ``state`` and ``bots`` play the deal out."""
    after = state.clone()
    after.apply(code)
    play_out(after, bots)
    return score_value(after.result().scores[seat])


def is_screened(state: State, legal: int) -> bool:
    """Whether a decision is screened: trick play with more than one legal action."""
    return legal > 1 and in_trick_play(state)


def screen_deal(game: Game, tested: Sequence[tuple[str, BotSpec]], continuation: BotSpec, seed: int, deal: int) -> list[Decision]:
    """Every screened decision of deal ``deal`` (dealt from ``derive_seed(seed, deal)``, dealer ``deal % seats``)."""
    n = game.num_seats
    state = game.new_state(seed=derive_seed(seed, deal), dealer=deal % n)
    line_bots = [build_bot(continuation, game, s, derive_seed(derive_seed(seed, deal), 100 + s)) for s in range(n)]
    bots = {name: [build_bot(spec, game, s, derive_seed(derive_seed(seed, deal), s)) for s in range(n)] for name, spec in tested}
    found: list[Decision] = []
    table = game.actions.actions
    while not state.is_terminal():
        codes = state.legal_codes()
        if len(codes) == 1:
            state.apply(codes[0])
            continue
        seat = state.current_player()
        observation = state.observation(seat)
        line = line_bots[seat].choose(observation).code
        if is_screened(state, len(codes)):
            picks = {name: seat_bots[seat].choose(observation).code for name, seat_bots in bots.items()}
            values = {code: value_after(state, code, seat, line_bots) for code in {line, *picks.values()}}
            found.append(
                Decision(
                    deal=deal,
                    seat=seat,
                    side=side_name(game, teams(state)[seat]),
                    legal=len(codes),
                    line=table[line].text,
                    picks={name: table[code].text for name, code in picks.items()},
                    gains={name: values[code] - values[line] for name, code in picks.items()},
                )
            )
        state.apply(line)
    return found


def summarize(decisions: Sequence[Decision], names: Sequence[str], deals: Sequence[int]) -> list[dict[str, Any]]:
    """Per group (``all`` and each side): per bot the mean gain per deal and per decision and how often it left the line's card.

    The interval is over ``deals`` (every screened deal, one summed gain
    each, 0 for a deal without a decision of the group); pairs of bots are
    compared the same way, on their paired per-deal differences.
    """
    groups = ["all", *sorted({d.side for d in decisions})]
    rows: list[dict[str, Any]] = []
    for group in groups:
        chosen = [d for d in decisions if group in ("all", d.side)]
        if not chosen:
            continue
        per_deal = {name: dict.fromkeys(deals, 0.0) for name in names}
        for d in chosen:
            for name in names:
                per_deal[name][d.deal] += d.gains[name]
        bots = []
        for name in names:
            interval = mean_interval(list(per_deal[name].values()))
            bots.append(
                {
                    "bot": name,
                    "gain_per_deal": interval.to_json(),
                    "gain_per_decision": sum(d.gains[name] for d in chosen) / len(chosen),
                    "left_line": sum(d.picks[name] != d.line for d in chosen) / len(chosen),
                }
            )
        pairs = []
        for i, first in enumerate(names):
            for second in names[i + 1 :]:
                diffs = [per_deal[first][k] - per_deal[second][k] for k in deals]
                pairs.append({"first": first, "second": second, "difference_per_deal": mean_interval(diffs).to_json()})
        rows.append({"group": group, "decisions": len(chosen), "bots": bots, "pairs": pairs})
    return rows


def _interval(data: dict[str, Any]) -> str:
    low, high = data["ci_t"] if data["ci_t"] else (float("nan"), float("nan"))
    return f"{data['mean']:+.3f} ({low:+.3f} .. {high:+.3f})"


def _run(args: tuple[str, str | None, list[str], list[tuple[str, str]], str, int, int]) -> list[Decision]:
    name, preset, options, tested, continuation, seed, deal = args
    game = build_game(name, preset, options, None)
    return screen_deal(game, [(label, parse_bot_spec(text)) for label, text in tested], parse_bot_spec(continuation), seed, deal)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: screen ``--deals`` deals and print the table (``--json FILE`` also writes every decision)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("game", help="game name, as for `stich arena`")
    parser.add_argument("--bots", required=True, help="bots to screen, comma-separated as for `stich arena --bots`")
    parser.add_argument("--deals", type=int, default=100, help="deals to screen (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="match seed (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--preset", default=None, help="rules preset")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="rules option (repeatable)")
    parser.add_argument("--continuation", default="heuristic", help="bot that plays the deals and values each card (default heuristic)")
    parser.add_argument("--json", default=None, metavar="FILE", help="write the summary and every decision as JSON")
    args = parser.parse_args(argv)
    try:
        if args.deals < 1 or args.workers < 1:
            raise ValueError("--deals and --workers must be at least 1")
        game = build_game(args.game, args.preset, args.option, None)
        specs = parse_bot_specs(args.bots)
        parse_bot_spec(args.continuation)
        labels = [spec.text if [s.text for s in specs].count(spec.text) == 1 else f"{spec.text}#{i}" for i, spec in enumerate(specs)]
        tested = [(label, spec.text) for label, spec in zip(labels, specs, strict=True)]
    except (StichError, ValueError) as error:
        print(f"decision_quality: {error}", file=sys.stderr)
        return 2
    jobs = [(args.game, args.preset, args.option, tested, args.continuation, args.seed, deal) for deal in range(args.deals)]
    decisions: list[Decision] = []
    if args.workers == 1:
        for job in jobs:
            decisions.extend(_run(job))
    else:
        with ProcessPoolExecutor(args.workers) as pool:
            for found in pool.map(_run, jobs):
                decisions.extend(found)
    rows = summarize(decisions, labels, list(range(args.deals)))
    print(f"{game.name}: {args.deals} deals, {len(decisions)} decisions, continuation {args.continuation}")
    for row in rows:
        print(f"== {row['group']}: {row['decisions']} decisions")
        for bot in row["bots"]:
            print(
                f"  {bot['bot']:32s} gain/deal {_interval(bot['gain_per_deal'])}"
                f"  gain/decision {bot['gain_per_decision']:+.4f}  left the line's card {bot['left_line']:.1%}"
            )
        for pair in row["pairs"]:
            print(f"  {pair['first']} - {pair['second']}: {_interval(pair['difference_per_deal'])} per deal")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"summary": rows, "decisions": [asdict(d) for d in decisions]}, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
