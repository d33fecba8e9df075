"""N Doppelkopf deals stepped at once: whole deals, from the health round to the last trick.

``DoppelkopfBatch(num_envs)`` keeps every deal in one row of an ``int64``
matrix and steps all of them in one compiled call
(:mod:`stich.rl.batched.doppelkopf_kernel`).  Its fields follow pgx:

* ``current_player`` ``(N,)``: the seat to act, -1 once the deal is over;
* ``observation`` ``(N, size)`` ``float32``: the tensor of the seat to act
  (seat 0's once the deal is over), exactly :class:`stich.rl.encoding.Encoding`'s;
* ``legal_action_mask`` ``(N, 87)`` ``int8``: index = action code, as in every stich env;
* ``rewards`` ``(N, seats)`` ``float32``: the score change of a deal at the step that
  ends it (times ``reward_scale``), 0 at every other step;
* ``terminated`` ``(N,)`` ``bool``.

A policy trained on the PettingZoo / Gymnasium env runs on this one unchanged
(same tensor, same action codes); the differential tests play both side by side.

**Deals and seeds.** Deal ``i`` draws its deals exactly as
:class:`stich.rl.table.Table` does: a private :class:`stich.rl.deals.DealStream`
seeded by ``reset(seed)`` (``spawn_seed(seed, i)`` for an int, independent
for every pair of seed and index; or one seed per deal as given) gives each
deal's engine seed and dealer (random by default, decision 0046), and the
engine's own shuffle deals the hands, so deal ``i`` is the single env's
``reset(seed=spawn_seed(seed, i))``.  Finished deals
stay finished (their actions are ignored) until :meth:`reset_done` deals them
anew from their streams.

**Dealing and scoring are compiled too**: the engine's portable shuffle
(:func:`stich.core.rng.shuffled`) and the DDV evaluation of
:func:`stich.games.doppelkopf.scoring.evaluate`; :meth:`facts` gives a finished
deal's facts for the engine's evaluation, and the tests check both against it.

**Illegal actions** raise :class:`~stich.errors.IllegalActionError`
naming the deal and the action, before any deal is changed.

Only the DDV preset is compiled.  Any other option set of the engine (and
``compiled=False``) builds a
:class:`DoppelkopfEngineBatch` (below): the same
interface, fields and deals, one engine state per deal (as fast as the
engine, not the kernel).  ``compiled=True`` insists on the kernel and raises
:class:`NotSupportedError` naming the options that differ.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields

import numpy as np
import numpy.typing as npt

from stich.core.game import State
from stich.core.tricks import PlayedTrick
from stich.errors import IllegalActionError
from stich.games.doppelkopf import actions as A
from stich.games.doppelkopf.contracts import CONTRACTS, EYES, FACE_MASK, FACES, N_FACES, SOLO_NAMES, TRUMP, card_order
from stich.games.doppelkopf.game import Doppelkopf
from stich.games.doppelkopf.options import DoppelkopfOptions
from stich.games.doppelkopf.outcome import DealFacts
from stich.games.doppelkopf.state import DoppelkopfState
from stich.rl.batched import NotSupportedError, require_numba
from stich.rl.batched.engine_rows import EngineFields
from stich.rl.deals import DEFAULT_DEALER, Dealer, DealStream, check_dealer, reseed
from stich.rl.encoding import Encoding
from stich.rl.ids import game_for

require_numba()

from stich.kernels import core  # noqa: E402  (numba checked above)
from stich.rl.batched import doppelkopf_kernel as K  # noqa: E402

IntArray = npt.NDArray[np.int64]


def _contexts(options: DoppelkopfOptions) -> IntArray:
    """One ``ctx`` row (the search kernel's table) per contract index of ``("normal", *SOLO_NAMES)``."""
    names = ("normal", *SOLO_NAMES)
    ctxs = np.zeros((len(names), core.CTX_SIZE), dtype=np.int64)
    for i, name in enumerate(names):
        order = card_order(CONTRACTS[name], options.dullen)
        ctx = ctxs[i]
        for f in range(N_FACES):
            ctx[core.C_EFF + f] = order.eff[f]
            ctx[core.C_KEY + f] = order.strength[f] + (100 if order.eff[f] == TRUMP else 0)
            ctx[core.C_EYES + f] = EYES[f]
        for s in range(5):
            follow = order.follow[s]
            ctx[core.C_FOLLOW + s] = (follow | follow >> N_FACES) & FACE_MASK
    return ctxs


def unsupported_options(options: DoppelkopfOptions) -> list[str]:
    """``name=value`` of each option that differs from the DDV preset (what the batched env cannot play)."""
    ddv = DoppelkopfOptions()
    return [f"{f.name}={getattr(options, f.name)}" for f in fields(options) if getattr(options, f.name) != getattr(ddv, f.name)]


class DoppelkopfBatch:
    """``num_envs`` Doppelkopf deals stepped together (see the module docstring)."""

    def __new__(
        cls, num_envs: int, env_id: str = "stich/doppelkopf-ddv-v1", *, compiled: bool | None = None, **_options: object
    ) -> DoppelkopfBatch:
        """The compiled batch for the DDV preset (unless ``compiled=False``), the engine batch for every other option set."""
        if cls is DoppelkopfBatch:
            game = game_for(env_id)
            if not isinstance(game, Doppelkopf):
                raise NotSupportedError(f"{env_id}: DoppelkopfBatch plays Doppelkopf only")
            differ = unsupported_options(game.options)
            if differ and compiled:
                raise NotSupportedError(f"{env_id}: option(s) not compiled in the batched env (DDV preset only): {', '.join(differ)}")
            if differ or compiled is False:
                return super().__new__(DoppelkopfEngineBatch)
        return super().__new__(cls)

    def __init__(
        self,
        num_envs: int,
        env_id: str = "stich/doppelkopf-ddv-v1",
        *,
        reward_scale: float = 1.0,
        dealer: Dealer = DEFAULT_DEALER,
        compiled: bool | None = None,
    ) -> None:
        game = game_for(env_id)
        if not isinstance(game, Doppelkopf):
            raise NotSupportedError(f"{env_id}: DoppelkopfBatch plays Doppelkopf only")
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        if reward_scale <= 0:
            raise ValueError(f"reward_scale must be positive, not {reward_scale}")
        self.game = game
        self.num_envs = num_envs
        self.num_players = game.num_seats
        self.reward_scale = reward_scale
        self.dealer = check_dealer(dealer, game.num_seats)
        self.compiled = compiled is not False and not unsupported_options(game.options)
        """Whether the deals run in the compiled kernel (else one engine state per deal)."""
        self.encoding = Encoding(game)
        self.observation_size = self.encoding.size
        self.num_actions = len(game.actions)
        self._setup()

    def _setup(self) -> None:
        """The kernel's tables, state rows and fields (the engine batch sets up its own)."""
        game, num_envs, dealer = self.game, self.num_envs, self.dealer
        by_name = {info.name: info.start for info in self.encoding.slices()}
        self._off = np.array([by_name[name] for name in K.SLICE_NAMES], dtype=np.int64)
        self._ctxs = _contexts(game.options)
        self._deadlines = np.array(game.options.call_deadlines, dtype=np.int64)
        self._solo_codes = np.array(sorted(A.SOLO_CODE[name] for name in game.options.solos), dtype=np.int64)
        self._physical = np.array(game.deck.physical, dtype=np.int64)
        self._state = np.zeros((num_envs, K.WIDTH), dtype=np.int64)
        self._streams = [DealStream(4, dealer) for _ in range(num_envs)]
        self._all = np.arange(num_envs, dtype=np.int64)
        self.current_player = np.full(num_envs, -1, dtype=np.int64)
        self.observation = np.zeros((num_envs, self.observation_size), dtype=np.float32)
        self.legal_action_mask = np.zeros((num_envs, self.num_actions), dtype=np.int8)
        self.rewards = np.zeros((num_envs, 4), dtype=np.float32)
        self.terminated = np.ones(num_envs, dtype=bool)
        self.deal_seeds = np.zeros(num_envs, dtype=np.int64)
        """The engine seed of each deal in progress (``game.new_state(seed=...)`` deals the same hands)."""
        self._sampler = np.zeros(1, dtype=np.uint64)
        self._tables = (self._ctxs, self._deadlines, self._solo_codes, self._off)
        self._fields = (self.observation, self.legal_action_mask, self.current_player)

    # ---------------------------------------------------------------- deals
    def reset(self, seed: int | Sequence[int] | None = None) -> None:
        """Deal every deal anew; ``seed`` reseeds the streams first (an int ``s``: deal ``i`` gets ``spawn_seed(s, i)``)."""
        if seed is not None:
            reseed(self._streams, seed)
        self._deal(self._all)

    def reset_done(self) -> npt.NDArray[np.int64]:
        """Deal the finished deals anew from their streams; returns their indices."""
        done = np.flatnonzero(self.terminated).astype(np.int64)
        if len(done):
            self._deal(done)
        return done

    def reset_rows(self, rows: npt.ArrayLike) -> None:
        """Deal the deals ``rows`` anew from their streams, finished or not (the vector env's autoreset)."""
        picked = np.asarray(rows, dtype=np.int64).reshape(-1)
        if len(picked):
            self._deal(picked)

    def _deal(self, rows: IntArray) -> None:
        seeds = np.empty(len(rows), dtype=np.uint64)
        dealers = np.empty(len(rows), dtype=np.int64)
        for k, b in enumerate(rows):
            seeds[k], dealers[k] = self._streams[b].next_deal()
        self.deal_given(rows, seeds, dealers)

    def deal_given(self, rows: IntArray, seeds: npt.NDArray[np.uint64], dealers: IntArray) -> None:
        """Deal ``rows`` anew with these engine seeds and dealers (``game.new_state(seed=..., dealer=...)``'s hands).

        For a caller that keeps its own deal stream (:class:`stich.rl.kernel_table.KernelTable`); the batch's
        streams are not drawn from.
        """
        K.deal_rows(self._state, rows, seeds, dealers, self._physical, *self._tables, *self._fields)
        self.deal_seeds[rows] = seeds.astype(np.int64)
        self.terminated[rows] = False
        self.rewards[rows] = 0.0

    # ----------------------------------------------------------------- step
    def step(self, actions: npt.ArrayLike) -> None:
        """Apply one action code per deal (ignored for finished deals); the fields then describe the new states."""
        codes = np.asarray(actions, dtype=np.int64).reshape(-1)
        if codes.shape != (self.num_envs,):
            raise ValueError(f"step needs {self.num_envs} actions, got shape {np.shape(actions)}")
        bad = K.step(self._state, codes, *self._tables, *self._fields, self.terminated, self.rewards, self.reward_scale)
        if bad >= 0:
            code = int(codes[bad])
            text = self.game.actions.actions[code].text if 0 <= code < self.num_actions else str(code)
            raise IllegalActionError(f"deal {bad}: {text!r} is not legal for seat {self.current_player[bad]} now", "batched env")

    def random_actions(self, seed: int | None = None) -> npt.NDArray[np.int64]:
        """One uniformly random legal action per deal (0 for finished deals), drawn in compiled code.

        A baseline policy for self-play and the benchmark: a splitmix64 stream kept by the batch, reseeded by ``seed``.
        """
        if seed is not None:
            self._sampler[0] = np.uint64(seed & (2**64 - 1))
        out = np.empty(self.num_envs, dtype=np.int64)
        K.sample_legal(self.legal_action_mask, self.terminated, self._sampler, out)
        return out

    # ------------------------------------------------------------- reading
    def observe(self, seats: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """The observation tensor of ``seats[b]`` in each deal ``b`` (any seat, to move or not)."""
        who = np.broadcast_to(np.asarray(seats, dtype=np.int64), (self.num_envs,)).copy()
        if ((who < 0) | (who > 3)).any():
            raise ValueError("seats must lie in 0..3")
        out = np.empty((self.num_envs, self.observation_size), dtype=np.float32)
        K.observe_seats(self._state, who, self._ctxs, self._off, out)
        return out

    def facts(self, b: int) -> DealFacts:
        """The evaluation facts of finished deal ``b`` (what the engine scores)."""
        row = self._state[b]
        if row[K.PHASE] != K.END:
            raise ValueError(f"deal {b} is not finished")
        tricks = []
        for t in range(12):
            log = K.LOG + t * K.LOG_STRIDE
            leader = int(row[log])
            tricks.append(
                PlayedTrick(
                    tuple((leader + i) % 4 for i in range(4)),
                    tuple(FACES[int(f)] for f in row[log + 2 : log + 6]),
                    int(row[log + 1]),
                )
            )
        kinds = ("normal", "solo", "stille_hochzeit", "hochzeit", "hochzeit_solo")
        return DealFacts(
            num_seats=4,
            active_seats=tuple((int(row[K.DEALER]) + i) % 4 for i in range(1, 5)),
            kind=kinds[int(row[K.KIND])],
            contract=("normal", *SOLO_NAMES)[int(row[K.CONTRACT])],
            re_seats=frozenset(s for s in range(4) if row[K.PARTY + s] == K.RE),
            re_level=int(row[K.LEVEL]),
            kontra_level=int(row[K.LEVEL + 1]),
            tricks=tuple(tricks),
        )

    def memory_bytes(self) -> int:
        """Bytes of every array the batch keeps (state, fields, tables), for the memory figure of bench/."""
        arrays = (
            self._state,
            self.current_player,
            self.observation,
            self.legal_action_mask,
            self.rewards,
            self.terminated,
            self.deal_seeds,
            self._all,
        )
        return sum(a.nbytes for a in arrays)


class DoppelkopfEngineBatch(DoppelkopfBatch):
    """``num_envs`` Doppelkopf deals of any option set, one engine state per deal: the batch for what the kernel does not compile.

    The kernel plays the DDV preset only (decision 0030): every other option (Armut, Schweine, Genscher, Dullen
    rules, other deadlines, five players ...) changes rules it would have to mirror.  Here each deal is a reference
    engine state and its rows are written from the engine's own encoding (:mod:`stich.rl.batched.engine_rows`);
    the interface, fields and deal streams are the compiled batch's, so deal ``i`` of ``reset(seed=s)`` is the
    single env's ``reset(seed=spawn_seed(s, i))`` here too.  It runs at the engine's speed (a Python step per
    deal), not the kernel's.
    """

    def _setup(self) -> None:
        n = self.num_envs
        self._states: list[State | None] = [None] * n
        self._streams = [DealStream(self.num_players, self.dealer) for _ in range(n)]
        self._all = np.arange(n, dtype=np.int64)
        self.current_player = np.full(n, -1, dtype=np.int64)
        self.observation = np.zeros((n, self.observation_size), dtype=np.float32)
        self.legal_action_mask = np.zeros((n, self.num_actions), dtype=np.int8)
        self.rewards = np.zeros((n, self.num_players), dtype=np.float32)
        self.terminated = np.ones(n, dtype=bool)
        self.deal_seeds = np.zeros(n, dtype=np.int64)
        self.dealers = np.zeros(n, dtype=np.int64)
        """The dealer of each deal in progress."""
        self._sampler = np.zeros(1, dtype=np.uint64)
        self._engine = EngineFields(
            self.encoding, self.reward_scale, self.observation, self.legal_action_mask, self.current_player, self.rewards, self.terminated
        )

    # ---------------------------------------------------------------- deals
    def reset(self, seed: int | Sequence[int] | None = None) -> None:
        if seed is not None:
            reseed(self._streams, seed)
        self._deal(self._all)

    def _deal(self, rows: npt.NDArray[np.int64]) -> None:
        for b in rows:
            deal_seed, dealer = self._streams[b].next_deal()
            state = self.game.new_state(seed=deal_seed, dealer=dealer)
            self._states[b] = state
            self.deal_seeds[b] = deal_seed
            self.dealers[b] = dealer
            self.rewards[b] = 0.0
            self._engine.write(int(b), state)

    # ----------------------------------------------------------------- step
    def step(self, actions: npt.ArrayLike) -> None:
        """Apply one action code per deal (ignored for finished deals); every action is checked before any deal changes."""
        codes = np.asarray(actions, dtype=np.int64).reshape(-1)
        if codes.shape != (self.num_envs,):
            raise ValueError(f"step needs {self.num_envs} actions, got shape {np.shape(actions)}")
        live = np.flatnonzero(~self.terminated)
        self._engine.check(codes, live, self.num_actions)
        self.rewards[:] = 0.0
        for b in live:
            state = self._states[b]
            assert state is not None
            state.apply(int(codes[b]))
            self._engine.write(int(b), state)

    # ------------------------------------------------------------- reading
    def observe(self, seats: npt.ArrayLike) -> npt.NDArray[np.float32]:
        who = np.broadcast_to(np.asarray(seats, dtype=np.int64), (self.num_envs,))
        if ((who < 0) | (who >= self.num_players)).any():
            raise ValueError(f"seats must lie in 0..{self.num_players - 1}")
        out = np.empty((self.num_envs, self.observation_size), dtype=np.float32)
        for b in range(self.num_envs):
            state = self._states[b]
            if state is None:
                raise RuntimeError("no deals yet: call reset() first")
            out[b] = self.encoding.tensor(state.observation(int(who[b])))
        return out

    def facts(self, b: int) -> DealFacts:
        state = self._states[b]
        if state is None or not state.is_terminal():
            raise ValueError(f"deal {b} is not finished")
        assert isinstance(state, DoppelkopfState)
        return state.facts()

    def state(self, b: int) -> State:
        """A copy of deal ``b``'s engine state (the engine batch keeps one per deal)."""
        state = self._states[b]
        if state is None:
            raise RuntimeError("no deals yet: call reset() first")
        return state.clone()

    def memory_bytes(self) -> int:
        """Bytes of the batch's arrays (the engine states themselves not counted)."""
        arrays = (self.current_player, self.observation, self.legal_action_mask, self.rewards, self.terminated, self.deal_seeds)
        return sum(a.nbytes for a in arrays)
