"""Where a duplicate match was won or lost: each rotation split by the first action where it left the baseline.

``stich arena`` plays every deal once with the reference bots in every seat
(the *baseline*) and once per rotation with the candidate in one seat.  Up to
the candidate's first decision that differs from the baseline, both games are
the same; the candidate seat's score difference in that rotation is what the
match counts.  Grouping the rotations by the kind of that first different
action shows which decisions carry the difference: a bot that gains in card
play and loses in its bids shows both, where the match's mean shows only the
sum.  This is how the ISMCTS bot's losses to PIMC were traced to its talon,
discard and double decisions in Tapp Tarock and to its Kontra announcements
in Doppelkopf (docs/strength.md)::

    python tools/first_divergence.py ladder/doppelkopf__ismcts-time0.025__vs__pimc-time0.025
    python tools/first_divergence.py DIR --worst 10      # also the ten worst rotations
    python tools/first_divergence.py DIR --json          # the table as JSON
    python tools/first_divergence.py DIR --heuristic     # ... and whose action the heuristic would have chosen
    python tools/first_divergence.py DIR --sides         # ... and the declarer's and defenders' shares of the mean

Kinds: ``play`` when both games played a (different) card; otherwise
``<baseline action> -> <candidate action>`` with a card written as ``play``
(``play -> announce kontra``: the candidate announced where the baseline
played a card); ``same`` when the rotation never left the baseline.  Where a
game names a declarer, the kind is prefixed ``declarer`` or ``defender`` for
the candidate seat's side in the rotation.  A kind is prefixed ``other seat:``
when the first different action was not the candidate's but a reference
bot's in another seat (a time-budgeted search does not repeat itself
exactly), so the candidate's own decisions can be read apart from that noise.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

OTHER_SEAT = "other seat: "
"""Prefix of a kind whose first different action was made by a reference bot, not the candidate.

A reference bot with a time budget searches a different number of worlds
from one game to the next, so it may choose differently in a rotation
before the candidate has done anything different; such a rotation's
difference is the reference's noise, not the candidate's decision."""


@dataclass(frozen=True)
class Rotation:
    """One rotation of a deal: the candidate's seat, its score difference to the baseline, and the kind of its first divergence."""

    deal: int
    seat: int
    difference: float
    kind: str
    index: int | None
    """Index of the first differing action in the record's ``actions`` (``None``: never left the baseline)."""
    side: str = ""
    """The candidate seat's side in the rotation: ``declarer``, ``defender``, or empty where the game names no declarer."""


def _word(action: str) -> str:
    """An action as a kind names it: any card ``play``, everything else as written."""
    return "play" if action.split()[0] == "play" else action


def divergence_kind(candidate: Sequence[Sequence[Any]], baseline: Sequence[Sequence[Any]], side: str) -> tuple[str, int | None]:
    """The kind of the first action where ``candidate`` left ``baseline`` (records' ``actions`` lists), and its index."""
    for index, (mine, theirs) in enumerate(zip(candidate, baseline, strict=False)):
        if list(mine) != list(theirs):
            ours, base = _word(str(mine[1])), _word(str(theirs[1]))
            kind = "play" if ours == base == "play" else f"{base} -> {ours}"
            return (f"{side} {kind}" if side else kind), index
    return "same", None


def heuristic_tag(record: Mapping[str, Any], baseline: Mapping[str, Any], index: int) -> str:
    """Whose action at ``index`` the game's ``heuristic`` bot would have chosen: ``candidate``, ``baseline`` or ``neither``.

    The candidate's record is replayed up to the divergence
    (:func:`stich.core.records.replay_deal`) and the heuristic bot of the
    seat to move asked on its observation, as the ISMCTS and PIMC bots ask
    it for their anchor.  Tells a search that overruled the heuristic
    (``candidate`` differs from it) from one that kept it where the
    reference did not.
    """
    from stich.bots.heuristic import make_heuristic
    from stich.core.records import replay_deal
    from stich.core.registry import game_from_string

    prefix = {key: value for key, value in record.items() if key != "meta"}
    prefix["actions"] = list(record["actions"][:index])
    prefix["result"] = None
    state = replay_deal(prefix)
    seat = state.current_player()
    choice = make_heuristic(game_from_string(str(record["game"])), seat, 0).choose(state.observation(seat)).text
    if choice == record["actions"][index][1]:
        return "candidate"
    if index < len(baseline["actions"]) and choice == baseline["actions"][index][1]:
        return "baseline"
    return "neither"


def rotations(records: Iterable[Mapping[str, Any]], *, heuristic: bool = False) -> list[Rotation]:
    """Every rotation of a match's records paired with its baseline (raises ``ValueError`` naming a record without one).

    With ``heuristic`` each kind but ``same`` is suffixed ``[heuristic: candidate|baseline|neither]``
    (:func:`heuristic_tag`; the records must be complete ``stich arena`` records).
    """
    baselines: dict[tuple[int, str], Mapping[str, Any]] = {}
    others: list[Mapping[str, Any]] = []
    for record in records:
        meta = record.get("meta", {}).get("arena")
        if meta is None:
            raise ValueError("record has no meta.arena: not a record of `stich arena`")
        if meta["role"] == "baseline":
            baselines[(meta["deal_index"], meta["reference"])] = record
        else:
            others.append(record)
    found: list[Rotation] = []
    for record in others:
        meta = record["meta"]["arena"]
        key = (meta["deal_index"], meta["reference"])
        base = baselines.get(key)
        if base is None:
            raise ValueError(f"meta.arena: deal {key[0]} against {key[1]!r} has no baseline record")
        seat = meta["rotation"]
        difference = record["result"]["scores"][seat] - base["result"]["scores"][seat]
        declarer = record["result"].get("declarer")
        side = "" if declarer is None else ("declarer" if declarer == seat else "defender")
        kind, index = divergence_kind(record["actions"], base["actions"], side)
        if index is not None and record["actions"][index][0] != seat:
            kind = f"{OTHER_SEAT}{kind}"
        if heuristic and index is not None:
            kind = f"{kind} [heuristic: {heuristic_tag(record, base, index)}]"
        found.append(Rotation(meta["deal_index"], seat, difference, kind, index, side))
    return found


def summary(found: Sequence[Rotation]) -> list[dict[str, Any]]:
    """Per kind: rotations, summed and mean difference; sorted from the largest loss to the largest gain."""
    groups: dict[str, list[float]] = {}
    for rotation in found:
        groups.setdefault(rotation.kind, []).append(rotation.difference)
    rows = [{"kind": kind, "rotations": len(diffs), "sum": sum(diffs), "mean": sum(diffs) / len(diffs)} for kind, diffs in groups.items()]
    return sorted(rows, key=lambda row: (row["sum"], row["kind"]))


def side_shares(found: Sequence[Rotation]) -> list[dict[str, Any]]:
    """Each side's share of the match's mean per deal, with its 95% interval over the deals (Student t, as the arena's).

    A deal's mean is the average over its rotations; the share of a side
    (``declarer``, ``defender``, or ``none`` where the game names no
    declarer) sums only that side's rotations over the same count, so the
    shares add up to the match's mean.  Comparing two runs' shares tells
    whether a side's gain or loss is larger than the noise after the first
    difference (docs/strength.md, "How far a split can be trusted").
    """
    deals: dict[int, list[Rotation]] = {}
    for rotation in found:
        deals.setdefault(rotation.deal, []).append(rotation)
    from stich.arena.stats import mean_interval

    rows = []
    for side in sorted({rotation.side for rotation in found}):
        share = mean_interval([sum(r.difference for r in rots if r.side == side) / len(rots) for rots in deals.values()])
        low, high = share.t if share.t is not None else (None, None)  # one deal has no interval
        count = sum(1 for rotation in found if rotation.side == side)
        rows.append({"side": side or "none", "rotations": count, "share": share.mean, "low": low, "high": high})
    return rows


def _read(folder: Path) -> list[dict[str, Any]]:
    path = folder / "records.jsonl"
    if not path.is_file():
        raise ValueError(f"{path} not found: give the output folder of a `stich arena` run")
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: print the table (or JSON) for one arena output folder."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("folder", type=Path, help="output folder of `stich arena` (with records.jsonl)")
    parser.add_argument("--worst", type=int, default=0, help="also list this many rotations with the largest losses")
    parser.add_argument("--json", action="store_true", help="print the table as JSON")
    parser.add_argument(
        "--heuristic",
        action="store_true",
        help="split each kind by whose action the heuristic bot would have chosen (replays every divergence)",
    )
    parser.add_argument("--sides", action="store_true", help="also each side's share of the mean per deal, with a 95%% interval")
    args = parser.parse_args(argv)
    try:
        found = rotations(_read(args.folder), heuristic=args.heuristic)
    except (ValueError, KeyError) as error:
        print(f"first_divergence: {error}", file=sys.stderr)
        return 2
    rows = summary(found)
    sides = side_shares(found) if args.sides and found else []
    if args.json:
        data: dict[str, Any] = {"rotations": len(found), "rows": rows}
        if args.sides:
            data["sides"] = sides
        print(json.dumps(data, indent=2))
        return 0
    total = sum(r.difference for r in found)
    mean = total / len(found) if found else 0.0
    print(f"{len(found)} rotations, summed difference {total:+.1f}, mean per rotation {mean:+.4f}")
    width = max([40, *(len(row["kind"]) for row in rows)])
    print(f"{'first divergence':{width}s} {'rotations':>9s} {'sum':>9s} {'mean':>8s}")
    for row in rows:
        print(f"{row['kind']:{width}s} {row['rotations']:9d} {row['sum']:+9.1f} {row['mean']:+8.2f}")
    for side in sides:
        interval = "one deal, no interval" if side["low"] is None else f"{side['low']:+.3f} .. {side['high']:+.3f}"
        print(f"{side['side']} share of the mean per deal: {side['share']:+.3f} ({interval}), {side['rotations']} rotations")
    for rotation in sorted(found, key=lambda r: r.difference)[: args.worst]:
        print(f"deal {rotation.deal} seat {rotation.seat}: {rotation.difference:+g} ({rotation.kind}, action {rotation.index})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
