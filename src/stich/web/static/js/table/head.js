// The table page's head: the game's title and preset, how many deals are played, the invite link, the notice of a
// table one may not see, and the table's rules line.

import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { countsTowardList, gameNumber } from "../results.js";
import { gameTitle, presetOf, presetTitle } from "../games.js";
import { rulesLink } from "../pages/rules.js";
import { rulesText } from "../session_rules.js";
import { limitsText } from "../time_limits.js";

/** The head of one table page; `ctx` holds the page's state, elements and helpers. */
export function createHead(ctx) {
  const { s, title, dealInfo, inviteBox, inviteInput, copyButton, watching, notice, felt, rulesLine, layout, gameName, status, tableId, invite } = ctx;
  function renderHead() {
    const name = gameName();
    const preset = presetOf(s.summary?.game || s.state?.view?.game);
    replace(title, name ? gameTitle(name, s.summary?.title) : t("table.title"), preset ? h("span", { class: "tag", text: presetTitle(name, preset) }) : null, s.summary?.private ? h("span", { class: "tag lock", text: t("lobby.private") }) : null, name ? rulesLink(name, true) : null);
    const requested = s.table?.deals_requested ?? s.summary?.deals_requested;
    const finishedRows = [...s.sheet.values()];
    // "gespielt" and "Spiel N" both count the deals that count toward the list; one thrown in and dealt again
    // is no game of the list (issue 40, defect 10)
    const played = finishedRows.filter((row) => countsTowardList(row.result)).length;
    const parts = [t(`status.${status()}`)];
    if (requested) parts.push(t("table.deals_played", { played, total: requested }));
    const n = s.dealStart && status() === "playing" ? gameNumber(finishedRows, s.dealStart.number, s.sheet.get(s.dealStart.deal)?.result) : null;
    if (n !== null) {
      const redealt = finishedRows.some((row) => row.number === s.dealStart.number - 1 && !countsTowardList(row.result));
      parts.push(t(redealt ? "table.deal_no_again" : "table.deal_no", { n }));
    }
    dealInfo.textContent = parts.join(" · ");
    const path = s.summary?.invite;
    const token = path ? new URLSearchParams(path.split("?")[1] || "").get("invite") : invite;
    inviteBox.hidden = !token || status() === "finished";
    inviteInput.value = token ? `${location.origin}/#/table/${tableId}?invite=${token}` : "";
    inviteBox.firstChild.textContent = t("table.invite_label");
    inviteInput.setAttribute("aria-label", t("table.invite_label"));
    copyButton.textContent = t("table.copy");
    watching.hidden = !(s.state && s.state.seat === null) && !(s.summary && s.summary.your_seat === null && status() !== "open");
    watching.textContent = t("table.watching");
    if (s.notice) {
      notice.hidden = false;
      notice.textContent = t(s.notice, {}, s.notice);
    } else notice.hidden = true;
    // a table one may not see (or that does not exist) draws nothing behind its notice (issue 40, defect 11)
    layout.hidden = Boolean(s.notice);
    rulesLine.hidden = Boolean(s.notice);
    felt.setAttribute("aria-label", t("table.felt"));
    rulesLine.textContent = [rulesText(s.summary?.rules), limitsText(s.summary)].filter(Boolean).join(" ");
  }

  return { renderHead };
}
