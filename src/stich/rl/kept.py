"""Each seat's tensor kept between steps and rewritten only where its observation changed (issue 41, per-step speed).

A step changes few slices of a seat's tensor: whose turn it is, the hand of
the seat that played, the cards on the table, now and then a public fact.
:class:`KeptTensors` keeps, per seat, the last tensor and, for every slice,
the key its values came from and the positions it set:

* a slice that reads public or private facts (``Slice.reads``) is keyed by
  the values of those facts; when the observation's ``public`` (or
  ``private``) dict equals the last one, none of them is looked at;
* a shared slice (hand, cards played, the trick, ...) has its own
  ``Slice.key`` (the hand, the seat's scan of the events and its length, ...);
* a slice with neither is written afresh at every step.

A slice whose key is unchanged keeps its positions; the others are written
as the full encoding writes them, their old positions cleared and the new
ones set.  The result is :meth:`stich.rl.encoding.Encoding.full_tensor`'s,
float for float (``tests/rl/test_kept_tensor.py`` plays every preset step
by step, every seat, interleaved deals and clones), and it is still read from
the observation only, so it can hold nothing the seat may not know.

Keys are compared with ``==``: a fact the engine changed in place (the same
list object, new contents) would look unchanged; every game builds its
``public`` and ``private`` values afresh per observation, and the test above
would fail if one did not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from stich.core.game import Observation
from stich.rl.slices import Slice

_UNSET: Any = object()
"""The key of a slice not written yet (equal to nothing but itself)."""


class _SeatTensor:
    """One seat's kept tensor: the floats, and per slice its key and the positions it set."""

    __slots__ = ("facts", "keys", "ones", "out", "private", "public", "values", "view")

    def __init__(self, size: int, slices: int, keys: int, facts: int) -> None:
        self.out = np.zeros(size, dtype=np.float32)
        self.view = memoryview(self.out)  # a scalar write through a memoryview costs half of numpy's __setitem__
        self.keys: list[Any] = [_UNSET] * keys
        """The last key of each key function of ``KeptTensors._own``."""
        self.ones: list[list[int]] = [[] for _ in range(slices)]
        self.values: list[dict[int, float]] = [{} for _ in range(slices)]
        self.facts: list[Any] = [_UNSET] * facts
        """The last value of each public/private fact a slice reads, in the order of ``KeptTensors._facts``."""
        self.public: Any = _UNSET
        self.private: Any = _UNSET


class KeptTensors:
    """The tensors of the seats of one encoding, each rewritten where its observation changed (see the module)."""

    def __init__(self, slices: Sequence[Slice], starts: Sequence[int], size: int) -> None:
        self.size = size
        self._writers = tuple((s.write, start) for s, start in zip(slices, starts, strict=True))
        by_key: dict[Any, list[int]] = {}
        for i, s in enumerate(slices):
            if s.key is not None:
                by_key.setdefault(s.key, []).append(i)
        self._own = tuple((key_of, tuple(users)) for key_of, users in by_key.items())
        """Slices with their own key, grouped by key function (one call each per tensor)."""
        self._always = tuple(i for i, s in enumerate(slices) if s.key is None and not s.reads)
        by_fact: dict[tuple[str, str], list[int]] = {}
        for i, s in enumerate(slices):
            if s.key is None:
                for read in s.reads:
                    where, name = read.split(".", 1)
                    by_fact.setdefault((where, name), []).append(i)
        facts = list(by_fact.items())
        self._facts = len(facts)
        self._public = tuple((name, position, tuple(users)) for position, ((where, name), users) in enumerate(facts) if where == "public")
        self._private = tuple((name, position, tuple(users)) for position, ((where, name), users) in enumerate(facts) if where == "private")
        self._seats: dict[int, _SeatTensor] = {}

    def tensor(self, obs: Observation) -> npt.NDArray[np.float32]:
        """The tensor of ``obs`` (a new array; the kept one stays here)."""
        kept = self._seats.get(obs.seat)
        if kept is None:
            kept = self._seats[obs.seat] = _SeatTensor(self.size, len(self._writers), len(self._own), self._facts)
        dirty: list[int] = list(self._always)
        keys: list[tuple[int, Any]] = []
        old_keys = kept.keys
        for position, (key_of, users) in enumerate(self._own):
            key = key_of(obs)
            if key != old_keys[position]:
                dirty.extend(users)
                keys.append((position, key))
        facts: list[tuple[int, Any]] = []
        old_facts = kept.facts
        public, private = obs.public, obs.private
        if public != kept.public:
            for name, position, users in self._public:
                value = public.get(name)
                if value != old_facts[position]:
                    dirty.extend(users)
                    facts.append((position, value))
        if private != kept.private:
            for name, position, users in self._private:
                value = private.get(name)
                if value != old_facts[position]:
                    dirty.extend(users)
                    facts.append((position, value))
        if dirty:
            self._rewrite(kept, obs, dirty)  # may raise (a value with no place): then nothing below is kept
        for i, key in keys:
            old_keys[i] = key
        for position, value in facts:
            old_facts[position] = value
        kept.public, kept.private = public, private
        return kept.out.copy()

    def _rewrite(self, kept: _SeatTensor, obs: Observation, dirty: list[int]) -> None:
        """Write the ``dirty`` slices afresh: all are computed first, then the old positions cleared and the new set."""
        writers = self._writers
        fresh: list[tuple[int, list[int], dict[int, float]]] = []
        for i in dict.fromkeys(dirty):  # a slice reading two changed facts is written once
            write, start = writers[i]
            ones: list[int] = []
            values: dict[int, float] = {}
            write(obs, start, ones, values)
            fresh.append((i, ones, values))
        out, view, old_ones, old_values = kept.out, kept.view, kept.ones, kept.values
        cleared: list[int] = []
        flags: list[int] = []
        for i, ones, values in fresh:
            before = old_ones[i]
            if len(ones) >= len(before) and ones[: len(before)] == before:
                flags += ones[len(before) :]  # the slice only grew (cards played, say): set the new flags only
            else:
                cleared += before
                flags += ones
            cleared += old_values[i]
            old_ones[i] = ones
        if cleared:
            out[np.array(cleared, dtype=np.intp)] = 0.0  # one index array each: numpy reads a list of ints slowly
        if flags:
            out[np.array(flags, dtype=np.intp)] = 1.0
        for i, _ones, values in fresh:
            for position, value in values.items():
                view[position] = value
            old_values[i] = values
