"""The observation encoding: fixed size, read from observations only, every observation key has a place, nothing leaks."""

from __future__ import annotations

import random

import numpy as np
import pytest

from stich.core.registry import make_game
from stich.rl.encoding import Encoding, card_universe
from stich.rl.game_slices import IGNORED
from stich.rl.ids import game_for
from stich.rl.leak_check import random_points as random_deal

from .helpers import CONFIGS


def _slice(enc: Encoding, tensor: np.ndarray, name: str) -> np.ndarray:
    info = next(i for i in enc.slices() if i.name == name)
    return tensor[info.start : info.stop]


def _cards(enc: Encoding, flags: np.ndarray) -> list[str]:
    """Decode a card-set slice back into card texts (each copy once)."""
    n = len(enc.layout.cards)
    return sorted(enc.layout.cards[i % n].text for i in np.flatnonzero(flags))


@pytest.mark.parametrize("config", CONFIGS)
def test_tensor_and_mask_of_every_seat_at_every_step(config: str) -> None:
    game = game_for(config)
    enc = Encoding(game)
    assert [i.stop - i.start for i in enc.slices()] and enc.slices()[-1].stop == enc.size
    for seed in range(2):
        for state in random_deal(game, seed):
            legal = state.legal_codes() if not state.is_terminal() else []
            for seat in range(game.num_seats):
                obs = state.observation(seat)
                tensor = enc.tensor(obs)
                assert tensor.dtype == np.float32 and tensor.shape == (enc.size,)
                assert np.isfinite(tensor).all() and (tensor >= 0).all()
                # The hand slice is the hand, each copy once.
                assert _cards(enc, _slice(enc, tensor, "hand")) == sorted(c.text for c in obs.hand)
                mask = enc.mask(obs)
                assert mask.shape == (len(game.actions),)
                expected = legal if seat == state.current_player() else []
                assert list(np.flatnonzero(mask)) == expected


@pytest.mark.parametrize("config", CONFIGS)
def test_every_observation_key_has_a_slice_or_a_reason(config: str) -> None:
    game = game_for(config)
    enc = Encoding(game)
    read = {r for s in enc._slices for r in s.reads} | set(IGNORED[game.name])
    seen: set[str] = set()
    for seed in range(3):
        for state in random_deal(game, seed):
            for seat in range(game.num_seats):
                obs = state.observation(seat)
                seen |= {f"public.{k}" for k in obs.public} | {f"private.{k}" for k in obs.private}
    assert seen - read == set()


def test_the_card_universe_is_the_same_for_every_preset() -> None:
    # Droggn's 54- and 78-card packs and Doppelkopf with and without nines index cards alike.
    assert card_universe(make_game("droggn", "stubai")) == card_universe(make_game("droggn", "pack78"))
    assert card_universe(make_game("doppelkopf", "ddv")) == card_universe(make_game("doppelkopf", "ddv_no_nines"))
    assert Encoding(make_game("doppelkopf", "ddv")).size == Encoding(make_game("doppelkopf", "ddv_no_nines")).size


def test_played_and_trick_slices_follow_the_cards_on_the_table() -> None:
    game = make_game("doppelkopf")
    enc = Encoding(game)
    state = game.new_state(seed=3)
    while state.observation(0).phase != "play":
        state.apply(state.legal_codes()[0] if "gesund" not in [a.text for a in state.legal_actions()] else "gesund")
    first = state.current_player()
    state.apply(state.legal_codes()[0])
    card = state.observation(0).tricks[-1].cards[0]
    for seat in range(4):
        tensor = enc.tensor(state.observation(seat))
        rel = (first - seat) % 4
        width = 24 * 2
        played = _slice(enc, tensor, "played")
        trick = _slice(enc, tensor, "trick")
        assert _cards(enc, played[rel * width : (rel + 1) * width]) == [card.text]
        assert _cards(enc, trick[rel * width : (rel + 1) * width]) == [card.text]
        assert _slice(enc, tensor, "trick_leader")[rel] == 1.0
        assert _slice(enc, tensor, "to_move")[(first + 1 - seat) % 4] == 1.0


def test_an_observation_of_another_game_is_refused() -> None:
    enc = Encoding(make_game("doppelkopf"))
    obs = make_game("dobbm").new_state(seed=1).observation(0)
    with pytest.raises(ValueError, match="observation of dobbm"):
        enc.tensor(obs)


# ------------------------------------------------------------------ leaks
# The leak test (two deals that differ only in hidden cards, compared at every step) is tests/rl/test_leaks.py.


def test_a_change_the_seat_can_see_changes_its_tensor() -> None:
    # The leak test's counterpart: swapping a card into the seat's own hand is seen.
    game = make_game("doppelkopf")
    enc = Encoding(game)
    state = game.new_state(seed=5)
    piles = [game.deck.cards(m) for m in state.dealt]
    mine, theirs = piles[0][0], next(c for c in piles[1] if c != piles[0][0])
    piles[0][0], piles[1][piles[1].index(theirs)] = theirs, mine
    other = game.new_state(hands=piles, dealer=state.dealer)
    assert not np.array_equal(enc.tensor(other.observation(0)), enc.tensor(state.observation(0)))
    assert enc.info_state(other.observation(0)) != enc.info_state(state.observation(0))
    assert np.array_equal(enc.tensor(other.observation(2)), enc.tensor(state.observation(2)))


@pytest.mark.parametrize("config", ["stich/doppelkopf-ddv-v1", "stich/tapp_tarock-standard-v1", "stich/droggn-stubai-v1"])
def test_a_kept_scan_gives_the_tensor_a_fresh_encoding_gives(config: str) -> None:
    # One encoding follows two interleaved deals and a clone that branches off; each of its tensors
    # equals the tensor of an encoding that has never seen an earlier observation.
    game = game_for(config)
    kept = Encoding(game)
    deals = [[s.clone() for s in random_deal(game, seed)] for seed in (1, 2)]
    branch = deals[0][len(deals[0]) // 2].clone()
    rng = random.Random(0)
    states = [s for pair in zip(*deals, strict=False) for s in pair]
    for state in states:
        for seat in range(game.num_seats):
            assert np.array_equal(kept.tensor(state.observation(seat)), Encoding(game).tensor(state.observation(seat)))
    while not branch.is_terminal():
        branch.apply(rng.choice(branch.legal_codes()))
        seat = branch.current_player() if not branch.is_terminal() else 0
        assert np.array_equal(kept.tensor(branch.observation(seat)), Encoding(game).tensor(branch.observation(seat)))


@pytest.mark.parametrize("silent", [False, True])
def test_a_genscher_is_a_card_in_the_trick(silent: bool) -> None:
    # decision 0025: ``genscher <seat>`` plays the first diamond king; the encoding used to count it as a
    # non-card action only, so the current trick no longer matched the cards played (issue 41's leak check found it).
    game = make_game("doppelkopf", "ddv", {"genscher": True})
    first = "CQ CQ HQ DQ CJ SJ CA C10 CK SA S10 HA" if silent else "CQ SQ HQ DQ CJ SJ CA C10 CK SA S10 HA"
    second = "SQ SQ HQ DQ CJ SJ CA C10 CK SA S10 HA" if silent else first
    state = game.new_state(
        hands=[first, second, "H10 H10 DK DK D10 D10 HJ HJ C9 S9 DJ SK", "DJ DA DA D9 D9 C9 S9 SK HK HK H9 H9"], dealer=3
    )
    for text in ("gesund", "gesund", "gesund", "gesund", "play DQ", "play DQ", "genscher 3"):
        state.apply(text)
    enc = Encoding(game)
    for seat in range(4):
        tensor = enc.tensor(state.observation(seat))
        rel = (2 - seat) % 4
        width = 24 * 2
        assert _cards(enc, _slice(enc, tensor, "trick")[rel * width : (rel + 1) * width]) == ["DK"]
        assert _cards(enc, _slice(enc, tensor, "played")[rel * width : (rel + 1) * width]) == ["DK"]
