"""Fair deals: the server commits to each deal's seed before the deal and reveals it afterwards.

Construction (also in ``docs/web.md``):

* the seed is a fresh 64-bit unsigned integer from the operating system's
  cryptographic generator (``secrets.randbits(64)``); the salt is 32 random
  bytes written as 64 lower-case hexadecimal digits;
* the commitment is ``sha256(f"{seed}:{salt}")``: the seed in decimal
  without leading zeros, a colon, the salt, encoded as ASCII, hashed with
  SHA-256 and written as 64 lower-case hexadecimal digits;
* the cards are dealt by ``game.deal(seed, dealer)`` (:mod:`stich.core.rng`:
  SplitMix64 and a Fisher–Yates shuffle), which anyone can recompute.

Before a deal the server publishes the commitment; after it, the seed and
the salt.  :func:`verify_record` (``stich verify``) then checks that the
commitment matches and that the record's cards are exactly those the seed
deals.  The salt keeps the seed from being found by trying all seeds
against the commitment.  What this proves: the cards were fixed before the
first action, so the server could not change them in the light of the play.
What it does not prove: that the server did not pick a seed it liked (a
later step can mix in seeds from the players).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from stich.cards import parse_card
from stich.core.records import MAX_SEED, replay_deal, validate_record
from stich.core.registry import game_from_string
from stich.errors import RecordError, StichError

SALT_PATTERN = re.compile(r"^[0-9a-f]{64}$")
"""A salt: 64 lower-case hexadecimal digits (32 bytes)."""
COMMITMENT_PATTERN = re.compile(r"^[0-9a-f]{64}$")
"""A commitment: a SHA-256 digest in lower-case hexadecimal."""


def commitment(seed: int, salt: str) -> str:
    """``sha256(f"{seed}:{salt}")`` in lower-case hexadecimal."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a seed is 0..{MAX_SEED}, not {seed}")
    return hashlib.sha256(f"{seed}:{salt}".encode("ascii")).hexdigest()


@dataclass(frozen=True)
class Commitment:
    """A fresh seed, its salt and the commitment to both (keep seed and salt secret until the deal ends)."""

    seed: int
    salt: str
    digest: str

    @classmethod
    def fresh(cls) -> Commitment:
        """A new random seed and salt, and their commitment."""
        seed = secrets.randbits(64)
        salt = secrets.token_hex(32)
        return cls(seed, salt, commitment(seed, salt))


@dataclass
class Verification:
    """The outcome of checking one record: each check's name, whether it passed, and a line of detail."""

    checks: list[tuple[str, bool, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every check passed."""
        return bool(self.checks) and all(passed for _, passed, _ in self.checks)

    def add(self, name: str, passed: bool, detail: str) -> None:
        """Record one check."""
        self.checks.append((name, passed, detail))

    def to_json(self) -> dict[str, Any]:
        """JSON form (``stich verify --json``)."""
        return {"ok": self.ok, "checks": [{"check": n, "ok": p, "detail": d} for n, p, d in self.checks]}


def check_salt(salt: str) -> None:
    """Raise :class:`RecordError` (where ``salt``) unless ``salt`` is 64 lower-case hexadecimal digits."""
    if not SALT_PATTERN.match(salt):
        raise RecordError("must be 64 lower-case hexadecimal digits", "salt")


def check_commitment_text(digest: str) -> None:
    """Raise :class:`RecordError` (where ``commitment``) unless ``digest`` looks like a SHA-256 hex digest."""
    if not COMMITMENT_PATTERN.match(digest):
        raise RecordError("must be 64 lower-case hexadecimal digits (a SHA-256 digest)", "commitment")


def fairness_meta(record: Mapping[str, Any]) -> Mapping[str, Any]:
    """The ``meta.fairness`` block the server writes into its records (empty if absent)."""
    meta = record.get("meta")
    if isinstance(meta, Mapping):
        block = meta.get("fairness")
        if isinstance(block, Mapping):
            return block
    return {}


def verify_record(record: Mapping[str, Any], salt: str, digest: str) -> Verification:
    """Check a deal record against a commitment: the commitment, the deal from the seed, and a full replay.

    Raises :class:`RecordError` for a record that is not a well-formed deal
    record with a seed, or a salt or commitment that is malformed; returns a
    :class:`Verification` whose checks say what matched.
    """
    validate_record(record)
    if record["type"] != "deal":
        raise RecordError('stich verify checks one deal; this is a list record (type "list")', "type")
    seed = record["seed"]
    if seed is None:
        raise RecordError("the deal was not dealt from a seed (seed is null), so there is nothing to verify", "seed")
    check_salt(salt)
    check_commitment_text(digest)
    result = Verification()
    expected = commitment(seed, salt)
    same = hmac.compare_digest(expected, digest)
    result.add("commitment", same, f"sha256({seed}:{salt[:8]}...) = {expected}" + ("" if same else f", but the commitment is {digest}"))
    game = game_from_string(record["game"])
    dealt = game.deal(seed, record["dealer"])
    parts = game.deal_parts
    hands = record["deal"]
    if len(hands) != len(parts):
        raise RecordError(f"{game.name} deals {len(parts)} piles ({', '.join(parts)}), the record has {len(hands)}", "deal")
    mismatched = []
    for index, (mask, hand) in enumerate(zip(dealt, hands, strict=True)):
        expected_faces = sorted(card.text for card in game.deck.cards(mask))
        if sorted(parse_card(text).text for text in hand) != expected_faces:
            mismatched.append(parts[index])
    if mismatched:
        result.add("deal", False, f"the cards of {', '.join(mismatched)} are not those seed {seed} deals")
    else:
        result.add("deal", True, f"seed {seed} with dealer {record['dealer']} deals exactly the recorded cards ({', '.join(parts)})")
    try:
        state = replay_deal(record)
    except StichError as exc:
        result.add("replay", False, str(exc))
    else:
        scores = state.result().scores if state.is_terminal() else None
        result.add("replay", True, f"{len(record['actions'])} actions legal, result {list(scores) if scores else 'pending'} recomputed")
    return result
