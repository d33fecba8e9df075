// The thinking clock (issue 28): the seconds the seat to move has left, when the table has a turn timer.
// The server keeps the deadline and makes the move when it passes; the page only counts down what the
// server sent with each "state" message (its "clock": seat, limit, remaining seconds).

import { h } from "../dom.js";
import { t } from "../i18n.js";

/** The clock of a "state" message on this page's own clock: {seat, limit, deadline (ms), deal, step}, or null. */
export function localClock(message) {
  const clock = message?.clock;
  if (!clock || typeof clock.remaining !== "number") return null;
  return { seat: clock.seat, limit: clock.limit, deadline: Date.now() + clock.remaining * 1000, deal: message.deal, step: message.step };
}

/** Whole seconds left until `deadline` (ms), never below 0. */
export function secondsLeft(deadline) {
  return Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
}

/** A countdown element (updated by `tickCountdowns`); `urgent` from 10 s left on. */
export function countdown(deadline, { testid = null, seat = null } = {}) {
  const el = h("span", { class: "countdown", testid, dataset: { deadline: String(deadline), seat }, role: "timer" });
  paint(el);
  return el;
}

function paint(el) {
  const left = secondsLeft(Number(el.dataset.deadline));
  el.textContent = t("clock.seconds", { n: left });
  el.classList.toggle("urgent", left <= 10);
}

/** Update every countdown under `root` four times a second; returns the function that stops it. */
export function tickCountdowns(root) {
  const timer = setInterval(() => root.querySelectorAll(".countdown[data-deadline]").forEach(paint), 250);
  return () => clearInterval(timer);
}

const SVG = "http://www.w3.org/2000/svg";

/** A small clock drawn inline (no emoji font needed). */
export function clockIcon() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "clock-icon");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", "M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1m0 1.6a5.4 5.4 0 1 0 0 10.8A5.4 5.4 0 0 0 8 2.6M7.2 4h1.6v3.7l2.6 1.5-.8 1.4-3.4-2z");
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}

/** The clock on the plate of the seat whose clock runs (everybody sees whose it is). */
export function seatClock(clock) {
  return h("span", { class: "seat-clock", title: t("clock.thinking") }, clockIcon(), " ", countdown(clock.deadline, { testid: "seat-clock", seat: clock.seat }));
}
