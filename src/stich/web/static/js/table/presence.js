// Presence notices (issue 28): "X ist nicht verbunden" / "X ist zurück" when another person's connection drops
// or returns. The server reports a seat as away only after a short grace (a page reload does not count), and
// never at a finished table, so the page can simply compare one "table" message with the next.

import { h } from "../dom.js";
import { t } from "../i18n.js";

/** The notices for the change from the `before` to the `after` "table" message, for the other people's seats. */
export function presenceNotices(before, after, { mySeat, names }) {
  if (!before || !after || after.status === "finished") return [];
  const out = [];
  after.seats.forEach((seat, index) => {
    const was = before.seats?.[index];
    if (index === mySeat || seat.kind !== "human" || !was || was.kind !== "human" || was.name !== seat.name) return;
    const name = names[index] ?? seat.name;
    if (!was.away && seat.away) out.push({ seat: index, kind: "gone", text: t("presence.gone", { name }) });
    else if (was.away && !seat.away) out.push({ seat: index, kind: "back", text: t("presence.back", { name }) });
  });
  return out;
}

/** A line on the table page that shows the latest presence notice for a few seconds. */
export function noticeLine() {
  const element = h("div", { class: "presence-note", testid: "presence-note", role: "status", "aria-live": "polite", hidden: true });
  let timer = null;
  return {
    element,
    show(notice) {
      element.textContent = notice.text;
      element.dataset.kind = notice.kind;
      element.dataset.seat = String(notice.seat);
      element.hidden = false;
      clearTimeout(timer);
      timer = setTimeout(() => { element.hidden = true; }, 8000);
    },
    stop() {
      clearTimeout(timer);
    },
  };
}
