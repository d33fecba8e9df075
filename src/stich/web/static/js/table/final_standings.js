// The end of a table (issue 44): the final standings (winner, ranking, totals, the list's special rows), "Revanche",
// and the score sheet as CSV or as a printable page. Shown beside the felt once the table has finished.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { playerName } from "../games.js";
import { dealSummary } from "../results.js";
import { apiErrorText } from "../server_errors.js";
import { showToast } from "../toast.js";

/** The special kinds of one sheet row, translated ("Pflichtsolo", "Bock"...). */
export function markText(marks) {
  return marks.map((mark) => t(`standings.mark.${mark}`, {}, mark)).join(", ");
}

/** The ranking and the special rows of `data` (GET /api/tables/{id}/standings), shared by the table page and the print page. */
export function standingsContent(data) {
  const names = data.names.map((name, i) => playerName(name, i));
  const winners = data.winners.map((seat) => names[seat]);
  return [
    h("p", { class: "winner-line", testid: "winner-line", text: winners.length ? t(winners.length > 1 ? "standings.winners" : "standings.winner", { names: winners.join(", ") }) : t("standings.no_deals") }),
    h(
      "table",
      { class: "ranking", testid: "ranking" },
      h("thead", {}, h("tr", {}, h("th", { text: t("standings.place") }), h("th", { text: t("standings.player") }), h("th", { class: "num", text: t("sheet.total") }))),
      h(
        "tbody",
        {},
        data.ranking.map((row) =>
          h("tr", { class: [row.seat === data.your_seat && "me", data.winners.includes(row.seat) && "winner"], dataset: { seat: row.seat } }, h("td", { text: `${row.place}.` }), h("td", { text: names[row.seat] }), h("td", { class: "num", testid: "ranking-total", text: formatNumber(row.total) })),
        ),
      ),
    ),
    data.special_rows.length
      ? h(
          "div",
          { class: "special-rows", testid: "special-rows" },
          h("h3", { text: t("standings.special_title") }),
          h("ul", {}, data.special_rows.map((row) => h("li", {}, h("strong", { text: `${t("sheet.deal")} ${row.number}: ` }), `${markText(row.marks)} · ${dealSummary(data.game_name, row.result, names) || row.label}`))),
        )
      : null,
  ];
}

/** The final standings panel of one table page: `render()` shows it once the table has finished. */
export function createFinalStandings(ctx) {
  const { s, tableId, invite, inviteQuery, status } = ctx;
  const panel = h("section", { class: "card-panel final-standings", testid: "final-standings", hidden: true });
  let data = null;
  let loading = false;

  async function load() {
    if (loading) return;
    loading = true;
    try {
      data = await api(`/api/tables/${encodeURIComponent(tableId)}/standings${inviteQuery}`);
    } catch {
      data = null; // the sheet beside still shows the deals
    }
    loading = false;
    render();
  }

  async function revanche() {
    try {
      const answer = await api(`/api/tables/${encodeURIComponent(tableId)}/rematch`, { method: "POST" });
      await go(answer.rematch, !answer.created);
    } catch (error) {
      showToast(apiErrorText(error), "error");
    }
  }

  /** Open the Revanche table, taking one's kept seat there first when somebody else opened it. */
  async function go(rematch, join) {
    const query = rematch.invite ? `?invite=${encodeURIComponent(rematch.invite)}` : "";
    if (join && typeof rematch.seat === "number" && rematch.status === "open") {
      try {
        await api(`/api/tables/${encodeURIComponent(rematch.id)}/join`, { method: "POST", body: rematch.invite ? { seat: rematch.seat, invite: rematch.invite } : { seat: rematch.seat } });
      } catch {
        /* already seated there, or the seat went: the table page offers what is left */
      }
    }
    location.hash = `#/table/${encodeURIComponent(rematch.id)}${query}`;
  }

  function render() {
    const finished = status() === "finished";
    panel.hidden = !finished;
    if (!finished) return;
    if (!data) {
      replace(panel, h("h2", { text: t("standings.title") }), h("p", { class: "muted small", text: t("standings.loading") }));
      load();
      return;
    }
    const member = typeof data.your_seat === "number";
    const csvUrl = `/api/tables/${encodeURIComponent(tableId)}/sheet.csv${inviteQuery}`;
    const printUrl = `#/sheet/${encodeURIComponent(tableId)}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`;
    let rematchButton = null;
    if (data.rematch) rematchButton = h("button", { type: "button", class: "primary", testid: "rematch", text: t(member ? "standings.rematch_join" : "standings.rematch_watch"), onclick: () => go(data.rematch, member) });
    else if (member) rematchButton = h("button", { type: "button", class: "primary", testid: "rematch", text: t("standings.rematch"), onclick: revanche });
    replace(
      panel,
      h("h2", { text: t("standings.title") }),
      standingsContent(data),
      h(
        "div",
        { class: "button-row" },
        rematchButton,
        h("a", { class: "button small ghost", testid: "sheet-csv", href: csvUrl, download: `stich-${tableId}.csv`, text: t("standings.csv") }),
        h("a", { class: "button small ghost", testid: "sheet-print", href: printUrl, text: t("standings.print") }),
      ),
    );
  }

  /** Ask again (another player may have opened the Revanche meanwhile). */
  function refresh() {
    data = null;
    render();
  }

  return { panel, render, refresh };
}
