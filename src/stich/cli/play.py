"""``stich play``: play at the terminal against bots.

The human's seat sees exactly its observation: its sorted hand, the public
events (bots' actions are printed from that observation, so a hidden poverty
discard stays hidden), the trick on the table and the numbered legal choices.
Input is a choice number, an action text (``play H10``, ``H10``, ``announce
re``, ``re``, ``gesund``, ``solo damen``, ``damen``) or a command (``help``,
``hand``, ``last``, ``score``, ``quit``, or their German words).  A card may
be typed as the screen shows it (``♠7``, ``Pagat``, with German suits ``SA``
for the Schellen ace) or in the notation (``S7``, ``T1``).  ``lang`` picks
English or German for everything the terminal says (:mod:`stich.cli.texts`).  A wrong input prints one line that
says what is wrong and what is allowed, and asks again: the deal is never
changed by a rejected input.  End of input or Ctrl-C quits cleanly.

Input and output are injectable (``input_fn`` and ``console``) so tests can
drive a whole game with scripted input.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape

from stich.bots.base import Bot
from stich.cards import Card, parse_card
from stich.cli.common import UsageError, bot_seed, make_seat_bot, session_class
from stich.cli.render import (
    action_markup,
    card_markup,
    cards_markup,
    explain_result,
    game_title,
    hand_markup,
    sheet_table,
    sort_key_for,
    trick_eyes,
    trick_markup,
)
from stich.cli.texts import COMMAND_WORDS, COMMANDS_SHOWN, Texts
from stich.core.game import Action, DealResult, Game, Observation, State, TrickView
from stich.core.registry import SESSIONS
from stich.core.session import Session, SheetRow
from stich.errors import IllegalActionError, NotationError

InputFn = Callable[[str], str]

SUIT_SYMBOLS = {"♣": "C", "♠": "S", "♥": "H", "♦": "D", "♧": "C", "♤": "S", "♡": "H", "♢": "D"}
"""Suit symbols as the screen shows them (and their outlined forms) to the notation's suit letters."""


def printed_card_key(word: str) -> str:
    """A typed card in the form :func:`printed_cards` keys: upper case, suit symbols as letters, no emoji selector."""
    text = word.strip().replace("\ufe0f", "").upper()
    return "".join(SUIT_SYMBOLS.get(ch, ch) for ch in text)


def printed_cards(game: Game, german_suits: bool) -> dict[str, Card]:
    """Every card of ``game``'s pack as :meth:`~stich.cards.Card.display` shows it, keyed like :func:`printed_card_key`."""
    out: dict[str, Card] = {}
    for card in game.deck.faces:
        out[printed_card_key(card.display(german_suits))] = card
    # Tarock names without the umlaut too (Sküs typed as Skus).
    for card in list(out.values()):
        plain = printed_card_key(card.display(german_suits)).replace("Ü", "U")
        out.setdefault(plain, card)
    return out


class QuitGame(Exception):
    """The player asked to stop (``quit``, end of input or Ctrl-C)."""


class _SimpleSession(Session):
    """A plain series of deals for games without session rules: the deal passes clockwise, nothing else."""

    def is_over(self) -> bool:
        return self.limit is not None and self.deal_index >= self.limit

    def context(self) -> dict[str, Any]:
        return {}

    def _book(self, state: State, result: DealResult) -> SheetRow:
        for seat, score in enumerate(result.scores):
            self.totals[seat] += score
        row = SheetRow(self.deal_index + 1, self.dealer, "deal", tuple(result.scores), tuple(self.totals))
        self.dealer = (self.dealer + 1) % self.game.num_seats
        return row


class TerminalGame:
    """One sitting at the terminal: a session (or a number of deals) with the human in one seat."""

    def __init__(
        self,
        game: Game,
        *,
        seat: int,
        bots: Sequence[str],
        seed: int,
        deals: int | None,
        german_suits: bool = False,
        input_fn: InputFn | None = None,
        console: Console | None = None,
        lang: str = "en",
    ) -> None:
        self.game = game
        self.texts = Texts(lang)
        self.seat = seat
        self.bot_names = list(bots)
        """Bot name per seat (the human's entry is unused)."""
        self.seed = seed
        self.german = german_suits or game.german_suited
        self.console = console if console is not None else Console(highlight=False)
        self.input_fn: InputFn = input_fn if input_fn is not None else self._console_input
        self.names = [self.texts("you") if s == seat else self.texts("seat", n=s) for s in range(game.num_seats)]
        self.printed_cards = printed_cards(game, self.german)
        """Each card of the pack as the screen shows it (upper case) -> the card, for typed input."""
        if game.name in SESSIONS:
            self.session: Session = session_class(game.name)(game, seed, None)
        elif deals is None:
            raise UsageError(f"{game.name} has no list rules yet; play a number of deals with --deals N")
        else:
            self.session = _SimpleSession(game, seed, None)
        self.deals = deals
        """Deals to play out (thrown-in deals are redealt and not counted), or ``None`` for the whole list."""
        self.state: State | None = None
        """The deal being played (tests may peek; the screen shows only the human's observation)."""
        self._events = 0
        self._tricks = 0
        self._game_line = ""
        self._private: dict[str, tuple[str, ...]] = {}

    # ----------------------------------------------------------------- output
    def say(self, markup: str = "") -> None:
        """Print one line of rich markup."""
        self.console.print(markup, highlight=False)

    def _console_input(self, prompt: str) -> str:
        return self.console.input(prompt)

    def ask(self, prompt: str) -> str:
        """Read one line; end of input or Ctrl-C becomes :class:`QuitGame`."""
        try:
            return self.input_fn(prompt)
        except (EOFError, KeyboardInterrupt):
            self.say()
            raise QuitGame from None

    def label(self, seat: int) -> str:
        """``You`` or ``Seat 2 (heuristic)``."""
        return self.texts("you") if seat == self.seat else self.texts("seat_bot", n=seat, bot=self.bot_names[seat])

    # ------------------------------------------------------------------- run
    def run(self) -> int:
        """Play until the session ends or the player quits; always returns 0."""
        tr = self.texts
        others = ", ".join(tr("intro_other", n=s, bot=self.bot_names[s]) for s in range(self.game.num_seats) if s != self.seat)
        self.say(f"[bold]{escape(self.game.title)}[/]: {escape(self.game.canonical)}")
        self.say(tr("intro_seat", seat=self.seat, others=escape(others), seed=self.seed))
        self.say(tr("intro_help"))
        played = 0
        try:
            while self.deals is None or played < self.deals:
                state = self.session.next_deal()
                if state is None:
                    if self.deals is not None:
                        self.say(tr("list_over", n=played))
                    break
                self.play_deal(state)
                self.session.book(state)
                if not state.result().thrown_in:
                    played += 1
                self.say()
                self.show_sheet()
        except (QuitGame, KeyboardInterrupt):
            self.say()
            self.say(tr("abandoned") + self._totals_text())
            return 0
        self.say(tr("game_over") + self._totals_text())
        return 0

    def _totals_text(self) -> str:
        totals = self.session.totals
        return self.texts("totals") + ", ".join(f"{escape(self.names[s])} {t:+d}" for s, t in enumerate(totals))

    # ------------------------------------------------------------------ deals
    def play_deal(self, state: State) -> None:
        """Play one deal: bots act on their own, the human is asked."""
        self.state = state
        self._events = 0
        self._tricks = 0
        self._game_line = ""
        self._private = {}
        number = self.session.deal_index
        bots: dict[int, Bot] = {
            s: make_seat_bot(self.bot_names[s], self.game, s, bot_seed(self.seed, 0, s, number))
            for s in range(self.game.num_seats)
            if s != self.seat
        }
        obs = state.observation(self.seat)
        dealer = obs.public.get("dealer", getattr(state, "dealer", None))
        self.say()
        dealer_text = self.texts("dealer", name=escape(self.label(dealer))) if isinstance(dealer, int) else ""
        self.say(self.texts("deal", n=number + 1) + dealer_text)
        self.show_hand(obs)
        while not state.is_terminal():
            to_move = state.current_player()
            if to_move == self.seat:
                self.human_turn(state)
            else:
                state.apply(bots[to_move].choose(state.observation(to_move)))
            self.report(state)
        self.say()
        self.say(self.texts("evaluation"))
        for line in explain_result(state.result().to_json(), self.names, self.game, self.texts):
            self.say(line)

    def report(self, state: State) -> None:
        """Print what happened since the last report, as the human saw it."""
        obs = state.observation(self.seat)
        for actor, text in obs.events[self._events :]:
            who = escape(self.label(actor))
            self.say(f"{who}: {action_markup(text, self.german)}")
        self._events = len(obs.events)
        done = [t for t in obs.tricks if t.winner is not None]
        for index in range(self._tricks, len(done)):
            self.say(self._trick_line(done[index], index, obs))
        self._tricks = len(done)
        line = self._game_description(obs)
        if line and line != self._game_line:
            self._game_line = line
            self.say(line)
        if obs.phase in ("play", "end"):
            self._report_private_cards(obs)

    def _report_private_cards(self, obs: Observation) -> None:
        """Show card lists only this seat knows (cards handed over, taken from a talon...) once play starts."""
        for key, value in obs.private.items():
            if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
                continue
            try:
                cards = [parse_card(v) for v in value]
            except NotationError:
                continue
            if self._private.get(key) != tuple(value):
                self._private[key] = tuple(value)
                what = self.texts(f"private.{key}") if self.texts.has(f"private.{key}") else key.replace("_", " ").capitalize()
                self.say(f"{escape(what)}: {cards_markup(cards, self.german)}")

    def _trick_line(self, trick: TrickView, index: int, obs: Observation) -> str:
        active = list(obs.public.get("active", range(self.game.num_seats)))
        eyes = trick_eyes(self.game, trick.cards)
        winner = trick.winner if trick.winner is not None else -1
        unit = f"unit.{self.game.card_points_name}"
        unit_text = self.texts(unit, n=eyes) if self.texts.has(unit) else self.game.card_points_name
        eyes_text = f" ({eyes} {unit_text})" if eyes is not None else ""
        cards = trick_markup(trick, active, self.names, self.german, self.texts)
        return self.texts("trick_line", n=index + 1, cards=cards, winner=escape(self.names[winner]), eyes=eyes_text)

    def _game_description(self, obs: Observation) -> str:
        """The game type as the human knows it, once play has begun."""
        if obs.phase not in ("play", "end") or "kind" not in obs.public:
            return ""
        pub = obs.public
        kind, contract = str(pub["kind"]), str(pub.get("contract", ""))
        text = self.texts("game_line", title=escape(game_title(kind, contract, self.texts)))
        for key in ("soloist", "hochzeiter", "poor", "armut_taker"):
            who = pub.get(key)
            if isinstance(who, int):
                text += self.texts(f"game_{key}", name=escape(self.names[who]))
        party = obs.private.get("party")
        if party:
            text += self.texts("you_play", party=escape(str(party).capitalize()))
        return text

    # ------------------------------------------------------------------ human
    def choices(self, obs: Observation) -> list[Action]:
        """The human's legal actions in display order: cards in hand order, then the rest."""
        key = sort_key_for(self.game, obs.public)

        def order(action: Action) -> tuple[int, tuple[int, ...], int]:
            verb, _, rest = action.text.partition(" ")
            if verb in ("play", "discard"):
                try:
                    return (0, key(parse_card(rest)), action.code)
                except NotationError:
                    pass
            return (1, (), action.code)

        return sorted(obs.legal_actions, key=order)

    def choice_markup(self, action: Action) -> str:
        """A choice as shown in the menu: the card alone for ``play``."""
        verb, _, rest = action.text.partition(" ")
        if verb == "play":
            try:
                return card_markup(parse_card(rest), self.german)
            except NotationError:
                pass
        return action_markup(action.text, self.german)

    def show_talon_choice(self, obs: Observation, options: Sequence[Action]) -> None:
        """Before "take lower / take upper": the talon halves the choice is between, as the table shows them."""
        talon = obs.public.get("talon")
        if not isinstance(talon, Mapping) or not any(a.text.startswith("take ") for a in options):
            return
        for half, cards in talon.items():
            if isinstance(cards, list):
                shown = cards_markup([parse_card(str(c)) for c in cards], self.german)
                self.say(self.texts("talon_half", half=escape(self.texts.shared(f"talon.{half}", str(half))), cards=shown))

    def show_hand(self, obs: Observation) -> None:
        """Print the human's sorted hand."""
        self.say(self.texts("your_hand", cards=hand_markup(obs.hand, self.game, obs.public, self.german, self.texts)))

    def show_turn(self, obs: Observation, options: Sequence[Action]) -> None:
        """Print the table as the human sees it and the numbered choices."""
        self.say()
        tr = self.texts
        phase = tr.phase(obs.phase.replace("_", " "))
        party = obs.private.get("party")
        party_text = tr("you_play_short", party=escape(str(party).capitalize())) if party else ""
        if obs.phase == "play":
            done = sum(1 for t in obs.tricks if t.winner is not None)
            self.say(tr("your_turn_trick", n=done + 1, party=party_text))
            current = obs.tricks[-1] if obs.tricks and obs.tricks[-1].winner is None else None
            if current is None:
                self.say(tr("table_lead"))
            else:
                active = list(obs.public.get("active", range(self.game.num_seats)))
                self.say(tr("table", cards=trick_markup(current, active, self.names, self.german, tr)))
        else:
            self.say(tr("your_turn_phase", phase=escape(phase), party=party_text))
        self.show_talon_choice(obs, options)
        self.show_hand(obs)
        menu = "  ".join(f"[bold]{i}[/]) {self.choice_markup(a)}" for i, a in enumerate(options, start=1))
        self.say(self.texts("choices", menu=menu))

    def human_turn(self, state: State) -> None:
        """Ask until the human gives a legal action, and apply it."""
        obs = state.observation(self.seat)
        options = self.choices(obs)
        self.show_turn(obs, options)
        while True:
            raw = self.ask("> ").strip()
            word = raw.lower()
            if not word:
                self.say(self.texts("empty_input", n=len(options)))
                continue
            command = COMMAND_WORDS.get(word)
            if command == "help":
                for line in self.help_lines():
                    self.say(line)
                self.show_turn(obs, options)
                continue
            if command == "hand":
                self.show_hand(obs)
                continue
            if command == "last":
                self.show_last(obs)
                continue
            if command == "score":
                self.show_sheet()
                continue
            if command == "quit":
                raise QuitGame
            action = self.resolve(raw, state, options)
            if action is None:
                continue
            try:
                state.apply(action)
            except IllegalActionError as exc:
                self.say(self.texts("not_allowed", reason=escape(str(exc)), allowed=self._allowed_text(options)))
                continue
            return

    def _allowed_text(self, options: Sequence[Action]) -> str:
        return " ".join(f"{i}) {self.choice_markup(a)}" for i, a in enumerate(options, start=1))

    def resolve(self, raw: str, state: State, options: Sequence[Action]) -> Action | None:
        """The action meant by ``raw`` (legal or not), or ``None`` after printing why it is not understood."""
        text = raw.strip()
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(options):
                return options[number - 1]
            self.say(self.texts("no_choice", number=number, n=len(options), allowed=self._allowed_text(options)))
            return None
        for candidate in self._candidates(text, options):
            try:
                return state.to_action(candidate)
            except NotationError:
                continue
        commands = ", ".join(COMMANDS_SHOWN[self.texts.lang])
        self.say(self.texts("not_understood", text=escape(repr(text)), n=len(options), commands=commands))
        return None

    def help_lines(self) -> list[str]:
        """The help text in the sitting's language, with the card spelling this screen uses."""
        spelling = self.texts("help_spelling_german" if self.german else "help_spelling_french")
        return [self.texts("help_cards", spelling=spelling), self.texts("help_words"), self.texts("help_commands")]

    def typed_card(self, word: str) -> Card | None:
        """The card ``word`` names as the screen shows it (``♠7``, ``Pagat``, German ``SA``) or in the notation (``S7``).

        The printed spelling wins: with German suits ``SA`` is the Schellen ace the screen shows, not the
        notation's spade ace (which the screen shows as ``LA``).
        """
        shown = printed_card_key(word)
        if shown in self.printed_cards:
            return self.printed_cards[shown]
        try:
            return parse_card(shown)
        except NotationError:
            return None

    def _candidates(self, text: str, options: Sequence[Action]) -> list[str]:
        """Action texts ``text`` may stand for: itself, a card to play or discard, or a legal action it ends."""
        out = [text]
        words = text.split()
        if len(words) == 2 and words[0].lower() in ("play", "discard"):
            card = self.typed_card(words[1])
            if card is not None:
                out.insert(0, f"{words[0].lower()} {card.text}")
        if len(words) == 1:
            card = self.typed_card(words[0])
            if card is not None:
                discarding = any(a.kind == "discard" for a in options)
                out.append(f"{'discard' if discarding else 'play'} {card.text}")
            else:
                # a single word: any legal action whose last word it is (``re``, ``damen``, ``dapp``, ``retour``)
                word = words[0].lower()
                out += [a.text for a in options if a.text.split()[-1].lower() == word]
                out += [f"announce {word}", f"solo {word}", f"bid {word}"]
        return out

    def show_last(self, obs: Observation) -> None:
        """Print the last completed trick."""
        done = [t for t in obs.tricks if t.winner is not None]
        if not done:
            self.say(self.texts("no_trick_yet"))
            return
        self.say(self._trick_line(done[-1], len(done) - 1, obs))

    def show_sheet(self) -> None:
        """Print the score sheet so far."""
        rows = self.session.sheet()
        if not rows:
            self.say(self.texts("no_deal_scored"))
            return
        self.console.print(sheet_table(rows, self.names, texts=self.texts, game=self.game.name))


def run_play(
    game: Game,
    *,
    seat: int,
    bots: Sequence[str],
    seed: int | None,
    deals: int | None,
    german_suits: bool = False,
    input_fn: InputFn | None = None,
    console: Console | None = None,
    lang: str = "en",
) -> int:
    """Play the first ``deals`` deals of a list (``None``: the whole list) at the terminal.

    ``bots`` names one bot per seat (the human's entry is ignored); ``seed``
    ``None`` draws a random seed, which is printed so the sitting can be repeated;
    ``lang`` (``en`` or ``de``) is the language of everything the terminal says.
    """
    if seed is None:
        seed = secrets.randbits(32)
    table = TerminalGame(
        game, seat=seat, bots=bots, seed=seed, deals=deals, german_suits=german_suits, input_fn=input_fn, console=console, lang=lang
    )
    return table.run()
