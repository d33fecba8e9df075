"""Batched environments for self-play at scale: N deals stepped at once by compiled (numba) rules.

* :class:`~stich.rl.batched.doppelkopf.DoppelkopfBatch`: whole DDV Doppelkopf
  deals (health round, reservations, announcements, card play), compiled;
  every other option set on the engine path
  (:class:`~stich.rl.batched.doppelkopf.DoppelkopfEngineBatch`);
* :class:`~stich.rl.batched.tarock.TarockBatch`: the card play of Tapp Tarock,
  Dobbm, Dappen and Droggn deals (Droggn on a kernel of its own), compiled;
  their bidding and talon played first through the engine by a chosen bot
  spec, or stepped by the learner in the engine (``bidding="learner"``,
  :mod:`~stich.rl.batched.engine_rows`).

Each keeps pgx-like fields (``current_player``, ``observation``,
``legal_action_mask``, ``rewards``, ``terminated``) with the observation
tensor and the action codes of the single environments, so one policy serves
both.  numba is needed (the ``dev`` or ``fast`` extra); importing a batched
env without it raises :class:`ImportError` saying so.
"""

from __future__ import annotations

import importlib.util

from stich.kernels.stream import switched_off


class NotSupportedError(ValueError):
    """A configuration the batched env does not compile (the message names the options)."""


def require_numba() -> None:
    """Raise :class:`ImportError` with the remedy when numba is missing or switched off."""
    if switched_off():
        raise ImportError("the batched environments need numba, and STICH_NO_NUMBA switches it off; unset it")
    if importlib.util.find_spec("numba") is None:
        raise ImportError("the batched environments need numba: pip install 'stich[fast]' (or the dev extra)")
