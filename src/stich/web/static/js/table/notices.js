// Notes on the table page about the people at it: back after a stand-in bot played for one, and the deal's
// compulsory declarer (Vorführung, Mußrunde).

import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { forcedWhy } from "../session_rules.js";

/** The absence and forced-declarer notes of one table page. */
export function createNotices(ctx) {
  const { s, tableId, absenceNote, forcedBox, mySeat, names, view, status, render } = ctx;
  /** Back at the table after a stand-in played for me: say which deals, once (until closed; never again for the same
   * deals after a reload, and never at a finished table: issue 40, defect 3). */
  function renderAbsence() {
    const seat = mySeat();
    const deals = [];
    if (typeof seat === "number" && status() !== "finished") {
      // A move the stand-in made because the turn timer ran out is no absence (the player was told at the time).
      for (const row of [...s.sheet.values()].sort((a, b) => a.number - b.number)) if ((row.standIn || []).includes(seat) && !s.timedOut.has(row.deal)) deals.push(row.number);
      if ((s.dealStart?.stand_in_seats || []).includes(seat) && !s.sheet.has(s.dealStart.deal) && !s.timedOut.has(s.dealStart.deal)) deals.push(s.dealStart.number);
    }
    // the deals this tab was told about (kept over a reload): only a deal not told yet opens the note again
    const key = `stich.absence-seen.${tableId}`;
    const told = new Set((sessionStorage.getItem(key) || "").split(",").filter(Boolean));
    const fresh = deals.filter((n) => !told.has(String(n)));
    if (fresh.length) s.absenceClosed = false;
    else if (deals.length && !s.absenceShown) s.absenceClosed = true; // told before this reload
    absenceNote.hidden = !deals.length || s.absenceClosed;
    if (absenceNote.hidden) return;
    s.absenceShown = true;
    sessionStorage.setItem(key, [...new Set([...told, ...deals.map(String)])].join(","));
    replace(
      absenceNote,
      h("span", { text: t("absence.returned", { deals: deals.map((n) => t("absence.deal_n", { n: n + 1 })).join(", ") }) }),
      " ",
      h("button", { type: "button", class: "ghost small close", testid: "absence-close", "aria-label": t("common.close"), text: "✕", onclick: () => { s.absenceClosed = true; render(); } }),
    );
  }

  /** The deal's compulsory declarer (Vorführung, Mußrunde), said on the table while it is decided and played. */
  function renderForced() {
    const forced = s.dealStart?.forced;
    const current = forced && s.state && s.state.deal === s.dealStart.deal && view()?.phase !== "end";
    forcedBox.hidden = !current;
    if (!current) {
      forcedBox.textContent = "";
      return;
    }
    const why = forcedWhy(forced.why);
    const mine = forced.seat === mySeat();
    forcedBox.dataset.seat = String(forced.seat);
    forcedBox.textContent = mine
      ? forced.why === "vorfuehrung" ? t("rules.forced_me", { why }) : t("rules.forced_me_mussrunde")
      : t("rules.forced_seat", { name: names()[forced.seat] ?? forced.seat, why });
  }

  return { renderAbsence, renderForced };
}
