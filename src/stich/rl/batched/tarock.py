"""N Tarock-family deals stepped at once: card play compiled, the bidding and talon phases in the engine.

``TarockBatch(num_envs, "stich/dobbm-pagat-v1", bidding="random")`` plays each
deal's phases before the card play (bidding, talon, discards, announcements,
doubling) in the reference engine, every seat's action chosen by the bot spec
``bidding`` (any spec of the bot registry: ``random``, ``heuristic``,
``pimc:level=1`` ...; one bot per seat and deal, seeded from the deal's
stream).  With ``bidding="learner"`` (:data:`LEARNER`) the learner steps those
phases too: a deal starts at its first decision, its rows are written from
the engine's state (:mod:`stich.rl.batched.engine_rows`) until the first
card, and a deal that ends before card play (thrown in, a penalty, a show)
ends for the learner with the engine's rewards like any other.  Either way,
at the first card the deal is handed to the compiled card play
(:mod:`stich.rl.batched.tarock_kernel`), which the learner steps: the fields
(``current_player``, ``observation``, ``legal_action_mask``, ``rewards``,
``terminated``) are those of :class:`~stich.rl.batched.doppelkopf.DoppelkopfBatch`,
the tensor and the action codes those of the single env.

At the hand-over every seat's tensor is taken from the reference encoding;
the batch then rewrites only the slices card play changes (see the kernel).
When the last card falls, the deal's cards are replayed into the reference
state it was handed over from, which scores it (``rewards``) and gives seat
0's final observation, whose end-of-deal slices (:data:`END_SLICES`) complete
the kernel's final tensors, so scores, Pagat ultimo and every end-of-deal
reveal are the engine's own.

With a bot bidding, deals that end before any card is played (all passed,
thrown in) are not given to the learner: the deal's stream deals the next
one (``skipped`` counts them).  Deal seeds and dealers come from a
:class:`stich.rl.deals.DealStream` per deal seeded by ``reset(seed)`` as in
:class:`stich.rl.table.Table` (an int ``s``: deal ``i`` gets
``spawn_seed(s, i)``; dealer random by default, decision 0046).

A batch of one with the learner bidding is the single env's fast path
(:class:`stich.rl.kernel_table.TarockKernelTable`, decision 0069): it deals
by engine seed (:meth:`TarockBatch.deal_given`), steps its one deal without
the work for many (:meth:`TarockBatch.step_single`), and a deal that ended in
card play gives every seat's final tensor from the kernel with the end's
public slices from seat 0's (:data:`END_SLICES`).

Compiled games: Tapp Tarock and Dobbm, whose card play is plain Tarock trick
play (they have kernel adapters), and Dappen with its own card-play rules
compiled: the lone player's laid-out Ulti cards (dossier §5.1), the Gstieß
kept back (``gstiesieren``, §6.2) and Buchenbach's fixed first three tricks
(``first_three_tricks``, §6.3).  Droggn, whose 66 or 78 cards do not fit the
kernel's one-int64 hands, has a kernel of its own
(:mod:`stich.rl.batched.droggn_kernel`: hands as a flag per card, the laid-out
Pagat and Gstieß, the Super Mord's early end); ``TarockBatch`` with a Droggn id
builds a :class:`DroggnBatch`, which differs only in that kernel.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from stich.bots.spec import build_bot, parse_bot_spec
from stich.bots.tarock_family.kernel import TrickPosition, TrickRules, kernel_arrays
from stich.bots.tarock_rollout import ADAPTERS
from stich.cards import Card
from stich.core.game import State
from stich.errors import IllegalActionError
from stich.rl.batched import NotSupportedError, require_numba
from stich.rl.batched.engine_rows import EngineFields
from stich.rl.deals import DEFAULT_DEALER, Dealer, DealStream, check_dealer, reseed
from stich.rl.encoding import Encoding, fill
from stich.rl.ids import game_for
from stich.rl.slices import Ones, Values

require_numba()

from stich.kernels.tarock_core import NO_KEY, NO_SUIT  # noqa: E402  (numba checked above)
from stich.rl.batched import droggn_kernel as D  # noqa: E402
from stich.rl.batched import tarock_kernel as K  # noqa: E402

GAMES = ("tapp_tarock", "dobbm", "dappen", "droggn")
END_SLICES = {
    "tapp_tarock": ("end_discards", "end_talon_lower", "end_talon_upper"),
    "dobbm": ("laid_away", "laid_away_points"),
    "droggn": ("stopped",),
    "dappen": ("talon",),
}
"""Per game the slices the end of a deal changes after its last card, besides ``phase`` and ``to_move``: reveals read
from the public facts, the same in every seat's tensor (so a finished deal's tensors are the kernel's with these
slices taken from seat 0's final tensor, :meth:`TarockBatch.observe`)."""
LEARNER = "learner"
"""``bidding=LEARNER``: no bot bids; the learner steps every phase of the deal (bidding, talon, discards included)."""


class TarockBatch:
    """``num_envs`` Tarock-family deals in card play, stepped together (see the module docstring)."""

    def __new__(cls, num_envs: int, env_id: str = "stich/dobbm-pagat-v1", **_options: object) -> TarockBatch:
        """A Droggn id builds the :class:`~stich.rl.batched.droggn.DroggnBatch` (its own kernel), every other id this class."""
        if cls is TarockBatch and game_for(env_id).name == "droggn":
            return super().__new__(DroggnBatch)
        return super().__new__(cls)

    def __init__(
        self,
        num_envs: int,
        env_id: str = "stich/dobbm-pagat-v1",
        *,
        bidding: str = "random",
        reward_scale: float = 1.0,
        dealer: Dealer = DEFAULT_DEALER,
    ) -> None:
        game = game_for(env_id)
        if game.name not in GAMES:
            raise NotSupportedError(f"{env_id}: TarockBatch plays the card play of {', '.join(GAMES)}")
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        if reward_scale <= 0:
            raise ValueError(f"reward_scale must be positive, not {reward_scale}")
        dealer = check_dealer(dealer, game.num_seats)
        self.game = game
        self.num_envs = num_envs
        self.num_players = game.num_seats
        self.reward_scale = reward_scale
        self.dealer = dealer
        self.learner_bids = bidding == LEARNER
        """Whether the learner steps the phases before card play (``bidding="learner"``) rather than a bot."""
        self.bidding = None if self.learner_bids else parse_bot_spec(bidding)
        self.encoding = Encoding(game)
        self.observation_size = self.encoding.size
        self.num_actions = len(game.actions)
        self._setup_cards()
        n = num_envs
        self._base = np.zeros((n, game.num_seats, self.observation_size), dtype=np.float32)
        self._streams = [DealStream(game.num_seats, dealer) for _ in range(n)]
        self._deals: list[State | None] = [None] * n
        self._loaded: list[State | None] = [None] * n
        self.preludes: list[list[int]] = [[] for _ in range(n)]
        """Per deal: the action codes played through the engine before the hand-over."""
        self.deal_seeds = np.zeros(n, dtype=np.int64)
        self.dealers = np.zeros(n, dtype=np.int64)
        self.skipped = 0
        """Deals that ended before card play (not handed to the learner)."""
        self.current_player = np.full(n, -1, dtype=np.int64)
        self.observation = np.zeros((n, self.observation_size), dtype=np.float32)
        self.legal_action_mask = np.zeros((n, self.num_actions), dtype=np.int8)
        self.rewards = np.zeros((n, game.num_seats), dtype=np.float32)
        self.terminated = np.ones(n, dtype=bool)
        self._ended = np.zeros(n, dtype=bool)
        self._played_out = np.zeros(n, dtype=bool)
        """Finished deals that ended in card play (their final tensors are the kernel's, see :meth:`observe`)."""
        names = ("phase", "to_move", *END_SLICES[game.name])
        self._end_slices = [(info.start, info.stop) for info, _part in self.encoding.parts if info.name in names]
        self._end_writers = [(info.start, info.stop, part.write) for info, part in self.encoding.parts if info.name in names]
        """The slices the end of a deal played out changes (:meth:`_finish`, :meth:`observe`)."""
        self._in_engine = np.zeros(n, dtype=bool)
        """Deals still before their first card, stepped in the engine (``bidding="learner"`` only)."""
        self._engine = EngineFields(
            self.encoding, reward_scale, self.observation, self.legal_action_mask, self.current_player, self.rewards, self.terminated
        )
        self._dealt = False
        self._single = np.zeros(1, dtype=np.int64)
        self._live_single = np.ones(1, dtype=bool)
        """The live deals of :meth:`step_single`: its one deal (a finished one is refused before the kernel)."""
        self._setup_kernel()

    def _setup_cards(self) -> None:
        """The card <-> action code tables and each card's flag in the card slices (every kernel's)."""
        game, layout = self.game, self.encoding.layout
        size = game.deck.n_faces * game.deck.copies
        self._cards = [game.deck.cards(1 << i)[0] if i in game.deck.physical else None for i in range(size)]
        self._code_card = np.full(self.num_actions, -1, dtype=np.int64)
        self._card_code = np.full(max(size, K.MAX_CARDS), -1, dtype=np.int64)
        self._flag = np.full(max(size, K.MAX_CARDS), -1, dtype=np.int64)
        by_text = game.actions.by_text
        for index, card in enumerate(self._cards):
            if card is None:
                continue
            code = by_text[f"play {card.text}"].code
            self._code_card[code] = index
            self._card_code[index] = code
            self._flag[index] = layout.text_index[card.text]
        self._n_cards = len(layout.cards) * layout.copies
        self._hand_scale = float(max(1, game.deck.size // 3))

    def _dynamic_offsets(self, names: Sequence[str]) -> npt.NDArray[np.int64]:
        """(start, stop) in the tensor of each slice named (0, 0 for a slice the game lacks)."""
        infos = {info.name: (info.start, info.stop) for info in self.encoding.slices()}
        return np.array([infos.get(name, (0, 0)) for name in names], dtype=np.int64)

    def _setup_kernel(self) -> None:
        """The tarock kernel's tables and state rows (Droggn's batch sets up its own kernel instead)."""
        game = self.game
        self.adapter = ADAPTERS[game.name](game) if game.name in ADAPTERS else None
        self._rules: TrickRules | None = None
        self._gstiess = -1
        self._first = np.zeros(8, dtype=np.int64)
        if game.name == "dappen" and game.options.first_three_tricks:
            from stich.games.dappen import pack as dappen_pack
            from stich.games.dappen.state import FIXED_TRICK_CARDS

            self._first[:] = (
                1,
                *FIXED_TRICK_CARDS,
                dappen_pack.ONE_POINT_TRUMPS,
                dappen_pack.TRUMPS,
                dappen_pack.EMPTY_SUIT_CARDS,
                dappen_pack.SUIT_CARDS,
            )
        if game.name == "dappen" and game.options.gstiesieren:
            from stich.games.dappen.pack import GSTIESS

            self._gstiess = GSTIESS
        single = [game.trick_points([c]) for c in self._cards if c is not None]
        self._mode = K.THIRDS if any(p is None for p in single) else K.SUM
        self._pts = np.zeros(K.MAX_CARDS, dtype=np.int64)
        for index, card in enumerate(self._cards):
            if card is not None:
                self._pts[index] = self._points_of(card)
        self._off = self._dynamic_offsets(K.DYNAMIC)
        self._points_scale = float(self.encoding._points_scale())
        self._state = np.zeros((self.num_envs, K.WIDTH), dtype=np.int64)
        self._ctx: npt.NDArray[np.int64] | None = None

    def _points_of(self, card: Card) -> int:
        """A card's points as the game counts them (Tapp Tarock: its face value, counted in threes by the kernel)."""
        if self._mode == K.SUM:
            return int(self.game.trick_points([card]) or 0)
        from stich.games.tapp_tarock.pack import card_points

        return int(card_points(card))

    # ---------------------------------------------------------------- deals
    def reset(self, seed: int | Sequence[int] | None = None) -> None:
        """Deal every deal anew and play it to its first card; ``seed`` reseeds the streams.

        An int ``s`` gives deal ``i`` the stream ``spawn_seed(s, i)``, a sequence one seed per deal as given.
        """
        if seed is not None:
            reseed(self._streams, seed)
        for b in range(self.num_envs):
            self._deal(b)

    def reset_done(self) -> npt.NDArray[np.int64]:
        """Deal the finished deals anew from their streams; returns their indices."""
        done = np.flatnonzero(self.terminated).astype(np.int64)
        for b in done:
            self._deal(int(b))
        return done

    def reset_rows(self, rows: npt.ArrayLike) -> None:
        """Deal the deals ``rows`` anew from their streams, finished or not (the vector env's autoreset)."""
        for b in np.asarray(rows, dtype=np.int64).reshape(-1):
            self._deal(int(b))

    def _deal(self, b: int) -> None:
        """Deal ``b``'s next deal, play it through the engine to its first card, and hand it to the kernel.

        With the learner bidding the deal stops at its first decision instead, in the engine (:meth:`_engine_step`).
        """
        game, stream = self.game, self._streams[b]
        rng = stream.rng
        if self.bidding is None:
            self.deal_given(b, *stream.next_deal())
            return
        while True:
            deal_seed, dealer = stream.next_deal()
            state = game.new_state(seed=deal_seed, dealer=dealer)
            bots = {s: build_bot(self.bidding, game, s, rng.getrandbits(63)) for s in range(game.num_seats)}
            prelude: list[int] = []
            while not state.is_terminal() and state.phase_name != "play":  # type: ignore[attr-defined]
                seat = state.current_player()
                code = bots[seat].choose(state.observation(seat)).code
                state.apply(code)
                prelude.append(code)
            if not state.is_terminal():
                break
            self.skipped += 1
        self.preludes[b] = prelude
        self.deal_seeds[b] = deal_seed
        self.dealers[b] = dealer
        self._loaded[b] = None
        self._start(b, state)

    def deal_given(self, b: int, deal_seed: int, dealer: int) -> None:
        """Deal ``b`` anew with this engine seed and dealer, the learner bidding: it waits at its first decision.

        For a caller that keeps its own deal stream (:class:`stich.rl.kernel_table.TarockKernelTable`, the single
        env); the batch's stream is not drawn from.
        """
        if self.bidding is not None:
            raise ValueError("deal_given needs a batch with the learner bidding (bidding='learner')")
        state = self.game.new_state(seed=deal_seed, dealer=dealer)
        self.preludes[b] = []
        self.deal_seeds[b] = deal_seed
        self.dealers[b] = dealer
        self._loaded[b] = None
        self._deals[b] = state
        self.rewards[b] = 0.0
        self._dealt = True
        self._engine_position(b, state)

    def load(self, b: int, state: State) -> None:
        """Give deal ``b`` a position of one's own: ``state`` (of this batch's game) at the first card of its card play.

        For a constructed deal (``game.new_state(hands=...)`` with its bidding applied), a curriculum or a test of
        a rare case; ``state`` itself is not changed (the batch keeps a copy), :meth:`handed_over` returns a copy
        of it, and :meth:`reset_done` deals the deal's stream on as before.
        """
        if not 0 <= b < self.num_envs:
            raise ValueError(f"deal index must lie in 0..{self.num_envs - 1}, not {b}")
        if state.game.canonical != self.game.canonical:
            raise ValueError(f"a state of {state.game.canonical} cannot be loaded into a batch of {self.game.canonical}")
        if state.is_terminal() or state.phase_name != "play":  # type: ignore[attr-defined]
            raise ValueError("load needs a state at the start of its card play (phase 'play', no card played)")
        self.preludes[b] = []
        self.deal_seeds[b] = -1
        self.dealers[b] = -1
        self._loaded[b] = state.clone()
        self._start(b, state.clone())

    def _engine_position(self, b: int, state: State) -> None:
        """Deal ``b`` is at ``state`` in the engine: hand it to the kernel at its first card, else write its row from the engine."""
        if not state.is_terminal() and state.phase_name == "play":  # type: ignore[attr-defined]
            self._in_engine[b] = False
            self._start(b, state)
            return
        self._in_engine[b] = not state.is_terminal()
        self._played_out[b] = False
        self._engine.write(b, state)

    def _start(self, b: int, state: State) -> None:
        """Make ``state`` (at its first card) deal ``b``: the hand-over tensors, then the kernel's row."""
        self._in_engine[b] = False
        self._played_out[b] = False
        self._deals[b] = state
        for s in range(self.num_players):
            self._base[b, s] = self.encoding.tensor(state.observation(s))
        self.terminated[b] = False
        self.rewards[b] = 0.0
        self._dealt = True
        self._hand_over(b, state)

    def _hand_over(self, b: int, state: State) -> None:
        """Load deal ``b``'s row from ``state`` (at its first card) and write its fields."""
        pos = self._position(state)
        arrays = kernel_arrays(pos)
        self._ctx = arrays.ctx
        row = self._state[b]
        row[:] = 0
        row[K.KSEAT : K.KSEAT + K.MAX_SEATS] = -1
        for k, seat in enumerate(pos.seats):
            row[K.SEATS + k] = seat
            row[K.KSEAT + seat] = k
            row[K.HANDS + k] = pos.hands[k]
        row[K.M] = len(pos.seats)
        row[K.LEADER] = pos.leader
        row[K.TO_MOVE] = pos.seats[pos.leader]
        row[K.N_TRICKS] = pos.tricks_left
        row[K.LED] = NO_SUIT
        row[K.BEST_KEY] = NO_KEY
        row[K.LONE] = getattr(state, "lone", None) if getattr(state, "lone", None) is not None else -1
        row[K.ULTI] = getattr(state, "ulti_mask", 0)
        row[K.GSTIESS] = self._gstiess
        row[K.KEPT] = -1
        row[K.FIRST : K.FIRST + 8] = self._first
        if pos.trick:
            raise NotSupportedError("the hand-over found a trick begun: cards are played only in the batch")
        K.refresh(
            self._state,
            b,
            self._card_code,
            self._ctx,
            self._base,
            *self._encode_args(),
            self.observation,
            self.legal_action_mask,
            self.current_player,
        )

    def _position(self, state: State) -> TrickPosition:
        """The card play of ``state`` at the hand-over in kernel seats (the active seats in playing order)."""
        if self.adapter is not None:
            return self.adapter.position(state)
        from stich.games.dappen.pack import ORDER

        if self._rules is None:
            self._rules = TrickRules.of(ORDER, tuple(int(p) for p in self._pts[: len(ORDER.eff)]))
        seats = tuple(state.active)  # type: ignore[attr-defined]
        return TrickPosition(
            rules=self._rules,
            seats=seats,
            side=1 << seats.index(state.lone),  # type: ignore[attr-defined]
            hands=tuple(state.hands[s] for s in seats),  # type: ignore[attr-defined]
            trick=(),
            leader=seats.index(state.current_player()),
            tricks_left=state.n_tricks - len(state.tricks),  # type: ignore[attr-defined]
        )

    def _encode_args(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int, int, float, float]:
        return (self._off, self._flag, self.num_players, self._n_cards, self._hand_scale, self._points_scale)

    # ----------------------------------------------------------------- step
    def step(self, actions: npt.ArrayLike) -> None:
        """Play one action code per deal (ignored for finished deals); the fields then describe the new states.

        A card in card play; with the learner bidding, any action of the phase a deal is in.  Every action is checked
        before any deal changes: an illegal one raises :class:`IllegalActionError` naming its deal.
        """
        codes = np.asarray(actions, dtype=np.int64).reshape(-1)
        if codes.shape != (self.num_envs,):
            raise ValueError(f"step needs {self.num_envs} actions, got shape {np.shape(actions)}")
        if not self._dealt:
            raise RuntimeError("no deals yet: call reset() first")
        in_engine = np.flatnonzero(self._in_engine & ~self.terminated)
        self._engine.check(codes, in_engine, self.num_actions)
        live = ~self.terminated & ~self._in_engine
        self._ended[:] = False
        bad = self._kernel_step(codes, live) if live.any() else -1  # no deal in card play: the kernel has no tables yet
        if bad >= 0:
            code = int(codes[bad])
            text = self.game.actions.actions[code].text if 0 <= code < self.num_actions else str(code)
            raise IllegalActionError(f"deal {bad}: {text!r} is not legal for seat {self.current_player[bad]} now", "batched env")
        self.rewards[:] = 0.0
        for b in np.flatnonzero(self._ended):
            self._finish(int(b))
        for b in in_engine:
            self._engine_step(int(b), int(codes[b]))

    def step_single(self, code: int) -> None:
        """Deal 0 of a batch of one plays ``code``, which the caller has found in its mask: the single env's step.

        :meth:`step` without its work for many deals (the array of actions, the masks of the rows in the engine and
        in card play, the check of every row), which is most of a card's cost when there is one deal
        (:class:`stich.rl.kernel_table.TarockKernelTable`).
        """
        if self.num_envs != 1 or self.terminated[0]:
            raise RuntimeError("step_single steps the one live deal of a batch of one")
        if self._in_engine[0]:
            if not (0 <= code < self.num_actions and self.legal_action_mask[0, code]):  # the engine's legal actions
                raise IllegalActionError(f"{code} is not legal for seat {self.current_player[0]} now", "batched env")
            self._engine_step(0, code)
            return
        self._single[0] = code
        self._ended[0] = False
        if self._kernel_step(self._single, self._live_single) >= 0:
            raise IllegalActionError(f"{code} is not legal for seat {self.current_player[0]} now", "batched env")
        if self._ended[0]:
            self._finish(0)

    def finished_state(self, b: int) -> State:
        """Deal ``b``'s engine state once it is over (the batch's own: read it, do not change it); it scored the deal."""
        state = self._deals[b]
        if not self.terminated[b] or state is None or not state.is_terminal():
            raise ValueError(f"deal {b} is not finished")
        return state

    def _engine_step(self, b: int, code: int) -> None:
        """Apply ``code`` to deal ``b``'s engine state before its card play.

        The code was checked against the row's mask, which is the engine's legal actions of this state
        (:class:`EngineFields`), so it goes to the state's transition without the engine's check again.
        """
        state = self._deals[b]
        assert state is not None
        state._apply_code(code)
        self.preludes[b].append(code)
        self._engine_position(b, state)

    def _kernel_step(self, codes: npt.NDArray[np.int64], live: npt.NDArray[np.bool_]) -> int:
        """One card per live deal in the kernel; the first illegal deal's index (nothing changed then) or -1."""
        return int(
            K.step(
                self._state,
                codes,
                live,
                self._code_card,
                self._card_code,
                self._ctx,
                self._pts,
                self._mode,
                self._base,
                *self._encode_args(),
                self.observation,
                self.legal_action_mask,
                self.current_player,
                self._ended,
            )
        )

    def _played_cards(self, b: int) -> npt.NDArray[np.int64]:
        """Deal ``b``'s cards in the order played (physical indices)."""
        played = int(self._state[b, K.N_PLAYED])
        cards: npt.NDArray[np.int64] = self._state[b, K.CARDS : K.CARDS + played]
        return cards

    def _encode(self, b: int, seat: int, out: npt.NDArray[np.float32]) -> None:
        """``seat``'s tensor of live deal ``b`` into ``out``."""
        K.encode(self._state, b, seat, self._base[b, seat], *self._encode_args(), out)

    def _finish(self, b: int) -> None:
        """Replay deal ``b``'s cards into its reference state: the engine scores it and gives the end's public slices.

        The cards are the kernel's, each checked legal when it was played, so they go to the state's transition
        (``_apply_code``) without the engine's check again (as the rollouts replay theirs).  Seat 0's final
        tensor is the kernel's after the last card with the slices the end changes (:data:`END_SLICES`, the phase,
        the player to move) written from seat 0's final observation (decision 0072): the rest of the engine's
        tensor is the kernel's (decision 0069, 3).
        """
        state = self._deals[b]
        assert state is not None
        apply = state._apply_code
        for code in self._card_code[self._played_cards(b)].tolist():
            apply(code)
        if not state.is_terminal():
            raise RuntimeError(f"deal {b}: the engine's deal is not over after the batch's last card")
        row = self.observation[b]
        self._encode(b, 0, row)
        obs = state.observation(0)
        ones: Ones = []
        values: Values = {}
        for start, stop, write in self._end_writers:
            row[start:stop] = 0.0
            write(obs, start, ones, values)
        fill(row, ones, values)
        self._engine.end(b, state, tensor=False)
        self._played_out[b] = True

    # ------------------------------------------------------------- reading
    def observe(self, seats: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """The observation tensor of ``seats[b]`` in each deal ``b`` (any seat, to move or not).

        Before the first card the engine encoding's; in card play the kernel's; once a deal has ended in card play,
        the kernel's after the last card with the slices the end changes (:data:`END_SLICES`, the phase and the player
        to move: the same for every seat) from seat 0's final observation (seat 0's row, written at the end, see
        :meth:`_finish`).  A deal that ended before card play: the engine encoding's.
        """
        who = np.broadcast_to(np.asarray(seats, dtype=np.int64), (self.num_envs,))
        out = np.empty((self.num_envs, self.observation_size), dtype=np.float32)
        for b in range(self.num_envs):
            seat = int(who[b])
            if not 0 <= seat < self.num_players:
                raise ValueError(f"seats must lie in 0..{self.num_players - 1}")
            if self._played_out[b] and self.terminated[b]:
                self._final(b, seat, out[b])
            elif self.terminated[b] or self._in_engine[b]:
                state = self._deals[b]
                assert state is not None
                out[b] = self.encoding.tensor(state.observation(seat))
            else:
                self._encode(b, seat, out[b])
        return out

    def _final(self, b: int, seat: int, out: npt.NDArray[np.float32]) -> None:
        """``seat``'s final tensor of deal ``b``, which ended in card play (see :meth:`observe`)."""
        final = self.observation[b]  # seat 0's final tensor (_finish)
        if seat == 0:
            out[:] = final
            return
        self._encode(b, seat, out)
        for start, stop in self._end_slices:
            out[start:stop] = final[start:stop]

    def handed_over(self, b: int) -> State:
        """A fresh reference state of deal ``b`` at its hand-over (the deal seed, dealer and prelude replayed; a copy of a loaded one).

        With the learner bidding the prelude is what the learner played so far: right after a (re)deal the state is
        the fresh deal, at its first decision.
        """
        loaded = self._loaded[b]
        if loaded is not None:
            return loaded.clone()
        state = self.game.new_state(seed=int(self.deal_seeds[b]), dealer=int(self.dealers[b]))
        for code in self.preludes[b]:
            state.apply(code)
        return state

    def memory_bytes(self) -> int:
        """Bytes of the batch's arrays (the hand-over tensors of every seat included)."""
        arrays = (
            *self._kernel_arrays(),
            self._base,
            self.current_player,
            self.observation,
            self.legal_action_mask,
            self.rewards,
            self.terminated,
        )
        return sum(a.nbytes for a in arrays)

    def _kernel_arrays(self) -> tuple[npt.NDArray[np.generic], ...]:
        """The kernel's per-deal arrays (for :meth:`memory_bytes`)."""
        return (self._state,)


class DroggnBatch(TarockBatch):
    """``num_envs`` Droggn deals in card play, stepped together: :class:`TarockBatch` with Droggn's kernel.

    ``TarockBatch(n, "stich/droggn-stubai-v1")`` builds one (every Droggn preset and table size).  Everything
    but the kernel is :class:`TarockBatch`'s; :mod:`stich.rl.batched.droggn_kernel` holds the hands as a flag
    per card (the 66 or 78 cards do not fit one int64 mask) and knows the laid-out Pagat and Gstieß and the
    Super Mord's end at the first lost trick.
    """

    def _setup_kernel(self) -> None:
        from stich.games.droggn.pack import GSTIESS, PAGAT, play_order

        if (PAGAT, GSTIESS) != (D.PAGAT, D.GSTIESS) or self.game.deck.n_faces != D.N_FACES:
            raise NotSupportedError("the Droggn kernel's card indices do not match the engine's pack")
        order = play_order(self.game.options.pack_size)
        self._eff = np.asarray(order.eff, dtype=np.int64)
        self._strength = np.asarray(order.strength, dtype=np.int64)
        self._off = self._dynamic_offsets(D.DYNAMIC)
        n = self.num_envs
        self._state = np.zeros((n, D.WIDTH), dtype=np.int64)
        self._hands = np.zeros((n, D.MAX_SEATS, D.N_FACES), dtype=np.uint8)
        self._played = np.zeros((n, D.MAX_SEATS, D.N_FACES), dtype=np.uint8)

    def _hand_over(self, b: int, state: State) -> None:
        """Load deal ``b``'s row and hands from the engine's state at its first card."""
        s = state
        if s.trick_cards or s.tricks:  # type: ignore[attr-defined]
            raise NotSupportedError("the hand-over found a card played: cards are played only in the batch")
        row = self._state[b]
        row[:] = 0
        row[D.TO_MOVE] = s.current_player()
        row[D.LEADER] = s.current_player()
        row[D.N_TRICKS] = s.n_tricks  # type: ignore[attr-defined]
        row[D.DECLARER] = s.declarer  # type: ignore[attr-defined]
        row[D.MORD] = int(s.contract.mord)  # type: ignore[attr-defined]
        row[D.LAID] = s.laid_out  # type: ignore[attr-defined]
        row[D.LAID_BY] = s.laid_out_by  # type: ignore[attr-defined]
        row[D.G_LAST] = int(self.game.options.gstiess_last_trick_illegal)
        row[D.G_TO] = -1
        self._hands[b] = 0
        self._played[b] = 0
        for seat in range(self.num_players):
            row[D.SUCC + seat] = s.successor[seat]  # type: ignore[attr-defined]
            hand = s.hands[seat]  # type: ignore[attr-defined]
            row[D.HAND_SIZE + seat] = hand.bit_count()
            for card in range(D.N_FACES):
                if hand >> card & 1:
                    self._hands[b, seat, card] = 1
        D.refresh(
            self._state,
            self._hands,
            self._played,
            b,
            self._card_code,
            self._eff,
            self._base,
            self._off,
            self._flag,
            self.num_players,
            self._n_cards,
            self._hand_scale,
            self.observation,
            self.legal_action_mask,
            self.current_player,
        )

    def _kernel_step(self, codes: npt.NDArray[np.int64], live: npt.NDArray[np.bool_]) -> int:
        return int(
            D.step(
                self._state,
                self._hands,
                self._played,
                codes,
                live,
                self._code_card,
                self._card_code,
                self._eff,
                self._strength,
                self._base,
                self._off,
                self._flag,
                self.num_players,
                self._n_cards,
                self._hand_scale,
                self.observation,
                self.legal_action_mask,
                self.current_player,
                self._ended,
            )
        )

    def _played_cards(self, b: int) -> npt.NDArray[np.int64]:
        played = int(self._state[b, D.N_PLAYED])
        cards: npt.NDArray[np.int64] = self._state[b, D.CARDS : D.CARDS + played]
        return cards

    def _encode(self, b: int, seat: int, out: npt.NDArray[np.float32]) -> None:
        D.encode(
            self._state,
            self._hands,
            self._played,
            b,
            seat,
            self._base[b, seat],
            self._off,
            self._flag,
            self.num_players,
            self._n_cards,
            self._hand_scale,
            out,
        )

    def _kernel_arrays(self) -> tuple[npt.NDArray[np.generic], ...]:
        return (self._state, self._hands, self._played)
