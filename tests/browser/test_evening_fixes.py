"""What an evening at the table still got wrong (issue 40, "At the table (browser)"), seen in the browser.

Each test names the defect it holds to; the layout checks run at the sizes the
issue was found at (1366×900, 1366×768 and a 390×844 phone).
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from stich.core.registry import game_from_string

from .flows import PHONE, ContextFactory, Screenshot, person
from .ui import Player, all_evaluated, client_text, enter_as_guest, play, tid

LAPTOP_900 = {"width": 1366, "height": 900}

UNCOVERED = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return "missing";
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) return `outside ${JSON.stringify(r)}`;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return el.contains(hit) ? "ok" : `covered by ${hit && hit.outerHTML.slice(0, 80)}`;
}"""
"""Whether the element is inside the viewport and on top at its centre ("ok"), else what is wrong."""


def open_table(page: Page, **body: Any) -> str:
    """A table made through the API with ``body``, opened on ``page``, then bots seated; returns its id.

    The bots come once the page is connected, so that the first deal never starts before its person is there.
    """
    made = page.request.post("/api/tables", data={"kind": "free", "deals": 1, "seat": 0, **body})
    assert made.status == 201, made.text()
    table_id: str = made.json()["id"]
    page.goto(f"/#/table/{table_id}")
    expect(page.locator(tid("connection"))).to_have_attribute("data-state", "connected", timeout=15_000)
    seated = page.request.post(f"/api/tables/{table_id}/bots", data={"bot": "heuristic"})
    assert seated.ok, seated.text()
    return table_id


TOAST_WATCH = """
(text) => {
  const el = document.getElementById("toast");
  const watch = (window.__toastWatch = { shown: null, gone: null });
  const look = () => {
    const showing = !el.hidden && el.textContent === text;
    if (showing && watch.shown === null) watch.shown = performance.now();
    else if (!showing && watch.shown !== null && watch.gone === null) watch.gone = performance.now();
  };
  look();
  new MutationObserver(look).observe(el, { attributes: true, childList: true, characterData: true, subtree: true });
}
"""
"""Note, on the page's clock, when the toast starts showing ``text`` and when it stops (hidden or another text)."""

TOAST_SHOWN_MS = "() => (window.__toastWatch.gone ?? performance.now()) - window.__toastWatch.shown"
TOAST_READ = f"() => window.__toastWatch.shown !== null && (window.__toastWatch.gone !== null || ({TOAST_SHOWN_MS})() >= 3000)"


def test_one_timed_out_move_marks_that_move_and_nobody_is_told_they_were_away(make_context: ContextFactory, screenshot: Screenshot) -> None:
    """Defect 1: only the first move runs out of time; the rest Tina plays herself, and she stays."""
    page = person(make_context, "de", LAPTOP_900, "Tina")
    table_id = open_table(page, game="doppelkopf", turn_seconds=6)
    page.evaluate(TOAST_WATCH, client_text(page, "clock.timeout_me"))
    toast = page.locator("#toast")
    expect(toast).to_have_text(client_text(page, "clock.timeout_me"), timeout=30_000)
    assert page.evaluate(UNCOVERED, "#toast") == "ok"
    screenshot(page, "timeout-toast", full_page=False)
    # long enough to be read, not glimpsed: 3 s on the page's own clock (a fixed wait here outlasted the toast under load)
    page.wait_for_function(TOAST_READ)
    assert page.evaluate("() => window.__toastWatch.gone") is None or page.evaluate(TOAST_SHOWN_MS) >= 3000
    play([Player("Tina", page)], all_evaluated, timeout=150)
    sheet = page.locator(tid("score-sheet"))
    expect(sheet.locator(tid("timeout-mark"))).to_have_count(1)
    expect(sheet.locator(tid("stand-in-mark"))).to_have_count(0)
    page.reload()
    expect(sheet.locator(tid("timeout-mark"))).to_have_count(1)
    expect(sheet.locator(tid("stand-in-mark"))).to_have_count(0)
    expect(page.locator(tid("absence-note"))).to_be_hidden()  # she was there all along: no "welcome back"
    page.goto("/#/stats")
    expect(page.locator(tid("stats-row"))).to_have_count(1)  # the deal counts
    expect(page.locator(tid("stats-timeouts-note"))).to_have_text(client_text(page, "stats.timeouts_note"))
    screenshot(page, "stats")
    # defect 14, on the same finished deal: the history numbers deals as the table does, heads each column once
    # and names the table by when and with whom, not by its random id
    page.goto("/#/history")
    expect(page.locator(tid("history-deal-no"))).to_have_text([client_text(page, "table.deal_no").replace("{n}", "1")])
    heads = page.locator(".history-table thead th").all_inner_texts()
    named = [head for head in heads if head.strip()]
    assert len(named) == len(set(named)), heads
    expect(page.locator(tid("history-table-name"))).not_to_contain_text(table_id)
    screenshot(page, "history")


CONTRAST = """(selector) => {
  const el = document.querySelector(selector);
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;
  let back = el, bg = "rgba(0, 0, 0, 0)";
  while (back && /rgba\\(0, 0, 0, 0\\)|transparent/.test(bg)) { bg = getComputedStyle(back).backgroundColor; back = back.parentElement; }
  return Math.abs(lum(rgb(getComputedStyle(el).color)) - lum(rgb(bg)));
}"""
"""The difference in luminance (0–255) between an element's text colour and the background it is drawn on."""


@pytest.mark.parametrize("viewport", [LAPTOP_900, PHONE], ids=["1366x900", "390x844"])
def test_the_evaluation_keeps_its_actions_and_its_close_button_in_view(
    make_context: ContextFactory, screenshot: Screenshot, viewport: dict[str, int]
) -> None:
    """Defect 2 (and 13's squeezed evaluation): "Weiter", "Nachspielen", "Protokoll laden" and a readable ✕ stay visible."""
    page = person(make_context, "de", viewport, "Eva")
    open_table(page, game="doppelkopf", deals=2)
    play([Player("Eva", page)], all_evaluated, timeout=150)
    screenshot(page, "evaluation", full_page=False)
    for name in ("eval-continue", "replay-link", "record-download", "eval-close"):
        assert page.evaluate(UNCOVERED, tid(name)) == "ok", name
    for name in ("eval-close", "record-download"):
        assert page.evaluate(CONTRAST, tid(name)) > 100, f"{name} cannot be read on its background"
    box = page.locator(tid("evaluation")).bounding_box()
    assert box is not None and box["width"] >= viewport["width"] * 0.9 if viewport is PHONE else True, box


def test_welcome_back_floats_over_the_table_once_and_never_at_a_finished_table(
    make_context: ContextFactory, screenshot: Screenshot
) -> None:
    """Defect 3: the notice does not move the hand, can be dismissed, does not come back on reload, nor at a finished table."""
    context = make_context(viewport={"width": 1366, "height": 768}, locale="de-DE")
    page = context.new_page()
    enter_as_guest(page, "Wiebke")
    table_id = open_table(page, game="doppelkopf", deals=2)
    expect(page.locator(f"{tid('hand')} {tid('card')}").first).to_be_visible()
    page.close()  # away: after the grace the stand-in plays her turns
    page = context.new_page()
    # Back once the stand-in has played for her: the first deal over (she left at its start), the second not yet (a fixed
    # wait of 4 s was once too short on a loaded machine, and a finished table rightly shows no note)
    summary = lambda: page.request.get(f"/api/tables/{table_id}").json()  # noqa: E731
    deadline = time.monotonic() + 60
    while (now := summary())["deals_played"] < 1:
        assert time.monotonic() < deadline, now
        page.wait_for_timeout(100)
    assert now["status"] != "finished", now
    page.goto(f"/#/table/{table_id}")
    note = page.locator(tid("absence-note"))
    expect(note).to_be_visible()
    # The table, not the hand: on an idle machine the stand-in may have finished the deal (the hand is empty then).
    felt = page.locator(".felt")
    expect(felt).to_be_visible()
    screenshot(page, "welcome-back", full_page=False)
    with_note = felt.bounding_box()
    page.locator(tid("absence-close")).click()
    expect(note).to_be_hidden()
    without_note = felt.bounding_box()
    assert with_note and without_note and abs(with_note["y"] - without_note["y"]) < 1, (with_note, without_note)
    page.reload()
    expect(page.locator(".felt")).to_be_visible()
    page.wait_for_timeout(1000)
    expect(note).to_be_hidden()  # told once
    finished = lambda _: page.request.get(f"/api/tables/{table_id}").json()["status"] == "finished"  # noqa: E731
    play([Player("Wiebke", page)], finished, timeout=200)
    again = context.new_page()  # a fresh tab at the finished table
    again.goto(f"/#/table/{table_id}")
    expect(again.locator(tid("score-sheet")).locator(tid("stand-in-mark")).first).to_be_visible()
    again.wait_for_timeout(500)
    expect(again.locator(tid("absence-note"))).to_be_hidden()


def client_page(make_context: ContextFactory, lang: str = "de", viewport: dict[str, int] = LAPTOP_900) -> Page:
    """The client loaded in ``lang`` (its translations ready), for calling its modules as the table page does."""
    page = person(make_context, lang, viewport)
    page.goto("/#/rules")
    page.wait_for_function("document.querySelector('main') && document.querySelector('main').innerText.length > 50")
    return page


EVALUATION_ROWS = """async ([result, game]) => {
  const { evaluationContent } = await import("/static/js/results.js");
  const box = document.createElement("div");
  box.append(...evaluationContent(result, { gameName: game, names: ["Anna", "Bert", "Cleo"], mySeat: 0 }));
  document.body.append(box);
  const rows = [...box.querySelectorAll(".eval-items tbody tr")].map((tr) => [...tr.cells].map((td) => td.innerText.trim()));
  box.remove();
  return rows;
}"""

TAPP_DEFENDERS_WON = {
    "scores": [191, -382, 191],
    "declarer": 1,
    "won": False,
    "items": [
        {"name": "game", "to": "defenders", "value": 8, "doubling": "subkontra", "factor": 8, "amount": -64},
        {"name": "valat_announced", "to": "defenders", "value": 24, "doubling": "rekontra", "factor": 4, "amount": -96},
        {"name": "ultimo_announced", "to": "defenders", "value": 16, "doubling": "kontra", "factor": 2, "amount": -32},
        {"name": "pagat_ultimo", "to": "declarer", "value": 16, "doubling": "none", "factor": 1, "amount": 16},
    ],
    "per_defender": -192,
}
"""A Tapp Tarock result as the engine books it (seed 0, random play): the amounts are the declarer's."""


def test_tarock_evaluation_shows_what_each_side_gets_without_a_minus(make_context: ContextFactory) -> None:
    """Defect 6: "Spiel · Gegenspieler · −64" read as if the winners lost points."""
    page = client_page(make_context)
    rows = page.evaluate(EVALUATION_ROWS, [TAPP_DEFENDERS_WON, "tapp_tarock"])
    assert [row[-1] for row in rows] == ["64", "96", "32", "16"], rows
    assert [row[1] for row in rows] == [client_text(page, "party.defenders")] * 3 + [client_text(page, "party.declarer")], rows


def offered_buttons(deals: int = 25) -> list[tuple[str, str, str]]:
    """``(game, phase, action)`` of every action offered as a button in ``deals`` random deals of each game."""
    found: set[tuple[str, str, str]] = set()
    for name in ("doppelkopf", "tapp_tarock", "dobbm", "droggn", "dappen"):
        game = game_from_string(name)
        for seed in range(deals):
            state = game.new_state(seed=seed, dealer=seed % game.num_seats)
            chance = random.Random(seed)
            while not state.is_terminal():
                legal = list(state.legal_actions())
                phase = type(state).PHASE_NAMES[state.phase]  # type: ignore[attr-defined]
                for action in legal:
                    text = action.text
                    if text.split()[0] not in ("play", "discard", "offer", "buy"):  # cards are clicked; Kaufen has its picker
                        found.add((name, phase, text))
                state.apply(chance.choice(legal))
    return sorted(found)


TOOLTIPS = """(pairs) => import("/static/js/labels.js").then(({ actionHint, actionLabel }) => {
  const catalog = window.__stichCatalog;
  return pairs.map(([game, phase, text]) => {
    const k = text.trim().replace(/\\s+/g, ".");
    return {
      game, phase, text,
      label: actionLabel(text, game, phase),
      hint: actionHint(text, game, phase),
      phaseLabel: Boolean(catalog[`action.${game}.${phase}.${k}`]),
      phaseHint: Boolean(catalog[`hint.${game}.${phase}.${k}`]),
    };
  });
})"""

RULES_SAY = [
    # (game, action, what the rules page says, what the tooltip must say, what it must not say)
    ("droggn", "bid solo", "Beim Ansager und Solo nimmt der Spieler den Talon", "Talon", "ohne Talon"),
    ("droggn", "bid ansager", "beim Ansager kauft er danach eine Karte", "kaufst", None),
    ("tapp_tarock", "bid solo", "Solo (ohne Talon)", "ohne Talon", None),
    ("dobbm", "bid solo", "Solo (ohne)", "ohne den Dobb", None),
    ("dappen", "bid solo", "beim Solo bleibt der Dapp liegen", "ohne Dapp", None),
]
"""What the rules pages say about the talon in each bid, and how its tooltip must agree (German texts)."""


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_button_of_every_phase_has_its_own_tooltip_and_it_agrees_with_the_rules(make_context: ContextFactory, lang: str) -> None:
    """Defect 5: every button is explained, by its phase's text where its label is its phase's; bids match the rules pages."""
    page = client_page(make_context, lang)
    page.evaluate(f"fetch('/static/i18n/{lang}.json').then((r) => r.json()).then((c) => {{ window.__stichCatalog = c; }})")
    page.wait_for_function("window.__stichCatalog")
    shown = page.evaluate(TOOLTIPS, [list(pair) for pair in offered_buttons()])
    unexplained = [(s["game"], s["phase"], s["text"]) for s in shown if not s["hint"]]
    assert not unexplained, f"buttons without a tooltip: {unexplained}"
    borrowed = [(s["game"], s["phase"], s["text"], s["label"], s["hint"]) for s in shown if s["phaseLabel"] and not s["phaseHint"]]
    assert not borrowed, f"a phase's own label explained by another phase's tooltip: {borrowed}"
    if lang == "de":
        hints = {(s["game"], s["text"]): s["hint"] for s in shown}
        for game, action, rules, must, must_not in RULES_SAY:
            page.goto(f"/#/rules/{game}")
            expect(page.locator("main")).to_contain_text(rules)
            assert must in hints[(game, action)], (game, action, hints[(game, action)])
            assert must_not is None or must_not not in hints[(game, action)], (game, action, hints[(game, action)])


BUY_PICKER = """async (buys) => {
  const { buyPicker } = await import("/static/js/table/buy_picker.js");
  const box = document.createElement("div");
  box.className = "controls";
  box.style.width = "900px";
  box.append(buyPicker(buys, { gameName: "droggn", pack: "tarot", busy: false, onBuy: (a) => { window.__bought = a; } }));
  document.querySelector("main").append(box);
  const picker = box.firstChild;
  const result = {
    options: picker.querySelectorAll("option").length,
    buttons: picker.querySelectorAll("button").length,
    explain: picker.querySelector("[data-testid=buy-explain]")?.innerText,
    height: picker.getBoundingClientRect().height,
  };
  picker.querySelector("select").value = buys[5];
  picker.querySelector("button").click();
  result.bought = window.__bought;
  box.remove();
  return result;
}"""


def test_droggn_kaufen_is_one_explaining_line_and_a_compact_card_picker(make_context: ContextFactory) -> None:
    """Defect 4: not a wall of 42 "… kaufen" buttons."""
    page = client_page(make_context)
    buys = sorted({a.text for a in game_from_string("droggn").actions if a.text.startswith("buy ")})
    assert len(buys) >= 40
    shown = page.evaluate(BUY_PICKER, buys)
    assert shown["options"] == len(buys) and shown["buttons"] == 1, shown
    assert shown["explain"] == client_text(page, "buy.explain"), shown
    assert shown["height"] < 110, shown
    assert shown["bought"] == buys[5], shown


WORDING = """async () => {
  const { presetTitle } = await import("/static/js/games.js");
  const { actionLabel } = await import("/static/js/labels.js");
  const { evaluationContent } = await import("/static/js/results.js");
  const { detailLines } = await import("/static/js/result_details.js");
  const { t } = await import("/static/js/i18n.js");
  const text = (parts) => parts.map((p) => p.textContent).join(" | ");
  const dk = { kind: "normal", contract: "normal", re: [0, 2], kontra: [1, 3], winner: "kontra", eyes: { re: 100, kontra: 140 },
    items: [], specials: [{ name: "gegen_die_alten", party: "kontra", points: 1, trick: 0 }], value: 2, scores: [-2, 2, -2, 2] };
  const tapp = { kind: "game", contract: "oberer", declarer: 0, defenders: [1, 2], won: true, talon_taken: "upper",
    points: { declarer: 40, defenders: 30 }, items: [], scores: [10, -5, -5] };
  return {
    presets: ["freedoko_standard", "freedoko_tournament"].map((p) => presetTitle("doppelkopf", p)),
    seeds: [presetTitle("tapp_tarock", "seed"), presetTitle("dobbm", "seed")],
    oberSolo: [actionLabel("solo damen", "doppelkopf", "declare", "german"), actionLabel("solo buben", "doppelkopf", "declare", "german")],
    evaluation: text(evaluationContent(dk, { gameName: "doppelkopf", names: ["A", "B", "C", "D"], mySeat: 0 })),
    tappDetail: (detailLines("tapp_tarock", tapp, ["A", "B", "C"]) || []).join(" "),
    nextDeal: t("result.continue"),
    droggnPass: t("action.droggn.pass"),
  };
}"""


def test_the_wording_a_german_player_reads(make_context: ContextFactory) -> None:
    """Defect 9 (the parts done here): preset and option names, Ober/Unter, Talon, Gegen die Alten, "Weiter" twice, rules heading."""
    page = client_page(make_context)
    said = page.evaluate(WORDING)
    assert not any("freedoko" in title for title in said["presets"]), said["presets"]
    assert "Quelle" not in " ".join(said["seeds"]), said["seeds"]
    assert said["oberSolo"] == ["Ober-Solo", "Unter-Solo"], said["oberSolo"]
    assert (
        client_text(page, "item.gegen_die_alten") in said["evaluation"]
        and "Stich" not in said["evaluation"].split("Gegen die Alten")[1][:12]
    )
    assert "Talonhälfte obere" not in said["tappDetail"] and "obere Hälfte" in said["tappDetail"], said["tappDetail"]
    assert said["nextDeal"] != said["droggnPass"], said
    page.goto("/#/rules/doppelkopf")
    expect(page.locator("main h2").first).to_be_visible()
    assert "Reizen" not in " ".join(page.locator("main h2").all_inner_texts())
    page.goto("/#/")
    page.locator(tid("create-game")).select_option("doppelkopf")
    options = page.locator(".options-box")
    expect(options).to_contain_text("§")
    shown = options.text_content() or ""
    assert "decision" not in shown and "A-22" not in shown, shown


ALIGNMENT = """() => {
const textWidth = (select) => {
  const probe = document.createElement("span");
  probe.style.cssText = `position:absolute;visibility:hidden;white-space:nowrap;font:${getComputedStyle(select).font}`;
  probe.textContent = select.selectedOptions[0]?.text || "";
  document.body.append(probe);
  const width = probe.getBoundingClientRect().width;
  probe.remove();
  return width;
};
return [...document.querySelectorAll(".create-form .form-grid > label[for]")].map((label) => {
  const control = document.getElementById(label.htmlFor);
  const l = label.getBoundingClientRect(), c = control.getBoundingClientRect();
  const form = document.querySelector(".create-form").getBoundingClientRect();
  return { for: label.htmlFor, labelMiddle: l.top + l.height / 2, top: c.top, bottom: c.bottom, right: c.right, formRight: form.right,
    cut: control.tagName === "SELECT" && textWidth(control) + 24 > c.width };
});
}"""


def test_the_lobby_form_lines_up_and_says_what_the_last_table_carried_over(make_context: ContextFactory, screenshot: Screenshot) -> None:
    """Defect 8: every label on its control's line, nothing cut off; private and the list marked when remembered."""
    page = person(make_context, "de", LAPTOP_900, "Lena")
    page.goto("/#/")
    remembered = {"game": "doppelkopf", "preset": "ddv", "kind": "list", "private": True, "sit": True}
    page.evaluate("m => localStorage.setItem('stich.lastTable', JSON.stringify(m))", remembered)
    page.reload()
    expect(page.locator(tid("create-kind"))).to_have_value("list", timeout=15_000)
    page.wait_for_timeout(500)
    screenshot(page, "lobby-form", full_page=False)
    rows = page.evaluate(ALIGNMENT)
    off = [
        row for row in rows if not row["top"] <= row["labelMiddle"] <= row["bottom"] or row["right"] > row["formRight"] + 1 or row["cut"]
    ]
    assert not off, off
    expect(page.locator(tid("carried-private"))).to_have_text(client_text(page, "lobby.carried_over"))
    expect(page.locator(tid("carried-kind"))).to_be_visible()


HAND_ROWS = """async (cards) => {
  const { renderHand } = await import("/static/js/table/hand.js");
  const real = document.querySelector("[data-testid=hand]");
  const hand = document.createElement("div");
  hand.className = "hand";
  hand.style.width = `${real.getBoundingClientRect().width}px`;
  real.after(hand);
  const shown = { hand: cards, groups: null, cardActions: new Map(), myTurn: false, busy: false, gameName: "droggn", pack: "tarot" };
  renderHand(hand, { ...shown, onPlay: () => {} });
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const all = [...hand.children];
  const br = all.findIndex((el) => el.classList.contains("row-break"));
  const visual = (el) => el.querySelector(".card-visual").getBoundingClientRect();
  const first = (br < 0 ? all : all.slice(0, br)).map(visual);
  const second = br < 0 ? [] : all.slice(br + 1).map(visual);
  const height = first[0].height;
  const covered = second.length ? Math.max(...first.map((r) => r.bottom)) - Math.min(...second.map((r) => r.top)) : 0;
  hand.remove();
  return { rows: br < 0 ? 1 : 2, height, covered, visibleShare: (height - covered) / height };
}"""


@pytest.mark.parametrize("viewport", [{"width": 900, "height": 900}, LAPTOP_900], ids=["900", "1366"])
def test_a_droggn_hand_in_two_rows_keeps_the_first_row_readable(
    make_context: ContextFactory, screenshot: Screenshot, viewport: dict[str, int]
) -> None:
    """Defect 12: the second row of a 24-card Droggn hand (the declarer's, talon taken) must leave the first readable."""
    page = person(make_context, "de", viewport, "Rosa")
    open_table(page, game="droggn")
    expect(page.locator(f"{tid('hand')} {tid('card')}")).to_have_count(21)
    deck = [a.text.split()[1] for a in game_from_string("droggn").actions if a.text.startswith("buy ")]
    rows = page.evaluate(HAND_ROWS, sorted(set(deck))[:24])
    assert rows["rows"] == 1 or rows["visibleShare"] >= 0.45, rows


PHONE_LAYOUT = """() => {
  const box = (sel) => document.querySelector(sel)?.getBoundingClientRect();
  const topbar = box(".topbar");
  const last = box("[data-testid=last-trick]");
  const mine = [...document.querySelectorAll("[data-testid=seat]")].find((s) => s.classList.contains("me"));
  const plate = mine?.querySelector(".plate")?.getBoundingClientRect();
  const apart = (a, b) => a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
  const overlap = last && plate ? !apart(last, plate) : null;
  const rows = [...document.querySelectorAll("[data-testid=score-sheet] tr")];
  const cells = rows.map((tr) => tr.lastElementChild.getBoundingClientRect().right);
  return { topbar: topbar.height, overlap, sheetRight: Math.max(...cells), width: innerWidth };
}"""


def test_the_table_on_a_phone(make_context: ContextFactory, screenshot: Screenshot) -> None:
    """Defect 13: a one-row top bar, the last trick clear of one's own plate, the score sheet's last column on screen."""
    page = person(make_context, "de", PHONE, "Pia")
    open_table(page, game="doppelkopf")
    played = f"{tid('last-trick')} {tid('card')}"
    play([Player("Pia", page)], lambda _: page.locator(played).count() == 4, timeout=90)
    screenshot(page, "phone-table", full_page=False)
    shown = page.evaluate(PHONE_LAYOUT)
    assert shown["topbar"] < 60, shown
    assert shown["overlap"] is False, shown
    assert shown["sheetRight"] <= shown["width"], shown


THROWN_IN_TABLE = """async ([game, rows, running, requested]) => {
  const { createHead } = await import("/static/js/table/head.js");
  const { createEvaluationView } = await import("/static/js/table/evaluation_view.js");
  const { renderSheet } = await import("/static/js/table/panels.js");
  const div = () => document.createElement("div");
  const sheet = new Map(rows.map((row) => [row.deal, row]));
  const s = { summary: { game, deals_requested: requested }, table: { deals_requested: requested }, sheet,
              dealStart: { deal: 100, number: running }, lastEnd: { ...rows[rows.length - 1], totals: [0, 0, 0] },
              evalHidden: false, waiting: null };
  const inviteBox = div();
  inviteBox.append(document.createElement("span"));
  const ctx = { s, title: div(), dealInfo: div(), inviteBox, inviteInput: document.createElement("input"), copyButton: div(),
                watching: div(), notice: div(), felt: div(), rulesLine: div(), layout: div(), gameName: () => game,
                status: () => "playing", tableId: "t", invite: null, evaluation: div(), showEval: div(), side: div(),
                socket: () => null, names: () => ["Anna", "Bert", "Cleo"], mySeat: () => 0, inviteQuery: "",
                betweenDeals: () => false, render: () => {} };
  createHead(ctx).renderHead();
  createEvaluationView(ctx).renderEvaluation();
  const box = div();
  renderSheet(box, { rows, totals: [0, 0, 0], names: ["Anna", "Bert", "Cleo"], mySeat: 0, gameName: game, inviteQuery: "" });
  return { head: ctx.dealInfo.textContent, title: ctx.evaluation.querySelector(".eval-top h2").textContent,
           next: ctx.evaluation.querySelector("[data-testid=eval-next]").textContent,
           numbers: [...box.querySelectorAll("tbody tr td:first-child")].map((td) => td.textContent) };
}"""
"""Header, evaluation and score sheet of a table whose last finished deal is ``rows[-1]`` and whose deal ``running`` runs."""

TAPP_WON = {"kind": "game", "contract": "dreier", "declarer": 0, "won": True, "scores": [6, -3, -3], "items": [], "per_defender": -3}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_thrown_in_deal_is_no_game_of_the_list_in_header_sheet_and_evaluation(make_context: ContextFactory, lang: str) -> None:
    """Defect 10: after a thrown-in Tapp deal the header said "1 von 3 Spielen gespielt · Spiel 3".

    "Spiel N" and "gespielt" both count the deals that count toward the list [tapp_tarock.md §3.3: a thrown-in deal
    is redealt and is no game]; the thrown-in deal has no number on the sheet and its evaluation says it does not count.
    """
    page = client_page(make_context, lang)
    thrown = {"kind": "all_pass", "redeal": True, "next_dealer": 1, "scores": [0, 0, 0]}
    rows = [{"deal": 1, "number": 0, "result": TAPP_WON}, {"deal": 2, "number": 1, "result": thrown}]
    seen = page.evaluate(THROWN_IN_TABLE, ["tapp_tarock", rows, 2, 3])
    played = client_text(page, "table.deals_played").replace("{played}", "1").replace("{total}", "3")
    assert seen["head"].endswith(f"{played} · {client_text(page, 'table.deal_no_again').replace('{n}', '2')}"), seen
    assert seen["title"] == client_text(page, "result.title_redeal"), seen
    assert seen["next"] == client_text(page, "result.next_running").replace("{n}", "2"), seen
    assert seen["numbers"] == ["1", "–"], seen

    # Dappen's deal "ins Loch" counts toward the list (redeal: false): it is game 2, and the next is game 3 [dappen.md]
    loch = {"kind": "thrown", "reason": "all passed (ins Loch)", "seat": None, "redeal": False, "scores": [0, 0, 0]}
    rows = [{"deal": 1, "number": 0, "result": TAPP_WON}, {"deal": 2, "number": 1, "result": loch}]
    seen = page.evaluate(THROWN_IN_TABLE, ["dappen", rows, 2, 6])
    played = client_text(page, "table.deals_played").replace("{played}", "2").replace("{total}", "6")
    assert seen["head"].endswith(f"{played} · {client_text(page, 'table.deal_no').replace('{n}', '3')}"), seen
    assert seen["title"] == client_text(page, "result.title").replace("{n}", "2"), seen
    assert seen["numbers"] == ["1", "2"], seen


EVALUATION_FACTS = """async ([result, game, names]) => {
  const { evaluationContent } = await import("/static/js/results.js");
  const box = document.createElement("div");
  box.append(...evaluationContent(result, { gameName: game, names, mySeat: 0 }));
  document.body.append(box);
  const terms = [...box.querySelectorAll(".eval-facts dt")];
  const facts = Object.fromEntries(terms.map((dt) => [dt.innerText.trim(), dt.nextElementSibling.innerText.trim()]));
  box.remove();
  return facts;
}"""

DAPPEN_OPPONENTS_WON = {
    "kind": "game",
    "contract": "solo",
    "lone": 1,
    "opponents": [2, 3, 4, 5, 0],
    "payers": [2, 3, 4, 5, 0],
    "winner": "opponents",
    "points": {"lone": 27, "opponents": 52},
    "tricks": {"lone": 1, "opponents": 6},
    "value": 15,
    "factor": 1,
    "per_opponent": 15,
    "ulti": [],
    "payments": {"game": [15, -75, 15, 15, 15, 15], "ulti": [0] * 6},
    "scores": [15, -75, 15, 15, 15, 15],
}
"""A Dappen solo the opponents won, as the engine books it (seed 0, random play, its Ulti left out): the value is unsigned."""


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_evaluation_says_what_the_score_sheet_books(make_context: ContextFactory, lang: str) -> None:
    """Defect 9: Dappen "Die Gegner gewinnen" beside "Spielwert: 5 für Alleinspieler"; Tapp "Jeder Gegenspieler bekommt 7"
    while the sheet gives +6 each.

    Dappen books the value to the winning side [dappen.md §8.1]; Tapp Tarock settles hand bonuses apart from the game
    [tapp_tarock.md §8.3: the holder collects from each other player], so a defender's booking is the game's amount
    plus the bonuses, and the line names both.
    """
    page = client_page(make_context, lang)
    names = ["Anna", "Bert", "Cleo", "Dora", "Emil", "Fritz"]
    facts = page.evaluate(EVALUATION_FACTS, [DAPPEN_OPPONENTS_WON, "dappen", names])
    value_for = client_text(page, "result.value_for").replace("{value}", "15")
    assert facts[client_text(page, "result.value")] == value_for.replace("{side}", client_text(page, "party.opponents")), facts
    assert facts[client_text(page, "result.per_opponent")] == "15", facts
    # with its lost Ulti (10 a payer) each opponent books 25: the game's 15 says it is without the Ulti
    ulti = {**DAPPEN_OPPONENTS_WON, "ulti": [{"trump": 3, "won": False, "cents": 10}], "scores": [25, -125, 25, 25, 25, 25]}
    facts = page.evaluate(EVALUATION_FACTS, [ulti, "dappen", names])
    assert facts[client_text(page, "result.per_opponent")] == f"15 {client_text(page, 'result.game_without_ulti')}", facts

    tapp = {**TAPP_DEFENDERS_WON, "defenders": [2, 0], "hand_bonuses": [{"name": "koepfe", "seat": 1, "value": 1, "settlement": "holder"}]}
    facts = page.evaluate(EVALUATION_FACTS, [tapp, "tapp_tarock", names[:3]])
    split = client_text(page, "result.defender_split").replace("{game}", "+192").replace("{bonus}", "-1")
    assert facts[client_text(page, "result.each_defender_gets")] == f"191 {split}", facts  # the sheet: +191 each

    # a holder-settled bonus of one defender: the defenders book differently, so the line is the game's and says so
    uneven = {**tapp, "scores": [194, -385, 191], "hand_bonuses": [{"name": "koepfe", "seat": 0, "value": 1, "settlement": "holder"}]}
    facts = page.evaluate(EVALUATION_FACTS, [uneven, "tapp_tarock", names[:3]])
    assert facts[client_text(page, "result.each_defender_gets")] == f"192 {client_text(page, 'result.defender_game_only')}", facts
