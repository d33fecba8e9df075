"""``stich replay``: re-check every record of a JSON Lines file by replaying it.

Each line is parsed on its own, so one broken line is reported and the rest
are still checked.  A record is good when it replays (:func:`replay_any`:
every action legal, the result recomputed and equal to the recorded one).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from stich.core.records import parse_record, replay_any
from stich.errors import RecordError, StichError, one_line


@dataclass
class ReplayReport:
    """Outcome of checking one file."""

    path: str
    records: int = 0
    deals: int = 0
    lists: int = 0
    bad: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every record replayed and matched."""
        return not self.bad and self.records > 0

    def to_json(self) -> dict[str, Any]:
        """JSON form for ``--json``."""
        return {
            "file": self.path,
            "records": self.records,
            "valid": self.records - len(self.bad),
            "invalid": len(self.bad),
            "deal_records": self.deals,
            "list_records": self.lists,
            "errors": self.bad,
            "ok": self.ok,
        }


def _parse_line(raw: bytes) -> dict[str, Any]:
    """One JSON Lines line as a record; raises :class:`RecordError` (where ``json``, or the path of a bad number or nesting) if not."""
    try:
        return parse_record(raw)
    except RecordError as exc:
        if exc.where:
            raise
        raise RecordError(exc.reason, "json") from None


def check_file(path: str) -> ReplayReport:
    """Replay every record of ``path``; an unreadable file raises ``OSError``."""
    report = ReplayReport(path)
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if raw.strip():
                check_line(report, number, raw)
    return report


def check_line(report: ReplayReport, number: int, raw: bytes) -> None:
    """Parse and replay one line, adding it to ``report``."""
    report.records += 1
    try:
        record = _parse_line(raw)
        if record.get("type") == "list":
            report.lists += 1
        else:
            report.deals += 1
        replay_any(record)
    except RecordError as exc:
        report.bad.append({"line": number, "where": exc.where or "record", "reason": exc.reason})
    except StichError as exc:
        report.bad.append({"line": number, "where": "record", "reason": one_line(str(exc))})


def run_replay(path: str, as_json: bool) -> int:
    """Check a file and print the bad records and a summary; 0 if all are good, 1 otherwise."""
    report = check_file(path)
    if as_json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
        return 0 if report.ok else 1
    for bad in report.bad:
        print(f"line {bad['line']}: {bad['where']}: {bad['reason']}")
    if report.records == 0:
        print(f"{path}: no records found")
        return 1
    verdict = "all valid" if report.ok else f"{len(report.bad)} invalid"
    print(
        f"{path}: {report.records} records ({report.deals} deals, {report.lists} lists), "
        f"{report.records - len(report.bad)} valid, {verdict}"
    )
    return 0 if report.ok else 1
