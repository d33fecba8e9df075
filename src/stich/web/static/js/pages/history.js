// My finished deals (#/history), newest first and grouped by table: each with its contract, my party
// (Re/Kontra/Solo, Spieler/Gegenspieler), my result and announcements; per table its whole deals list,
// each deal with its replay, its analysis (the replay, analysing at once) and record download.

import { api, ApiError } from "../api.js";
import { gameNameOf } from "../cards.js";
import { h, replace } from "../dom.js";
import { formatDate, formatNumber, t } from "../i18n.js";
import { gameTitle, playerName } from "../games.js";
import { dealSummary } from "../results.js";
import { contractLabel } from "../labels.js";
import { me } from "../store.js";

const PAGE = 50;

/** A side's name in the history (the Tarock-family games name the declarer by the game's own word). */
export function partyName(gameName, party) {
  return t(`history.party.${gameName}.${party}`, {}, "") || t(`history.party.${party}`, {}, party);
}

/** The history page. */
export function mount(root) {
  let deals = [];
  let offset = 0;
  let more = false;
  let error = null;
  let loading = true;
  const tableDeals = new Map();
  let alive = true;
  const container = h("section", { class: "page history-page", testid: "history" });
  root.replaceChildren(container);

  async function load() {
    loading = true;
    try {
      const answer = await api(`/api/me/deals?limit=${PAGE}&offset=${offset}`);
      const list = Array.isArray(answer) ? answer : answer?.deals || [];
      deals = deals.concat(list);
      more = list.length === PAGE;
      offset += list.length;
    } catch (err) {
      error = err instanceof ApiError && err.status === 401 ? t("history.login_first") : t("error.generic", { message: err.message });
    }
    loading = false;
    render();
  }

  async function toggleTable(tableId) {
    if (tableDeals.has(tableId)) tableDeals.delete(tableId);
    else {
      try {
        const answer = await api(`/api/tables/${encodeURIComponent(tableId)}/deals`);
        tableDeals.set(tableId, answer.deals || []);
      } catch (err) {
        tableDeals.set(tableId, { error: t("error.generic", { message: err.message }) });
      }
    }
    render();
  }

  /** The deal's contract and who played it ("Dreier (Anna)"): not a bare seat number. */
  function dealLine(d) {
    const gameName = gameNameOf(d.game);
    const names = (d.players || []).map((name, i) => playerName(name, i));
    const summary = d.result ? dealSummary(gameName, d.result, names) : "";
    return summary || contractLabel(gameName, d.contract, d.result?.kind) || t("table.seat_n", { n: Number(d.seat) + 1 });
  }

  /** My side in the deal (Re, Kontra, Solo; Spieler, Gegenspieler …). */
  function partyCell(d) {
    if (!d.party || d.party === "none") return h("td", { class: "party-cell", testid: "history-party", dataset: { party: d.party || "none" }, text: "—" });
    return h("td", { class: "party-cell", testid: "history-party", dataset: { party: d.party } }, h("span", { class: ["party-tag", d.party], text: partyName(gameNameOf(d.game), d.party) }));
  }

  /** Won, lost or even for me, and how many announcements I made and won. */
  function resultCell(d) {
    const outcome = d.thrown_in ? t("history.thrown_in") : d.won === true ? t("history.won") : d.won === false ? t("history.lost") : t("history.even");
    const said = d.announcements ? t("history.announced", { made: d.announcements, won: d.announcements_won }) : "";
    return h("td", { testid: "history-result", dataset: { won: String(d.won) } }, h("span", { class: ["result-tag", d.won === true && "won", d.won === false && "lost"], text: outcome }), said ? h("div", { class: "muted small", text: said }) : null);
  }

  function dealLinks(id) {
    return [
      h("a", { class: "button small", href: `#/replay/${id}`, text: t("result.replay") }),
      " ",
      h("a", { class: "button small ghost", href: `#/replay/${id}?analyse=1`, testid: "history-analyse", text: t("analysis.open") }),
      " ",
      h("a", { class: "button small ghost", href: `/api/deals/${id}/record`, download: `stich-deal-${id}.json`, text: t("result.record") }),
    ];
  }

  /** "7.12., 01:40 · mit Anna, Bert": when the table's first listed deal ended, and the other people at it. */
  function tableName(rows) {
    const first = [...rows].sort((a, b) => a.number - b.number)[0];
    const others = (first.players || []).filter((name, i) => i !== first.seat && name && !/ bot$/.test(name));
    return others.length ? t("history.table_with", { date: formatDate(first.finished_at), names: others.join(", ") }) : t("history.table_at", { date: formatDate(first.finished_at) });
  }

  function tableBlock(tableId, rows) {
    const game = rows[0].game;
    const all = tableDeals.get(tableId);
    return h(
      "section",
      { class: "card-panel history-table-block", dataset: { tableId } },
      h(
        "div",
        { class: "panel-head" },
        // a table is named by when and with whom it was played, not by its random id (issue 40, defect 14)
        h("h2", { title: t("history.table", { id: tableId }) }, gameTitle(gameNameOf(game)), h("span", { class: "muted small", testid: "history-table-name", text: ` · ${tableName(rows)}` })),
        h("button", { type: "button", class: "small ghost", "aria-expanded": all ? "true" : "false", text: all ? t("history.hide_all") : t("history.show_all"), onclick: () => toggleTable(tableId) }),
        h("a", { class: "small", href: `#/table/${tableId}`, text: t("history.open_table") }),
      ),
      h(
        "table",
        { class: "data-table history-table" },
        h("thead", {}, h("tr", {}, h("th", { text: t("history.deal") }), h("th", { text: t("history.finished") }), h("th", { text: t("history.contract") }), h("th", { text: t("history.party") }), h("th", { text: t("history.result") }), h("th", { class: "num", text: t("history.score") }), h("th", { text: "" }), h("th", { text: "" }))),
        h(
          "tbody",
          {},
          rows.map((d) =>
            h(
              "tr",
              { testid: "history-row", dataset: { dealId: d.deal_id } },
              h("td", { testid: "history-deal-no", title: `#${d.deal_id}`, text: t("table.deal_no", { n: d.number + 1 }) }), // as the table counts them
              h("td", { text: formatDate(d.finished_at) }),
              h("td", { testid: "history-contract", text: dealLine(d) }),
              partyCell(d),
              resultCell(d),
              h("td", { class: ["num", d.score > 0 && "plus", d.score < 0 && "minus"], text: formatNumber(d.score) }),
              h("td", {}, d.stand_in ? h("span", { class: "stand-in-mark", testid: "stand-in-mark", text: t("absence.me") }) : ""),
              h("td", {}, dealLinks(d.deal_id)),
            ),
          ),
        ),
      ),
      all
        ? all.error
          ? h("p", { class: "form-error", text: all.error })
          : h(
              "div",
              { class: "all-deals" },
              h("h3", { class: "small", text: t("history.all_deals") }),
              h(
                "table",
                { class: "data-table" },
                h("tbody", {}, all.map((d) => h("tr", {}, h("td", { text: t("table.deal_no", { n: d.number + 1 }) }), h("td", { text: t(`deal_status.${d.status}`, {}, d.status) }), h("td", {}, d.status === "finished" ? dealLinks(d.id) : "")))),
              ),
            )
        : null,
    );
  }

  function render() {
    if (!alive) return;
    const groups = new Map();
    for (const d of deals) {
      if (!groups.has(d.table_id)) groups.set(d.table_id, []);
      groups.get(d.table_id).push(d);
    }
    replace(
      container,
      h("h1", { text: t("history.title") }),
      !me() ? h("p", { class: "notice" }, t("history.login_first"), " ", h("a", { href: "#/login", text: t("nav.login") })) : null,
      error ? h("p", { class: "notice", text: error }) : null,
      loading && !deals.length ? h("p", { class: "muted", text: t("common.loading") }) : null,
      !loading && !deals.length && !error ? h("p", { class: "muted", text: t("history.empty") }) : null,
      h("div", { class: "history-list" }, [...groups.entries()].map(([id, rows]) => tableBlock(id, rows))),
      more ? h("button", { type: "button", text: t("history.more"), onclick: load }) : null,
    );
  }

  render();
  load();
  return {
    unmount() {
      alive = false;
    },
    relabel: render,
  };
}
