"""The engine's fast paths against slow, plainly written reference computations.

The Tarock-family engines use precomputed tables, bit tricks and shortcuts
in their hot paths (legal cards, trick winners, card points, counting) so
that search can play many deals per second.  These tests recompute the same
things the slow and obvious way, straight from the cards and the rules of
the dossiers, and compare:

* :func:`stich.cards.iter_bits`, :func:`stich.cards.memo_bits`,
  :meth:`stich.cards.Deck.cards` and :func:`stich.cards.mask_value` on random masks;
* :func:`stich.core.tricks.trick_winner` and the games' card-point helpers;
* every step of many seeded random deals of every preset (and more option
  variants) of Tapp Tarock, Dobbm, Droggn and Dappen: the legal cards in
  play, the winner of every trick, and the counted card points of the result
  (in Tapp Tarock also: the state's result, counted from masks, equals
  ``evaluate`` of its facts, counted from the cards);
* Droggn's discards against a search over every completion of the three
  discards;
* a clone played on with the same random choices as its original ends in the
  same result.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from stich.cards import Card, Deck, Rank, Suit, iter_bits, mask_value, memo_bits, value_groups
from stich.core.registry import make_game
from stich.core.tricks import trick_winner
from stich.games.dappen import pack as dappen_pack
from stich.games.dobbm import pack as dobbm_pack
from stich.games.droggn import actions as droggn_actions
from stich.games.droggn import pack as droggn_pack
from stich.games.tapp_tarock import pack as tapp_pack
from stich.games.tapp_tarock import scoring as tapp_scoring

# ------------------------------------------------------------------ plain references


def ref_bits(mask: int, size: int) -> list[int]:
    """Set bits of ``mask`` below ``size``, ascending, one test at a time."""
    return [i for i in range(size) if mask >> i & 1]


def ref_cards(deck: Deck, mask: int) -> list[Card]:
    """The cards of ``mask`` face by face, each face as often as its copies are in the mask."""
    out = []
    for f, face in enumerate(deck.faces):
        out += [face] * sum(1 for copy in range(deck.copies) if mask >> (copy * deck.n_faces + f) & 1)
    return out


def ref_points(card: Card) -> int:
    """Tarock-pack face value [§1 of the Tarock dossiers]: Trull / five-pointers 5, K 5, Q 4, C 3, J 2, the rest 1."""
    if card.suit is Suit.TAROCK:
        return 5 if card.rank in (1, 21, 22) else 1
    return {Rank.KING: 5, Rank.QUEEN: 4, Rank.CAVALIER: 3, Rank.JACK: 2}.get(Rank(card.rank), 1)


def ref_dobbm_points(card: Card) -> int:
    """Dobbm [§1]: Sau 11, Zehner 10, König 4, Ober 3, Unter 2, the rest 0."""
    return {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}.get(Rank(card.rank), 0)


Rank_ = tuple[str, int]
"""A card's trick class: (``"trump"``, number), (``"excuse"``, 0) or (suit letter, strength)."""


def tapp_class(card: Card) -> Rank_:
    """Tapp Tarock [§1, §6]: tarocks by number; black K Q C J 10 9 8 7, red K Q C J 1 2 3 4."""
    if card.suit is Suit.TAROCK:
        return ("trump", card.rank)
    return (card.suit.letter, _suit_strength(card, red_pips=(1, 2, 3, 4), black_pips=(10, 9, 8, 7)))


def dappen_class(card: Card) -> Rank_:
    """Dappen [§1, §6.1]: all 22 tarocks are trumps by number (the Gstieß highest); suits as in Tapp Tarock."""
    return tapp_class(card)


def droggn_class(card: Card) -> Rank_:
    """Droggn [§1, §6]: T1..T21 trumps, the Gstieß T22 an excuse; black K Q C J 10..1, red K Q C J 1..10."""
    if card.suit is Suit.TAROCK:
        return ("excuse", 0) if card.rank == 22 else ("trump", card.rank)
    return (card.suit.letter, _suit_strength(card, red_pips=tuple(range(1, 11)), black_pips=tuple(range(10, 0, -1))))


def dobbm_class(card: Card) -> Rank_:
    """Dobbm [§1, §6]: hearts are trumps; A 10 K Q J 9 8 7 6 in every suit."""
    order = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE, Rank.EIGHT, Rank.SEVEN, Rank.SIX)
    strength = len(order) - order.index(Rank(card.rank))
    return ("trump" if card.suit is Suit.HEARTS else card.suit.letter, strength)


def _suit_strength(card: Card, *, red_pips: tuple[int, ...], black_pips: tuple[int, ...]) -> int:
    pips = red_pips if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else black_pips
    ranks = (Rank.KING, Rank.QUEEN, Rank.CAVALIER, Rank.JACK, *pips)
    return len(ranks) - ranks.index(card.rank)


CLASSES: dict[str, Callable[[Card], Rank_]] = {
    "tapp_tarock": tapp_class,
    "dappen": dappen_class,
    "droggn": droggn_class,
    "dobbm": dobbm_class,
}


def ref_led(trick: Sequence[Card], classify: Callable[[Card], Rank_]) -> str | None:
    """The suit asked for: that of the first card that is not an excuse."""
    for card in trick:
        kind = classify(card)[0]
        if kind != "excuse":
            return kind
    return None


def ref_basic_legal(hand: Sequence[Card], trick: Sequence[Card], classify: Callable[[Card], Rank_]) -> set[Card]:
    """Follow suit; else trump; else anything; an excuse may always go [§6 of each dossier]."""
    led = ref_led(trick, classify)
    if led is None:
        return set(hand)
    excuses = {c for c in hand if classify(c)[0] == "excuse"}
    follow = {c for c in hand if classify(c)[0] == led}
    if follow:
        return follow | excuses
    trumps = {c for c in hand if classify(c)[0] == "trump"}
    if trumps:
        return trumps | excuses
    return set(hand)


def ref_winner(trick: Sequence[Card], classify: Callable[[Card], Rank_], skip: int = -1) -> int:
    """Position of the highest trump, else of the highest card of the suit led; the first of equals (none)."""
    led = ref_led([c for i, c in enumerate(trick) if i != skip], classify)
    best, best_key = 0, (-1, 0)
    for pos, card in enumerate(trick):
        if pos == skip:
            continue
        kind, strength = classify(card)
        key = (2, strength) if kind == "trump" else (1, strength) if kind == led else (0, 0)
        if key > best_key:
            best, best_key = pos, key
    return best


def ref_pairs(cards: Sequence[Card]) -> int:
    """Dappen's counting in pairs [§1]: face values minus one per started pair."""
    return sum(ref_points(c) for c in cards) - (len(cards) + 1) // 2


def ref_threes_droggn(cards: Sequence[Card]) -> int:
    """Droggn's counting in threes [§7]: minus 2 per full three, minus 1 for a remainder."""
    n = len(cards)
    return sum(ref_points(c) for c in cards) - 2 * (n // 3) - (1 if n % 3 else 0)


# ------------------------------------------------------------------ per-game rule references


def ref_droggn_legal(state: Any, seat: int) -> set[Card]:
    """Droggn [§5.1, §5.2, §6.1-§6.3]: the basic rule, then the laid-out Gstieß / Pagat and the Gstieß-not-last variant."""
    faces = droggn_pack.FACES
    hand = [faces[i] for i in ref_bits(state.hands[seat], len(faces))]
    trick = [faces[i] for i in state.trick_cards]
    legal = ref_basic_legal(hand, trick, droggn_class)
    gstiess, pagat = faces[droggn_pack.GSTIESS], faces[droggn_pack.PAGAT]
    if gstiess in hand:
        if state.laid_out == droggn_pack.GSTIESS and state.laid_out_by == seat:
            if len(hand) > 1:
                legal.discard(gstiess)
        elif state.game.options.gstiess_last_trick_illegal and len(hand) == 2:
            legal = {gstiess}
    if state.laid_out == droggn_pack.PAGAT and state.laid_out_by == seat and pagat in legal and len(legal) > 1:
        legal.discard(pagat)
    return legal


def ref_dappen_legal(state: Any, seat: int) -> set[Card]:
    """Dappen [§5.1, §6.1-§6.3]: Buchenbach's first tricks, the kept-back Gstieß, laid-out Ulti cards, Gstiesieren."""
    faces = dappen_pack.FACES
    opts = state.game.options
    hand = [faces[i] for i in ref_bits(state.hands[seat], len(faces))]
    trick = [faces[i] for i in state.trick_cards]
    gstiess, mund, geiss = faces[dappen_pack.GSTIESS], faces[dappen_pack.MUND], faces[dappen_pack.GEISS]
    number = len(state.tricks)
    if opts.first_three_tricks and number < 3:
        bound = (gstiess, mund, geiss)[number]
        if bound in hand:
            return {bound}
        trumps = [c for c in hand if c.suit is Suit.TAROCK]
        allowed = {c for c in trumps if c not in (gstiess, mund, geiss)} if number < 2 else set(trumps)
        if allowed:
            return allowed
        empty = {c for c in hand if c.suit is not Suit.TAROCK and ref_points(c) == 1}
        return empty or {c for c in hand if c.suit is not Suit.TAROCK} or set(hand)
    usable = hand
    if state.kept_back == seat and hand != [gstiess]:
        usable = [c for c in hand if c != gstiess]
    base = ref_basic_legal(usable, trick, dappen_class)
    laid = {faces[dappen_pack.ULTI_CARDS[k]] for k in state.ulti}
    if seat == state.lone and laid & set(hand):
        free = base - laid
        if free:
            return free
        return {max(base & laid, key=lambda c: c.rank)}
    keeps = opts.gstiesieren and seat != state.lone and state.kept_back is None and trick
    if keeps and hand != [gstiess] and base == {gstiess}:
        return set(hand)
    return base


def ref_legal(state: Any, seat: int) -> set[Card]:
    """The cards ``seat`` may play now, by the plain rules."""
    name = state.game.name
    if name == "droggn":
        return ref_droggn_legal(state, seat)
    if name == "dappen":
        return ref_dappen_legal(state, seat)
    faces = state.game.deck.faces
    hand = [faces[i] for i in ref_bits(state.hands[seat], len(faces))]
    return ref_basic_legal(hand, [faces[i] for i in state.trick_cards], CLASSES[name])


def ref_trick_winner(state: Any, cards: Sequence[int]) -> int:
    """The winning position of a just completed trick (before the state moved on)."""
    name = state.game.name
    faces = state.game.deck.faces
    trick = [faces[i] for i in cards]
    if name == "droggn":
        last = len(state.tricks) == state.n_tricks - 1
        if last and state.laid_out == droggn_pack.GSTIESS and droggn_pack.GSTIESS in cards:
            return list(cards).index(droggn_pack.GSTIESS)  # the laid-out Gstieß takes the last trick [§5.2]
    skip = -1
    if name == "dappen" and state.kept_back is not None and dappen_pack.GSTIESS in cards:
        skip = list(cards).index(dappen_pack.GSTIESS)  # a shown kept-back Gstieß takes no part [§6.2]
    return ref_winner(trick, CLASSES[name], skip)


# ------------------------------------------------------------------ result references


def check_result(state: Any) -> None:
    """Recount the card points of a finished deal from its tricks and compare them with the result."""
    result = state.result()
    if result.thrown_in:
        return
    breakdown = result.breakdown
    name = state.game.name
    faces = state.game.deck.faces

    def cards(mask: int) -> list[Card]:
        return [faces[i] for i in ref_bits(mask, len(faces))]

    if name == "tapp_tarock":
        # The state counts from masks; evaluate() counts the facts' cards: the same result.
        assert result == tapp_scoring.evaluate(state.facts(), state.game.options)
        declarer = state.declarer
        pile = [faces[c] for _s, cs, w in state.tricks if w == declarer for c in cs] + cards(state.discards)
        assert breakdown["thirds"]["declarer"] == 3 * sum(ref_points(c) for c in pile) - 2 * len(pile)
        assert breakdown["thirds"]["declarer"] + breakdown["thirds"]["defenders"] == 210
        assert breakdown["tricks"]["declarer"] == sum(1 for *_r, w in state.tricks if w == declarer)
        expected = []
        for seat in state.active:
            hand = set(cards(state.bonus_mask(seat)))
            trull = len(hand & {Card(Suit.TAROCK, n) for n in (1, 21, 22)})
            kings = sum(1 for c in hand if c.suit is not Suit.TAROCK and c.rank == Rank.KING)
            names = (["trull"] if trull == 3 else ["koepfe"] if trull == 2 else []) + (["royal_trull"] if kings == 4 else [])
            expected += [(name, seat) for name in names]
        assert [(b["name"], b["seat"]) for b in breakdown["hand_bonuses"]] == expected
    elif name == "dobbm":
        won = [faces[c] for _s, cs, w in state.tricks if w == state.declarer for c in cs]
        assert breakdown["trick_points"] == sum(ref_dobbm_points(c) for c in won)
        assert breakdown["talon"]["points"] == sum(ref_dobbm_points(c) for c in cards(state.laid_away))
    elif name == "droggn":
        decl, other = [], []
        for seats, cs, winner in state.tricks:
            pos = list(seats).index(winner)
            for k, (seat, c) in enumerate(zip(seats, cs, strict=True)):
                owner = seat if c == droggn_pack.GSTIESS and k != pos else winner  # the Gstieß stays with its side [§6.2]
                (decl if owner == state.declarer else other).append(faces[c])
        decl += cards(state.discards | state.talon)
        total = 78 if state.game.options.pack_size == 78 else 74
        if not breakdown["matsch"] and not (state.contract.mord and breakdown["winner"] == "declarer"):
            assert breakdown["card_points"]["declarer"] == ref_threes_droggn(decl)
        assert sum(breakdown["card_points"].values()) == total
    elif name == "dappen" and not breakdown.get("seven_fives") and breakdown["kind"] == "game":
        lone, opp = ref_dappen_piles(state)
        assert breakdown["face_points"] == {"lone": sum(ref_points(c) for c in lone), "opponents": sum(ref_points(c) for c in opp)}
        assert breakdown["cards"] == {"lone": len(lone), "opponents": len(opp)}
        if breakdown["counting"] == "pairs":
            assert breakdown["points"] == {"lone": ref_pairs(lone), "opponents": ref_pairs(opp)}


def ref_dappen_piles(state: Any) -> tuple[list[Card], list[Card]]:
    """Dappen's piles after §7.1 (see ``DappenState.piles``), recounted from the tricks."""
    faces = dappen_pack.FACES
    gstiess = faces[dappen_pack.GSTIESS]
    lone = [faces[c] for _s, cs, w in state.tricks if w == state.lone for c in cs]
    opp = [faces[c] for _s, cs, w in state.tricks if w != state.lone for c in cs]
    if not lone:
        return [], list(faces)
    lone += [faces[i] for i in ref_bits(state.discards | state.dapp, len(faces))]
    if state.kept_back is not None:
        lone = [c for c in lone if c != gstiess]
        if all(c == gstiess for c in opp):
            return [*lone, gstiess], []
        opp = [c for c in opp if c != gstiess] + [gstiess]
        if state.tricks[-1][2] == state.lone:
            handed = min((c for c in opp if c != gstiess), key=lambda c: (ref_points(c), faces.index(c)))
            opp.remove(handed)
            lone.append(handed)
    return lone, opp


# ------------------------------------------------------------------ random deals

CONFIGS: list[tuple[str, str | None, dict[str, Any]]] = [
    *[("tapp_tarock", p, {}) for p in ("standard", "seed", "kruepl", "furr", "four_players")],
    ("tapp_tarock", None, {"hand_bonus_timing": "after_talon", "hand_bonus_settlement": "side_based", "defender_valat": True}),
    ("tapp_tarock", None, {"valat_replaces_game": False, "valat_mode": "multiplier_4_8", "kontra_scope": "game_only"}),
    *[("dobbm", p, {}) for p in ("pagat", "pagat_5", "mussrunde", "high_stake", "seed")],
    ("dobbm", None, {"sow_discard_rule": "any_heart_incl_sow", "dobb_to_defenders_if_declarer_no_trick": False, "retour_limit": 2}),
    *[("droggn", p, {}) for p in ("stubai", "kroesbacher", "pack78")],
    ("droggn", None, {"players": 4, "win_threshold": "37_tie_last_trick", "super_mord_pagat_scoring": "additive"}),
    ("droggn", None, {"gstiess_last_trick_illegal": True, "defender_may_lay_out_pagat": False, "win_threshold": "38"}),
    *[("dappen", p, {}) for p in ("furtwangen", "breitnau", "buchenbach", "schollach", "waldau", "jeu_du_tarot")],
    ("dappen", None, {"players": 8, "idle_dealer_pays": True, "game_scale": "half", "ulti_scale": "half"}),
    ("dappen", "jeu_du_tarot", {"players": 4, "max_active": 4, "discard_rule": "honneurs_fives"}),
]
"""Every preset of the four games and option variants that reach more rules."""

DEALS = 20


@pytest.mark.parametrize(("name", "preset", "options"), CONFIGS, ids=[f"{n}-{p}-{len(o)}" for n, p, o in CONFIGS])
def test_random_deals_match_the_plain_rules(name: str, preset: str | None, options: dict[str, Any]) -> None:
    """Random legal actions through every phase: the legal cards and every trick's winner by the plain rules."""
    game = make_game(name, preset, options)
    faces = game.deck.faces
    for deal in range(DEALS):
        rng = random.Random(deal)
        state: Any = game.new_state(seed=100 + deal, dealer=deal % game.num_seats)
        while not state.is_terminal():
            codes = state.legal_codes()
            assert codes == sorted(set(codes)), "legal codes must be ascending and unique"
            # In odd deals, before the play, the first code (mostly a pass) half the time: low contracts come up too.
            first = deal % 2 == 1 and state.phase_name != "play" and rng.random() < 0.5
            code = codes[0] if first else codes[rng.randrange(len(codes))]
            expected = None
            if state.phase_name == "play":
                seat = state.current_player()
                assert {faces[c] for c in codes} == ref_legal(state, seat), f"deal {deal}: wrong legal cards"
                if len(state.trick_cards) + 1 == len(state.active):
                    cards = (*state.trick_cards, code)
                    expected = (cards, (*state.trick_seats, seat)[ref_trick_winner(state, cards)])
            state.apply(code)
            if expected is not None:
                assert (state.tricks[-1][1], state.tricks[-1][2]) == expected, f"deal {deal}: a trick won by the wrong seat"
        check_result(state)


@pytest.mark.parametrize("name", ["tapp_tarock", "dobbm", "droggn", "dappen"])
def test_clones_play_on_like_their_original(name: str) -> None:
    game = make_game(name)
    rng = random.Random(name)
    for seed in range(30):
        state = game.new_state(seed=seed, dealer=seed % game.num_seats)
        steps = rng.randrange(60)
        while not state.is_terminal() and steps:
            codes = state.legal_codes()
            state.apply(codes[rng.randrange(len(codes))])
            steps -= 1
        twin = state.clone()
        outcomes = []
        for s in (state, twin):
            r = random.Random(seed)
            while not s.is_terminal():
                codes = s.legal_codes()
                s._apply_code(codes[r.randrange(len(codes))])
            outcomes.append((s.result().scores, dict(s.result().breakdown), s.card_places()))
        assert outcomes[0] == outcomes[1]


# ------------------------------------------------------------------ helpers on masks


def test_iter_bits_matches_the_plain_loop() -> None:
    rng = random.Random(1)
    for _ in range(3000):
        size = rng.choice((8, 36, 54, 78, 96, 130))
        mask = sum(1 << i for i in rng.sample(range(size), rng.randrange(size + 1)))
        assert iter_bits(mask) == ref_bits(mask, size)
        assert memo_bits(mask) == ref_bits(mask, size)
    remembered = memo_bits(0b1011)
    remembered.append(99)  # every call hands out its own list
    assert memo_bits(0b1011) == [0, 1, 3]
    assert iter_bits(0) == []
    assert iter_bits(1 << 200) == [200]


DECKS = [
    tapp_pack.DECK,
    dobbm_pack.DECK,
    droggn_pack.DECK_66,
    droggn_pack.DECK_78,
    dappen_pack.DECK,
    make_game("doppelkopf").deck,
    make_game("doppelkopf", "ddv_no_nines").deck,
]


@pytest.mark.parametrize("deck", DECKS, ids=lambda d: f"{d.n_faces}x{d.copies}-{d.size}")
def test_deck_cards_matches_the_plain_loop(deck: Deck) -> None:
    rng = random.Random(deck.size)
    size = deck.n_faces * deck.copies
    for _ in range(500):
        mask = sum(1 << i for i in rng.sample(range(size), rng.randrange(size + 1)))
        assert deck.cards(mask) == ref_cards(deck, mask)
        # bits beyond the pack are ignored, as they always were
        assert deck.cards(mask | 1 << (size + rng.randrange(5))) == ref_cards(deck, mask)
    assert deck.cards(deck.full_mask) == ref_cards(deck, deck.full_mask)


def test_mask_value_is_the_sum_over_the_bits() -> None:
    rng = random.Random(3)
    for _ in range(200):
        values = [rng.randrange(-3, 12) for _ in range(rng.randrange(1, 90))]
        groups = value_groups(values)
        for _ in range(20):
            mask = sum(1 << i for i in rng.sample(range(len(values)), rng.randrange(len(values) + 1)))
            assert mask_value(mask, groups) == sum(values[i] for i in ref_bits(mask, len(values)))


def test_card_point_helpers_match_the_plain_count() -> None:
    rng = random.Random(4)
    for _ in range(500):
        mask = rng.getrandbits(tapp_pack.N_FACES)
        cards = ref_cards(tapp_pack.DECK, mask)
        assert tapp_pack.thirds(cards) == 3 * sum(ref_points(c) for c in cards) - 2 * len(cards)
        assert tapp_pack.mask_thirds(mask) == tapp_pack.thirds(cards)
        mask = rng.getrandbits(dobbm_pack.N_FACES)
        assert dobbm_pack.points_of(mask) == sum(ref_dobbm_points(c) for c in ref_cards(dobbm_pack.DECK, mask))
        for deck in (droggn_pack.DECK_66, droggn_pack.DECK_78):
            mask = rng.getrandbits(droggn_pack.N_FACES) & deck.full_mask
            cards = ref_cards(deck, mask)
            assert droggn_pack.face_value(mask) == sum(ref_points(c) for c in cards)
            assert droggn_pack.pile_points(mask) == ref_threes_droggn(cards)
        assert droggn_pack.total_points(deck) == ref_threes_droggn(ref_cards(deck, deck.full_mask))
    assert tapp_pack.card_points(Card(Suit.HEARTS, 15)) == 1  # a card outside the pack still has a face value
    assert tapp_pack.thirds([Card(Suit.HEARTS, 15), Card(Suit.TAROCK, 22)]) == 3 * 6 - 4


@pytest.mark.parametrize("name", ["tapp_tarock", "dobbm", "droggn", "dappen"])
def test_trick_winner_matches_the_plain_rule(name: str) -> None:
    game = make_game(name)
    classify = CLASSES[name]
    order = {
        "tapp_tarock": tapp_pack.ORDER,
        "dobbm": dobbm_pack.ORDER,
        "droggn": droggn_pack.play_order(66),
        "dappen": dappen_pack.ORDER,
    }[name]
    physical = list(game.deck.physical)
    rng = random.Random(name)
    for _ in range(3000):
        trick = rng.sample(physical, rng.randrange(1, 8))
        cards = [game.deck.card(i) for i in trick]
        assert trick_winner(order, trick) == ref_winner(cards, classify)


@pytest.mark.parametrize("rule", ["one_trump_per_king", "one_trump_any_kings"])
def test_droggn_discards_match_a_search_over_completions(rule: str) -> None:
    """Droggn [§4.1, §10.5]: a card may go if some completion of the three discards keeps the king rule (no Trull card ever)."""
    game = make_game("droggn", None, {"king_discard_rule": rule})
    faces = droggn_pack.FACES
    barred = {faces[droggn_pack.PAGAT], faces[droggn_pack.MOND], faces[droggn_pack.GSTIESS]}

    def keeps_rule(discards: Sequence[Card]) -> bool:
        kings = sum(1 for c in discards if c.suit is not Suit.TAROCK and c.rank == Rank.KING)
        trumps = sum(1 for c in discards if c.suit is Suit.TAROCK and 2 <= c.rank <= 20)
        return kings <= trumps if rule == "one_trump_per_king" else kings == 0 or trumps >= 1

    seen = 0
    for seed in range(300):
        rng = random.Random(seed)
        state: Any = game.new_state(seed=seed, dealer=seed % 3)
        while not state.is_terminal() and state.phase_name in ("bidding", "exchange"):
            codes = state.legal_codes()
            if state.phase_name == "exchange":
                seen += 1
                hand = [faces[i] for i in ref_bits(state.hands[state.declarer], len(faces))]
                done = [faces[i] for i in ref_bits(state.discards, len(faces))]
                left = 3 - len(done) - 1
                expected = {
                    c
                    for c in hand
                    if c not in barred
                    and any(
                        keeps_rule([*done, c, *rest])
                        for rest in itertools.combinations([x for x in hand if x != c and x not in barred], left)
                    )
                }
                assert {faces[code - droggn_actions.DISCARD] for code in codes} == expected
            state.apply(codes[rng.randrange(len(codes))] if state.phase_name == "exchange" or rng.random() < 0.6 else codes[0])
    assert seen > 50
