"""Observation tensors that rewrite only the slices a step changed: the engine rows' encoder (issue 41, decision 0072).

:meth:`stich.rl.encoding.Encoding.tensor` writes every slice of a tensor from
the observation, about 35 of them.  Between two turns of one seat most of them
do not change: in the bidding its hand, the dealer, the talon, the tricks, most
of the public facts stay as they were.  :class:`IncrementalEncoder` keeps, per
key (a batch row and a seat), the last tensor and the *sources* of its slices
(:attr:`stich.rl.slices.Slice.source`: the part of the observation a slice
reads, such as ``public.bid`` or the tricks) and writes anew only the slices
whose source differs (``!=``); the rest are copied from the kept tensor.

A slice's values depend only on its source and the seat within one deal, so
the tensor is exactly :meth:`Encoding.tensor`'s as long as the keys of a deal
are forgotten when the next deal starts (:meth:`IncrementalEncoder.forget`): the
sources of the played cards are the tricks, which name a card's player only
within one deal.  The Tarock-family batches (``TarockBatch`` with the learner
bidding, hence the single env's ``TarockKernelTable``) encode their rows before
the first card with it; the differential tests compare them with the engine
env's full encoding at every step.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from stich.core.game import Observation
from stich.rl.encoding import Encoding, fill
from stich.rl.slices import Ones, Source, Values, Writer

_ALWAYS = -1
"""The source index of a slice without a source: written every time."""


class IncrementalEncoder:
    """:meth:`Encoding.tensor` that keeps each key's last tensor and rewrites only the slices whose sources changed.

    The tensors it returns are its own, kept for the next call and not writeable: copy one to change it.
    """

    def __init__(self, encoding: Encoding) -> None:
        self.encoding = encoding
        sources: list[Source] = []
        plan: list[tuple[int, Writer, int, int]] = []
        for info, part in encoding.parts:
            index = _ALWAYS
            if part.source is not None:
                if part.source not in sources:
                    sources.append(part.source)
                index = sources.index(part.source)
            plan.append((index, part.write, info.start, info.stop))
        self._sources = tuple(sources)
        self._plan = tuple(plan)
        self._kept: dict[int, dict[int, tuple[list[Any], npt.NDArray[np.float32]]]] = {}
        """Per row, per seat: the sources and the tensor of the seat's last call."""

    def tensor(self, obs: Observation, row: int = 0) -> npt.NDArray[np.float32]:
        """The tensor of ``obs`` (equal to ``encoding.tensor(obs)``), for ``obs.seat`` in deal ``row``."""
        now = [source(obs) for source in self._sources]
        seats = self._kept.get(row)
        if seats is None:
            seats = self._kept[row] = {}
        kept = seats.get(obs.seat)
        ones: Ones = []
        values: Values = {}
        self.encoding._check(obs)
        if kept is None:
            out = np.zeros(self.encoding.size, dtype=np.float32)
            for _index, write, start, _stop in self._plan:
                write(obs, start, ones, values)
        else:
            before, old = kept
            changed = [new is not was and new != was for new, was in zip(now, before, strict=True)]
            out = old.copy()
            for index, write, start, stop in self._plan:
                if index == _ALWAYS or changed[index]:
                    out[start:stop] = 0.0
                    write(obs, start, ones, values)
        fill(out, ones, values)
        out.flags.writeable = False
        seats[obs.seat] = (now, out)
        return out

    def forget(self, row: int) -> None:
        """Drop what is kept of deal ``row`` (a new deal starts there: the tricks of the last one mean nothing now)."""
        self._kept.pop(row, None)
