"""Driving the stich web client through its UI contract (``data-testid`` attributes), as a person would.

Everything here goes through the page: clicks on buttons and cards, form
fields, the hash routes.  The only extra is a probe (:data:`PROBE_SCRIPT`,
added to every page before the app's own scripts) that watches the messages
the page's WebSocket receives.  It never sends anything; it tells the tests
which deal and step the page has seen, so that what the page shows can be
checked against what that seat may know at that step (:mod:`.knowledge`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

PROBE_SCRIPT = """
(() => {
  if (window.__stichProbe) return;
  const probe = {messages: 0, deal: null, step: -1, seat: null, hand: null, ended: [], errors: [], types: {}};
  window.__stichProbe = probe;
  const Native = window.WebSocket;
  class ProbedWebSocket extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        probe.messages += 1;
        let data;
        try { data = JSON.parse(event.data); } catch (error) { return; }
        probe.types[data.type] = (probe.types[data.type] || 0) + 1;
        if (data.type === 'state') {
          if (probe.deal !== data.deal || data.step >= probe.step) {
            probe.deal = data.deal;
            probe.step = data.step;
          }
          probe.seat = data.seat;
          probe.phase = data.view ? data.view.phase : null;
          probe.hand = data.view && Array.isArray(data.view.hand) ? data.view.hand.slice() : null;
        } else if (data.type === 'deal_end') {
          probe.ended.push(data.deal);
        } else if (data.type === 'error') {
          probe.errors.push(data);
        }
      });
    }
  }
  window.WebSocket = ProbedWebSocket;
})();
"""
"""Added to every page before its scripts: counts the WebSocket messages and keeps the latest deal, step, seat and hand."""

SNAPSHOT_SCRIPT = """
() => {
  const one = (id) => document.querySelector(`[data-testid="${id}"]`);
  const shown = (element) => !!element && element.checkVisibility();
  const turn = one('turn');
  const hands = document.querySelectorAll('[data-testid="hand"]');
  const hand = hands.length ? hands[0] : null;
  const handCards = hand ? [...hand.querySelectorAll('[data-testid="card"]')] : [];
  const actions = [...document.querySelectorAll('[data-testid="actions"] [data-testid="action"]')]
    .filter((button) => shown(button) && !button.disabled);
  const connection = one('connection');
  const weiter = one('eval-continue');
  const probe = window.__stichProbe || null;
  return {
    hash: location.hash,
    hands: hands.length,
    mine: !!turn && turn.dataset.mine === 'true',
    turnSeat: turn && turn.dataset.seat !== undefined ? turn.dataset.seat : null,
    hand: handCards.map((card) => card.dataset.card),
    legal: handCards.filter((card) => card.dataset.legal === 'true' && !card.disabled).map((card) => card.dataset.card),
    actions: actions.map((button) => button.dataset.action),
    pageCards: [...document.querySelectorAll('[data-card]')].map((card) => card.dataset.card),
    evaluation: shown(one('evaluation')),
    waits: shown(one('evaluation')) && shown(weiter) && weiter.dataset.waits === 'true',
    connection: connection ? connection.dataset.state : null,
    probe: probe ? JSON.parse(JSON.stringify(probe)) : null,
  };
}
"""
"""Read in one go (JavaScript runs to completion), so the page's content and the probe's step belong together."""


def tid(name: str) -> str:
    """CSS selector of the contract's ``data-testid`` ``name``."""
    return f'[data-testid="{name}"]'


@dataclass(frozen=True)
class Snapshot:
    """What one page showed at one moment, with the latest deal/step its WebSocket had received by then."""

    hash: str
    hands: int
    mine: bool
    turn_seat: str | None
    hand: list[str]
    legal: list[str]
    actions: list[str]
    page_cards: list[str]
    evaluation: bool
    connection: str | None
    messages: int
    deal: Any
    step: int
    seat: int | None
    server_hand: list[str] | None
    ended: list[Any]
    errors: list[dict[str, Any]]
    waits: bool = False
    """The evaluation is open and the server waits for this person's "Weiter" before it deals again."""

    @property
    def on_table(self) -> bool:
        """Whether the page shows a table (not the lobby or a replay)."""
        return self.hash.startswith("#/table/")


def snapshot(page: Page) -> Snapshot:
    """Read the page (see :data:`SNAPSHOT_SCRIPT`)."""
    data: dict[str, Any] = page.evaluate(SNAPSHOT_SCRIPT)
    probe: dict[str, Any] = data["probe"] or {}
    return Snapshot(
        hash=data["hash"],
        hands=data["hands"],
        mine=data["mine"],
        turn_seat=data["turnSeat"],
        hand=list(data["hand"]),
        legal=list(data["legal"]),
        actions=list(data["actions"]),
        page_cards=list(data["pageCards"]),
        evaluation=data["evaluation"],
        connection=data["connection"],
        messages=int(probe.get("messages", 0)),
        deal=probe.get("deal"),
        step=int(probe.get("step", -1)),
        seat=probe.get("seat"),
        server_hand=probe.get("hand"),
        ended=list(probe.get("ended", [])),
        errors=list(probe.get("errors", [])),
        waits=bool(data["waits"]),
    )


# ------------------------------------------------------------------ pages
def enter_as_guest(page: Page, name: str) -> None:
    """Open the login page and continue as the guest ``name``; waits until the header shows the name."""
    page.goto("/#/login")
    page.locator(tid("guest-name")).fill(name)
    page.locator(tid("guest-submit")).click()
    page.locator(tid("user-name")).filter(has_text=name).wait_for()


def submit_account(page: Page, name: str, password: str, *, register: bool) -> None:
    """Fill the login page's account form and press Register (``register``) or Log in.

    It does not wait for the outcome: the caller checks it (the header's name, or
    the form's error when a wrong password is refused).
    """
    page.goto("/#/login")
    page.locator(tid("login-name")).fill(name)
    page.locator(tid("login-password")).fill(password)
    page.locator(tid("register-submit" if register else "login-submit")).click()


def register(page: Page, name: str, password: str = "long enough password") -> None:
    """Register the account ``name`` on the login page; waits until the header shows the name."""
    submit_account(page, name, password, register=True)
    page.locator(tid("user-name")).filter(has_text=name).wait_for()


def table_finished(page: Page, table_id: str, timeout: float = 60.0) -> dict[str, Any]:
    """Poll the table's summary (with the page's cookies) until its status is ``finished``; that summary."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        summary: dict[str, Any] = page.request.get(f"/api/tables/{table_id}").json()
        if summary["status"] == "finished":
            return summary
        page.wait_for_timeout(300)
    raise AssertionError(f"table {table_id} did not finish in {timeout} s")


def create_table(page: Page, game: str, deals: int = 1) -> str:
    """Create a table from the lobby's form; returns the new table's id (the app navigates to it)."""
    page.goto("/#/")
    page.locator(tid("create-game")).select_option(game)
    page.locator(tid("create-deals")).fill(str(deals))
    page.locator(tid("create-submit")).click()
    page.wait_for_url(re.compile(r".*#/table/[^/?]+"))
    match = re.search(r"#/table/([^/?]+)", page.url)
    assert match, page.url
    return match.group(1)


def invite_url(page: Page) -> str:
    """The full invite URL of the table page (read from the readonly field)."""
    field_ = page.locator(tid("invite-link"))
    field_.wait_for()
    deadline = time.monotonic() + 15
    while not (value := field_.input_value()) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert value.startswith("http"), f"invite link is not a full URL: {value!r}"
    return value


def join_first_free_seat(page: Page) -> int:
    """Click the first ``join-seat`` button; returns its seat number after the seat shows someone."""
    button = page.locator(tid("join-seat")).first
    button.wait_for()
    seat = int(button.get_attribute("data-seat") or "-1")
    button.click()
    page.locator(f'{tid("seat")}[data-seat="{seat}"][data-occupant]:not([data-occupant=""])').wait_for()
    return seat


def add_bots(page: Page, bot: str = "heuristic") -> None:
    """Fill every empty seat with ``bot`` (select, then the button), and wait until the table is full (the button is gone)."""
    page.locator(tid("bot-select")).select_option(bot)
    page.locator(tid("add-bots")).click()
    expect(page.locator(tid("add-bots"))).to_have_count(0)


# --------------------------------------------------------------- playing
@dataclass
class Player:
    """A person at a table: their page and how they choose when it is their turn.

    ``prefer`` lists prefixes of action texts this player picks first when
    no card is legal (e.g. ``("gesund", "pass")``); otherwise the first
    offered action.  When cards are legal, the first legal card is played.
    """

    name: str
    page: Page
    prefer: Sequence[str] = ("gesund", "pass")
    snapshots: list[Snapshot] = field(default_factory=list)
    moves: list[tuple[str, str]] = field(default_factory=list)
    """Every click made, in order: ``("card", "H10")`` or ``("action", "gesund")``."""

    def choose(self, shot: Snapshot) -> tuple[str, str] | None:
        """``("card", text)`` or ``("action", text)`` for this turn, or ``None`` when the page offers nothing (yet)."""
        if shot.legal:
            return ("card", shot.legal[0])
        for prefix in self.prefer:
            for action in shot.actions:
                if action.startswith(prefix):
                    return ("action", action)
        if shot.actions:
            return ("action", shot.actions[0])
        return None


def click_made(move: tuple[str, str], recorded: str) -> bool:
    """Whether the recorded action is the click ``move``: the same action text, or an action on the clicked card."""
    kind, text = move
    return recorded == text if kind == "action" else recorded.split()[-1] == text


def _hand_matches_server(shot: Snapshot) -> bool:
    return shot.server_hand is not None and sorted(shot.hand) == sorted(shot.server_hand)


def act(player: Player, shot: Snapshot) -> bool:
    """Make one move on ``player``'s page if it is their turn; returns whether a move was made.

    Before clicking, the hand the page shows must equal the hand the server
    sent this seat (given a moment to render).  After clicking, waits until
    the server has answered (any new WebSocket message).
    """
    if shot.on_table and shot.waits:  # the next deal waits until every person said "Weiter" (issue 28, defect 7)
        player.page.locator(tid("eval-continue")).click()
        return True
    if not (shot.mine and shot.on_table):
        return False
    if shot.evaluation:  # an evaluation left open while the next deal runs: close it to play on
        player.page.locator(tid("eval-continue")).click()
        return True
    deadline = time.monotonic() + 5
    while not _hand_matches_server(shot):
        assert time.monotonic() < deadline, f"{player.name}: the page shows the hand {shot.hand}, the server sent {shot.server_hand}"
        player.page.wait_for_timeout(50)
        shot = snapshot(player.page)
        player.snapshots.append(shot)
        if not shot.mine:
            return False
    choice = player.choose(shot)
    if choice is None:
        return False
    kind, text = choice
    page = player.page
    if kind == "card":
        target = page.locator(f'{tid("hand")} {tid("card")}[data-card="{text}"][data-legal="true"]').first
    else:
        target = page.locator(f'{tid("actions")} {tid("action")}[data-action="{text}"]').first
    confirm = page.locator(tid("confirm-action"))
    legal_copies = f'{tid("hand")} {tid("card")}[data-card="{text}"][data-legal="true"]'
    copies_before = page.locator(legal_copies).count() if kind == "card" else 0  # Doppelkopf has two of each card
    try:
        target.click(timeout=2_000 if kind == "card" else 8_000)  # a loaded machine may take seconds for a button
    except PlaywrightError:
        if kind != "card":
            raise
        if confirm.is_visible():  # the click did land (a slow machine), and the discard waits for its confirmation
            confirm.click()
            player.moves.append((kind, text))
            return _answered(player, shot)
        if page.locator(legal_copies).count() < copies_before:  # the click landed late: the move is on its way (a twin may stay)
            player.moves.append((kind, text))
            return _answered(player, shot)
        # A fanned hand may cover a card's centre with the next card, and a hovered card lifts while the pointer
        # moves; a corner click could then land on a neighbour.  A hand card is a <button>: play it from the keyboard.
        target.press("Enter", timeout=5_000)
    if kind == "card" and confirm.is_visible():  # a discard or hidden offer is explained and confirmed before it is sent
        confirm.click()
    player.moves.append((kind, text))
    return _answered(player, shot)


def _answered(player: Player, shot: Snapshot) -> bool:
    """Wait until the server has answered the move just made (any new WebSocket message); always ``True``."""
    try:
        player.page.wait_for_function("n => window.__stichProbe && window.__stichProbe.messages > n", arg=shot.messages, timeout=10_000)
    except PlaywrightError as error:
        raise AssertionError(f"{player.name}: no answer from the server after the move {player.moves[-1]!r}") from error
    return True


def play(players: Sequence[Player], until: Callable[[dict[str, Snapshot]], bool], *, timeout: float = 90.0) -> dict[str, Snapshot]:
    """Let every player move whenever their page says it is their turn, until ``until(latest snapshots)`` holds.

    The pages are polled in turn from this one thread (Playwright's sync API);
    every snapshot is kept on its player for the leak check.  Returns the
    snapshots that satisfied ``until`` (taken before anyone moved again).
    """
    deadline = time.monotonic() + timeout
    while True:
        latest = {}
        for player in players:
            shot = snapshot(player.page)
            player.snapshots.append(shot)
            latest[player.name] = shot
        if until(latest):
            return latest
        if time.monotonic() > deadline:
            summary = {name: (shot.hash, shot.mine, shot.legal, shot.actions, shot.evaluation) for name, shot in latest.items()}
            raise AssertionError(f"not done within {timeout:.0f} s; the pages show {summary}")
        moved = False
        for player in players:
            moved = act(player, latest[player.name]) or moved
        if not moved:
            players[0].page.wait_for_timeout(50)


def all_evaluated(latest: dict[str, Snapshot]) -> bool:
    """``until`` condition: every page shows the evaluation."""
    return all(shot.evaluation for shot in latest.values())


def client_text(page: Page, key: str) -> str:
    """The client's translation of ``key`` in the page's current language (from the translations it serves)."""
    language = page.evaluate("document.documentElement.lang")
    texts: dict[str, Any] = {}
    for part in ("", "options.", "rules."):  # the interface, the rules options and the rules pages
        answer = page.request.get(f"/static/i18n/{part}{language}.json")
        assert answer.ok, f"no translations {part}{language}.json: {answer.status}"
        texts.update(answer.json())
    text = texts.get(key)
    assert isinstance(text, str) and text, f"the {language} translations have no text for {key!r}"
    return text


def fetch_record(page: Page, deal: Any) -> dict[str, Any]:
    """The finished deal's record, fetched with the page's own cookies (as the record link would)."""
    answer = page.request.get(f"/api/deals/{deal}/record")
    assert answer.ok, f"GET /api/deals/{deal}/record: {answer.status} {answer.text()}"
    record: dict[str, Any] = answer.json()
    return record
