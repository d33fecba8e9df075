// One duplicate tournament (#/tournament/ID): its tables, the commitments of its deals, live standings
// (polled; only deals every table has finished count) and the records to download (decision 0057).

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { gameTitle } from "../games.js";
import { apiErrorText } from "../server_errors.js";
import { startText } from "./tournaments.js";

/** How often the standings are asked for while the tournament runs (ms). */
const POLL_MS = 3000;

/** The tournament page. */
export function mount(root, { params }) {
  const id = params[0];
  let alive = true;
  let timer = null;
  const head = h("div", {});
  const actions = h("div", { class: "actions" });
  const message = h("p", { class: "notice", role: "alert", testid: "tournament-message", hidden: true });
  const tablesEl = h("ol", { class: "table-list", testid: "tournament-tables" });
  const standingsEl = h("div", { class: "card-panel", testid: "standings" });
  const commitmentsEl = h("details", {});
  root.replaceChildren(
    h(
      "section",
      { class: "page tournament-page", testid: "tournament" },
      head,
      actions,
      message,
      h("h2", { text: t("tournament.standings") }),
      standingsEl,
      h("h2", { text: t("tournament.tables_heading") }),
      tablesEl,
      commitmentsEl,
      h("p", {}, h("a", { href: `/api/tournaments/${encodeURIComponent(id)}/records`, download: `stich-tournament-${id}.jsonl`, testid: "tournament-records", text: t("tournament.records") })),
      h("p", { class: "muted small", text: t("tournament.records_hint") }),
    ),
  );

  function show(text) {
    message.textContent = text;
    message.hidden = !text;
  }

  async function act(path) {
    try {
      const answer = await api(path, { method: "POST", body: {} });
      if (answer?.url) location.hash = `#/table/${answer.url.split("/").pop()}`;
      else refresh();
    } catch (err) {
      show(apiErrorText(err));
    }
  }

  function renderInfo(tn) {
    replace(
      head,
      h("h1", { testid: "tournament-name", text: tn.name }),
      h(
        "p",
        { class: "muted" },
        gameTitle(tn.game_name),
        " · ",
        t("tournament.size", { tables: formatNumber(tn.tables), deals: formatNumber(tn.deals) }),
        " · ",
        t("tournament.organiser", { name: tn.organiser }),
        " · ",
        startText(tn),
        " · ",
        h("span", { class: "badge", testid: "tournament-status", text: t(`tournament.status.${tn.status}`) }),
      ),
      h("p", { class: "muted small", text: t(`tournament.scoring.${tn.scoring}`) }),
    );
    const playing = tn.tables_detail.some((tb) => tb.mine);
    replace(
      actions,
      tn.status !== "finished" && !playing ? h("button", { type: "button", class: "primary", testid: "tournament-join", text: t("tournament.join"), onclick: () => act(`/api/tournaments/${id}/join`) }) : null,
      tn.organising && tn.status === "open" && tn.bots ? h("button", { type: "button", testid: "tournament-start-now", text: t("tournament.start_now"), onclick: () => act(`/api/tournaments/${id}/start`) }) : null,
    );
    replace(
      tablesEl,
      tn.tables_detail.map((tb) =>
        h(
          "li",
          { testid: "tournament-table", dataset: { status: tb.status } },
          h("strong", { text: t("tournament.table_n", { n: tb.position + 1 }) }),
          " ",
          h("span", { class: "badge", text: t(`tournament.table_status.${tb.status}`) }),
          " ",
          tb.seats.map((s) => s.name || t("tournament.empty_seat")).join(", "),
          tb.url ? [" ", h("a", { href: `#/table/${tb.url.split("/").pop()}`, text: tb.mine ? t("tournament.your_table") : t("tournament.open_table") })] : null,
        ),
      ),
    );
    replace(
      commitmentsEl,
      h("summary", { text: t("tournament.commitments") }),
      h("p", { class: "muted small", text: t("tournament.commitments_hint") }),
      h("ol", { start: "1" }, tn.commitments.map((c) => h("li", {}, h("code", { text: c.commitment }), c.seed ? ` · ${t("tournament.seed", { seed: c.seed })}` : ""))),
    );
  }

  function renderStandings(st) {
    const ddv = st.scoring === "ddv_list";
    if (!st.rows.length) {
      replace(standingsEl, h("p", { class: "muted", testid: "standings-empty", text: t("tournament.no_standings") }));
      return;
    }
    const cells = (row) => [
      h("td", { class: "num", text: formatNumber(row.rank) }),
      h("td", { text: row.name }),
      h("td", { class: "num", text: formatNumber(row.table + 1) }),
      h("td", { class: "num", text: formatNumber(row.seat + 1) }),
      h("td", { class: ["num", row.points > 0 && "plus", row.points < 0 && "minus"], text: formatNumber(row.points) }),
      ddv ? h("td", { class: "num", text: formatNumber(row.won) }) : null,
      ddv ? h("td", { class: "num", text: formatNumber(row.lost) }) : null,
      h("td", { class: "num", text: row.duplicate.toFixed(2).replace(".", t("number.decimal")) }),
    ];
    replace(
      standingsEl,
      h("p", { class: "muted small", text: t("tournament.counted", { deals: st.deals_counted.map((n) => n + 1).join(", ") }) }),
      h(
        "table",
        { class: "data-table standings-table" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { class: "num", text: t("tournament.rank") }),
            h("th", { text: t("tournament.player") }),
            h("th", { class: "num", text: t("tournament.table") }),
            h("th", { class: "num", text: t("tournament.seat") }),
            h("th", { class: "num", text: t("tournament.points") }),
            ddv ? h("th", { class: "num", text: t("tournament.won") }) : null,
            ddv ? h("th", { class: "num", text: t("tournament.lost") }) : null,
            h("th", { class: "num", title: t("tournament.duplicate_hint"), text: t("tournament.duplicate") }),
          ),
        ),
        h("tbody", {}, st.rows.map((row) => h("tr", { testid: "standings-row" }, cells(row)))),
      ),
    );
  }

  async function refresh() {
    clearTimeout(timer);
    try {
      const [tn, st] = await Promise.all([api(`/api/tournaments/${encodeURIComponent(id)}`), api(`/api/tournaments/${encodeURIComponent(id)}/standings`)]);
      if (!alive) return;
      renderInfo(tn);
      renderStandings(st);
      if (tn.status !== "finished") timer = setTimeout(refresh, POLL_MS);
    } catch (err) {
      if (!alive) return;
      show(apiErrorText(err));
      timer = setTimeout(refresh, POLL_MS * 3);
    }
  }

  refresh();
  return {
    unmount() {
      alive = false;
      clearTimeout(timer);
    },
  };
}
