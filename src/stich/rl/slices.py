"""The building blocks of an observation tensor: named, fixed-size slices read from an Observation.

Every slice reads only an :class:`~stich.core.game.Observation` (what one seat
may know), never a state, so a tensor can carry no card its seat is not
entitled to.  Seats are written *relative* to the observing seat: index 0 is
the seat itself, 1 the next seat in seat order, and so on, so that one policy
serves every seat.

A slice that meets a value it has no place for raises ``ValueError`` instead
of dropping it silently: the encoding tests play every preset and would fail.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from stich.cards import Card
from stich.core.game import Game, Observation

Floats = npt.NDArray[np.float32]

Ones = list[int]
"""Tensor positions a slice sets to 1 (collected over all slices, then written at once)."""
Values = dict[int, float]
"""Tensor positions a slice sets to another value (a slice that adds up adds into its own entries)."""
Writer = Callable[[Observation, int, Ones, Values], None]
"""``write(obs, base, ones, values)``: a slice's values, at tensor positions ``base + i``."""

Path = tuple[str, ...]
"""Where a value lives in an observation: ``("public", "calls", "re")``, ``("private", "discards")``."""


def lookup(obs: Observation, path: Path) -> Any:
    """The value at ``path`` (first key ``public`` or ``private``), ``None`` where any key is missing."""
    return getter(path)(obs)


def getter(path: Path) -> Callable[[Observation], Any]:
    """A function that reads ``path`` from an observation (see :func:`lookup`); one key deep is a plain ``get``."""
    public = path[0] == "public"
    if len(path) == 2:
        key = path[1]
        if public:
            return lambda obs: obs.public.get(key)
        return lambda obs: obs.private.get(key)
    keys = path[1:]

    def read(obs: Observation) -> Any:
        value: Any = obs.public if public else obs.private
        for key in keys:
            if not (type(value) is dict or isinstance(value, Mapping)) or key not in value:  # a dict skips the slower ABC check
                return None
            value = value[key]
        return value

    return read


@dataclass(frozen=True)
class Layout:
    """What every slice of one configured game needs: the card universe and the table size."""

    game: Game
    cards: tuple[Card, ...]
    """Every card the game can deal, in the order of its ``play`` action codes (stable across presets)."""
    copies: int
    """Physical copies of a card in the pack (Doppelkopf: 2)."""
    seats: int
    card_index: Mapping[Card, int] = field(init=False)
    text_index: Mapping[str, int] = field(init=False)

    def __post_init__(self) -> None:
        # Keyed by the deck's own face objects where the game has them: hands hold those, and a dict finds a key
        # that *is* the card looked up without calling Card.__eq__ (an equal card parsed elsewhere still matches).
        faces = {face: face for face in self.game.deck.faces}
        object.__setattr__(self, "card_index", {faces.get(c, c): i for i, c in enumerate(self.cards)})
        object.__setattr__(self, "text_index", {c.text: i for i, c in enumerate(self.cards)})

    def relative(self, obs: Observation, seat: int) -> int:
        """``seat`` as seen from the observing seat (0 = itself)."""
        return (seat - obs.seat) % self.seats


@dataclass(frozen=True)
class Slice:
    """One named part of the tensor: ``size`` floats, written by ``write(obs, base, ones, values)``."""

    name: str
    size: int
    doc: str
    reads: tuple[str, ...]
    """Top-level public/private keys this slice reads (``public.calls``); the completeness test checks them."""
    write: Writer


def card_flags(layout: Layout, cards: Iterable[Card | str], where: str) -> list[int]:
    """Positions of the flags of a card set: ``copies`` blocks of one flag per card, block ``k`` = "more than ``k`` copies"."""
    n = len(layout.cards)
    flags: list[int] = []
    seen: set[int] = set()
    for card in cards:
        index = layout.text_index.get(card) if isinstance(card, str) else layout.card_index.get(card)
        if index is None:
            raise ValueError(f"{where}: {card if isinstance(card, str) else card.text!r} is not a card of {layout.game.name}")
        while index in seen:
            index += n
        if index >= n * layout.copies:
            raise ValueError(f"{where}: more than {layout.copies} copies of {layout.cards[index % n].text}")
        seen.add(index)
        flags.append(index)
    return flags


def card_values(layout: Layout, cards: Iterable[Card | str], where: str) -> Floats:
    """A card set as its slice (see :func:`card_flags`)."""
    out = np.zeros(len(layout.cards) * layout.copies, dtype=np.float32)
    out[card_flags(layout, cards, where)] = 1.0
    return out


def _refuse(path: Path, value: Any, vocabulary: Sequence[Any]) -> ValueError:
    return ValueError(f"{'.'.join(path)}: value {value!r} has no place in {list(vocabulary)}")


def _key(path: Path) -> tuple[str, ...]:
    return (".".join(path[:2]),)


def cards_at(layout: Layout, name: str, path: Path, doc: str) -> Slice:
    """A card set (a list of card texts, or one card text) found at ``path``; none there = all zero."""
    read = getter(path)
    where = ".".join(path)

    def write(obs: Observation, base: int, ones: Ones, values: Values) -> None:
        value = read(obs)
        if value is not None:
            ones.extend(base + f for f in card_flags(layout, [value] if isinstance(value, str) else value, where))

    return Slice(name, len(layout.cards) * layout.copies, doc, _key(path), write)


def one_hot(name: str, path: Path, vocabulary: Sequence[Any], doc: str) -> Slice:
    """One flag per value of ``vocabulary``; no value (``None``) = all zero; another value raises."""
    index = {v: i for i, v in enumerate(vocabulary)}
    read = getter(path)

    def write(obs: Observation, base: int, ones: Ones, values: Values) -> None:
        value = read(obs)
        if value is not None:
            if value not in index:
                raise _refuse(path, value, vocabulary)
            ones.append(base + index[value])

    return Slice(name, len(vocabulary), f"{doc} (one flag each: {', '.join(map(str, vocabulary))})", _key(path), write)


def multi_hot(name: str, path: Path, vocabulary: Sequence[Any], doc: str) -> Slice:
    """One flag per value of ``vocabulary`` present in the list at ``path``."""
    index = {v: i for i, v in enumerate(vocabulary)}
    read = getter(path)

    def write(obs: Observation, base: int, ones: Ones, values: Values) -> None:
        for value in read(obs) or ():
            if value not in index:
                raise _refuse(path, value, vocabulary)
            ones.append(base + index[value])

    return Slice(name, len(vocabulary), f"{doc} (one flag each: {', '.join(map(str, vocabulary))})", _key(path), write)


def seat(layout: Layout, name: str, path: Path, doc: str) -> Slice:
    """One seat (relative one-hot); none = all zero."""
    read = getter(path)
    n = layout.seats

    def write(obs: Observation, base: int, ones: Ones, values: Values) -> None:
        value = read(obs)
        if value is not None:
            ones.append(base + (int(value) - obs.seat) % n)

    return Slice(name, n, f"{doc} (relative seat one-hot, none = zeros)", _key(path), write)


def seats(layout: Layout, name: str, path: Path, doc: str) -> Slice:
    """A list of seats (relative multi-hot)."""
    read = getter(path)
    n = layout.seats

    def write(obs: Observation, base: int, ones: Ones, values: Values) -> None:
        me = obs.seat
        ones.extend(base + (int(value) - me) % n for value in read(obs) or ())

    return Slice(name, n, f"{doc} (relative seat multi-hot)", _key(path), write)


def _by_relative_seat(value: Any, me: int, n: int) -> Iterator[tuple[int, Any]]:
    """``(relative seat, item)`` of a ``{"seat": item}`` mapping or a list indexed by seat (``None`` = nothing)."""
    kind = type(value)  # the usual dict, list and None first: isinstance(value, Mapping) is an ABC check, slow for a list
    if kind is dict:
        items: Iterable[tuple[Any, Any]] = value.items()
    elif kind is list or kind is tuple or value is None or not isinstance(value, Mapping):
        items = enumerate(value or ())
    else:
        items = value.items()
    for key, item in items:
        yield (int(key) - me) % n, item


def per_seat(layout: Layout, name: str, path: Path, vocabulary: Sequence[Any], doc: str) -> Slice:
    """A mapping ``{"seat": value}`` (or a list indexed by seat): per relative seat, one flag per value."""
    index = {v: i for i, v in enumerate(vocabulary)}
    width = len(vocabulary)
    read = getter(path)
    n = layout.seats

    def write(obs: Observation, base: int, ones: Ones, values: Values) -> None:
        for relative, item in _by_relative_seat(read(obs), obs.seat, n):
            if item not in index:
                raise _refuse(path, item, vocabulary)
            ones.append(base + relative * width + index[item])

    return Slice(
        name,
        n * width,
        f"{doc} (per relative seat, one flag each: {', '.join(map(str, vocabulary))})",
        _key(path),
        write,
    )


def per_seat_flags(layout: Layout, name: str, path: Path, doc: str) -> Slice:
    """A list of booleans indexed by seat (or a ``{"seat": bool}`` mapping): one flag per relative seat, set where true."""
    read = getter(path)
    n = layout.seats

    def write(obs: Observation, base: int, ones: Ones, values: Values) -> None:
        for relative, item in _by_relative_seat(read(obs), obs.seat, n):
            if not isinstance(item, bool):
                raise _refuse(path, item, (True, False))
            if item:
                ones.append(base + relative)

    return Slice(name, n, f"{doc} (per relative seat, set where true)", _key(path), write)


def per_seat_number(layout: Layout, name: str, path: Path, scale: float, doc: str) -> Slice:
    """A mapping ``{"seat": number}``: per relative seat, the number divided by ``scale``."""
    read = getter(path)
    n = layout.seats

    def write(obs: Observation, base: int, ones: Ones, values: Values) -> None:
        for relative, item in _by_relative_seat(read(obs) or {}, obs.seat, n):
            if item:
                values[base + relative] = float(item) / scale

    return Slice(name, n, f"{doc} (per relative seat, divided by {scale:g})", _key(path), write)


def number(name: str, path: Path, scale: float, doc: str, transform: Callable[[float], float] | None = None) -> Slice:
    """One number (a bool counts as 0/1) divided by ``scale``; none = 0."""
    read = getter(path)

    def write(obs: Observation, base: int, ones: Ones, values: Values) -> None:
        value = read(obs)
        if value is not None:
            x = float(value)
            values[base] = (transform(x) if transform else x) / scale

    return Slice(name, 1, f"{doc} (divided by {scale:g})", _key(path), write)


def present(name: str, path: Path, doc: str) -> Slice:
    """1 when the observation holds a value (not ``None``, not false) at ``path``."""
    read = getter(path)

    def write(obs: Observation, base: int, ones: Ones, values: Values) -> None:
        if read(obs):
            ones.append(base)

    return Slice(name, 1, f"{doc} (1 = yes)", _key(path), write)
