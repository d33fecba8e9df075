"""The observation encoding of one configured game: tensor, legal-action mask, information-state string.

``Encoding(game)`` lays out a fixed-size ``float32`` tensor of named slices
(:meth:`Encoding.slices`): first the slices every game shares (phase, whose
turn, own hand, the cards each seat has played, the current trick, tricks and
card points won, every seat's non-card actions so far), then the game's own
(:mod:`stich.rl.game_slices`: contract, parties, bidding, announcements and
doubles, talon and discards this seat may know).  Everything is read from
``state.observation(seat)``, so a tensor holds exactly what that seat may
know.

The action space is the game's own: index ``i`` of the mask is action code
``i`` of ``game.actions``, the same for every preset and table size (the
codes are stable, records depend on them).

``ENCODING_VERSION`` changes whenever a slice changes; environment ids carry it
(``-v1``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from stich.cards import Card
from stich.core.game import Game, Observation
from stich.core.registry import game_from_string
from stich.rl.game_slices import GAME_SLICES, PHASES
from stich.rl.slices import Layout, Ones, Slice, Values, card_flags, per_seat_number, seat, seats


@dataclass(frozen=True)
class SliceInfo:
    """Where one named slice lies in the tensor."""

    name: str
    start: int
    stop: int
    doc: str


def card_universe(game: Game) -> tuple[Card, ...]:
    """Every card of the game in the order of its ``play`` actions (the same for every preset of the game)."""
    return tuple(Card.parse(a.text.split(" ", 1)[1]) for a in game.actions.actions if a.kind == "play")


CARD_PLAYING_ACTIONS: dict[str, tuple[str, str]] = {
    "doppelkopf": ("genscher", "DK"),  # ``genscher <seat>`` plays the first diamond king (decision 0025)
}
"""Actions besides ``play X`` that put a card into the trick, by game: (first word of the action, the card)."""


class _Scan:
    """One seat's events read so far: the cards played, their flags in the ``played`` slice, the ``actions`` counts.

    Positions are relative to the seat's own slices.  A seat's events only grow
    once the deal's texts are settled, so :meth:`Encoding._scan` extends the
    scan of the seat's previous observation instead of reading every event
    again at every step.
    """

    __slots__ = ("counts", "played", "plays", "points", "points_from", "points_of", "seen", "won", "won_of")

    def __init__(self) -> None:
        self.plays: list[tuple[int, str]] = []
        self.played: list[int] = []
        self.seen: set[int] = set()
        self.counts: dict[int, float] = {}
        # The finished tricks never change once the events go on, so their sums are kept and only new ones added
        # (in trick order, as a fresh count adds them: the same floats).
        self.won: dict[int, float] = {}
        """``tricks_won`` entries (relative seat -> value) of the first ``won_of`` finished tricks."""
        self.won_of = 0
        self.points: dict[int, float] = {}
        """``points_won`` entries of the first ``points_of`` finished tricks, whose cards end at ``plays[points_from]``."""
        self.points_of = 0
        self.points_from = 0


class Encoding:
    """Tensor, mask and information-state string of one configured game, from observations only.

    It keeps each seat's last scan of the events (see :class:`_Scan`), so it is
    not thread-safe: give each thread (each environment) its own.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        cards = card_universe(game)
        self.layout = Layout(game, cards, game.deck.copies, game.num_seats)
        self.actions = game.actions
        self.play_codes = frozenset(a.code for a in self.actions.actions if a.kind == "play")
        self.card_of = {a.code: a.text.split(" ", 1)[1] for a in self.actions.actions if a.kind == "play"}
        """Card each card-playing action puts into the trick: ``play X``, and :data:`CARD_PLAYING_ACTIONS`."""
        extra = CARD_PLAYING_ACTIONS.get(game.name)
        if extra is not None:
            word, card = extra
            self.card_of |= {a.code: card for a in self.actions.actions if a.text.split(" ", 1)[0] == word}
        self.other_codes = tuple(a.code for a in self.actions.actions if a.kind != "play")
        self._other_index = {code: i for i, code in enumerate(self.other_codes)}
        self._scans: dict[int, tuple[tuple[tuple[int, str], ...], _Scan]] = {}
        self._slices = self._shared_slices() + GAME_SLICES[game.name](self.layout)
        infos = []
        start = 0
        for s in self._slices:
            infos.append(SliceInfo(s.name, start, start + s.size, s.doc))
            start += s.size
        self.size = start
        self.infos = tuple(infos)
        self._writers = tuple((s.write, info.start) for info, s in zip(infos, self._slices, strict=True))
        self.parts = tuple(zip(infos, self._slices, strict=True))
        """Every slice with where it lies, in tensor order (a caller that writes only some slices: the Tarock batch's end)."""

    # ------------------------------------------------------------ layout
    def _shared_slices(self) -> list[Slice]:
        layout = self.layout
        n = layout.seats
        n_cards = len(layout.cards) * layout.copies
        hand_scale = max(1, self.game.deck.size // 3)
        points_scale = self._points_scale()
        width = len(self.other_codes) + 1
        scan = self._scan

        def to_move(obs: Observation, base: int, ones: Ones, values: Values) -> None:
            ones.append(base + (n if obs.to_move < 0 else (obs.to_move - obs.seat) % n))

        def hand(obs: Observation, base: int, ones: Ones, values: Values) -> None:
            ones.extend(base + f for f in card_flags(layout, obs.hand, "hand"))

        def played(obs: Observation, base: int, ones: Ones, values: Values) -> None:
            ones.extend(base + f for f in scan(obs).played)

        def current(obs: Observation, base: int, ones: Ones, values: Values) -> None:
            trick = obs.tricks[-1] if obs.tricks and obs.tricks[-1].winner is None else None
            if trick is None:
                return
            all_plays = scan(obs).plays
            plays = all_plays[len(all_plays) - len(trick.cards) :]
            if [c for _, c in plays] != [c.text for c in trick.cards]:
                raise ValueError("current trick does not match the cards played")
            for actor, card in plays:
                ones.append(base + (actor - obs.seat) % n * n_cards + layout.text_index[card])

        def leader(obs: Observation, base: int, ones: Ones, values: Values) -> None:
            if obs.tricks and obs.tricks[-1].winner is None:
                ones.append(base + (obs.tricks[-1].leader - obs.seat) % n)

        def tricks_won(obs: Observation, base: int, ones: Ones, values: Values) -> None:
            seen, tricks = scan(obs), obs.tricks
            won = seen.won
            while seen.won_of < len(tricks) and (winner := tricks[seen.won_of].winner) is not None:
                rel = (winner - obs.seat) % n
                won[rel] = won.get(rel, 0.0) + 1.0 / hand_scale
                seen.won_of += 1
            for rel, value in won.items():
                values[base + rel] = value

        card_points = self._card_points()

        def points_won(obs: Observation, base: int, ones: Ones, values: Values) -> None:
            seen, tricks = scan(obs), obs.tricks
            won = seen.points
            while seen.points_of < len(tricks) and (winner := tricks[seen.points_of].winner) is not None:
                t = tricks[seen.points_of]
                first, size = seen.points_from, len(t.cards)
                if card_points is not None:
                    points = sum(card_points[text] for _, text in seen.plays[first : first + size])
                else:
                    points = self.game.trick_points(t.cards) or 0
                if points:
                    rel = (winner - obs.seat) % n
                    won[rel] = won.get(rel, 0.0) + points / points_scale
                seen.points_from = first + size
                seen.points_of += 1
            for rel, value in won.items():
                values[base + rel] = value

        def actions(obs: Observation, base: int, ones: Ones, values: Values) -> None:
            for position, count in scan(obs).counts.items():
                values[base + position] = count

        phases = PHASES[self.game.name]

        def phase(obs: Observation, base: int, ones: Ones, values: Values) -> None:
            if obs.phase not in phases:
                raise ValueError(f"phase {obs.phase!r} has no place in {list(phases)}")
            ones.append(base + phases.index(obs.phase))

        return [
            Slice("phase", len(phases), f"phase of the deal (one flag each: {', '.join(phases)})", (), phase),
            Slice("to_move", n + 1, "seat to act (relative one-hot), last flag = deal over", (), to_move),
            seat(layout, "dealer", ("public", "dealer"), "dealer"),
            seats(layout, "active", ("public", "active"), "seats dealt a hand"),
            Slice("hand", n_cards, self._card_doc("this seat's hand"), (), hand),
            per_seat_number(layout, "hand_sizes", ("public", "hand_sizes"), hand_scale, "cards in each hand"),
            Slice("played", n * n_cards, self._card_doc("cards each seat has played, per relative seat"), (), played),
            Slice("trick", n * n_cards, self._card_doc("the current trick: the card each relative seat put in"), (), current),
            Slice("trick_leader", n, "leader of the current trick (relative seat one-hot)", (), leader),
            Slice("tricks_won", n, f"tricks won by each relative seat (divided by {hand_scale})", (), tricks_won),
            Slice("points_won", n, f"card points won by each relative seat (divided by {points_scale})", (), points_won),
            Slice(
                "actions",
                n * width,
                "bidding history, reservations, announcements, doubles, discards: per relative seat, how often it took each "
                "non-card action (columns in the order of the action codes below; last column: an action hidden from this seat)",
                (),
                actions,
            ),
        ]

    def _scan(self, obs: Observation) -> _Scan:
        """The scan of ``obs.events``, extending the seat's last one where these events continue those."""
        events = obs.events
        kept = self._scans.get(obs.seat)
        if kept is not None and kept[0] is events:
            return kept[1]
        if kept is not None and kept[0] and len(events) >= len(kept[0]) and events[len(kept[0]) - 1] is kept[0][-1]:
            # The same event object at the end of the old tuple: the new tuple extends it (the engine only
            # appends to a seat's settled events; a re-rendered history has new objects and is read afresh).
            result, start = kept[1], len(kept[0])
        else:
            result, start = _Scan(), 0
        layout, n = self.layout, self.layout.seats
        n_cards, n_faces = len(layout.cards) * layout.copies, len(layout.cards)
        width = len(self.other_codes) + 1
        for actor, text in events[start:]:
            rel = (actor - obs.seat) % n
            action = self.actions.by_text.get(text)
            card = self.card_of.get(action.code) if action is not None else None
            if card is not None and action is not None and action.code not in self.play_codes:
                position = rel * width + self._other_index[action.code]  # a Genscher: the choice is counted too
                result.counts[position] = result.counts.get(position, 0.0) + 1.0
            if card is not None:
                result.plays.append((actor, card))
                flag = rel * n_cards + layout.text_index[card]
                while flag in result.seen:  # the second copy of a face goes to the next block
                    flag += n_faces
                result.seen.add(flag)
                result.played.append(flag)
            else:
                column = width - 1 if action is None else self._other_index[action.code]  # last: hidden from this seat
                position = rel * width + column
                result.counts[position] = result.counts.get(position, 0.0) + 1.0
        self._scans[obs.seat] = (events, result)
        return result

    def _card_doc(self, what: str) -> str:
        copies = self.layout.copies
        blocks = f"; {copies} blocks of {len(self.layout.cards)} flags, block k = holds more than k copies" if copies > 1 else ""
        return f"{what} (one flag per card in card order{blocks})"

    def _points_scale(self) -> int:
        full = self.game.deck.cards(self.game.deck.full_mask)
        total = self.game.trick_points(full)
        if total:
            return total
        per_card = [self.game.trick_points([c]) for c in full]
        return sum(p for p in per_card if p) or 100

    def _card_points(self) -> dict[str, int] | None:
        """Card points by card text where the game counts a trick card by card (``None``: Tapp Tarock counts in threes)."""
        single = {c.text: self.game.trick_points([c]) for c in self.layout.cards}
        if any(p is None for p in single.values()):
            return None
        return {text: p or 0 for text, p in single.items()}

    def slices(self) -> tuple[SliceInfo, ...]:
        """Every slice in tensor order."""
        return self.infos

    # ------------------------------------------------------------ encoding
    def tensor(self, obs: Observation) -> npt.NDArray[np.float32]:
        """The observation tensor of ``obs`` (``float32``, shape ``(size,)``)."""
        self._check(obs)
        out = np.zeros(self.size, dtype=np.float32)
        ones: Ones = []
        values: Values = {}
        for write, start in self._writers:
            write(obs, start, ones, values)
        return fill(out, ones, values)

    def mask(self, obs: Observation) -> npt.NDArray[np.int8]:
        """Legal-action mask over the game's whole action space (1 = legal); all zero unless ``obs.seat`` is to act."""
        self._check(obs)
        out = np.zeros(len(self.actions), dtype=np.int8)
        for action in obs.legal_actions:
            out[action.code] = 1
        return out

    def info_state(self, obs: Observation) -> str:
        """Everything ``obs.seat`` knows, as one deterministic string (equal strings = equal information)."""
        self._check(obs)
        trick = obs.tricks[-1] if obs.tricks and obs.tricks[-1].winner is None else None
        lines = [
            f"game {obs.game}",
            f"seat {obs.seat} phase {obs.phase} to_move {obs.to_move}",
            "hand " + " ".join(c.text for c in obs.hand),
            "events " + "; ".join(f"{s}:{t}" for s, t in obs.events),
            "trick " + (f"{trick.leader}: " + " ".join(c.text for c in trick.cards) if trick else "-"),
            "public " + json.dumps(obs.public, sort_keys=True, separators=(",", ":")),
            "private " + json.dumps(obs.private, sort_keys=True, separators=(",", ":")),
        ]
        return "\n".join(lines)

    def _check(self, obs: Observation) -> None:
        if obs.game != self.game.canonical:
            raise ValueError(f"observation of {obs.game}, encoding of {self.game.canonical}")


def fill(out: npt.NDArray[np.float32], ones: Ones, values: Values) -> npt.NDArray[np.float32]:
    """``out`` with the slices' ones and values written into it."""
    if ones:
        out[np.array(ones, dtype=np.intp)] = 1.0  # an index array: numpy reads a plain list of ints much more slowly
    for position, value in values.items():
        out[position] = value
    return out


@cache
def encoding_for(canonical: str) -> Encoding:
    """One shared encoding of a configured game, by canonical string (for one thread)."""
    return Encoding(game_from_string(canonical))
