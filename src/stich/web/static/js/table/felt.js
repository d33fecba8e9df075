// The table seen from above: seats around the felt (the player at the bottom, play going clockwise),
// the current trick laid out towards the seats that played it, the last trick, a public talon.

import { cardBack, cardElement } from "../cards.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

/** Screen angle (degrees, y down) of a seat seen from `viewpoint`: the viewer at the bottom, the next seat to the left. */
export function seatAngle(seat, viewpoint, seats) {
  const relative = (seat - viewpoint + seats) % seats;
  return 90 + (relative * 360) / seats;
}

/** Position (percent of the felt) on an ellipse around the centre. */
export function onEllipse(angle, rx, ry) {
  const rad = (angle * Math.PI) / 180;
  return { x: 50 + rx * Math.cos(rad), y: 50 + ry * Math.sin(rad) };
}

/** The trick's cards placed towards their players; the winner's card marked when the trick is complete. */
export function renderTrick(container, trick, { viewpoint, seats, gameName, pack, names, active }) {
  // Only cards new since the last drawing are animated onto the table (a redraw must not flicker).
  const before = container.dataset.shown ? JSON.parse(container.dataset.shown) : null;
  const same = before && trick && before.leader === trick.leader && before.cards.every((card, i) => trick.cards[i] === card);
  const fresh = same ? before.cards.length : 0;
  container.dataset.shown = trick ? JSON.stringify({ leader: trick.leader, cards: trick.cards }) : "";
  container.replaceChildren();
  if (!trick || !trick.cards.length) {
    container.setAttribute("aria-label", t("table.trick_empty"));
    return;
  }
  const order = active && active.length ? active : [...Array(seats).keys()];
  const start = Math.max(0, order.indexOf(trick.leader));
  const parts = [];
  trick.cards.forEach((card, i) => {
    const seat = order[(start + i) % order.length];
    const angle = seatAngle(seat, viewpoint, seats);
    const narrow = container.clientWidth < 520;
    const pos = onEllipse(angle, narrow ? 15 : 13.5, narrow ? 17 : 22);
    const el = cardElement(card, { gameName, pack, extraClass: ["in-trick", trick.winner === seat ? "winner" : "", i >= fresh ? "fresh" : ""].join(" ") });
    el.style.left = `${pos.x}%`;
    el.style.top = `${pos.y}%`;
    el.style.zIndex = String(10 + i);
    el.style.setProperty("--tilt", `${((seat * 7919) % 11) - 5}deg`);
    el.dataset.seat = String(seat);
    container.append(el);
    parts.push(t("table.trick_card", { name: names[seat] ?? seat, card: el.getAttribute("aria-label") }));
  });
  container.setAttribute("aria-label", parts.join("; "));
}

/** The last complete trick, small, with who took it. */
export function renderLastTrick(container, trick, { gameName, pack, names, active, seats }) {
  container.replaceChildren();
  const title = h("div", { class: "mini-title", text: t("table.last_trick") });
  if (!trick) {
    container.append(title, h("div", { class: "muted small", text: t("table.no_last_trick") }));
    container.classList.add("empty");
    return;
  }
  container.classList.remove("empty");
  const order = active && active.length ? active : [...Array(seats).keys()];
  const start = Math.max(0, order.indexOf(trick.leader));
  const row = h("div", { class: "mini-cards" });
  trick.cards.forEach((card, i) => {
    const seat = order[(start + i) % order.length];
    const el = cardElement(card, { gameName, pack, extraClass: ["mini", trick.winner === seat ? "winner" : ""].join(" ") });
    el.title = `${names[seat] ?? seat}: ${el.title}`;
    row.append(el);
  });
  container.append(title, row, h("div", { class: "small", text: t("table.taken_by", { name: names[trick.winner] ?? trick.winner }) }));
}

/** A fan of face-down cards for another player's hand (count known from the public facts). */
export function backsFan(count, pack) {
  const fan = h("div", { class: "backs", "aria-label": t("table.cards_in_hand", { n: count }) });
  const shown = Math.min(count, 16);
  for (let i = 0; i < shown; i += 1) fan.append(cardBack(pack, "tiny"));
  if (count > 0) fan.append(h("span", { class: "count-badge", text: String(count) }));
  return fan;
}

/** Talon halves lying open (Tapp Tarock's talon is shown to everybody before the declarer picks a half). */
export function renderTalon(talon, { gameName, pack, taken }) {
  if (!talon || typeof talon !== "object") return null;
  const halves = Object.entries(talon).filter(([, cards]) => Array.isArray(cards));
  if (!halves.length) return null;
  return h(
    "div",
    { class: "talon", "aria-label": t("table.talon") },
    halves.map(([half, cards]) =>
      h(
        "div",
        { class: ["talon-half", taken === half && "taken"] },
        h("div", { class: "mini-title", text: t(`talon.${half}`, {}, half) }),
        h("div", { class: "mini-cards" }, cards.map((card) => cardElement(card, { gameName, pack, testid: "talon-card", extraClass: "mini" }))),
      ),
    ),
  );
}
