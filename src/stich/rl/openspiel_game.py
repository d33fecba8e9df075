"""OpenSpiel: every stich game registered as a Python game (``pyspiel.load_game("stich_doppelkopf")``).

Importing this module registers ``stich_doppelkopf``, ``stich_tapp_tarock``,
``stich_dobbm``, ``stich_droggn`` and ``stich_dappen``.  Parameters:

* ``preset`` (string, default the game's default preset):
  ``stich_doppelkopf(preset=ddv_no_nines)``;
* ``options`` (string, ``key:value;key:value``, default none): options over
  the preset, ``stich_dobbm(options=players:5)``; :func:`load` turns an
  environment id or canonical game string into these two;
* ``dealer`` (int, default 0): the dealer of the deal.  Unlike the other
  adapters (a dealer drawn per deal, decision 0046) it is fixed: an OpenSpiel
  game's parameters define the game and its chance nodes deal only the cards;
  load the game with another ``dealer`` to vary the seats' roles.

**Chance.** The deal is explicit: one chance node per physical card, each
drawing uniformly among the cards not dealt yet (outcome = the card's index in
the pack), filling the piles in ``game.deal_parts`` order with the sizes the
game deals.  Every partition of the pack into those piles is equally likely,
as with the engine's own shuffle.

**Observers.** The observation tensor is the encoding of
:mod:`stich.rl.encoding` (what the seat may know now); the information-state
tensor is that tensor followed by the seat's action history in order
(:mod:`stich.rl.history`, slice ``history``), so it has perfect recall, as
tabular and CFR-style methods need.  The information-state string is the
encoding's string, which lists every action in order (perfect recall); the
observation string leaves the list of actions out.  While the deal is in
progress the tensors hold only the seat's cards dealt so far.

**Resampling.** ``resample_from_infostate(player, sampler)`` draws a state
the player cannot tell from the real one with stich's world samplers (see
:meth:`StichSpielState.resample_from_infostate`), so OpenSpiel's ISMCTS bot
plays every game.

**Utilities** are the deal's score changes in the game's unit
(``GENERAL_SUM``: several games are not zero-sum, a sitting-out dealer or a
kitty can take a share).  ``min_utility``/``max_utility`` are loose bounds
that hold (:func:`stich.rl.bounds.utility_bound`), not exact extremes.  Dobbm
and Droggn double the stakes with every Retour; where the options leave the
Retours unlimited (``retour_limit=0``, their presets' default) the OpenSpiel
game caps them at :data:`stich.rl.bounds.RETOUR_CAP` (the game's options
then say ``retour_limit=6``; pass ``options=retour_limit:N`` for another
cap), since OpenSpiel needs finite bounds.  ``max_game_length`` is a bound
on chance and player moves together.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from stich.bots.samplers import prepare_sampler
from stich.core.extras import missing_extra
from stich.core.game import Game, State
from stich.core.options import parse_game_string
from stich.core.registry import game_class, game_from_string, game_names, make_game
from stich.errors import OptionError
from stich.rl.bounds import utility_bound, with_retour_cap
from stich.rl.encoding import Encoding, encoding_for
from stich.rl.history import HistoryEncoding
from stich.rl.ids import game_for
from stich.rl.slices import card_values

try:  # the 'openspiel' extra
    import pyspiel
except ModuleNotFoundError as exc:
    raise missing_extra(exc.name or "pyspiel", __name__) from exc


def short_name(name: str) -> str:
    """OpenSpiel's name of a stich game."""
    return f"stich_{name}"


def max_seats(name: str) -> int:
    """The largest table the game's option table allows."""
    table = game_class(name).option_table
    info = next((i for i in table.infos if i.name in ("players", "fourth_player")), None)
    if info is None or info.name == "fourth_player":
        return max(make_game(name, p).num_seats for p in table.presets)
    return int(info.maximum) if info.maximum is not None else make_game(name).num_seats


def _game_type(name: str) -> pyspiel.GameType:
    cls = game_class(name)
    seats = [make_game(name, p).num_seats for p in cls.option_table.presets]
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"stich {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(max_seats(name), *seats),
        min_num_players=min(seats),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"preset": cls.option_table.default_preset, "options": "", "dealer": 0},
    )


def options_param(options: dict[str, str]) -> str:
    """Options as OpenSpiel's ``options`` parameter: ``key:value;key:value`` (a game string may hold no ``=`` or ``,``)."""
    return ";".join(f"{k}:{v}" for k, v in options.items())


def _configured(name: str, params: dict[str, Any]) -> Game:
    cls = game_class(name)
    preset = str(params.get("preset", cls.option_table.default_preset))
    options: dict[str, str] = {}
    for item in filter(None, str(params.get("options", "")).split(";")):
        key, sep, value = item.partition(":")
        if not sep:
            raise OptionError(f"options: expected key:value, got {item!r}")
        options[key.strip()] = value.strip()
    return with_retour_cap(make_game(name, preset, options))


@dataclass(frozen=True)
class SpielConfig:
    """What the states of one loaded OpenSpiel game share (kept here, not on the pyspiel objects, which OpenSpiel
    may rebuild from their strings when it serialises or clones them)."""

    game: Game
    encoding: Encoding
    dealer: int
    piles: tuple[int, ...]
    """Cards in each pile of the deal (``game.deal_parts`` order)."""


@cache
def _config(name: str, params: tuple[tuple[str, Any], ...]) -> SpielConfig:
    game = _configured(name, dict(params))
    dealer = int(dict(params).get("dealer", 0))
    if not 0 <= dealer < game.num_seats:
        raise ValueError(f"dealer must be a seat 0..{game.num_seats - 1}")
    piles = tuple(pile.bit_count() for pile in game.deal(0, dealer))
    return SpielConfig(game, encoding_for(game.canonical), dealer, piles)


def config_of(game: pyspiel.Game) -> SpielConfig:
    """The shared configuration of a loaded stich game."""
    name = game.get_type().short_name.removeprefix("stich_")
    return _config(name, tuple(sorted(game.get_parameters().items())))


class StichSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """One configured stich game as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None, *, name: str = "doppelkopf") -> None:
        game_type = _game_type(name)
        full = {**game_type.parameter_specification, **(params or {})}
        config = _config(name, tuple(sorted(full.items())))
        game = config.game
        bound = utility_bound(game)
        assert bound is not None  # the Retours are capped (with_retour_cap)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(game.actions),
            max_chance_outcomes=game.deck.n_faces * game.deck.copies,
            num_players=game.num_seats,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=game.deck.size * 4 + 200,
        )
        super().__init__(game_type, info, params or {})

    def new_initial_state(self) -> StichSpielState:
        return StichSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> StichObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        # OpenSpiel's convention (its Python games): no type given is the default observation, without perfect recall.
        perfect_recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return StichObserver(config_of(self).encoding, perfect_recall)


class _Engine:
    """Holds the engine state; deep-copied with the engine's cheap clone (OpenSpiel clones Python states by deepcopy)."""

    def __init__(self, state: State | None) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.state.clone() if self.state is not None else None)


class StichSpielState(pyspiel.State):  # type: ignore[misc]
    """A deal: first the chance nodes of the deal, then the engine's deal."""

    def __init__(self, game: pyspiel.Game) -> None:
        super().__init__(game)
        self.key = (game.get_type().short_name.removeprefix("stich_"), tuple(sorted(game.get_parameters().items())))
        self.dealt: list[int] = []
        """Physical card indices dealt so far, in order."""
        self.engine = _Engine(None)

    @property
    def config(self) -> SpielConfig:
        return _config(*self.key)

    def __deepcopy__(self, memo: dict[int, Any]) -> StichSpielState:
        new = StichSpielState(self.get_game())
        new.dealt = list(self.dealt)
        new.engine = copy.deepcopy(self.engine, memo)
        return new

    # -------------------------------------------------------------- chance
    def _pile_of(self, index: int) -> int:
        for pile, size in enumerate(self.config.piles):
            if index < size:
                return pile
            index -= size
        raise IndexError(index)

    def own_cards_dealt(self, seat: int) -> list[int]:
        """Physical cards dealt to ``seat`` so far (during the deal)."""
        return [card for i, card in enumerate(self.dealt) if self._pile_of(i) == seat]

    def current_player(self) -> int:
        engine = self.engine.state
        if engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if engine.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return engine.current_player()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = sorted(set(self.config.game.deck.physical) - set(self.dealt))
        p = 1.0 / len(left)
        return [(card, p) for card in left]

    def _legal_actions(self, player: int) -> list[int]:
        engine = self.engine.state
        assert engine is not None and player == engine.current_player()
        return engine.legal_codes()

    def _apply_action(self, action: int) -> None:
        engine = self.engine.state
        if engine is not None:
            engine.apply(int(action))
            return
        self.dealt.append(int(action))
        game = self.config.game
        if len(self.dealt) == game.deck.size:
            deck = game.deck
            piles: list[list[Any]] = [[] for _ in self.config.piles]
            for i, card in enumerate(self.dealt):
                piles[self._pile_of(i)].append(deck.card(card))
            self.engine = _Engine(game.new_state(hands=piles, dealer=self.config.dealer))

    def _action_to_string(self, player: int, action: int) -> str:
        game = self.config.game
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal #{action} {game.deck.card(action).text}"  # the index tells Doppelkopf's two copies apart
        return game.actions[action].text

    # -------------------------------------------------------------- resampling
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> StichSpielState:
        """A state ``player_id`` cannot tell from this one: the unseen cards drawn anew (what OpenSpiel's ISMCTS asks for).

        Built only from the seat's observation by stich's world sampler
        (:mod:`stich.bots.samplers`, the one the ``pimc`` and ``ismcts`` bots
        use): uniform over every way the unseen cards can lie now, with the
        hidden discards drawn too (never replayed from the real deal), then
        the seen actions replayed and the seat's observation checked equal.
        ``probability_sampler()`` (a uniform draw in [0, 1)) seeds the draw.
        """
        engine = self.engine.state
        if engine is None:
            raise ValueError("resample_from_infostate: the deal is still being dealt (chance nodes); resample after it")
        rng = random.Random(int(float(probability_sampler()) * 2.0**53))
        world = prepare_sampler(self.config.game, engine.observation(player_id)).sample(rng)
        new = StichSpielState(self.get_game())
        new.dealt = [card for pile in world.dealt for card in range(pile.bit_length()) if pile >> card & 1]
        new.engine = _Engine(world)
        return new

    def is_terminal(self) -> bool:
        engine = self.engine.state
        return engine is not None and engine.is_terminal()

    def returns(self) -> list[float]:
        engine = self.engine.state
        if engine is None or not engine.is_terminal():
            return [0.0] * self.config.game.num_seats
        return [float(s) for s in engine.result().scores]

    def __str__(self) -> str:
        engine = self.engine.state
        if engine is None:
            return f"dealing: {len(self.dealt)} of {self.config.game.deck.size} cards"
        game = engine.game
        hands = " | ".join(" ".join(c.text for c in game.deck.cards(engine.hand_mask(s))) for s in range(game.num_seats))
        history = " ".join(game.actions[code].text.replace(" ", ":") for _seat, code in engine.history)
        return f"hands {hands}\nhistory {history}"


class StichObserver:
    """OpenSpiel observer (the PyObserver interface): the encoding's tensor and strings of one seat.

    With perfect recall (the information state) the tensor is the observation
    tensor followed by the seat's action history (:mod:`stich.rl.history`, slice
    ``history``), so two histories never share an information-state tensor;
    without it (the observation) it is the observation tensor alone.
    """

    def __init__(self, encoding: Encoding, perfect_recall: bool) -> None:
        self.encoding = encoding
        self.perfect_recall = perfect_recall
        self.history = history_for(encoding.game.canonical) if perfect_recall else None
        extra = self.history.size if self.history is not None else 0
        self.tensor = np.zeros(encoding.size + extra, np.float32)
        self.dict = {info.name: self.tensor[info.start : info.stop] for info in encoding.slices()}
        self._observed = self.tensor[: encoding.size]
        if self.history is not None:
            self.dict["history"] = self.tensor[encoding.size :]

    def set_from(self, state: StichSpielState, player: int) -> None:
        engine = state.engine.state
        if engine is None:
            self.tensor.fill(0.0)
            hand = next(i for i in self.encoding.slices() if i.name == "hand")
            deck = state.config.game.deck
            self.tensor[hand.start : hand.stop] = card_values(
                self.encoding.layout, [deck.card(c) for c in state.own_cards_dealt(player)], "deal"
            )
            return
        obs = engine.observation(player)
        self._observed[:] = self.encoding.tensor(obs)
        if self.history is not None:
            self.history.write(obs, self.dict["history"])

    def string_from(self, state: StichSpielState, player: int) -> str:
        engine = state.engine.state
        if engine is None:
            deck = state.config.game.deck
            own = " ".join(deck.card(c).text for c in state.own_cards_dealt(player))
            return f"seat {player} dealing {len(state.dealt)}: {own}"
        text = self.encoding.info_state(engine.observation(player))
        if self.perfect_recall:
            return text
        return "\n".join(line for line in text.split("\n") if not line.startswith("events "))


@cache
def history_for(canonical: str) -> HistoryEncoding:
    """One shared history encoding of a configured game, by canonical string."""
    return HistoryEncoding(game_from_string(canonical))


def _register(name: str) -> type[StichSpielGame]:
    """Register one game.  OpenSpiel keeps the class it is given until the process exits; a class (unlike a
    closure) outlives the interpreter's teardown, so the exit stays clean."""

    def __init__(self: StichSpielGame, params: dict[str, Any] | None = None) -> None:
        StichSpielGame.__init__(self, params, name=name)

    cls = type(f"StichSpielGame_{name}", (StichSpielGame,), {"__init__": __init__, "__doc__": f"stich {name} as an OpenSpiel game."})
    pyspiel.register_game(_game_type(name), cls)
    return cls


def load(env_id: str) -> StichSpielGame:
    """The OpenSpiel game of an environment id or canonical game string."""
    name, pairs = parse_game_string(game_for(env_id).canonical)
    preset = pairs.pop("preset")
    loaded: StichSpielGame = pyspiel.load_game(short_name(name), {"preset": preset, "options": options_param(pairs)})
    return loaded


GAME_CLASSES = {name: _register(name) for name in game_names()}
"""The registered OpenSpiel game class of every game."""
