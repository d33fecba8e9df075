// The printable score sheet of a table (#/sheet/{id}, issue 44): the final standings and every deal, laid out for paper
// (the print style sheet hides the header and the buttons).

import { api } from "../api.js";
import { h } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { playerName } from "../games.js";
import { dealSummary, gameNumber } from "../results.js";
import { apiErrorText } from "../server_errors.js";
import { markText, standingsContent } from "../table/final_standings.js";

/** The #/sheet/{id} page. */
export function mount(root, { params, query }) {
  const tableId = params[0];
  const invite = query.get("invite");
  const inviteQuery = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  let data = null;
  let failure = null;

  function render() {
    if (failure) {
      root.replaceChildren(h("section", { class: "page" }, h("p", { class: "notice", role: "alert", text: failure })));
      return;
    }
    if (!data) {
      root.replaceChildren(h("section", { class: "page" }, h("p", { class: "muted", text: t("standings.loading") })));
      return;
    }
    const names = data.names.map((name, i) => playerName(name, i));
    const rows = data.sheet;
    root.replaceChildren(
      h(
        "section",
        { class: "page print-sheet", testid: "print-sheet" },
        h("div", { class: "no-print button-row" }, h("button", { type: "button", class: "primary", testid: "print-now", text: t("standings.print_now"), onclick: () => window.print() }), h("a", { class: "button ghost", href: `#/table/${encodeURIComponent(tableId)}${inviteQuery}`, text: t("standings.back_to_table") })),
        h("h1", { text: t("standings.sheet_title", { game: t(`game.${data.game_name}`, {}, data.game_name) }) }),
        h("p", { class: "muted small", text: [t(data.final ? "standings.final" : "standings.so_far"), data.table].join(" · ") }),
        standingsContent(data),
        h(
          "table",
          { class: "sheet print", testid: "print-rows" },
          h("thead", {}, h("tr", {}, h("th", { text: "#" }), h("th", { text: t("sheet.game") }), names.map((name) => h("th", { class: "num", text: name })))),
          h(
            "tbody",
            {},
            rows.map((row) =>
              h(
                "tr",
                {},
                h("td", { text: String(gameNumber(rows, row.number, row.result) ?? "–") }),
                h("td", {}, dealSummary(data.game_name, row.result, names) || row.label, row.marks?.length ? h("span", { class: "muted small", text: ` (${markText(row.marks)})` }) : null),
                row.scores.map((score) => h("td", { class: "num", text: formatNumber(score) })),
              ),
            ),
          ),
          h("tfoot", {}, h("tr", {}, h("th", { colspan: "2", text: t("sheet.total") }), data.totals.map((total) => h("th", { class: "num", text: formatNumber(total) })))),
        ),
      ),
    );
  }

  api(`/api/tables/${encodeURIComponent(tableId)}/standings${inviteQuery}`)
    .then((answer) => {
      data = { ...answer, sheet: answer.sheet.map((row) => ({ ...row, marks: answer.special_rows.find((x) => x.number === row.number)?.marks || [] })) };
      render();
    })
    .catch((error) => {
      failure = apiErrorText(error);
      render();
    });
  render();
  return { relabel: render };
}
