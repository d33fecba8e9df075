"""Tapp Tarock's kernel :class:`~stich.bots.tarock_family.adapter.Adapter`: its card play as a kernel position, and its scores."""

from __future__ import annotations

from collections.abc import Sequence

from stich.bots.tarock_family.adapter import SCORE_CACHE, solo_position
from stich.bots.tarock_family.kernel import KernelGame, TrickPosition, TrickRules
from stich.core.game import Game, State
from stich.core.tricks import PlayedTrick
from stich.games.tapp_tarock import pack as tapp_pack
from stich.games.tapp_tarock.actions import ANNOUNCE_WORDS
from stich.games.tapp_tarock.options import TappTarockOptions
from stich.games.tapp_tarock.outcome import TRICKS as TAPP_TRICKS
from stich.games.tapp_tarock.outcome import DealFacts
from stich.games.tapp_tarock.scoring import score
from stich.games.tapp_tarock.state import TappTarockState


class TappTarockAdapter:
    """Tapp Tarock (dossier §6-§8): the declarer against two defenders, tarocks trump, Trumpfzwang, counted in thirds.

    A pile's points in thirds are ``3F - 2n`` (§7), so each card counts
    ``3 f - 2`` thirds and the kernel adds them up exactly.  The score also
    depends on the declarer's tricks (Valat §8.2: all 16; the defenders'
    Valat: none) and on the last trick (the Pagat ultimo §8.3: who played the
    Pagat to it and who won it), which the kernel games report; it is not a
    monotone function of the card points, so the solver does not apply
    (``exact`` is false: the last tricks go to the engine's exact search,
    :class:`~stich.search.ismcts.ExactEndgame`).
    """

    exact = False

    def __init__(self, game: Game) -> None:
        options = game.options
        assert isinstance(options, TappTarockOptions)
        self.options = options
        self.rules = TrickRules.of(tapp_pack.ORDER, tuple(3 * p - 2 for p in tapp_pack.POINTS))
        self._scores: dict[tuple[object, ...], tuple[int, ...]] = {}

    def position(self, state: State) -> TrickPosition:
        """The Tapp Tarock state's card play in kernel seats (the three active seats in playing order)."""
        assert isinstance(state, TappTarockState)
        return solo_position(state, self.rules, TAPP_TRICKS)

    def bonus(self, state: State) -> tuple[int, int]:
        """Not asked: the solver does not apply to Tapp Tarock (``exact`` is false)."""
        raise NotImplementedError("Tapp Tarock's score is not monotone in card points: its endgames are searched by the engine")

    def solved(self, state: State, value: int) -> tuple[int, ...]:
        """Not asked: the solver does not apply to Tapp Tarock (``exact`` is false)."""
        raise NotImplementedError("Tapp Tarock's score is not monotone in card points: its endgames are searched by the engine")

    def played_out(self, state: State, games: Sequence[KernelGame]) -> list[tuple[int, ...]]:
        """Scores per game: the declarer's thirds (won cards and discards), tricks, and the last trick's Pagat."""
        assert isinstance(state, TappTarockState) and state.declarer is not None
        pack = tapp_pack
        declarer = state.declarer
        seats = tuple(state.active)
        before = state.won[declarer] | state.discards
        before_tricks = sum(1 for _s, _c, winner in state.tricks if winner == declarer)
        bonus_names = tuple(state.bonus_names())
        pagat_seat = -1
        for seat, card in zip(state.trick_seats, state.trick_cards, strict=True):
            if card == pack.PAGAT:
                pagat_seat = seat
        for seat in seats:
            if state.hands[seat] >> pack.PAGAT & 1:
                pagat_seat = seat
        context = (state.level, declarer, seats, tuple(state.announced), tuple(state.doubling), bonus_names, pagat_seat)
        found: list[tuple[int, ...]] = []
        for won, tricks, last, last_cards in games:
            thirds = pack.mask_thirds(before | won)
            total_tricks = before_tricks + tricks
            winner = seats[last]
            pagat_last = pagat_seat if last_cards >> pack.PAGAT & 1 else -1
            key = (context, thirds, total_tricks, winner, pagat_last)
            scores = self._scores.get(key)
            if scores is None:
                if len(self._scores) >= SCORE_CACHE:
                    self._scores.clear()
                # Only the Pagat's place in the last trick matters to the evaluation (§8.3), not the order of its cards.
                last_trick = PlayedTrick((pagat_last,), (pack.FACES[pack.PAGAT],), winner) if pagat_last >= 0 else None
                facts = DealFacts(
                    num_seats=state.game.num_seats,
                    active_seats=seats,
                    declarer=declarer,
                    contract=pack.CONTRACT_BY_LEVEL[state.level].name,
                    declarer_cards=(),
                    defender_cards=(),
                    declarer_tricks=total_tricks,
                    last_trick=last_trick,
                    announced=frozenset(w for w, on in zip(ANNOUNCE_WORDS, state.announced, strict=True) if on),
                    doubling=(state.doubling[0], state.doubling[1], state.doubling[2]),
                )
                total = 3 * pack.TOTAL_POINTS
                scores = self._scores[key] = tuple(score(facts, self.options, thirds, total - thirds, bonus_names).scores)
            found.append(scores)
        return found
