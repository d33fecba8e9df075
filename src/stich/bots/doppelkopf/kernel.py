"""Fast play-phase kernel: random playouts and the exact solver's inner loop, compiled with numba.

The kernel works on an array form of a :class:`~stich.bots.doppelkopf.solver.PlayPosition`
(:class:`KernelPosition`: hands as ``uint64`` count-form masks, the card
order as numpy tables) and offers

* :func:`random_playouts` — play ``n`` games to the end with uniformly random
  legal cards (one choice among the legal *faces*, as the engine's ``play``
  actions are faces) and return Re's final eyes per game;
* :class:`KernelSolver` (and :func:`solve`, :func:`value`, :func:`reaches`)
  — the same alpha-beta search as :class:`stich.bots.doppelkopf.solver.Solver`, with
  its transposition table as a flat array (two-entry buckets, at trick starts
  only, keyed on the hands with runs of equal cards compacted) and the same
  move merging and ordering (plus the best move the table remembers, tried
  first), bounds from the top trumps one party alone holds, and exact
  values by null-window probes (docs/decisions/0050-deeper-exact-solver.md).

numba is optional (``pip install stich[fast]``).  Without it (or without
numpy, or with the environment variable ``STICH_NO_NUMBA`` set) the module
still imports, :func:`available` is ``False`` and every function runs a
pure-Python path with identical results: playouts use the same splitmix64
stream and the same choice rule, and the solver is the reference
:class:`~stich.bots.doppelkopf.solver.Solver` (exact values are unique, so the answers
agree; node counts do not).

The first call of a compiled function compiles it (a few seconds) or loads
numba's on-disk cache; :func:`warmup` does that on purpose.  A solver object
is not thread-safe; create one per thread.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from stich.bots.doppelkopf.solver import PlayPosition, Solver, position_of, suit_orders
from stich.games.doppelkopf.contracts import EYES, H10, N_FACES, TRUMP
from stich.games.doppelkopf.state import DoppelkopfState
from stich.kernels.stream import MASK64, splitmix, switched_off

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "KernelPosition",
    "KernelSolver",
    "available",
    "backend",
    "random_playouts",
    "reaches",
    "solve",
    "splitmix",
    "unavailable_reason",
    "value",
    "warmup",
]

_MASK64 = MASK64

_core: Any = None
_np: Any = None
_reason = ""
if switched_off():
    _reason = "switched off by STICH_NO_NUMBA"
else:
    try:
        import numpy as _numpy

        from stich.kernels import core as _kernel_core

        _np, _core = _numpy, _kernel_core
    except ImportError as exc:  # pragma: no cover - depends on the environment
        _reason = f"numba/numpy not importable: {exc}"


def available() -> bool:
    """Whether the compiled (numba) kernel is in use."""
    return _core is not None


def backend() -> str:
    """``"numba"`` or ``"python"`` (the fallback)."""
    return "numba" if available() else "python"


def unavailable_reason() -> str:
    """Why the compiled kernel is not in use (empty when it is)."""
    return _reason


def _as_position(position: PlayPosition | DoppelkopfState) -> PlayPosition:
    return position if isinstance(position, PlayPosition) else position_of(position)


class KernelPosition:
    """The array form of a :class:`PlayPosition` the compiled kernel reads (needs numpy).

    ``hands`` is ``uint64[4]`` in count form; ``tricks`` holds the current
    trick in row ``tricks_left``; ``ctx`` the card order, eyes, parties and
    rule flags; ``order`` each effective suit's faces strongest first (see
    :mod:`stich.kernels.core` for the layout).
    """

    def __init__(self, position: PlayPosition | DoppelkopfState) -> None:
        if _np is None:
            raise ImportError(f"KernelPosition needs the compiled kernel: pip install 'stich[fast]' ({_reason})")
        core = _core
        pos = self.position = _as_position(position)
        self.hands: npt.NDArray[np.uint64] = _np.array(pos.hands, dtype=_np.uint64)
        self.tricks: npt.NDArray[np.int64] = _np.zeros((pos.tricks_left + 1, 4), dtype=_np.int64)
        self.tricks[pos.tricks_left, : len(pos.trick)] = pos.trick
        ctx = _np.zeros(core.CTX_SIZE, dtype=_np.int64)
        for f in range(N_FACES):
            ctx[core.C_EFF + f] = pos.eff[f]
            ctx[core.C_KEY + f] = pos.strength[f] + (100 if pos.eff[f] == TRUMP else 0)
            ctx[core.C_EYES + f] = EYES[f]
        for s in range(5):
            ctx[core.C_FOLLOW + s] = pos.follow_faces(s)
        ctx[core.C_RE] = pos.re
        ctx[core.C_OVERTRUMP] = int(pos.must_overtrump)
        ctx[core.C_DULLE] = pos.dulle
        order = _np.full((5, 13), -1, dtype=_np.int64)
        runs: list[list[int]] = []
        for s, faces in enumerate(suit_orders(pos)):
            order[s, : len(faces)] = faces
            start = 0
            for j, f in enumerate(faces):
                if j == 0 or EYES[f] != EYES[faces[j - 1]] or H10 in (f, faces[j - 1]):
                    start = j
                    runs.append([])
                runs[-1].append(f)
                ctx[core.C_RUN + f] = start
                ctx[core.C_POS + f] = j
        long_runs = [run for run in runs if 1 < len(run) < core.RUN_STRIDE][: core.MAX_RUNS]
        for run in runs:
            if run not in long_runs:  # a run the table cannot hold stays uncompacted: each face its own run
                for f in run:
                    ctx[core.C_RUN + f] = ctx[core.C_POS + f]
        for r, run in enumerate(long_runs):
            base = core.C_RUNS + r * core.RUN_STRIDE
            ctx[base] = len(run)
            ctx[base + 1 : base + 1 + len(run)] = run
        for i, f in enumerate(sorted(range(N_FACES), key=lambda f: EYES[f])):
            ctx[core.C_BY_EYES + i] = f
        self.ctx: npt.NDArray[np.int64] = ctx
        self.order: npt.NDArray[np.int64] = order
        self.rem = pos.remaining_eyes

    def moved_to(self, position: PlayPosition) -> KernelPosition:
        """A copy for another ``position`` of the same card order, rule flags and parties, sharing the rule tables.

        Building ``ctx`` and ``order`` is most of the cost of a
        :class:`KernelPosition`; they depend only on the card order, the rule
        flags and the parties, which stay the same through a deal's card play.
        Everything that depends on the position (hands, the current trick,
        the eyes still to be won) is rebuilt here.
        """
        pos = self.position
        same_rules = (pos.eff, pos.strength, pos.re, pos.must_overtrump, pos.dulle) == (
            position.eff,
            position.strength,
            position.re,
            position.must_overtrump,
            position.dulle,
        )
        if not same_rules:
            raise ValueError("moved_to needs a position with the same card order, rule flags and parties")
        moved = copy.copy(self)
        moved.position = position
        moved.hands = _np.array(position.hands, dtype=_np.uint64)
        moved.tricks = _np.zeros((position.tricks_left + 1, 4), dtype=_np.int64)
        moved.tricks[position.tricks_left, : len(position.trick)] = position.trick
        moved.rem = position.remaining_eyes
        return moved

    def int_hands(self) -> npt.NDArray[np.int64]:
        """A fresh int64 copy of the hands (the search plays on it in place)."""
        return self.hands.astype(_np.int64)


# ------------------------------------------------------------------ playouts


def _py_playouts(pos: PlayPosition, n: int, seed: int) -> list[int]:
    """Pure-Python :func:`random_playouts`: the same stream, the same choices."""
    state = seed & _MASK64
    out: list[int] = []
    for _ in range(n):
        hands = list(pos.hands)
        leader = pos.leader
        trick = pos.trick
        tricks_left = pos.tricks_left
        total = pos.re_eyes
        while True:
            p = (leader + len(trick)) % 4
            legal = pos.legal(hands[p], trick, tricks_left)
            state, r = splitmix(state)
            k = ((r >> 32) * legal.bit_count()) >> 32
            for _ in range(k):
                legal &= legal - 1
            f = (legal & -legal).bit_length() - 1
            hand = hands[p]
            hands[p] = hand ^ (1 << (f + N_FACES) if hand >> (f + N_FACES) & 1 else 1 << f)
            trick = (*trick, f)
            if len(trick) == 4:
                _led, best_pos, _key = pos.trick_state(trick, tricks_left)
                winner = (leader + best_pos) % 4
                if pos.re >> winner & 1:
                    total += sum(EYES[c] for c in trick)
                tricks_left -= 1
                if tricks_left == 0:
                    break
                leader, trick = winner, ()
        out.append(total)
    return out


def random_playouts(position: PlayPosition | DoppelkopfState | KernelPosition, n: int, seed: int) -> list[int]:
    """Re's final eyes in each of ``n`` games played on from ``position`` with random legal cards.

    Every card is drawn uniformly among the legal faces of the player to move
    from one splitmix64 stream seeded with ``seed``; the compiled and the
    pure-Python paths give the same list.
    """
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    if _core is None:
        pos = position.position if isinstance(position, KernelPosition) else _as_position(position)
        return _py_playouts(pos, n, seed)
    kp = position if isinstance(position, KernelPosition) else KernelPosition(position)
    pos = kp.position
    out = _np.empty(n, dtype=_np.int64)
    trick = _np.zeros(4, dtype=_np.int64)
    trick[: len(pos.trick)] = pos.trick
    _core.playouts(
        kp.int_hands(), trick, len(pos.trick), pos.leader, pos.tricks_left, pos.re_eyes, kp.ctx, n, _np.uint64(seed & _MASK64), out
    )
    return [int(x) for x in out.tolist()]


# -------------------------------------------------------------------- solver


_GENERATIONS = itertools.count(1)
"""Generation numbers of solvers (``next`` on a count is atomic under the GIL); 0 marks an empty entry."""


class _Table:
    """A transposition table shared by the solvers of this process; entries of other generations are ignored."""

    def __init__(self, bits: int) -> None:
        self.array: Any = _np.zeros((1 << bits, 8), dtype=_np.int64)
        self.array.fill(0)  # touch every page now, not during the first searches


_TABLES: dict[int, _Table] = {}
DEFAULT_TT_BITS = 18
"""log2 of the default number of table entries: 2**18 entries of 64 bytes = 16 MiB, enough for
positions of up to about 9 tricks left; larger tables pay in cache misses on small searches."""
DEEP_TT_BITS = ((10, 21),)
"""Larger tables for deeper positions: from 10 tricks left 2**21 entries (128 MiB)."""


def table_bits(tricks_left: int) -> int:
    """log2 of the table size a solver takes by default for a position with ``tricks_left`` tricks left."""
    bits = DEFAULT_TT_BITS
    for tricks, deeper in DEEP_TT_BITS:
        if tricks_left >= tricks:
            bits = deeper
    return bits


def prepare_table(tricks_left: int) -> None:
    """Allocate (and touch) the table a solver for ``tricks_left`` tricks left will use, before timing it."""
    if _np is not None:
        _table(table_bits(tricks_left))


def _table(bits: int) -> _Table:
    table = _TABLES.get(bits)
    if table is None:
        table = _TABLES[bits] = _Table(bits)
    return table


class KernelSolver:
    """The compiled counterpart of :class:`stich.bots.doppelkopf.solver.Solver` (same methods, same answers).

    The transposition table (``2**tt_bits`` entries of 64 bytes; by default
    :func:`table_bits` of the position's tricks left) is shared by all
    solvers of the process with the same size and told apart by a generation
    number, so making a solver costs no allocation; a solver keeps its
    entries between its own calls until another solver overwrites them.
    ``value()`` and ``solve()`` find exact values by null-window probes
    (MTD(f)); ``reaches(x)`` is one null-window search.
    Without numba this wraps the reference solver.
    """

    def __init__(self, position: PlayPosition | DoppelkopfState | KernelPosition, *, tt_bits: int | None = None) -> None:
        if tt_bits is not None and not 2 <= tt_bits <= 30:
            raise ValueError(f"tt_bits must be 2..30, got {tt_bits}")
        self._reference: Solver | None = None
        self._nodes = 0
        if _core is None:
            pos = position.position if isinstance(position, KernelPosition) else _as_position(position)
            self.position = pos
            self._reference = Solver(pos)
            return
        kp = position if isinstance(position, KernelPosition) else KernelPosition(position)
        self.kernel_position = kp
        self.position = kp.position
        self._table = _table(table_bits(self.position.tricks_left) if tt_bits is None else tt_bits)
        self._generation = next(_GENERATIONS)
        self._buf = _np.zeros((_core.MAX_DEPTH, _core.MOVE_STRIDE), dtype=_np.int64)
        self._frames = _np.zeros((_core.MAX_DEPTH, _core.FRAME_FIELDS), dtype=_np.int64)
        self._stats = _np.zeros(1, dtype=_np.int64)

    @property
    def nodes(self) -> int:
        """Positions the search entered so far."""
        if self._reference is not None:
            return self._reference.nodes
        return int(self._stats[0])

    def _args(self) -> tuple[Any, ...]:
        kp = self.kernel_position
        pos = kp.position
        return (kp.int_hands(), kp.tricks.copy(), len(pos.trick), pos.leader, pos.tricks_left, kp.rem)

    def _tail(self) -> tuple[Any, ...]:
        kp = self.kernel_position
        return (kp.ctx, kp.order, self._table.array, self._generation, self._buf, self._frames, self._stats)

    def solve(self) -> dict[int, int]:
        """Re's final eyes after each legal face of the player to move, with best play afterwards."""
        if self._reference is not None:
            return self._reference.solve()
        out = _np.empty(N_FACES, dtype=_np.int64)
        _core.solve_root(*self._args(), *self._tail(), out)
        base = self.position.re_eyes
        return {f: base + int(v) for f, v in enumerate(out.tolist()) if v >= 0}

    def value(self) -> int:
        """Re's final eyes with best play by both parties."""
        if self._reference is not None:
            return self._reference.value()
        rem = self.kernel_position.rem
        return self.position.re_eyes + int(_core.mtdf(*self._args(), -1, rem // 2, *self._tail()))

    def reaches(self, target: int) -> bool:
        """Whether Re ends with at least ``target`` eyes against best play (null-window search)."""
        if self._reference is not None:
            return self._reference.reaches(target)
        need = target - self.position.re_eyes
        rem = self.kernel_position.rem
        if need <= 0:
            return True
        if need > rem:
            return False
        return int(_core.run_search(*self._args(), need - 1, need, -1, *self._tail())) >= need


def solve(position: PlayPosition | DoppelkopfState | KernelPosition) -> dict[int, int]:
    """:meth:`KernelSolver.solve` on a fresh solver."""
    return KernelSolver(position).solve()


def value(position: PlayPosition | DoppelkopfState | KernelPosition) -> int:
    """:meth:`KernelSolver.value` on a fresh solver."""
    return KernelSolver(position).value()


def reaches(position: PlayPosition | DoppelkopfState | KernelPosition, target: int) -> bool:
    """:meth:`KernelSolver.reaches` on a fresh solver."""
    return KernelSolver(position).reaches(target)


def warmup() -> bool:
    """Compile (or load from numba's cache) every kernel function now; ``False`` without numba."""
    if _core is None:
        return False
    hands: Sequence[int] = (0b1111, 0b1111 << 4, 0b1111 << 8, 0b1111 << 12)
    pos = PlayPosition(
        seats=(0, 1, 2, 3),
        hands=tuple(hands),
        re=0b0101,
        leader=0,
        trick=(),
        tricks_left=4,
        re_eyes=0,
        eff=tuple(min(f // 6, 3) if f // 6 < 3 else TRUMP for f in range(N_FACES)),
        strength=tuple(6 - f % 6 for f in range(N_FACES)),
    )
    random_playouts(pos, 1, 0)
    _table(DEFAULT_TT_BITS)
    solver = KernelSolver(pos, tt_bits=4)
    solver.solve()
    solver.value()
    solver.reaches(1)
    return True
