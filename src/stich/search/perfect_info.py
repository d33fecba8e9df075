"""Evaluating one fully known world: teams, exact endgame search and heuristic rollouts.

A determinized search bot (``pimc``) draws worlds, full states consistent with
its observation, and asks of each: "what is action *a* worth here if every
card were known?"  This module answers with the engine itself (``clone`` and
``apply``), so it works for every game:

* :func:`teams` says who plays with whom in a perfect-information state, read
  from the game state's own public attributes (Doppelkopf's parties, the
  declarer or lone player of the Tarock family); the search treats the game as a
  two-sided one: the mover of the evaluating seat's team maximises, every
  other mover minimises (paranoid where several opponents play alone);
* :class:`AlphaBeta` searches the trick play of the last few tricks exactly:
  fail-soft alpha-beta over the ``play`` actions of the engine (other actions,
  such as Doppelkopf announcements, are not searched), leaves valued by
  :func:`final_score` (the seat's score from ``state.result()``) or any other
  leaf function, with history-heuristic move ordering and Doppelkopf's twin
  faces merged (the engine's play actions are faces already); :func:`minimax`
  is the slow, obviously correct check;
* :class:`WorldEvaluator` values actions in a world: a trick-play decision
  with few tricks left is searched exactly (Doppelkopf with known parties by
  the exact solver the bot hands in, the compiled kernel's
  :class:`~stich.bots.doppelkopf.kernel.KernelSolver`; every other case by
  :class:`AlphaBeta`); otherwise each action is played and the world rolled
  out by the policies the bot hands in (the games' heuristic bots), each
  from its own observation of the world (Doppelkopf rollouts hand over to
  that solver for the last tricks).

Doppelkopf play decisions are valued in *eyes* (the seat's party's final
eyes plus :data:`THRESHOLD_BONUS` per game point won or lost at the 120/90/60/30
lines, see :func:`doppelkopf_eye_value`), because the kernel maximises eyes;
everything else is valued by the seat's final score.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Protocol

from stich.core.game import Game, State
from stich.games.dappen.state import DappenState
from stich.games.dobbm.state import DobbmState
from stich.games.doppelkopf.state import DoppelkopfState
from stich.games.droggn.state import DroggnState
from stich.games.tapp_tarock.state import TappTarockState
from stich.search.policy import Policy
from stich.search.scores import score_value

Leaf = Callable[[State, int], float]
"""Value of a finished (terminal) state for a seat."""


class EyeSolver(Protocol):
    """An exact Doppelkopf card-play solver for one position (the compiled kernel's ``KernelSolver``)."""

    @property
    def nodes(self) -> int:
        """Positions searched so far."""
        ...

    def solve(self) -> dict[int, int]:
        """Re's final eyes after each legal card of the player to move, with best play afterwards."""
        ...

    def value(self) -> int:
        """Re's final eyes with best play by both parties."""
        ...


THRESHOLD_BONUS = 30.0
"""Eyes one Doppelkopf game point is worth in :func:`doppelkopf_eye_value` (win, keine 90/60/30)."""

TOTAL_EYES = 240
"""Eyes in a Doppelkopf pack (with or without nines)."""


# ------------------------------------------------------------------ basics


@functools.lru_cache(maxsize=64)
def play_flags(game: Game) -> tuple[bool, ...]:
    """Per action code of ``game``: whether it is a ``play`` (card) action."""
    return tuple(action.kind == "play" for action in game.actions.actions)


def play_codes(state: State) -> list[int]:
    """The legal ``play`` (card) actions of ``state``, ascending; other actions (announcements...) left out."""
    flags = play_flags(state.game)
    return [code for code in state.legal_codes() if flags[code]]


def in_trick_play(state: State) -> bool:
    """Whether ``state`` is in its trick-play phase (every game of stich names it ``play``)."""
    return getattr(state, "phase_name", None) == "play"


def tricks_left(state: State) -> int:
    """Tricks still to be completed, the current one included: the largest hand of any seat.

    (A seat that has played to the current trick holds one card fewer than
    one that has not, so the largest hand counts the current trick.)
    """
    return max(state.hand_mask(seat).bit_count() for seat in range(state.game.num_seats))


def teams(state: State) -> tuple[int, ...]:
    """Team label per seat of a perfect-information state; seats with equal labels play together.

    Doppelkopf: the party (0 Re, 1 Kontra) as the state holds it now (during
    an unclarified wedding the Hochzeiter alone is Re until the clarification
    trick), -1 for an idle dealer.  Tapp Tarock, Dobbm, Droggn: 0 for the
    declarer, 1 for the defenders.  Dappen: 0 for the lone player, 1 for the
    others.  Before a declarer exists (bidding) every seat is its own team.
    Read from the states' public attributes (``party`` and ``active``,
    ``lone``, ``declarer``): a game added to stich adds its case here.  The
    cases test the exact type (no game state is subclassed): ``isinstance``
    on the states, whose base is an ``ABC``, costs about 0.2 µs a test, and
    the search asks at every node.
    """
    n = state.game.num_seats
    if type(state) is DoppelkopfState:
        party, active = state.party, state.active
        return tuple(party[seat] if seat in active else -1 for seat in range(n))
    lone: int | None = None  # a game without a declarer (none of stich's): every seat alone
    if type(state) is DappenState:
        lone = state.lone
    elif type(state) is TappTarockState or type(state) is DobbmState or type(state) is DroggnState:
        lone = state.declarer  # Droggn's is -1 until the bidding is settled, the others' None
    if lone is None or not 0 <= lone < n:
        return tuple(range(n))
    return tuple(0 if seat == lone else 1 for seat in range(n))


def final_score(state: State, seat: int) -> float:
    """The seat's score change of a finished deal (``state.result().scores[seat]``)."""
    return score_value(state.result().scores[seat])


def doppelkopf_eye_value(re_eyes: int, seat_is_re: bool) -> float:
    """A Doppelkopf play value from Re's final eyes: the seat's party's eyes plus the game points at stake.

    The party wins with 121 eyes (Re) or 120 (Kontra); the winner earns a
    point more for each of "keine 90", "keine 60", "keine 30" of the losers.
    Each such point is worth :data:`THRESHOLD_BONUS` eyes, so a search that
    maximises this value prefers crossing a line to a few eyes more (which is
    what the score rewards), while the eyes still separate otherwise equal
    lines.  Announcements are not taken into account.
    """
    mine = re_eyes if seat_is_re else TOTAL_EYES - re_eyes
    theirs = TOTAL_EYES - mine
    if mine >= (121 if seat_is_re else 120):
        points = 1 + (theirs < 90) + (theirs < 60) + (theirs < 30)
    else:
        points = -(1 + (mine < 90) + (mine < 60) + (mine < 30))
    return mine + THRESHOLD_BONUS * points


def doppelkopf_leaf(state: State, seat: int) -> float:
    """:func:`doppelkopf_eye_value` of a finished Doppelkopf deal for ``seat`` (a thrown-in deal is worth 0)."""
    result = state.result()
    eyes = result.breakdown.get("eyes")
    if result.thrown_in or not isinstance(eyes, dict):
        return 0.0
    return doppelkopf_eye_value(int(eyes["re"]), seat in result.breakdown.get("re", ()))


# ------------------------------------------------------------------ exact search


class AlphaBeta:
    """Exact search of the remaining trick play through the engine, for the team of ``seat``.

    Every node is an engine state; a child is ``clone()`` plus ``apply()`` of
    one legal ``play`` action.  At each node the teams are read afresh with
    :func:`teams` (a Doppelkopf wedding may be clarified on the way); the
    mover maximises when on ``seat``'s team, else minimises.  Leaves are
    terminal states valued by ``leaf(state, seat)``.  Move ordering: the move
    that caused the most cut-offs so far (history heuristic) first.

    Exponential in the tricks left: meant for the last three to five tricks.
    """

    def __init__(self, seat: int, leaf: Leaf = final_score) -> None:
        self.seat = seat
        self.leaf = leaf
        self.nodes = 0
        self.history: dict[tuple[int, int], int] = {}

    def _maximising(self, state: State) -> bool:
        side = teams(state)
        return side[state.current_player()] == side[self.seat]

    def _ordered(self, state: State, codes: list[int]) -> list[int]:
        if len(codes) < 2:
            return codes
        mover = state.current_player()
        history = self.history
        return sorted(codes, key=lambda code: -history.get((mover, code), 0))

    def search(self, state: State, alpha: float, beta: float) -> float:
        """Fail-soft alpha-beta value of ``state`` in the window ``(alpha, beta)``."""
        self.nodes += 1
        if state.is_terminal():
            return self.leaf(state, self.seat)
        codes = play_codes(state)
        if not codes:  # pragma: no cover - the play phase always offers a card
            raise ValueError(f"no card to play in phase {getattr(state, 'phase_name', '?')}")
        maximising = self._maximising(state)
        depth = tricks_left(state)
        best = -float("inf") if maximising else float("inf")
        for code in self._ordered(state, codes):
            child = state.clone()
            child.apply(code)
            value = self.search(child, alpha, beta)
            if maximising:
                if value > best:
                    best = value
                if best > alpha:
                    alpha = best
            else:
                if value < best:
                    best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                key = (state.current_player(), code)
                self.history[key] = self.history.get(key, 0) + depth * depth
                break
        return best

    def value(self, state: State) -> float:
        """The exact value of ``state`` for :attr:`seat` with best play by both sides."""
        return self.search(state, -float("inf"), float("inf"))

    def solve(self, state: State, codes: Sequence[int] | None = None) -> dict[int, float]:
        """Exact value of every legal ``play`` action of ``state`` (or of ``codes``), each searched in a full window."""
        results: dict[int, float] = {}
        for code in codes if codes is not None else play_codes(state):
            child = state.clone()
            child.apply(code)
            results[code] = self.value(child)
        return results


def minimax(state: State, seat: int, leaf: Leaf = final_score) -> dict[int, float]:
    """Slow, obviously correct :meth:`AlphaBeta.solve`: every line of play, no pruning, no ordering.

    Exponential; keep it to two or three tricks.
    """

    def value(node: State) -> float:
        if node.is_terminal():
            return leaf(node, seat)
        side = teams(node)
        values = []
        for code in play_codes(node):
            child = node.clone()
            child.apply(code)
            values.append(value(child))
        return max(values) if side[node.current_player()] == side[seat] else min(values)

    results: dict[int, float] = {}
    for code in play_codes(state):
        child = state.clone()
        child.apply(code)
        results[code] = value(child)
    return results


# ------------------------------------------------------------------ worlds


EXACT_TRICKS: dict[str, int] = {"doppelkopf": 2, "tapp_tarock": 3, "dobbm": 3, "droggn": 3, "dappen": 2}
"""Tricks left from which a trick-play decision is searched exactly by :class:`AlphaBeta`, per game.

Chosen from measurements on one core (docs/search.md): solving every card of
a position costs a few milliseconds at these depths and up to some tens in
the worst case; one trick more costs ten times as much (Dappen's six seats and
Doppelkopf's four: two tricks).
"""

KERNEL_TRICKS = 5
"""Tricks left from which a Doppelkopf trick-play decision with known parties is solved by the compiled kernel."""

ROLLOUT_KERNEL_TRICKS = 4
"""Tricks left at which a Doppelkopf rollout stops and the kernel values the rest (cheaper than at the root)."""


class WorldEvaluator:
    """Values of actions in one fully known world for ``seat``.

    ``players`` holds one policy per seat for the rollouts (the games' heuristic
    bots), ``solver`` the exact Doppelkopf solver (the compiled kernel's,
    without which Doppelkopf is searched like the other games).  :meth:`play_values` values the cards of a trick-play decision:
    exactly when the world is within a search horizon (:data:`KERNEL_TRICKS`
    for Doppelkopf with known parties, :data:`EXACT_TRICKS` otherwise), else
    by playing each card and rolling out (Doppelkopf rollouts stop at
    :data:`ROLLOUT_KERNEL_TRICKS` and the kernel values the rest; the other
    games roll out to the end, since engine search costs more there than it
    gains).  Doppelkopf play values are in eyes (:func:`doppelkopf_eye_value`),
    the other games' in score.  :meth:`score_values` (any other decision)
    rolls out to the end of the deal and gives the seat's score.
    """

    def __init__(
        self,
        game: Game,
        seat: int,
        players: Sequence[Policy],
        *,
        exact_tricks: int | None = None,
        kernel_tricks: int = KERNEL_TRICKS,
        rollout_kernel_tricks: int = ROLLOUT_KERNEL_TRICKS,
        finish: Callable[[State], Sequence[int]] | None = None,
        solver: Callable[[State], EyeSolver] | None = None,
    ) -> None:
        self.game = game
        self.seat = seat
        self.players = list(players)
        self.doppelkopf = game.name == "doppelkopf"
        self.solver = solver if self.doppelkopf else None
        """The exact solver of a Doppelkopf position with known parties (the bot's compiled kernel); ``None``: none."""
        self.exact_tricks = EXACT_TRICKS.get(game.name, 2) if exact_tricks is None else exact_tricks
        self.kernel_tricks = kernel_tricks if self.solver is not None else 0
        self.rollout_kernel_tricks = rollout_kernel_tricks if self.solver is not None else 0
        self.play_leaf: Leaf = doppelkopf_leaf if self.doppelkopf else final_score
        self.nodes = 0
        self.finish = None if self.doppelkopf else finish
        """Every seat's final score of a state in trick play as the rollout bots would end it, computed at once
        (:class:`~stich.bots.tarock_rollout.HeuristicFinish`); ``None``: the bots step through the engine."""

    # -- rollouts
    def step(self, state: State) -> None:
        """One action in ``state`` by its mover's rollout bot (a forced action without asking)."""
        codes = state.legal_codes()
        if len(codes) == 1:
            state.apply(codes[0])
            return
        mover = state.current_player()
        state.apply(self.players[mover].choose(state.observation(mover)))

    def _kernel_ready(self, state: State, tricks: int) -> bool:
        """Whether the exact solver values ``state``: a solver, Doppelkopf's parties known, at most ``tricks`` left."""
        return self.solver is not None and type(state) is DoppelkopfState and state.clarified and tricks_left(state) <= tricks

    def search_ready(self, state: State) -> bool:
        """Whether the cards of trick-play ``state`` are valued by exact search (within a search horizon)."""
        if not in_trick_play(state):
            return False
        return self._kernel_ready(state, self.kernel_tricks) or tricks_left(state) <= self.exact_tricks

    def _kernel_value(self, state: State) -> float:
        assert self.solver is not None  # _kernel_ready said so
        solver = self.solver(state)
        re_eyes = solver.value()
        self.nodes += solver.nodes
        return doppelkopf_eye_value(re_eyes, teams(state)[self.seat] == 0)

    def play_value(self, state: State) -> float:
        """Value of ``state`` for a trick-play decision: roll out (to the kernel's horizon in Doppelkopf)."""
        while not state.is_terminal():
            if self.rollout_kernel_tricks and in_trick_play(state) and self._kernel_ready(state, self.rollout_kernel_tricks):
                return self._kernel_value(state)
            if self.finish is not None and in_trick_play(state):
                return score_value(self.finish(state)[self.seat])
            self.step(state)
        return self.play_leaf(state, self.seat)

    def score_value(self, state: State) -> float:
        """The seat's final score after rolling ``state`` out to the end."""
        while not state.is_terminal():
            if self.finish is not None and in_trick_play(state):
                return score_value(self.finish(state)[self.seat])
            self.step(state)
        return final_score(state, self.seat)

    def play_values(self, world: State, codes: Sequence[int]) -> list[float]:
        """Value of each ``play`` action ``codes`` in ``world`` (which is not changed)."""
        if self.search_ready(world) and all(play_flags(self.game)[code] for code in codes):
            if self._kernel_ready(world, self.kernel_tricks):
                assert self.solver is not None  # _kernel_ready said so
                solver = self.solver(world)
                solved = solver.solve()
                self.nodes += solver.nodes
                is_re = teams(world)[self.seat] == 0
                return [doppelkopf_eye_value(solved[code], is_re) for code in codes]
            search = AlphaBeta(self.seat, self.play_leaf)
            exact = search.solve(world, codes)
            self.nodes += search.nodes
            return [exact[code] for code in codes]
        values = []
        for code in codes:
            child = world.clone()
            child.apply(code)
            values.append(self.play_value(child))
        return values

    def score_values(self, world: State, codes: Sequence[int]) -> list[float]:
        """The seat's final score after each action ``codes`` in ``world`` (which is not changed)."""
        values = []
        for code in codes:
            child = world.clone()
            child.apply(code)
            values.append(self.score_value(child))
        return values
