"""Worlds that explain the other seats' calls: the call-reading sampler shared by the ``pimc`` and ``ismcts`` bots.

A world sampler deals the unseen cards uniformly among the deals that fit
the cards seen; it does not ask whether the other seats would have bid and
doubled as they did with the cards it gives them.  In Dobbm a defender then
values a Schwacher against a declarer holding a random hand, not the hand of
somebody who bid, and doubles far too often (measured: the ``pimc`` bot lost
to the heuristic by 0.99 points per deal before it read the calls, and beat
it by 1.27 after; docs/strength.md).  :class:`CallReadingSampler` keeps a
world only if the heuristic bots, dealt that world's cards, would have made
every call (every action but a card or a discard) the other seats made.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from stich.core.game import Game, State
from stich.errors import IllegalActionError, NotationError
from stich.search.policy import Policy
from stich.search.sampling import World, WorldSampler

INFER_GAMES = frozenset({"dobbm"})
"""Games whose worlds must explain the other seats' calls (see the module docstring and the ``pimc`` bot's "Reading the calls").

Dobbm only: its sampler ignores the bidding and doubling, and there the
mistake cost the most (measured, docs/search.md); the other games keep their
measured behaviour.
"""

INFER_ATTEMPTS = 40
"""Draws per world before the bot gives up looking for one that explains the calls and takes an unexplained one."""

UNVERIFIED_KINDS = frozenset({"play", "discard"})
"""Action kinds not checked against the heuristic: cards and discards are what a world draws, not what it must explain."""


class CallReadingSampler:
    """Worlds of ``sampler`` in which ``players`` (the heuristic bots) would have made the other seats' calls.

    Each proposal of the wrapped sampler is replayed from its deal; at every
    earlier action of a seat other than ``seat`` whose kind is not in
    :data:`UNVERIFIED_KINDS` and that had an alternative, that seat's bot is
    asked from its own observation of the world, and the world is kept only
    if every answer matches.  After ``attempts`` draws without such a world
    the first consistent but unexplained one is taken (a human or another bot
    may call differently from the heuristic); ``explained`` and ``drawn``
    count the outcome.

    A call that hardly any replay reaching it explains is not the
    heuristic's with the hands the worlds give (a ``pimc`` bid, a human's
    hunch): once a draw has fallen back for want of an explanation, a call
    that at least ``attempts / 2`` replays reached and fewer than one in
    ``attempts`` explained is no longer checked (:attr:`ignored`), and the
    later draws of the decision read the other calls only.  Before,
    every further world of that decision cost ``attempts`` replays and
    explained nothing: in Dobbm decisions after a call of the ``pimc`` bot,
    3-7 ms a world against about 1 ms (docs/search.md).
    """

    def __init__(self, sampler: WorldSampler, game: Game, seat: int, players: Sequence[Policy], attempts: int = INFER_ATTEMPTS) -> None:
        if attempts < 1:
            raise ValueError(f"attempts must be at least 1, got {attempts}")
        self.sampler = sampler
        self.game = game
        self.seat = seat
        self.players = list(players)
        self.attempts = attempts
        self.drawn = 0
        self.explained = 0
        self.reached: dict[int, int] = {}
        """Per position in the history of checked calls: how many replays reached it."""
        self.agreed: dict[int, int] = {}
        """Per position: how many of those replays the heuristic made the call in."""
        self.ignored: set[int] = set()
        """Positions of calls no longer checked (:meth:`_give_up_unexplained`)."""

    def explains(self, world: World) -> bool:
        """Whether the heuristic bots, dealt ``world``'s cards, make every checked call of its history (:attr:`ignored` ones aside)."""
        actions = self.game.actions.actions
        ignored = self.ignored
        last = max((i for i, code in enumerate(world.codes) if actions[code].kind not in UNVERIFIED_KINDS and i not in ignored), default=-1)
        if last < 0:
            return True
        try:
            state = self.game.new_state(hands=world.piles, dealer=world.dealer, context=world.context)
            for i, code in enumerate(world.codes[: last + 1]):
                if i not in ignored and checked(self.game, self.seat, state, code):
                    self.reached[i] = self.reached.get(i, 0) + 1
                    if not heuristic_makes(self.players, state, code):
                        return False
                    self.agreed[i] = self.agreed.get(i, 0) + 1
                state.apply(code)
        except (IllegalActionError, NotationError):
            return False
        return True

    def _give_up_unexplained(self) -> None:
        """After a draw fell back: stop checking each call ``attempts / 2`` replays or more reached and under 1 in ``attempts`` explain."""
        for i, reached in self.reached.items():
            if 2 * reached >= self.attempts and self.agreed.get(i, 0) * self.attempts < reached:
                self.ignored.add(i)

    def sample(self, rng: random.Random) -> State:
        """A world that explains the calls if one turns up within ``attempts`` draws, else a merely consistent one."""
        world = self.draw(rng)
        assert world is not None  # without a stop, draw always ends with a world
        return world

    def draw(self, rng: random.Random, stop: Callable[[], bool] | None = None) -> State | None:
        """:meth:`sample`, asking ``stop()`` (when given) before every proposal but the first; ``None`` when it says so.

        When the budget runs out after a consistent but unexplained world
        turned up, that world is returned (as after ``attempts`` draws).
        """
        self.drawn += 1
        fallback: State | None = None
        for attempt in range(self.attempts):
            if attempt and stop is not None and stop():
                return fallback
            world = self.sampler.propose(rng)
            if world is None:
                continue
            explained = self.explains(world)
            if not explained and fallback is not None:
                continue  # the exact check (a replay) is only worth it for a world that can still be returned
            state = self.sampler.check(world)
            if state is None:
                continue
            if explained:
                self.explained += 1
                return state
            fallback = state
        self._give_up_unexplained()
        return fallback if fallback is not None else self.sampler.draw(rng, stop)


def agrees(game: Game, seat: int, players: Sequence[Policy], state: State, code: int) -> bool:
    """Whether the action ``code`` about to be made in ``state`` is what ``players`` (the heuristic bots) would do, where it is checked.

    Checked: a call (kind not in :data:`UNVERIFIED_KINDS`) of a seat other
    than ``seat`` that had an alternative.  Everything else agrees.
    """
    return not checked(game, seat, state, code) or heuristic_makes(players, state, code)


def heuristic_makes(players: Sequence[Policy], state: State, code: int) -> bool:
    """Whether the mover's bot in ``players``, asked from its own observation of ``state``, chooses the action ``code``."""
    mover = state.current_player()
    return players[mover].choose(state.observation(mover)).code == code


def checked(game: Game, seat: int, state: State, code: int) -> bool:
    """Whether the action ``code`` about to be made in ``state`` is a call to check: another seat's, with an alternative."""
    return state.current_player() != seat and game.actions.actions[code].kind not in UNVERIFIED_KINDS and len(state.legal_codes()) >= 2
