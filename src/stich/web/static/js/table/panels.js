// The side panels of a table: what is known about this deal, the score sheet, and the game log.

import { h, replace } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { contractLabel, eventText, partyLabel } from "../labels.js";
import { dealSummary, gameNumber } from "../results.js";
import { forcedWhy } from "../session_rules.js";
import { standInMark, timeoutMark } from "../absence.js";
import { hintMark } from "../learning.js";

/** Doppelkopf's call levels as the public facts count them (1 = Re/Kontra, 2 = keine 90 ... 5 = schwarz). */
const CALL_WORDS = ["", "", "keine90", "keine60", "keine30", "schwarz"];

/** The public facts of the deal (contract, calls, Hochzeit, Armut, bids, doublings, talon...) and the player's party. */
export function renderInfo(container, { view, gameName, names, pack, forced = null, mySeat = null }) {
  const pub = view?.public || {};
  const rows = [];
  const add = (label, value) => {
    if (value !== undefined && value !== null && value !== "") rows.push(h("dt", { text: label }), h("dd", {}, value));
  };
  const contract = contractLabel(gameName, pub.contract, pub.kind);
  // While the game is still being found (Doppelkopf's reservations and its solo choice) it is not yet a Normalspiel.
  const finding = ["reservation", "declare", "bidding"].includes(view?.phase);
  if (contract && !finding) {
    const who = [pub.declarer, pub.soloist, pub.lone].find((x) => typeof x === "number");
    const title = pub.kind === "solo" && pub.pflichtsolo ? `${t("info.pflichtsolo")}: ${contract}` : contract;
    add(t("info.contract"), who !== undefined && (gameName !== "doppelkopf" || pub.kind !== "normal") ? `${title} · ${names[who]}` : title);
  }
  if (forced) add(t("info.compulsory"), `${forcedWhy(forced.why)} · ${names[forced.seat]}`);
  if (Array.isArray(pub.owes_solo) && typeof mySeat === "number" && pub.owes_solo[mySeat] && !forced) add(t("info.pflichtsolo"), t("rules.owes_me"));
  if (pub.calls && typeof pub.calls === "object") {
    const calls = Object.entries(pub.calls)
      .filter(([, level]) => level > 0)
      .map(([party, level]) => `${partyLabel(party)}${level > 1 ? `: ${t(`call.${CALL_WORDS[level]}`, {}, CALL_WORDS[level])}` : ""}`);
    if (calls.length) add(t("info.calls"), calls.join(" · "));
  }
  const known = (x) => x !== null && x !== undefined;
  if (known(pub.hochzeiter)) add(t("info.hochzeit"), names[pub.hochzeiter]);
  if (known(pub.poor)) add(t("info.armut"), names[pub.poor] + (known(pub.armut_taker) ? ` → ${names[pub.armut_taker]}` : ""));
  if (known(pub.schweine)) add(t("info.schweine"), typeof pub.schweine === "number" ? names[pub.schweine] : String(pub.schweine));
  if (pub.bid && !pub.contract) {
    // An overcall (Dappen's Strecken) is the challenger's bid against the holder, not the holder's.
    const bid = contractLabel(gameName, pub.bid);
    if (typeof pub.challenger === "number") add(t("info.bid"), t("info.bid_against", { bid, name: names[pub.challenger], holder: names[pub.holder] ?? "" }));
    else add(t("info.bid"), `${bid}${typeof pub.holder === "number" ? ` · ${names[pub.holder]}` : ""}`);
  }
  if (Array.isArray(pub.announced) && pub.announced.length) add(t("info.announced"), pub.announced.map((a) => t(`item.${gameName}.${a}`, {}, "") || t(`item.${a}`, {}, a)).join(", "));
  if (pub.doubling && !Array.isArray(pub.doubling) && Object.keys(pub.doubling).length) {
    add(t("info.doubling"), Object.entries(pub.doubling).map(([item, level]) => `${t(`item.${item}`, {}, item)}: ${t(`doubling.${level}`, {}, level)}`).join(" · "));
  }
  if (typeof pub.multiplier === "number" && pub.multiplier !== 1) add(t("info.multiplier"), `×${pub.multiplier}`);
  if (pub.talon_taken) add(t("info.talon"), t(`talon.${pub.talon_taken}`, {}, pub.talon_taken));
  if (view?.private?.party) add(t("info.my_party"), partyLabel(view.private.party));
  if (view && typeof pub.dealer === "number") add(t("table.dealer"), names[pub.dealer]);
  replace(
    container,
    h("h2", { text: t("info.title") }),
    rows.length ? h("dl", { class: "facts" }, rows) : h("p", { class: "muted small", text: view ? t("info.nothing_yet") : t("info.no_deal") }),
    h("p", { class: "muted small" }, t("info.pack", { pack: t(`pack.${pack}`, {}, pack) })),
  );
}

/**
 * The score sheet: one row per finished deal (linking its replay), every seat's score, the totals.
 * @param {{rows: {deal: number, number: number, result: object}[], totals: number[], names: string[], mySeat: number|null,
 *          gameName: string, inviteQuery: string}} data
 */
export function renderSheet(container, { rows, totals, names, mySeat, gameName, inviteQuery }) {
  const mine = (i) => i === mySeat && "me";
  replace(
    container,
    h("h2", { text: t("sheet.title") }),
    h(
      "div",
      { class: "sheet-scroll" },
      h(
        "table",
        { class: ["sheet", names.length >= 5 && "many"] },
        h("thead", {}, h("tr", {}, h("th", { text: "#" }), h("th", { text: t("sheet.game") }), names.map((name, i) => h("th", { class: ["num", mine(i)], text: name })))),
        h(
          "tbody",
          {},
          rows.length
            ? rows.map((row) =>
                h(
                  "tr",
                  {},
                  h("td", { testid: "sheet-number", text: String(gameNumber(rows, row.number, row.result) ?? "–") }),
                  h("td", {}, h("a", { href: `#/replay/${row.deal}${inviteQuery}`, class: "sheet-replay", title: t("sheet.replay"), text: dealSummary(gameName, row.result, names) || t("sheet.deal") }), standInMark(row.standIn, names), timeoutMark(row.timedOut, names), hintMark(row.hints, names)),
                  (row.result?.scores || []).map((score, i) => h("td", { class: ["num", score > 0 && "plus", score < 0 && "minus", mine(i)], text: formatNumber(score) })),
                ),
              )
            : h("tr", {}, h("td", { colspan: String(names.length + 2), class: "muted small", text: t("sheet.empty") })),
        ),
        h("tfoot", {}, h("tr", {}, h("th", { colspan: "2", text: t("sheet.total") }), totals.map((total, i) => h("th", { class: ["num", mine(i)], text: formatNumber(total) })))),
      ),
    ),
  );
}

/** The deal's events as sentences, newest first (a <details> the player opens). */
export function renderLog(container, { events, names, gameName, pack, open }) {
  const items = events
    .map(([seat, text]) => eventText(seat, text, names, gameName, pack))
    .slice(-60)
    .reverse();
  replace(container, h("summary", { text: t("log.title", { n: events.length }) }), h("ol", { class: "log", reversed: true }, items.map((line) => h("li", { text: line }))));
  container.open = open;
}
