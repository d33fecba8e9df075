"""Issue 43, "At the table", in the browser, in German at 1366×768 and in English at 390×844.

* every trick of the current deal on demand ("Alle Stiche"): who led, who won, each card by player, and never a
  card that has not been played;
* the announcement deadlines of the current contract next to the call buttons ("Re bis zur 2. Karte"), from
  the server's ``deadlines`` (the DDV deadlines here), without pushing the hand off the screen;
* the replay steps trick by trick as well as card by card and names the player of each card.

Everything shown is checked against the deal's record, replayed through the engine after the deal.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from stich.core.game import State
from stich.core.registry import game_from_string

from .flows import GERMAN_LAPTOP_AND_ENGLISH_PHONE, LAPTOP, ContextFactory, Screenshot, person
from .ui import Player, all_evaluated, client_text, fetch_record, play, snapshot, tid

DIALOG_ROWS = """
() => [...document.querySelectorAll('[data-testid="all-tricks"] [data-testid="trick-row"]')].map((row) => ({
  leader: Number(row.dataset.leader),
  winner: row.dataset.winner === '' ? null : Number(row.dataset.winner),
  cards: [...row.querySelectorAll('[data-testid="trick-card"]')].map((c) => [Number(c.dataset.seat), c.dataset.card,
    c.querySelector('[data-testid="trick-card-player"]').textContent]),
}))
"""
"""Every row of the "all tricks" dialog: leader, winner (null while open) and ``[seat, card, name shown]`` per card."""

SEAT_NAMES = """
() => Object.fromEntries([...document.querySelectorAll('[data-testid="seat"]')].map((s) => [s.dataset.seat, s.dataset.occupant]))
"""


def states_of(record: dict[str, Any]) -> list[State]:
    """The deal after 0, 1, 2, ... of its recorded actions."""
    game = game_from_string(record["game"])
    state = game.new_state(seed=int(record["seed"]), dealer=record["dealer"], context=record["context"])
    states = [state.clone()]
    for _seat, text in record["actions"]:
        state.apply(text)
        states.append(state.clone())
    return states


def played_tricks(state: State) -> list[dict[str, Any]]:
    """The tricks with a card at ``state``: leader, winner and ``[seat, card]`` in play order."""
    out = []
    for trick in state.observation(0).tricks:
        if not trick.cards:
            continue
        active = list(state.observation(0).public.get("active", range(state.game.num_seats)))
        start = active.index(trick.leader)
        seats = [active[(start + i) % len(active)] for i in range(len(trick.cards))]
        cards = [[s, c.text] for s, c in zip(seats, trick.cards, strict=True)]
        out.append({"leader": trick.leader, "winner": trick.winner, "cards": cards})
    return out


def start_bot_table(page: Page) -> tuple[str, Player]:
    made = page.request.post("/api/tables", data={"game": "doppelkopf", "kind": "free", "deals": 1, "bots": "heuristic"})
    assert made.status == 201, made.text()
    page.goto(f"/#/table/{made.json()['id']}")
    return made.json()["id"], Player("Wanda", page, prefer=("gesund",))


def boxes_apart(a: dict[str, float], b: dict[str, float]) -> bool:
    beside = a["x"] >= b["x"] + b["width"] - 1 or b["x"] >= a["x"] + a["width"] - 1
    return beside or a["y"] >= b["y"] + b["height"] - 1 or b["y"] >= a["y"] + a["height"] - 1


def check_dialog_against(rows: list[dict[str, Any]], final: list[dict[str, Any]], names: dict[str, str]) -> None:
    """Rows shown mid-deal: each complete trick is the record's, the open one a beginning of it; names per seat."""
    assert rows, "the dialog shows no trick"
    for index, row in enumerate(rows):
        truth = final[index]
        assert row["leader"] == truth["leader"], (index, row, truth)
        shown = [[seat, card] for seat, card, _ in row["cards"]]
        if row["winner"] is None:
            assert index == len(rows) - 1, "only the last trick may be open"
            assert shown == truth["cards"][: len(shown)], (index, shown, truth)  # played cards only, in order
        else:
            assert (row["winner"], shown) == (truth["winner"], truth["cards"]), (index, row, truth)
        for seat, _, name in row["cards"]:
            assert name == names[str(seat)], (seat, name, names)


DDV = {"re_kontra": 2, "keine90": 3, "keine60": 4, "keine30": 5, "schwarz": 6}
"""§5.2: the card before which each call must be made, with 12 cards (Re/Kontra with 11 in hand, ...)."""
LEVELS = ("none", "re_kontra", "keine90", "keine60", "keine30", "schwarz")


DEADLINES_SHOWN = """
() => {
  const probe = window.__stichProbe;
  const calls = [...document.querySelectorAll('[data-testid="actions"] [data-testid="action"]')]
    .map((b) => b.dataset.action).filter((a) => a && a.startsWith('announce '));
  const texts = {};
  for (const action of calls) {
    const word = action.split(' ')[1];
    const deadline = document.querySelector(`[data-testid="call-deadline"][data-call="${word}"]`);
    const button = document.querySelector(`[data-testid="actions"] [data-testid="action"][data-action="${action}"]`);
    texts[word] = [button.innerText.trim(), deadline && deadline.getAttribute('data-until'), deadline && deadline.innerText.trim()];
  }
  return {step: probe ? probe.step : -1, calls, texts};
}
"""
"""The step the page's socket last received, the call buttons and each one's label, ``data-until`` and deadline text."""


def _read_deadlines(page: Page) -> tuple[int, list[str], dict[str, tuple[str, Any, str]]]:
    """The call deadlines shown, with the step they belong to: read until two reads 700 ms apart agree.

    A bot may call (Re) while it is Wanda's turn; the page then shows the reply's later deadline. Read in one go and
    twice, the texts belong to the step read with them (the test once compared them with the step before such a call).
    """
    last: dict[str, Any] | None = None
    for _ in range(20):
        read: dict[str, Any] = page.evaluate(DEADLINES_SHOWN)
        if read == last:
            texts = {word: (label, until, text) for word, (label, until, text) in read["texts"].items()}
            return int(read["step"]), list(read["calls"]), texts
        last = read
        page.wait_for_timeout(700)  # longer than a drawn move, so a call received but not yet drawn shows as a change
    raise AssertionError(f"the call deadlines did not settle: {last}")


def check_deadlines_shown(state: State, seat: Any, calls: list[str], texts: dict[str, tuple[str, Any, str]], page: Page, lang: str) -> None:
    """Each call button's deadline as shown: the DDV card, or one card after the other party's call for a reply (§5.3)."""
    obs = state.observation(int(seat))
    assert {a.text for a in obs.legal_actions if a.text.startswith("announce ")} == set(calls)
    party = obs.private["party"]
    own, other = obs.public["calls"][party], obs.public["calls"]["kontra" if party == "re" else "re"]
    template, reply = client_text(page, "deadline.card"), client_text(page, "deadline.reply")
    for word, (label, until, text) in texts.items():
        level = "re_kontra" if word in ("re", "kontra") else word
        n, late = DDV[level], False
        if level == "re_kontra" and not own and other and DDV[LEVELS[other]] + 1 > n:
            n, late = DDV[LEVELS[other]] + 1, True
        nth = f"{n}." if lang == "de" else {2: "2nd", 3: "3rd"}.get(n, f"{n}th")
        assert until == str(n), (word, until, n)
        assert text == template.replace("{call}", label).replace("{nth}", nth) + (reply if late else ""), (word, text)


@GERMAN_LAPTOP_AND_ENGLISH_PHONE
def test_every_trick_on_demand_and_the_call_deadlines(
    make_context: ContextFactory, screenshot: Screenshot, lang: str, viewport: dict[str, int]
) -> None:
    page = person(make_context, lang, viewport, "Wanda")
    _, wanda = start_bot_table(page)
    # Wanda's first turn in play: the call buttons, and under them until when each call may be made
    latest = play([wanda], until=lambda shots: shots["Wanda"].mine and any(a.startswith("announce ") for a in shots["Wanda"].actions))
    calls = [a for a in latest["Wanda"].actions if a.startswith("announce ")]
    line = page.locator(tid("call-deadlines"))
    expect(line).to_be_visible()
    shown = page.locator(tid("call-deadline"))
    expect(shown).to_have_count(len(calls))
    # read now, checked against the record once the deal is over (a bot's earlier call opens a later reply)
    step, calls, texts = _read_deadlines(page)
    if lang == "de":
        expect(line).to_contain_text("bis zur ")
    # the line sits beside the buttons: it covers neither them nor the hand, and the hand stays on screen
    boxes: dict[str, Any] = page.evaluate(
        """() => {
          const box = (el) => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; };
          const all = (s) => [...document.querySelectorAll(s)].filter((el) => el.getClientRects().length).map(box);
          return {line: box(document.querySelector('[data-testid="call-deadlines"]')), buttons: all('[data-testid="actions"] button'),
                  cards: all('[data-testid="hand"] [data-testid="card"]'), height: innerHeight, width: innerWidth};
        }"""
    )
    for other in boxes["buttons"] + boxes["cards"]:
        assert boxes_apart(boxes["line"], other), f"the deadlines {boxes['line']} cover {other}"
    assert boxes["line"]["x"] >= 0 and boxes["line"]["x"] + boxes["line"]["width"] <= boxes["width"] + 1
    if viewport == LAPTOP:
        # on a laptop it sits in the buttons' row: the calls move the hand no further down than the buttons do
        top = min(button["y"] for button in boxes["buttons"])
        bottom = max(button["y"] + button["height"] for button in boxes["buttons"])
        assert boxes["line"]["y"] >= top - 1 and boxes["line"]["y"] + boxes["line"]["height"] <= bottom + 1, (boxes["line"], top, bottom)
    screenshot(page, f"call-deadlines-{lang}", full_page=False)

    # three tricks on: "all tricks" opens over the table with every trick so far
    play([wanda], until=lambda shots: shots["Wanda"].step >= 4 + 3 * 4 and shots["Wanda"].mine)
    names: dict[str, str] = page.evaluate(SEAT_NAMES)
    button = page.locator(tid("show-tricks"))
    expect(button).to_be_visible()
    button.click()
    dialog = page.locator(tid("all-tricks"))
    expect(dialog).to_be_visible()
    expect(dialog.locator(tid("trick-row")).nth(2)).to_be_visible()
    middle: list[dict[str, Any]] = page.evaluate(DIALOG_ROWS)
    overflow = dialog.evaluate("el => el.scrollWidth - el.clientWidth")
    assert overflow <= 1, f"the tricks dialog is {overflow} px too wide for {viewport}"
    screenshot(page, f"all-tricks-{lang}", full_page=False)
    page.locator(tid("close-tricks")).click()
    expect(dialog).to_be_hidden()

    # to the end of the deal, then check what was shown against the record
    play([wanda], until=all_evaluated, timeout=120)
    record = fetch_record(page, snapshot(page).deal)
    states = states_of(record)
    check_deadlines_shown(states[step], latest["Wanda"].seat, calls, texts, page, lang)
    final = played_tricks(states[-1])
    assert len(final) == 12
    check_dialog_against(middle, final, names)
    assert len(middle) >= 3
    played_now = {card for row in final for _, card in row["cards"]}
    assert {card for row in middle for _, card, _ in row["cards"]} <= played_now
    page.locator(tid("eval-close")).click()  # the evaluation lies over the felt; closed, the last trick offers all of them
    button.click()
    expect(dialog.locator(tid("trick-row"))).to_have_count(12)
    rows: list[dict[str, Any]] = page.evaluate(DIALOG_ROWS)
    check_dialog_against(rows, final, names)
    assert all(row["winner"] is not None for row in rows)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


@GERMAN_LAPTOP_AND_ENGLISH_PHONE
def test_the_replay_steps_by_trick_and_names_each_cards_player(
    make_context: ContextFactory, screenshot: Screenshot, lang: str, viewport: dict[str, int]
) -> None:
    page = person(make_context, lang, viewport, "Wanda")
    _, wanda = start_bot_table(page)
    play([wanda], until=all_evaluated, timeout=120)
    deal = snapshot(page).deal
    record = fetch_record(page, deal)
    states = states_of(record)
    ends = []
    for step in range(1, len(states)):
        if sum(t.winner is not None for t in states[step].observation(0).tricks) > sum(
            t.winner is not None for t in states[step - 1].observation(0).tricks
        ):
            ends.append(step)
    assert len(ends) == 12
    total = len(record["actions"])
    page.goto(f"/#/replay/{deal}")
    step_text = page.locator(tid("replay-step"))
    expect(step_text).to_have_text(f"0 / {total}")
    names = {
        seat: page.locator(f'{tid("replay-hand")}[data-seat="{seat}"] h3').evaluate("h => h.childNodes[0].textContent") for seat in range(4)
    }
    assert "Wanda" in names.values() and all(names.values()), names
    title = page.locator(tid("replay-trick-title"))
    of = client_text(page, "replay.trick_of")
    for number, end in enumerate(ends, start=1):
        page.locator(tid("replay-next-trick")).click()
        expect(step_text).to_have_text(f"{end} / {total}")
        expect(title).to_have_text(of.replace("{n}", str(number)).replace("{total}", "12"))
        truth = played_tricks(states[end])[number - 1]
        cards = page.locator(f"{tid('replay-trick')} {tid('trick-card')}")
        expect(cards).to_have_count(4)
        shown = cards.evaluate_all(
            "cs => cs.map((c) => [Number(c.dataset.seat), c.dataset.card, c.querySelector('figcaption').textContent])"
        )
        assert [[seat, card] for seat, card, _ in shown] == truth["cards"], (number, shown, truth)
        assert all(name == names[seat] for seat, _, name in shown), (shown, names)
        if number == 2:
            screenshot(page, f"replay-trick-{lang}", full_page=False)
    expect(page.locator(tid("replay-next-trick"))).to_be_disabled()
    # back trick by trick (the keyboard's Page Up too), and card by card in between
    page.locator(tid("replay-prev-trick")).click()
    expect(step_text).to_have_text(f"{ends[-2]} / {total}")
    page.locator(tid("replay-prev")).click()
    expect(step_text).to_have_text(f"{ends[-2] - 1} / {total}")
    page.keyboard.press("PageUp")
    expect(step_text).to_have_text(f"{ends[-3]} / {total}")
    page.keyboard.press("PageDown")
    expect(step_text).to_have_text(f"{ends[-2]} / {total}")
    back = page.locator(tid("replay-prev-trick"))
    for _ in range(12):
        if back.is_disabled():
            break
        back.click()
    expect(step_text).to_have_text(f"0 / {total}")
    overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert overflow <= 1, f"the replay is {overflow} px too wide"


def test_a_tarock_call_says_it_is_now_or_never(make_context: ContextFactory, screenshot: Screenshot) -> None:
    # Dobbm's doubling (§5) is a phase before the first card: the line under "Kontra" says only now, before play
    page = person(make_context, "de", LAPTOP, "Wanda")
    made = page.request.post("/api/tables", data={"game": "dobbm", "kind": "free", "deals": 3, "bots": "heuristic"})
    assert made.status == 201, made.text()
    page.goto(f"/#/table/{made.json()['id']}")
    wanda = Player("Wanda", page, prefer=("pass", "accept"))
    calls = ("double", "retour", "kontra")
    latest = play(
        [wanda], until=lambda shots: shots["Wanda"].mine and any(a.split()[0] in calls for a in shots["Wanda"].actions), timeout=120
    )
    assert latest["Wanda"].legal == []  # no card yet: the call comes before the first one
    line = page.locator(tid("call-deadlines"))
    expect(line).to_have_text(client_text(page, "deadline.before_play"))
    screenshot(page, "dobbm-call", full_page=False)
    page.locator(f'{tid("actions")} {tid("action")}[data-action^="accept"]').first.click()
    expect(line).to_have_count(0)
