// Duplicate tournaments (#/tournaments): the list, and the form an account organises one with (decision 0057).
// Every table of a tournament plays the same deals in the same seats; the page of one is #/tournament/ID.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { formatDate, formatNumber, t } from "../i18n.js";
import { gameTitle, loadGames, presetTitle } from "../games.js";
import { me } from "../store.js";
import { apiErrorText } from "../server_errors.js";

/** The bots a tournament may fill empty seats with (search bots would play many tables at once: refused). */
const TOURNAMENT_BOTS = ["random", "heuristic"];

/** The tournaments page. */
export function mount(root) {
  let alive = true;
  const list = h("ul", { class: "table-list", testid: "tournament-list" });
  const formSlot = h("div", {});
  const error = h("p", { class: "notice", role: "alert", testid: "tournament-error", hidden: true });
  root.replaceChildren(
    h(
      "section",
      { class: "page tournaments-page", testid: "tournaments" },
      h("h1", { text: t("tournament.title") }),
      h("p", { class: "muted", text: t("tournament.explain") }),
      formSlot,
      error,
      h("h2", { text: t("tournament.list") }),
      list,
    ),
  );

  async function refresh() {
    try {
      const data = await api("/api/tournaments");
      if (!alive) return;
      const items = data.tournaments.map((tn) =>
        h(
          "li",
          { testid: "tournament-row", dataset: { id: tn.id } },
          h("a", { href: `#/tournament/${tn.id}`, text: tn.name }),
          " · ",
          gameTitle(tn.game_name),
          " · ",
          t("tournament.size", { tables: formatNumber(tn.tables), deals: formatNumber(tn.deals) }),
          " · ",
          h("span", { class: "badge", text: t(`tournament.status.${tn.status}`) }),
        ),
      );
      replace(list, items.length ? items : h("li", { class: "empty", text: t("tournament.none") }));
    } catch (err) {
      if (alive) replace(list, h("li", { class: "notice", text: apiErrorText(err) }));
    }
  }

  async function buildForm() {
    const identity = me();
    if (!identity || identity.guest) {
      replace(formSlot, h("p", { class: "muted", testid: "tournament-login-first" }, t("tournament.login_first"), " ", h("a", { href: "#/login", text: t("nav.login") })));
      return;
    }
    const games = (await loadGames()).games;
    if (!alive) return;
    const name = h("input", { id: "tn-name", testid: "tournament-name", maxlength: "48", required: true, value: t("tournament.default_name") });
    const game = h("select", { id: "tn-game", testid: "tournament-game" }, games.map((g) => h("option", { value: g.name, text: gameTitle(g.name, g.title) })));
    const preset = h("select", { id: "tn-preset", testid: "tournament-preset" });
    const fillPresets = () => {
      const chosen = games.find((g) => g.name === game.value) || games[0];
      replace(preset, chosen.presets.map((p) => h("option", { value: p, text: presetTitle(chosen.name, p), selected: p === chosen.default_preset })));
    };
    game.addEventListener("change", fillPresets);
    fillPresets();
    const deals = h("input", { id: "tn-deals", testid: "tournament-deals", type: "number", min: "1", max: "200", value: "4" });
    const tables = h("input", { id: "tn-tables", testid: "tournament-tables", type: "number", min: "1", max: "100", value: "2" });
    const bots = h(
      "select",
      { id: "tn-bots", testid: "tournament-bots" },
      h("option", { value: "", text: t("tournament.no_bots") }),
      TOURNAMENT_BOTS.map((b) => h("option", { value: b, text: t(`bot.${b}`), selected: b === "heuristic" })),
    );
    const kind = h(
      "select",
      { id: "tn-kind", testid: "tournament-kind" },
      h("option", { value: "free", text: t("lobby.kind_free") }),
      h("option", { value: "list", text: t("lobby.kind_list") }),
    );
    const start = h("input", { id: "tn-start", testid: "tournament-start", type: "datetime-local" });
    const label = (forId, key, input) => h("label", { for: forId }, h("span", { text: t(key) }), input);
    const submit = h("button", { type: "submit", class: "primary", testid: "tournament-create", text: t("tournament.create") });
    const form = h(
      "form",
      { class: "card-panel create-form", testid: "tournament-form" },
      h("h2", { text: t("tournament.organise") }),
      label("tn-name", "tournament.name", name),
      label("tn-game", "tournament.game", game),
      label("tn-preset", "tournament.preset", preset),
      label("tn-kind", "lobby.kind", kind),
      label("tn-deals", "tournament.deals", deals),
      label("tn-tables", "tournament.tables", tables),
      label("tn-bots", "tournament.bots", bots),
      label("tn-start", "tournament.start_at", start),
      h("p", { class: "muted small", text: t("tournament.start_hint") }),
      submit,
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      error.hidden = true;
      const body = {
        name: name.value,
        game: game.value,
        preset: preset.value,
        kind: kind.value,
        deals: Number(deals.value),
        tables: Number(tables.value),
        bots: bots.value || null,
        start_at: start.value ? new Date(start.value).toISOString() : null,
      };
      try {
        const created = await api("/api/tournaments", { method: "POST", body });
        location.hash = `#/tournament/${created.id}`;
      } catch (err) {
        error.textContent = apiErrorText(err);
        error.hidden = false;
      }
    });
    replace(formSlot, form);
  }

  buildForm().catch((err) => replace(formSlot, h("p", { class: "notice", text: apiErrorText(err) })));
  refresh();
  const timer = setInterval(refresh, 10000);
  return {
    unmount() {
      alive = false;
      clearInterval(timer);
    },
  };
}

/** A tournament's start for people: its time, or "when full". */
export function startText(tn) {
  return tn.start_at ? formatDate(tn.start_at) : t("tournament.when_full");
}
