"""Fair deals: the commitment construction, verifying server records, and ``stich verify``."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stich.cli.main import main
from stich.core.records import deal_record
from stich.core.registry import make_game
from stich.errors import RecordError
from stich.web.deals.fairness import Commitment, commitment, verify_record

from .helpers import Reader, call, connect, create_table, new_guest, play_as_seat


def test_commitment_is_sha256_of_seed_colon_salt() -> None:
    salt = "00" * 32
    assert commitment(42, salt) == hashlib.sha256(b"42:" + salt.encode()).hexdigest()
    assert commitment(2**64 - 1, salt) == hashlib.sha256(f"{2**64 - 1}:{salt}".encode()).hexdigest()
    with pytest.raises(ValueError):
        commitment(2**64, salt)
    fresh = Commitment.fresh()
    assert fresh.digest == commitment(fresh.seed, fresh.salt) and len(fresh.salt) == 64 and 0 <= fresh.seed < 2**64
    assert Commitment.fresh().salt != fresh.salt


@pytest.fixture
def server_record(client: TestClient, tmp_path: Path) -> tuple[dict[str, Any], dict[str, Any], Path]:
    """A finished deal from the server: its ``deal_end`` message, its record, and the record as a file."""
    token = new_guest(client)
    table = create_table(client, token, game="tapp_tarock", seat=0, bots="heuristic")
    with connect(client, table["id"], token) as ws:
        end = play_as_seat(Reader(ws))
    record = call(client, "GET", end["record_url"]).json()
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return end, record, path


def test_server_records_verify(server_record: tuple[dict[str, Any], dict[str, Any], Path]) -> None:
    end, record, _ = server_record
    outcome = verify_record(record, end["salt"], end["commitment"])
    assert outcome.ok and [name for name, _, _ in outcome.checks] == ["commitment", "deal", "replay"]
    assert record["meta"]["fairness"]["commitment"] == end["commitment"]


def test_a_wrong_salt_or_commitment_fails(server_record: tuple[dict[str, Any], dict[str, Any], Path]) -> None:
    end, record, _ = server_record
    wrong_salt = verify_record(record, "ab" * 32, end["commitment"])
    assert not wrong_salt.ok and wrong_salt.checks[0][:2] == ("commitment", False)
    other = Commitment.fresh().digest
    assert not verify_record(record, end["salt"], other).ok


def test_cards_that_did_not_come_from_the_seed_fail() -> None:
    game = make_game("doppelkopf")
    fair = Commitment.fresh()
    state = game.new_state(seed=fair.seed, dealer=1)
    record = deal_record(state)
    assert verify_record(record, fair.salt, fair.digest).ok
    swapped = copy.deepcopy(record)
    swapped["deal"][0][0], swapped["deal"][1][0] = record["deal"][1][0], record["deal"][0][0]
    outcome = verify_record(swapped, fair.salt, fair.digest)
    if record["deal"][0][0] != record["deal"][1][0]:
        assert not outcome.ok and ("deal", False) in [(n, p) for n, p, _ in outcome.checks]
    other_dealer = dict(record, dealer=2)
    assert not verify_record(other_dealer, fair.salt, fair.digest).ok


def test_malformed_inputs_are_refused_with_the_field() -> None:
    game = make_game("dobbm")
    record = deal_record(game.new_state(seed=7, dealer=0))
    good_salt = "cd" * 32
    with pytest.raises(RecordError, match="salt"):
        verify_record(record, "xyz", commitment(7, good_salt))
    with pytest.raises(RecordError, match="commitment"):
        verify_record(record, good_salt, "ABC")
    explicit = dict(record, seed=None)
    with pytest.raises(RecordError, match="seed"):
        verify_record(explicit, good_salt, commitment(7, good_salt))


def test_stich_verify_command(server_record: tuple[dict[str, Any], dict[str, Any], Path], capsys: pytest.CaptureFixture[str]) -> None:
    end, _, path = server_record
    assert main(["verify", str(path), "--salt", end["salt"], "--commitment", end["commitment"]]) == 0
    out = capsys.readouterr().out
    assert "ok   commitment" in out and "ok   deal" in out and "verified" in out
    assert main(["verify", str(path), "--commitment", "00" * 32]) == 1
    out = capsys.readouterr().out
    assert "FAIL commitment" in out and "salt taken from the record" in out
    assert main(["verify", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and "commitment taken from the record" in data["notes"][-1]
    assert main(["verify", str(path), "--salt", "nothex"]) == 2
    assert "salt" in capsys.readouterr().err
    assert main(["verify", str(path.with_name("missing.json"))]) == 2
    assert "cannot open" in capsys.readouterr().err
