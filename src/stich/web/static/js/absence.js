// Honest absence: the deals a stand-in bot played for someone are marked wherever a deal is shown
// (score sheet, history, replay), and the player is warned before leaving a running table.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** "played by a bot for Anna, Bert" for the seats a stand-in played, or "" when there are none. */
export function standInText(seats, names) {
  if (!Array.isArray(seats) || !seats.length) return "";
  return t("absence.played_for", { names: seats.map((seat) => names[seat] ?? t("table.seat_n", { n: seat + 1 })).join(", ") });
}

/** A small mark with that text (or null): the score sheet's and the replay's. */
export function standInMark(seats, names) {
  const text = standInText(seats, names);
  return text ? h("span", { class: "stand-in-mark", testid: "stand-in-mark", title: text, text }) : null;
}

/** A mark for the single moves a bot made because a present player's turn clock ran out (the deal still counts), or null. */
export function timeoutMark(moves, names) {
  if (!Array.isArray(moves) || !moves.length) return null;
  const counts = new Map();
  for (const [, seat] of moves) counts.set(seat, (counts.get(seat) || 0) + 1);
  const text = [...counts].map(([seat, n]) => t(n === 1 ? "absence.timed_out_one" : "absence.timed_out_many", { name: names[seat] ?? t("table.seat_n", { n: seat + 1 }), n })).join(", ");
  return h("span", { class: "timeout-mark", testid: "timeout-mark", title: t("absence.timed_out_title"), text: `⏱ ${text}` });
}

/** The text of the warning before leaving a running table at which one sits. */
export function leaveWarning() {
  return t("absence.leave_warning");
}
