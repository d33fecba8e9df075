"""``stich verify``: check a deal record against the commitment the server published before the deal.

``stich verify RECORD.json --salt X --commitment H`` checks that
``sha256(f"{seed}:{salt}")`` is the commitment, that ``game.deal(seed,
dealer)`` deals exactly the record's cards, and that the record replays.
Without ``--salt``/``--commitment`` the values the server wrote into the
record (``meta.fairness``) are used, and the output says so: compare that
commitment with the one you saw before the deal.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from stich.cli.common import UsageError
from stich.core.records import parse_record
from stich.errors import RecordError


def add_verify_parser(sub: argparse._SubParsersAction[Any], func: Callable[[argparse.Namespace], int] | None = None) -> None:
    """Register ``stich verify`` on the subcommand parsers of ``stich``."""
    verify = sub.add_parser("verify", help="check a deal record against the server's commitment (fair deals)")
    verify.add_argument("record", metavar="RECORD.json", help="a deal record (as downloaded from /api/deals/ID/record)")
    verify.add_argument("--salt", metavar="X", help="the salt revealed after the deal (default: the record's meta.fairness.salt)")
    verify.add_argument(
        "--commitment", metavar="H", help="the commitment published before the deal (default: the record's meta.fairness.commitment)"
    )
    verify.add_argument("--json", action="store_true", help="print the outcome as one JSON object")
    verify.set_defaults(func=func or cmd_verify)


def cmd_verify(args: argparse.Namespace) -> int:
    """``stich verify RECORD.json [--salt X] [--commitment H] [--json]``."""
    return run_verify(args.record, args.salt, args.commitment, args.json)


def read_record(path: str) -> dict[str, Any]:
    """The one record in ``path``: a JSON object, or a JSON Lines file with one line.

    A file that is not one record raises :class:`RecordError`; its ``where``
    is the path, followed by the field where a number is bad or nesting too deep
    (``game.json: context.multiplier``).
    """
    with open(path, "rb") as handle:
        raw = handle.read()
    try:
        return parse_record(raw)
    except RecordError as exc:
        lines = [line for line in raw.splitlines() if line.strip()]
        if len(lines) > 1 and _is_record(lines[0]):
            raise RecordError(f"holds {len(lines)} lines; give a file with one deal record", path) from None
        raise RecordError(exc.reason, f"{path}: {exc.where}" if exc.where else path) from None


def _is_record(line: bytes) -> bool:
    """Whether ``line`` alone is a record (the first of a JSON Lines file with several)."""
    try:
        parse_record(line)
    except RecordError:
        return False
    return True


def run_verify(path: str, salt: str | None, commitment: str | None, as_json: bool) -> int:
    """Verify one record; exit status 0 when every check passes, 1 when one fails."""
    from stich.web.deals.fairness import fairness_meta, verify_record

    record = read_record(path)
    block = fairness_meta(record)
    notes = []
    if salt is None:
        salt = block.get("salt") if isinstance(block.get("salt"), str) else None
        if salt is None:
            raise UsageError("--salt is needed: the record has no meta.fairness.salt")
        notes.append("salt taken from the record")
    if commitment is None:
        commitment = block.get("commitment") if isinstance(block.get("commitment"), str) else None
        if commitment is None:
            raise UsageError("--commitment is needed: the record has no meta.fairness.commitment")
        notes.append("commitment taken from the record: compare it with the one published before the deal")
    outcome = verify_record(record, salt, commitment)
    if as_json:
        print(json.dumps({**outcome.to_json(), "notes": notes}))
    else:
        for name, passed, detail in outcome.checks:
            print(f"{'ok  ' if passed else 'FAIL'} {name}: {detail}")
        for note in notes:
            print(f"note: {note}")
        print("verified: the deal came from the committed seed" if outcome.ok else "NOT verified")
    return 0 if outcome.ok else 1
