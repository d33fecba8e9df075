"""Helpers of the arena tests (the same contract as the command-line tests' helpers)."""

from __future__ import annotations

import pytest

from stich.cli.main import main


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``stich argv...`` in-process; return (exit status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_error_line(status: int, err: str) -> str:
    """The command failed the way a user mistake must: exit 2, one ``stich: error:`` line, no traceback."""
    assert status == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("stich: error: ")
    assert "Traceback" not in err
    return lines[0]
