"""A seeded record mutator, and the three doors a damaged record can come through.

Issue 30 (fault 6): whatever a record file holds, ``stich replay``,
``stich verify`` and the Python API (``read_jsonl`` then ``replay_any``) must
either accept the record and replay it, or refuse it with a
:class:`~stich.errors.RecordError` (CLI: a non-zero exit and one line
naming the field), never with a traceback.  This module makes damaged records
from real ones of all five games and runs them through those doors:

* **structure level**: a node of the parsed record is dropped, duplicated,
  retyped, replaced by a troublesome value (a deep nesting, an integer of
  thousands of digits, ``1e400``, ``NaN``, ``-Infinity``...), or a list is
  cut short or lengthened, or two siblings are swapped;
* **byte level**: the JSON line is truncated, bytes are flipped, invalid
  UTF-8 is inserted, a range is dropped or repeated.

The test suite runs a few hundred mutations (``test_record_fuzz.py``); a
larger sweep runs by hand and prints the counts per door::

    PYTHONPATH=src /work/main/.venv/bin/python tests/core/record_fuzz.py --count 20000 --seed 1
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import hashlib
import io
import json
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from stich.cli.main import main as stich_main
from stich.core.game import State
from stich.core.records import deal_record, dumps_record, list_record, play_session, read_jsonl, replay_any, session_class
from stich.core.registry import game_from_string
from stich.errors import RecordError

GAMES = ("doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen")
"""Every game stich plays: each gives the mutator a seeded deal, a deal dealt by hand and a list."""
KINDS = ("deal", "hand_deal", "list")
SALT = "5a" * 32
"""The fairness salt written into every base deal record, so that ``stich verify`` reaches its deeper checks."""

RAW_TOKENS = {
    "huge_int": "9" * 5000,
    "long_int": "1" * 4301,
    "neg_huge_int": "-" + "7" * 4400,
    "big_int": str(2**64),
    "past_seed": str(2**63),
    "overflow_float": "1e400",
    "neg_overflow_float": "-1e400",
    "nan": "NaN",
    "infinity": "Infinity",
    "neg_infinity": "-Infinity",
    "deep_list": "[" * 5000 + "]" * 5000,
    "deep_object": '{"a":' * 3000 + "1" + "}" * 3000,
    "nested_list_100": "[" * 100 + "]" * 100,
    "tiny_float": "5e-324",
}
"""JSON text that Python cannot write from a value (or that must reach the reader as written): placed by marker."""
_MARK = "\u0001RAW:"

PLAIN_VALUES: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    3,
    4,
    7,
    1.0,
    0.5,
    "",
    "x",
    "H10",
    "play H10",
    "gesund",
    [],
    {},
    [0],
    [True],
    [True, True],
    ["H10"],
    [0, "play H10"],
    {"scores": []},
    {"scores": [0, 0, 0, 0]},
    "A" * 5000,
    "\ud800",
    "a\u2028b",
    "x\ny",
    "[{",
)
"""Values a node is replaced with, besides the raw tokens and values taken from elsewhere in the record."""
CONTEXT_KEYS = ("owes_solo", "multiplier", "forced_soloist", "forced_declarer", "mussrunde", "extra")
"""Context keys the games read (and one they do not): a deal's context is set to troublesome values of these."""
CONTEXT_VALUES: tuple[Any, ...] = (
    [],
    [True],
    [True, False],
    [True, True, True],
    [True, True, True, True, True, True],
    ["yes", 1, None, 0.5],
    0,
    -1,
    1,
    2,
    5,
    6,
    1.5,
    "2",
    "x",
    None,
    True,
    {},
)


# ------------------------------------------------------------------ base records
def _player(seed: int) -> Callable[[State], Any]:
    rng = random.Random(seed)
    return lambda state: rng.choice(state.legal_actions())


def _with_fairness(record: dict[str, Any]) -> dict[str, Any]:
    seed = record["seed"]
    if seed is not None:
        digest = hashlib.sha256(f"{seed}:{SALT}".encode("ascii")).hexdigest()
        record["meta"] = {"fairness": {"commitment": digest, "salt": SALT}}
    return record


@cache
def base_text(game_name: str, kind: str) -> str:
    """One real record of ``game_name`` as a JSON line: a seeded ``deal``, a ``hand_deal`` (seed null) or a ``list``."""
    game = game_from_string(game_name)
    seed = 7 + GAMES.index(game_name)
    if kind == "list":
        session = session_class(game)(game, seed, 2)
        states = play_session(session, _player(seed))
        return dumps_record(list_record(session, states))
    state = game.new_state(seed=seed, dealer=seed % game.num_seats)
    if kind == "hand_deal":
        state = game.new_state(hands=[game.deck.cards(mask) for mask in state.dealt], dealer=state.dealer, context=state.context)
    choose = _player(seed)
    while not state.is_terminal():
        state.apply(choose(state))
    return dumps_record(_with_fairness(deal_record(state)))


# ---------------------------------------------------------------------- mutator
def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            out += _paths(value, (*path, index))
    return out


def _leaves(node: Any) -> list[Any]:
    if isinstance(node, dict):
        return [leaf for value in node.values() for leaf in _leaves(value)]
    if isinstance(node, list):
        return [leaf for value in node for leaf in _leaves(value)]
    return [node]


def _raw(name: str) -> str:
    return f"{_MARK}{name}\u0001"


def _value(rng: random.Random, record: Any) -> Any:
    roll = rng.random()
    if roll < 0.3:
        return _raw(rng.choice(sorted(RAW_TOKENS)))
    if roll < 0.55:
        return copy.deepcopy(rng.choice(_leaves(record)))
    if roll < 0.7:
        return copy.deepcopy(rng.choice([value for path in _paths(record)[1:] for value in [_get(record, path)]]))
    return copy.deepcopy(rng.choice(PLAIN_VALUES))


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        node = node[step]
    return node


def _retyped(rng: random.Random, value: Any) -> Any:
    """``value`` as another JSON type (a number as a string, a list as an object...)."""
    options: list[Any] = [None, str(value)[:40], [value], {"value": value}, 1.5, True]
    if isinstance(value, bool):
        options.append(int(value))
    elif isinstance(value, int):
        options += [float(value), bool(value)]
    elif isinstance(value, list):
        options.append(dict(enumerate(value)))
    elif isinstance(value, dict):
        options.append(list(value.values()))
    return rng.choice(options)


def mutate_structure(rng: random.Random, record: dict[str, Any]) -> str:
    """Apply one to three structural changes to ``record`` (in place); return its JSON line with raw tokens in place."""
    if rng.random() < 0.25:
        deals = [record, *record.get("deals", [])]
        deal = rng.choice(deals)
        if isinstance(deal.get("context"), dict):
            value = _raw(rng.choice(sorted(RAW_TOKENS))) if rng.random() < 0.3 else copy.deepcopy(rng.choice(CONTEXT_VALUES))
            deal["context"][rng.choice(CONTEXT_KEYS)] = value
            return _text(record)
    for _ in range(rng.choice((1, 1, 2, 3))):
        paths = _paths(record)[1:]
        if not paths:
            break
        path = rng.choice(paths)
        parent, last = _get(record, path[:-1]), path[-1]
        op = rng.choice(("drop", "duplicate", "retype", "replace", "replace", "resize", "swap", "rename"))
        target = parent[last]
        if op == "rename" and isinstance(parent, dict):
            del parent[last]
            parent[rng.choice(("", "\ud800", "a\u2028b", "k" * 300, f"{last}_", last.upper()))] = target
        elif op == "drop":
            del parent[last]
        elif op == "duplicate":
            if isinstance(parent, list):
                parent.insert(last, copy.deepcopy(target))
            else:
                parent[f"{last}{rng.choice(('', '_', 's'))}x"] = copy.deepcopy(target)
        elif op == "retype":
            parent[last] = _retyped(rng, target)
        elif op == "resize" and isinstance(target, list):
            if target and rng.random() < 0.5:
                del target[rng.randrange(len(target)) :]
            else:
                target.extend(copy.deepcopy(rng.choice(target)) if target else _value(rng, record) for _ in range(rng.randint(1, 3)))
        elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
            other = rng.randrange(len(parent))
            parent[last], parent[other] = parent[other], parent[last]
        else:
            parent[last] = _value(rng, record)
    return _text(record)


def _text(record: dict[str, Any]) -> str:
    """The JSON line of a mutated record, with every raw-token marker replaced by its token."""
    text = json.dumps(record, separators=(",", ":"))  # ASCII: a lone surrogate is written as its escape
    for name, token in RAW_TOKENS.items():
        text = text.replace(json.dumps(_raw(name)), token)
    return text


def mutate_bytes(rng: random.Random, line: bytes) -> bytes:
    """Damage the bytes of a JSON line once: truncate, flip, insert invalid UTF-8, drop or repeat a range."""
    data = bytearray(line)
    op = rng.choice(("truncate", "flip", "utf8", "drop", "repeat", "insert"))
    at = rng.randrange(len(data))
    if op == "truncate":
        del data[at:]
    elif op == "flip":
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif op == "utf8":
        data[at:at] = rng.choice((b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xe2\x82", b"\xf4\x90\x80\x80"))
    elif op == "drop":
        del data[at : at + rng.randint(1, 40)]
    elif op == "repeat":
        data[at:at] = data[at : at + rng.randint(1, 40)]
    else:
        data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 6)))
    return bytes(data)


@dataclass(frozen=True)
class Mutant:
    """One damaged record line and where it came from."""

    game: str
    kind: str
    level: str
    line: bytes


def mutant(seed: int, game: str | None = None, kind: str | None = None) -> Mutant:
    """The damaged record of mutation ``seed`` (deterministic): a base record of ``game`` (default: drawn), mutated at some level."""
    rng = random.Random(seed)
    drawn_game, drawn_kind = rng.choice(GAMES), rng.choice(KINDS)
    game, kind = game or drawn_game, kind or drawn_kind
    text = base_text(game, kind)
    if rng.random() < 0.75:
        return Mutant(game, kind, "structure", mutate_structure(rng, json.loads(text)).encode("utf-8"))
    return Mutant(game, kind, "bytes", mutate_bytes(rng, text.encode("utf-8")))


# ------------------------------------------------------------------------ doors
@dataclass(frozen=True)
class Outcome:
    """How one door answered: ``accepted``, ``refused`` (with the line shown to the user) or ``crashed`` (with the exception)."""

    verdict: str
    detail: str
    where: str = ""


def through_api(path: Path) -> Outcome:
    """``read_jsonl`` then ``replay_any``: accepted, a RecordError, or anything else (a crash)."""
    try:
        records = list(read_jsonl(path))
        for _, record in records:
            replay_any(record)
    except RecordError as exc:
        return Outcome("refused", str(exc), exc.where)
    except BaseException as exc:  # this is what the fuzzer counts
        return Outcome("crashed", f"{type(exc).__name__}: {str(exc)[:200]}")
    return Outcome("accepted" if records else "refused", "" if records else "no records")


def through_cli(*argv: str) -> tuple[int | None, str, str, str]:
    """Run ``stich argv...`` in-process: (exit status or None when it raised, stdout, stderr, the escaped exception)."""
    out, err = io.StringIO(), io.StringIO()
    escaped = ""
    status: int | None = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = stich_main(list(argv))
        except BaseException as exc:  # an exception leaving main is a traceback for the user
            escaped = f"{type(exc).__name__}: {str(exc)[:200]}"
    return status, out.getvalue(), err.getvalue(), escaped


def _cli_door(command: str, path: Path, own_refusal: Callable[[int | None, str, str], str | None]) -> Outcome:
    """``stich COMMAND FILE``: exit 0, one ``stich: error:`` line with exit 2, or the command's own refusal; else a crash."""
    status, out, err, escaped = through_cli(command, str(path))
    if escaped or "Traceback" in out + err:
        return Outcome("crashed", escaped or err)
    try:
        (out + err).encode("utf-8")
    except UnicodeEncodeError as exc:  # a real terminal would have raised this from print()
        return Outcome("crashed", f"unprintable output: {exc}")
    if status == 0:
        return Outcome("accepted", "")
    error_lines = err.strip().splitlines()
    if status == 2 and len(error_lines) == 1 and error_lines[0].startswith("stich: error: "):
        return Outcome("refused", error_lines[0])
    line = own_refusal(status, out, err)
    if line is not None:
        return Outcome("refused", line)
    return Outcome("crashed", f"exit {status}, stdout {out!r}, stderr {err!r}")


def through_replay(path: Path) -> Outcome:
    """``stich replay FILE``: its report names each bad line (``line N: FIELD: reason``), exit 1."""
    records = len([raw for raw in path.read_bytes().split(b"\n") if raw.strip()])

    def report_line(status: int | None, out: str, err: str) -> str | None:
        lines = out.splitlines()
        bad = [line for line in lines if line.startswith("line ")]
        if status == 1 and bad and len(bad) <= records and len(lines) == len(bad) + 1 and not err:
            return bad[0]
        return out.strip() if status == 1 and not bad and "no records found" in out else None

    return _cli_door("replay", path, report_line)


def through_verify(path: Path) -> Outcome:
    """``stich verify FILE``: a failed check is a ``FAIL`` line and ``NOT verified``, exit 1."""

    def failed_check(status: int | None, out: str, err: str) -> str | None:
        if status == 1 and not err and "NOT verified" in out:
            return next(line for line in out.splitlines() if line.startswith("FAIL"))
        return None

    return _cli_door("verify", path, failed_check)


DOORS: dict[str, Callable[[Path], Outcome]] = {"api": through_api, "replay": through_replay, "verify": through_verify}


def run_door(door: str, line: bytes, folder: Path) -> Outcome:
    """Write ``line`` to a file in ``folder`` and pass it through ``door``."""
    path = folder / "record.jsonl"
    path.write_bytes(line + b"\n")
    return DOORS[door](path)


# ------------------------------------------------------------------------ sweep
def sweep(count: int, seed: int, doors: tuple[str, ...], examples: int, progress: int = 0) -> dict[str, Counter[str]]:
    """Run mutations ``seed .. seed+count-1`` through ``doors``; print and return the verdict counts per door.

    With ``progress`` the crash counts so far are printed every ``progress`` mutations.
    """
    counts: dict[str, Counter[str]] = {door: Counter() for door in doors}
    crashes: dict[str, Counter[str]] = {door: Counter() for door in doors}
    shown: dict[str, list[str]] = {door: [] for door in doors}
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for number in range(seed, seed + count):
            case = mutant(number)
            for door in doors:
                outcome = run_door(door, case.line, folder)
                counts[door][outcome.verdict] += 1
                if outcome.verdict == "crashed":
                    kind = outcome.detail.split(":", 1)[0][:60]
                    crashes[door][kind] += 1
                    if len(shown[door]) < examples:
                        shown[door].append(f"mutation {number} ({case.game} {case.kind}, {case.level}): {outcome.detail[:160]}")
            done = number - seed + 1
            if progress and done % progress == 0 and done < count:
                crashed = ", ".join(f"{door} {counts[door]['crashed']}" for door in doors)
                print(f"after {done} mutations ({time.monotonic() - started:.0f} s), crashed: {crashed}", flush=True)
    print(f"{count} mutations from seed {seed} in {time.monotonic() - started:.0f} s")
    for door in doors:
        print(f"{door:7} " + ", ".join(f"{verdict} {counts[door][verdict]}" for verdict in ("accepted", "refused", "crashed")))
        for kind, n in crashes[door].most_common():
            print(f"          {n:6}  {kind}")
        for line in shown[door]:
            print(f"          e.g. {line}")
    return counts


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--doors", default="api,replay,verify")
    parser.add_argument("--examples", type=int, default=3)
    parser.add_argument("--progress", type=int, default=0, help="print the crash counts every N mutations")
    options = parser.parse_args()
    result = sweep(options.count, options.seed, tuple(options.doors.split(",")), options.examples, options.progress)
    sys.exit(1 if any(c["crashed"] for c in result.values()) else 0)
