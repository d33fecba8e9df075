// Every trick of a deal, each card with the player who played it, who led and who won (issue 43). Only played
// cards are shown: they are public at the table; the view's tricks hold nothing else.

import { cardElement } from "../cards.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

/** The seats that played `trick`'s cards, in play order (clockwise among `active`, from the leader). */
export function trickSeats(trick, active, seats) {
  const order = active && active.length ? active : [...Array(seats).keys()];
  const start = Math.max(0, order.indexOf(trick.leader));
  return trick.cards.map((_, i) => order[(start + i) % order.length]);
}

/** One card of a trick with its player's name under it (the leader and the winner marked). */
export function namedTrickCard(card, seat, trick, { gameName, pack, names, size = "mini" }) {
  const led = seat === trick.leader;
  const won = trick.winner === seat;
  const el = cardElement(card, { gameName, pack, extraClass: [size, won ? "winner" : ""].join(" ") });
  const name = names[seat] ?? t("table.seat_n", { n: Number(seat) + 1 });
  el.title = `${name}: ${el.title}`;
  return h(
    "figure",
    { class: ["trick-card", led && "led", won && "won"], testid: "trick-card", dataset: { seat, card } },
    el,
    h("figcaption", { class: "small", testid: "trick-card-player", text: name }),
  );
}

/** One trick as a row: its number, who led, who won (or that it is still open), and its cards by player. */
export function trickRow(trick, index, ctx) {
  const { names, active, seats } = ctx;
  const who = (seat) => names[seat] ?? t("table.seat_n", { n: Number(seat) + 1 });
  const open = trick.winner === null || trick.winner === undefined;
  const facts = [t("tricks.led_by", { name: who(trick.leader) }), open ? t("tricks.open") : t("tricks.won_by", { name: who(trick.winner) })];
  return h(
    "li",
    { class: ["trick-row", open && "open"], testid: "trick-row", dataset: { trick: index + 1, leader: trick.leader, winner: open ? "" : trick.winner } },
    h("div", { class: "trick-row-head" }, h("strong", { text: t("tricks.number", { n: index + 1 }) }), h("span", { class: "muted small", text: facts.join(" · ") })),
    h("div", { class: "trick-row-cards" }, trickSeats(trick, active, seats).map((seat, i) => namedTrickCard(trick.cards[i], seat, trick, ctx))),
  );
}

/** Every trick with a card so far, first trick first. */
export function trickList(tricks, ctx) {
  const played = (tricks || []).filter((trick) => trick.cards && trick.cards.length);
  if (!played.length) return h("p", { class: "muted", testid: "no-tricks", text: t("tricks.none") });
  return h("ol", { class: "trick-list", testid: "trick-list" }, played.map((trick, i) => trickRow(trick, i, ctx)));
}

/**
 * The "all tricks" dialog of a table page: `button` opens it (put it next to the last trick), `refresh(tricks, ctx)`
 * redraws it while open (the deal goes on underneath), `element` is the dialog to add to the page.
 */
export function createTrickDialog() {
  let current = { tricks: [], ctx: null };
  const body = h("div", { class: "tricks-body" });
  const close = h("button", { type: "button", class: "ghost small", testid: "close-tricks", "aria-label": t("common.close"), text: "✕", onclick: () => dialog.close() });
  const heading = h("h2", { text: t("tricks.title") });
  const dialog = h("dialog", { class: "tricks-dialog", testid: "all-tricks", "aria-label": t("tricks.title") }, h("div", { class: "tricks-head" }, heading, close), body);
  const button = h("button", { type: "button", class: "ghost small all-tricks-button", testid: "show-tricks", text: t("tricks.show"), onclick: () => open() });

  function draw() {
    heading.textContent = t("tricks.title");
    dialog.setAttribute("aria-label", t("tricks.title"));
    close.setAttribute("aria-label", t("common.close"));
    if (current.ctx) body.replaceChildren(trickList(current.tricks, current.ctx));
  }

  function open() {
    draw();
    if (!dialog.open) dialog.showModal();
  }

  return {
    element: dialog,
    button,
    refresh(tricks, ctx) {
      current = { tricks: tricks || [], ctx };
      button.textContent = t("tricks.show");
      button.hidden = !(tricks || []).some((trick) => trick.cards && trick.cards.length);
      if (dialog.open) draw();
    },
    close: () => dialog.open && dialog.close(),
  };
}

/** The replay steps at which a trick is complete (its winner known), in order: where "trick by trick" stops. */
export function trickEnds(frames) {
  const ends = [];
  let before = 0;
  (frames || []).forEach((frame, step) => {
    const tricks = frame.observations?.[0]?.tricks || [];
    const complete = tricks.filter((trick) => trick.winner !== null && trick.winner !== undefined).length;
    if (complete > before) ends.push(step);
    before = complete;
  });
  return ends;
}

/** The step "trick by trick" goes to from `step`: the next (`+1`) or previous (`-1`) trick's end, else the first or last step. */
export function trickStep(ends, step, direction, last) {
  if (direction > 0) return ends.find((end) => end > step) ?? last;
  return [...ends].reverse().find((end) => end < step) ?? 0;
}
