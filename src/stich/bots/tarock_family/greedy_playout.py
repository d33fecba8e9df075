"""A cheap rule-based card-play rollout for the Tarock-family games: the ISMCTS ``greedy`` card play.

Uniformly random card play misjudges Tarock trick play badly: a random
defender trumps his partner's winning King, smears points onto the
declarer's tricks and lets Kings fall to nothing, so a tree whose leaves are
valued that way learns the value of a card under play nobody makes.  The
games' heuristic bots play sensibly, but through an observation per action
(about 0.2 ms in Tapp Tarock, a whole deal 2-4 ms), which leaves a tree of
a few dozen iterations per decision.  :class:`GreedyRollout` plays a few
trick rules straight on the state's masks and trick lists instead, at
about 1.4 times a random rollout's cost (docs/search.md, which also has its
one match: worse than random card play in Tapp Tarock, so it is opt-in):

* **leading**: a random legal card;
* **following, own team winning**: the last to play smears its card with the
  most points onto the trick, anybody else adds its card with the fewest;
* **following, the other team winning**: the last to play takes the trick
  with its winning card worth most points if it can; an earlier player
  takes it with its strongest card when the trick already holds at least
  :data:`TAKE_SHARE` of the pack's highest card value, else adds its card with
  the fewest points; a player who cannot win adds its card with the fewest
  points;
* with probability :data:`EPSILON`, and whenever an action other than a card
  is open (Dappen's Gstieß kept back, for instance), a random legal action.

Ties go to the weaker card.  Teams are read once per rollout
(:func:`stich.search.perfect_info.teams`; the Tarock games fix them before
card play).  Trick winners are those of the plain trick order
(:func:`stich.core.tricks.trick_winner`); the games' special cases (a
kept-back Gstieß, a Pagat laid out) are only the engine's business: the
policy may misjudge them, the engine plays them right.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from stich.core.game import Game, PhasedState, State
from stich.core.tricks import PlayOrder, led_suit
from stich.search.perfect_info import in_trick_play, play_flags, teams

EPSILON = 0.1
"""Share of actions played uniformly at random (keeps the rollouts varied where the rules tie or err)."""

TAKE_SHARE = 0.5
"""An earlier player takes an opponent's trick holding at least this share of the highest card value (else ducks)."""


def _tapp_tarock() -> tuple[Callable[[State], PlayOrder], tuple[int, ...]]:
    from stich.games.tapp_tarock.pack import ORDER, POINTS

    return (lambda _state: ORDER), POINTS


def _dobbm() -> tuple[Callable[[State], PlayOrder], tuple[int, ...]]:
    from stich.games.dobbm.pack import ORDER, POINTS

    return (lambda _state: ORDER), POINTS


def _droggn() -> tuple[Callable[[State], PlayOrder], tuple[int, ...]]:
    from stich.games.droggn.pack import POINTS
    from stich.games.droggn.state import DroggnState

    def order(state: State) -> PlayOrder:
        assert isinstance(state, DroggnState)  # GreedyRollout plays Droggn's states only with Droggn's tables
        return state.order  # the pack size decides it (§6.1)

    return order, POINTS


def _dappen() -> tuple[Callable[[State], PlayOrder], tuple[int, ...]]:
    from stich.games.dappen.pack import ORDER, POINTS

    return (lambda _state: ORDER), POINTS


GAMES: dict[str, Callable[[], tuple[Callable[[State], PlayOrder], tuple[int, ...]]]] = {
    "tapp_tarock": _tapp_tarock,
    "dobbm": _dobbm,
    "droggn": _droggn,
    "dappen": _dappen,
}
"""Games :class:`GreedyRollout` plays: name -> (the trick order of a state, card points per face)."""


class GreedyRollout:
    """Plays a card-play state to the end by the trick rules of the module docstring (in place) and scores it.

    A card's play code is its face index in every game of :data:`GAMES`
    (checked here), and a hand is a mask of faces.  ``finish`` plays on
    without scoring; calling the rollout returns every seat's bounded
    reward, like the other rollouts of :mod:`stich.search.ismcts`.
    """

    name = "greedy"

    def __init__(self, game: Game, epsilon: float = EPSILON) -> None:
        from stich.search.ismcts import reward_scale

        make = GAMES.get(game.name)
        if make is None:
            raise ValueError(f"the greedy rollout knows {', '.join(sorted(GAMES))}, not {game.name}")
        self.order_of, self.points = make()
        flags = play_flags(game)
        for code, action in enumerate(game.actions.actions):
            if flags[code] and action.text != f"play {game.deck.card(code).text}":
                raise ValueError(f"{game.name}: play code {code} is {action.text!r}, not its face")
        self.flags = flags
        self.epsilon = epsilon
        self.threshold = TAKE_SHARE * max(self.points)
        self.scale = reward_scale(game)

    def __call__(self, state: State, rng: random.Random) -> list[float]:
        from stich.search.ismcts import bounded_rewards

        self.finish(state, rng)
        return bounded_rewards(state.result().scores, self.scale)

    def finish(self, state: State, rng: random.Random) -> None:
        """Play ``state`` to the end (in place)."""
        rand = rng.random
        flags = self.flags
        epsilon = self.epsilon
        assert isinstance(state, PhasedState)  # every game of GAMES is one
        seats_per_trick = len(state.active)
        side: tuple[int, ...] | None = None
        order: PlayOrder | None = None
        while not state.is_terminal():
            codes = state.legal_codes()
            if len(codes) == 1:
                state._apply_code(codes[0])
                continue
            if order is None or side is None:
                if not in_trick_play(state):  # bidding and the like: random (the callers hand over in card play)
                    state._apply_code(codes[int(rand() * len(codes))])
                    continue
                side, order = teams(state), self.order_of(state)
            trick = state.trick_cards
            if not trick or rand() < epsilon or not all(flags[c] for c in codes):
                state._apply_code(codes[int(rand() * len(codes))])
                continue
            state._apply_code(self.pick(codes, trick, state.trick_seats, state.current_player(), side, order, seats_per_trick))

    def pick(
        self,
        codes: list[int],
        trick: list[int],
        trick_seats: list[int],
        me: int,
        side: tuple[int, ...],
        order: PlayOrder,
        seats_per_trick: int,
    ) -> int:
        """The rule's card for seat ``me`` following to ``trick`` (cards, and the seats that played them) among ``codes``."""
        points = self.points
        keys = order.keys_by_led[led_suit(order, trick)]
        best_pos, best_key = 0, -2
        for pos, card in enumerate(trick):
            if keys[card] > best_key:
                best_pos, best_key = pos, keys[card]
        last = len(trick) == seats_per_trick - 1
        if side[trick_seats[best_pos]] == side[me]:
            # Own team winning: the last smears its richest card, an earlier player keeps its points.
            return max(codes, key=lambda c: (points[c], -keys[c])) if last else _poorest(codes, points, keys)
        winners = [c for c in codes if keys[c] > best_key]
        if not winners:
            return _poorest(codes, points, keys)
        if last:
            return max(winners, key=lambda c: (points[c], -keys[c]))
        if sum(points[c] for c in trick) >= self.threshold:
            return max(winners, key=lambda c: keys[c])
        return _poorest(codes, points, keys)


def _poorest(codes: list[int], points: tuple[int, ...], keys: tuple[int, ...]) -> int:
    """The card with the fewest points, the weakest of those."""
    return min(codes, key=lambda c: (points[c], keys[c]))
