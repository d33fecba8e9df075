"""The leak check: two deals that differ only in cards a seat has not seen must look the same to it, step by step.

For a seat and a point of a deal, two cards the seat cannot know there
(outside :meth:`~stich.core.game.State.knowable_cards`, named by no action
so far) and lying in two different piles are exchanged: between two other
hands, a hand and the talon, the talon and the discards pile of the deal as
dealt.  Both deals are replayed from the deal with the same actions, and at
**every step** (bidding, talon, discards and play alike) the seat's views
must be equal:

* ``observation`` — :meth:`~stich.core.game.Observation.to_json` (phase,
  player to move, the seat's legal actions, events, tricks, public and
  private facts);
* ``tensor``, ``mask``, ``info_state`` — the RL encoding
  (:mod:`stich.rl.encoding`), which every adapter serves;
* ``openspiel`` — with ``openspiel=True``, OpenSpiel's
  ``information_state_string/tensor`` and ``observation_string/tensor`` of
  the seat, read through pyspiel at the last step;
* ``kernel tensor``, ``kernel mask`` — with ``kernel=True`` (Tarock family,
  numba), the compiled card play's tensor and mask of the seat: each deal
  is loaded into a ``TarockBatch`` of one at its first card and stepped
  there (:class:`KernelViews`), the path the single envs take by default
  (:class:`~stich.rl.kernel_table.TarockKernelTable`); before the first card
  that path writes the engine encoding's own tensor and mask.

When an action of the history is illegal in the swapped deal, the actor's
hand decided it: for another seat the two deals part there legitimately (the
views are compared up to that step); for the seat itself its own legal
actions differ although its hand is the same, which is a leak.

**Rule-made reveals.**  Some rules show hidden cards to the table by
themselves; a swap may then change what the table sees, and that is no leak.
:data:`REVEALS` names each one the check excuses, and a difference is
excused only while the state shows that rule's reveal.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from stich.cards import Card
from stich.core.game import Game, State
from stich.errors import IllegalActionError, NotationError
from stich.rl.encoding import Encoding
from stich.rl.ids import registered_ids

TABLE_SIZES = (
    "doppelkopf(players=5)",
    "dobbm(players=5)",
    "droggn(players=4)",
    "dappen(players=3,deal=jeu_du_tarot)",
    "dappen(players=5,deal=jeu_du_tarot)",
    "dappen(players=7)",
    "dappen(players=8)",
)
"""Table sizes the presets leave out (tapp_tarock's four_players is a preset)."""


def leak_configs() -> tuple[str, ...]:
    """Every preset id and every other table size: what the leak check plays."""
    return (*registered_ids(), *TABLE_SIZES)


@dataclass(frozen=True)
class Reveal:
    """A rule that shows hidden cards (or what follows from them) to the table by itself."""

    rule: str
    """Where the rule is written (dossier section or decision)."""
    parts: frozenset[str] | None
    """The observation parts it may change (``"public.schweine"``...); ``None``: any view (the deal ends or is shown)."""
    shows: Callable[[State, State], bool]
    """Whether one of the two deals, replayed to the same step, shows it now."""


def _last_action_starts(prefix: str) -> Callable[[State, State], bool]:
    def shows(a: State, b: State) -> bool:
        return bool(a.history) and a.game.actions[a.history[-1][1]].text.startswith(prefix)

    return shows


def _flag(name: str) -> Callable[[State, State], bool]:
    def shows(a: State, b: State) -> bool:
        return any(getattr(s, name, None) is not None and getattr(s, name) is not False for s in (a, b))  # a seat 0 counts

    return shows


def _keeper_before_last_trick(a: State, b: State) -> bool:
    def shows(s: State) -> bool:
        tricks = getattr(s, "tricks", ())
        return (
            getattr(s, "kept_back", None) is not None and len(tricks) == getattr(s, "n_tricks", 0) - 1 and not getattr(s, "trick_cards", ())
        )

    return shows(a) or shows(b)


REVEALS: dict[str, dict[str, Reveal]] = {
    "doppelkopf": {
        # The holder of both diamond aces (Schweine; and Superschweine) is named to the table by rule.
        "schweine": Reveal(
            "§1.3 [VAR]",
            frozenset({"public.schweine", "public.schweine_cards", "public.superschweine"}),
            lambda a, b: any(getattr(s, "schweine_shown", False) or getattr(s, "super_shown", False) for s in (a, b)),
        ),
        # A call or absage is said for one's side ("Re, keine 90"): it shows the caller's party.
        "announcement_side": Reveal("§5.1", frozenset({"public.calls", "public.parties"}), _last_action_starts("announce")),
        # A Genscher stands in a normal game and is void in a silent wedding, which it then shows (decision 0041).
        "genscher_outcome": Reveal(
            "decision 0041",
            frozenset(
                {
                    "legal_actions",
                    "public.calls",
                    "public.contract",
                    "public.genscher",
                    "public.kind",
                    "public.parties",
                    "public.soloist",
                    "private.party",
                }
            ),
            _last_action_starts("genscher"),
        ),
    },
    "dappen": {
        # A lone player holding all seven five-pointers shows them, and the deal ends as a won Marsch.
        "seven_fives": Reveal("§4", None, _flag("seven_fives")),
        # penalty_marsch: a wrong pass ends the deal and the offender's hand is shown.
        "penalty_hand": Reveal("§3.2.5, §10.3", None, _flag("penalty")),
        # Gstiesieren: a keeper who won the penultimate trick does not lead the last one; the table sees who does.
        "gstiess_keeper_does_not_lead": Reveal("§6.2, OPEN-POINTS", frozenset({"to_move", "legal_actions"}), _keeper_before_last_trick),
    },
}
"""Rule-made reveals by game and name; a difference is excused only by one whose parts cover it and that shows now."""


@dataclass
class LeakReport:
    """What one check found: views compared, and the leaks (each a readable line)."""

    compared: int = 0
    """Steps at which the views of a seat were compared between two deals."""
    worlds: int = 0
    """Swapped deals replayed."""
    excused: dict[str, int] = field(default_factory=dict)
    """Differences excused, by the name of the rule-made reveal."""
    leaks: list[str] = field(default_factory=list)

    def merge(self, other: LeakReport) -> None:
        """Add another report's counts and leaks to this one."""
        self.compared += other.compared
        self.worlds += other.worlds
        for name, n in other.excused.items():
            self.excused[name] = self.excused.get(name, 0) + n
        self.leaks.extend(other.leaks)


def _faces_named(game: Game, history: list[tuple[int, int]]) -> set[Card]:
    """Cards any action so far names (a played card, a discard, a called card)."""
    faces = set()
    for _seat, code in history:
        for word in game.actions[code].text.split()[1:]:
            with contextlib.suppress(NotationError):
                faces.add(Card.parse(word))
    return faces


def swapped_piles(game: Game, state: State, seat: int, rng: random.Random, pair: tuple[str, str] | None = None) -> list[list[Card]] | None:
    """The deal of ``state`` with two cards ``seat`` cannot know exchanged between two piles; ``None`` if there are none.

    ``pair`` names the two cards (``("T1", "T13")``) instead of drawing them;
    they must be hidden from ``seat`` too.
    """
    deck = game.deck
    hidden = deck.full_mask & ~state.knowable_cards(seat)
    named = _faces_named(game, state.history)
    pile_of = {bit: i for i, pile in enumerate(state.dealt) for bit in deck.physical if pile >> bit & 1}
    candidates = [b for b in deck.physical if hidden >> b & 1 and deck.card(b) not in named]
    for _ in range(8):
        if pair is not None:
            wanted = [Card.parse(text) for text in pair]
            picks = [
                (x, y)
                for x in candidates
                if deck.card(x) == wanted[0]
                for y in candidates
                if deck.card(y) == wanted[1] and pile_of[x] != pile_of[y]
            ]
            if not picks:
                raise ValueError(f"no swap of {pair} hidden from seat {seat} between two piles")
            a, b = picks[0]
        elif len(candidates) < 2:
            return None
        else:
            a, b = rng.sample(candidates, 2)
        if pile_of[a] == pile_of[b] or deck.card(a) == deck.card(b):
            continue
        piles = [deck.cards(m) for m in state.dealt]
        pa, pb = pile_of[a], pile_of[b]
        ca, cb = deck.card(a), deck.card(b)
        piles[pa][piles[pa].index(ca)] = cb  # one copy only (Doppelkopf holds two of each card)
        piles[pb][piles[pb].index(cb)] = ca
        return piles
    return None


def _views(enc: Encoding, state: State, seat: int) -> dict[str, Any]:
    obs = state.observation(seat)
    return {
        "observation": obs.to_json(),
        "tensor": enc.tensor(obs).tobytes(),
        "mask": enc.mask(obs).tobytes(),
        "info_state": enc.info_state(obs),
    }


def _openspiel_views(spiel_game: Any, state: State, seat: int) -> dict[str, Any]:
    from stich.rl.openspiel_game import StichSpielState, _Engine

    spiel = StichSpielState(spiel_game)
    spiel.dealt = [card for pile in state.dealt for card in range(pile.bit_length()) if pile >> card & 1]
    spiel.engine = _Engine(state)
    return {
        "openspiel information_state_string": spiel.information_state_string(seat),
        "openspiel information_state_tensor": np.asarray(spiel.information_state_tensor(seat)).tobytes(),
        "openspiel observation_string": spiel.observation_string(seat),
        "openspiel observation_tensor": np.asarray(spiel.observation_tensor(seat)).tobytes(),
    }


class KernelViews:
    """A replay's card play followed in a ``TarockBatch`` of one: the kernel's tensor and mask of a seat at each step."""

    def __init__(self, game: Game) -> None:
        from stich.rl.batched.tarock import LEARNER, TarockBatch  # needs numba

        self.batch = TarockBatch(1, game.canonical, bidding=LEARNER)
        self.live = False

    def views(self, state: State, seat: int) -> dict[str, Any]:
        """The kernel's views of ``seat`` (none before the first card: the batch then writes the encoding's own)."""
        batch = self.batch
        if not self.live and not state.is_terminal() and state.phase_name == "play":  # type: ignore[attr-defined]
            batch.load(0, state)
            self.live = True
        if not self.live:
            return {}
        acting = not batch.terminated[0] and batch.current_player[0] == seat
        mask = batch.legal_action_mask[0] if acting else np.zeros(batch.num_actions, dtype=np.int8)
        return {"kernel tensor": batch.observe(np.array([seat]))[0].tobytes(), "kernel mask": mask.tobytes()}

    def apply(self, code: int) -> None:
        """Play ``code`` (legal in the engine's replay) in the kernel, once the card play is there."""
        if self.live:
            self.batch.step_single(code)


_KERNELS: dict[str, tuple[KernelViews, KernelViews]] = {}


def _kernel_views(game: Game) -> tuple[KernelViews, KernelViews]:
    """Two kernel views of ``game`` for a swap's two deals, made once per configuration (a batch's set-up costs ms)."""
    pair = _KERNELS.get(game.canonical)
    if pair is None:
        pair = _KERNELS[game.canonical] = (KernelViews(game), KernelViews(game))
    for views in pair:
        views.live = False
    return pair


def _first_difference(a: dict[str, Any], b: dict[str, Any]) -> str | None:
    for key, value in a.items():
        if b[key] != value:
            if key == "observation":
                parts = [k for k in value if value[k] != b[key][k]]
                for nested in ("public", "private"):
                    if nested in parts:
                        keys = sorted(
                            k for k in value[nested].keys() | b[key][nested].keys() if value[nested].get(k) != b[key][nested].get(k)
                        )
                        parts[parts.index(nested)] = f"{nested}.{'/'.join(keys)}"
                return f"observation ({', '.join(parts)})"
            return key
    return None


def _excuse(game: Game, a: State, b: State, diff: str) -> str | None:
    """The name of the rule-made reveal that explains ``diff``, if any."""
    parts: set[str] | None = None
    if diff.startswith("observation ("):
        parts = set(diff.removeprefix("observation (").removesuffix(")").split(", "))
        parts = {f"public.{k}" for p in parts if p.startswith("public.") for k in p.removeprefix("public.").split("/")} | {
            p for p in parts if not p.startswith("public.")
        }
    for name, reveal in REVEALS.get(game.name, {}).items():
        covered = reveal.parts is None or (parts is not None and parts <= reveal.parts)
        if covered and reveal.shows(a, b):
            return name
    return None


def check_swap(
    game: Game,
    enc: Encoding,
    state: State,
    seat: int,
    rng: random.Random,
    *,
    label: str = "",
    spiel_game: Any = None,
    pair: tuple[str, str] | None = None,
    kernel: bool = False,
) -> LeakReport:
    """Swap two cards ``seat`` has not seen by ``state``, replay both deals and compare the seat's views at every step.

    ``kernel``: the compiled card play's views too (:class:`KernelViews`; a Tarock-family game, numba).
    """
    report = LeakReport()
    piles = swapped_piles(game, state, seat, rng, pair)
    if piles is None:
        return report
    deck = game.deck
    real = game.new_state(hands=[deck.cards(m) for m in state.dealt], dealer=state.dealer, context=state.context)
    other = game.new_state(hands=piles, dealer=state.dealer, context=state.context)
    report.worlds = 1
    history = state.history
    kernels = _kernel_views(game) if kernel else None
    for step in range(len(history) + 1):
        mine, theirs = _views(enc, real, seat), _views(enc, other, seat)
        if kernels is not None:
            mine |= kernels[0].views(real, seat)
            theirs |= kernels[1].views(other, seat)
        if step == len(history) and spiel_game is not None:
            mine |= _openspiel_views(spiel_game, real, seat)
            theirs |= _openspiel_views(spiel_game, other, seat)
        report.compared += 1
        diff = _first_difference(mine, theirs)
        if diff is not None:
            excuse = _excuse(game, real, other, diff)
            if excuse is None:
                actions = " ".join(game.actions[c].text.replace(" ", ":") for _s, c in history[:step])
                report.leaks.append(f"{label} seat {seat} step {step}: {diff} differs; dealt {list(state.dealt)}; actions {actions}")
            else:
                report.excused[excuse] = report.excused.get(excuse, 0) + 1
            return report
        if step == len(history):
            break
        actor, code = history[step]
        real.apply(code)
        try:
            other.apply(code)
        except IllegalActionError:
            if actor == seat:
                report.leaks.append(
                    f"{label} seat {seat} step {step}: its own action {game.actions[code].text!r} is illegal after the swap"
                )
            return report  # another player's hand decided: the deals part here
        if kernels is not None:
            kernels[0].apply(code)
            kernels[1].apply(code)
    return report


def random_points(game: Game, seed: int) -> Iterator[State]:
    """Every state of one deal of uniformly random legal actions (the dealer varies with the seed)."""
    state = game.new_state(seed=seed, dealer=seed % game.num_seats)
    rng = random.Random(seed)
    yield state
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_codes()))
        yield state


def check_game(
    game: Game,
    deals: int,
    *,
    points: int = 3,
    seed: int = 0,
    label: str = "",
    spiel_game: Any = None,
    kernel: bool = False,
) -> LeakReport:
    """The leak check on ``deals`` random deals: at ``points`` random points of each (the last always), every seat, one swap.

    ``kernel``: compare the compiled card play's views too (:func:`check_swap`).

    With ``spiel_game`` (a loaded OpenSpiel game of the same configuration)
    its engine game is played, so that OpenSpiel's views can be compared too
    (Dobbm and Droggn then play with OpenSpiel's Retour cap).
    """
    if spiel_game is not None:
        from stich.rl.openspiel_game import config_of

        game = config_of(spiel_game).game
    enc = Encoding(game)
    rng = random.Random(f"{label}-{seed}")
    report = LeakReport()
    for deal in range(deals):
        states = [s.clone() for s in random_points(game, seed * 1_000_003 + deal)]
        chosen = [states[-1], *rng.sample(states[:-1], min(points - 1, len(states) - 1))]
        for state in chosen:
            for seat in range(game.num_seats):
                report.merge(check_swap(game, enc, state, seat, rng, label=label, spiel_game=spiel_game, kernel=kernel))
    return report
