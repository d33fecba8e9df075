// The lobby (#/): open and running tables (refreshed every few seconds) and the form to create a table.

import { api, ApiError } from "../api.js";
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { botSeconds, botTitle, gameTitle, loadBots, loadGames, presetOf, presetTitle } from "../games.js";
import { me, refreshIdentity } from "../store.js";
import { showToast } from "../toast.js";
import { apiErrorText } from "../server_errors.js";
import { loginPanel, rememberReturn } from "./login.js";
import { optionsForm } from "./options_form.js";
import { rulesText } from "../session_rules.js";
import { rulesLink } from "./rules.js";
import { forgetTable, rememberTable, rememberedTable } from "../lobby_memory.js";
import { timeLimitFields } from "../time_limits.js";
import { createPeoplePanel } from "./lobby_people.js";
import { profileHref } from "./leaderboard.js";

const REFRESH_MS = 4000;
const PENDING_JOIN = "stich.pendingJoin";

/** Ask the table page to join `seat` (or any seat) once the player has logged in. */
export function rememberJoin(tableId, seat, invite) {
  sessionStorage.setItem(PENDING_JOIN, JSON.stringify({ tableId, seat, invite }));
}

/** The join the player asked for before logging in, for this table (taken once). */
export function takePendingJoin(tableId) {
  const raw = sessionStorage.getItem(PENDING_JOIN);
  if (!raw) return null;
  sessionStorage.removeItem(PENDING_JOIN);
  try {
    const pending = JSON.parse(raw);
    return pending.tableId === tableId ? pending : null;
  } catch {
    return null;
  }
}

function errorMessage(error) {
  return apiErrorText(error);
}

function tableRow(table, games) {
  const game = games.find((g) => g.name === table.game_name);
  const seats = table.seats.map((seat) =>
    h(
      "li",
      { class: ["seat-chip", seat.kind], title: seat.kind === "bot" ? botTitle(seat.bot) : "" },
      seat.kind === "empty"
        ? t("lobby.free_seat")
        : seat.kind === "bot"
          ? botTitle(seat.bot)
          : seat.guest
            ? seat.name
            : h("a", { href: profileHref(seat.name), testid: "seat-profile", text: seat.name }),
    ),
  );
  const mine = table.your_seat !== null && table.your_seat !== undefined;
  const free = table.seats.some((s) => s.kind === "empty");
  let label = "lobby.watch";
  if (mine) label = "lobby.open";
  else if (table.status === "open" && free) label = "lobby.join";
  const preset = presetOf(table.game);
  return h(
    "li",
    { class: ["table-row", table.status], testid: "table-row", dataset: { tableId: table.id } },
    h(
      "div",
      { class: "table-row-main" },
      h("strong", { class: "table-game", text: gameTitle(table.game_name, table.title || game?.title) }),
      preset ? h("span", { class: "tag", text: presetTitle(table.game_name, preset) }) : null,
      table.private ? h("span", { class: "tag lock", title: t("lobby.private"), text: t("lobby.private") }) : null,
      table.rated ? h("span", { class: "tag rated", testid: "table-rated", text: t("lobby.rated") }) : null,
      h("span", { class: ["tag", "status", table.status], text: t(`status.${table.status}`) }),
      h("span", { class: "muted small", text: t("lobby.deals_progress", { played: table.deals_played, total: table.deals_requested }) }),
      table.turn_seconds ? h("span", { class: "tag", testid: "table-turn-limit", text: t("clock.per_move", { n: table.turn_seconds }) }) : null,
    ),
    h("ul", { class: "seat-chips", "aria-label": t("lobby.seats") }, seats),
    h("button", {
      type: "button",
      class: mine || label === "lobby.join" ? "primary" : "",
      testid: "join-table",
      text: t(label),
      onclick: () => joinTable(table, label),
    }),
  );
}

async function joinTable(table, label) {
  if (label !== "lobby.join") {
    location.hash = `#/table/${table.id}`;
    return;
  }
  if (!me()) {
    rememberJoin(table.id, null, null);
    rememberReturn(`#/table/${table.id}`);
    location.hash = "#/login";
    return;
  }
  try {
    await api(`/api/tables/${table.id}/join`, { method: "POST", body: {} });
    location.hash = `#/table/${table.id}`;
  } catch (error) {
    showToast(errorMessage(error), "error");
  }
}

/** The create form; `keep` holds the player's choices so that a language switch does not lose them. */
function createForm(gamesData, bots, keep, onForget) {
  const games = gamesData.games;
  const gameSelect = h("select", { id: "create-game", testid: "create-game", name: "game" }, games.map((g) => h("option", { value: g.name, text: gameTitle(g.name, g.title) })));
  const presetSelect = h("select", { id: "create-preset", testid: "create-preset", name: "preset" });
  const deals = h("input", { id: "create-deals", testid: "create-deals", type: "number", min: "1", max: "200", step: "1", value: "4", inputmode: "numeric", required: true });
  const dealsHint = h("p", { class: "muted small", testid: "create-rules" });
  const gameRules = h("span", { class: "game-rules" });
  const kindSelect = h(
    "select",
    { id: "create-kind", testid: "create-kind", name: "kind" },
    ["free", "list"].map((kind) => h("option", { value: kind, text: t(`lobby.kind_${kind}`), selected: kind === (keep.kind || "free") })),
  );
  const isPrivate = h("input", { type: "checkbox", id: "create-private" });
  const isRated = h("input", { type: "checkbox", id: "create-rated", testid: "create-rated" });
  const sit = h("input", { type: "checkbox", id: "create-sit", checked: true });
  const learning = h("input", { type: "checkbox", id: "create-learning", testid: "create-learning" });
  const botFill = h(
    "select",
    { id: "create-bots", testid: "create-bots" },
    h("option", { value: "", text: t("lobby.bots_none") }),
    bots.map((b) => h("option", { value: b.spec, text: botTitle(b.spec, b.label) + botSeconds(b.seconds) })),
  );
  const optionsBox = h("div", { class: "options-box" });
  const limits = timeLimitFields(keep);
  const error = h("p", { class: "form-error", role: "alert" });
  let options = null;
  let previewTimer = null;
  let previewAsked = 0;

  function requestBody() {
    const body = { game: gameSelect.value, preset: presetSelect.value, kind: kindSelect.value, private: isPrivate.checked, seat: sit.checked ? 0 : null };
    if (isRated.checked) body.rated = true;
    const count = Number(deals.value);
    if (kindSelect.value === "free" && Number.isInteger(count) && count >= 1) body.deals = count;
    const chosen = options ? options.values() : {};
    if (Object.keys(chosen).length) body.options = chosen;
    return body;
  }

  /** Ask the server what the table would play (its list's length, who deals, what is compulsory) and say it. */
  function preview() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(async () => {
      const asked = ++previewAsked;
      const body = requestBody();
      delete body.private;
      delete body.seat;
      try {
        const rules = await api("/api/tables/rules", { method: "POST", body });
        if (asked !== previewAsked) return;
        if (kindSelect.value === "list") deals.value = String(rules.deals);
        else if (!keep.deals && Number(deals.value) !== rules.seats) {
          deals.value = String(rules.seats); // a free table plays one deal per seat unless the player says otherwise
          preview();
          return;
        }
        dealsHint.textContent = rulesText(rules);
        dealsHint.dataset.kind = rules.kind;
      } catch (err) {
        if (asked === previewAsked) dealsHint.textContent = errorMessage(err);
      }
    }, 150);
  }

  function selectedGame() {
    return games.find((g) => g.name === gameSelect.value) || games[0];
  }
  function onGame() {
    const game = selectedGame();
    const preset = keep.game === game.name && keep.preset ? keep.preset : game.default_preset;
    replace(presetSelect, game.presets.map((p) => h("option", { value: p, text: presetTitle(game.name, p), selected: p === preset })));
    deals.value = keep.game === game.name && keep.deals ? keep.deals : String(game.seats);
    keep.game = game.name;
    replace(gameRules, rulesLink(game.name));
    options = optionsForm(game);
    if (keep.options && keep.optionsGame === game.name) options.setValues(keep.options); // the last table's options
    keep.optionsGame = null;
    replace(optionsBox, options.element);
    options.element.addEventListener("change", preview);
    onKind();
  }
  function onKind() {
    keep.kind = kindSelect.value;
    deals.disabled = kindSelect.value === "list";
    preview();
  }
  if (keep.game) gameSelect.value = keep.game;
  isPrivate.checked = Boolean(keep.private);
  isRated.checked = Boolean(keep.rated);
  sit.checked = keep.sit !== false;
  if (keep.bots !== undefined) botFill.value = keep.bots;
  gameSelect.addEventListener("change", () => {
    keep.preset = null;
    keep.deals = null;
    onGame();
  });
  presetSelect.addEventListener("change", () => { keep.preset = presetSelect.value; preview(); });
  kindSelect.addEventListener("change", onKind);
  deals.addEventListener("input", () => { keep.deals = deals.value; preview(); });
  isPrivate.addEventListener("change", () => { keep.private = isPrivate.checked; });
  isRated.addEventListener("change", () => { keep.rated = isRated.checked; });
  sit.addEventListener("change", () => { keep.sit = sit.checked; });
  botFill.addEventListener("change", () => { keep.bots = botFill.value; });
  onGame();

  const submit = h("button", { type: "submit", class: "primary", testid: "create-submit", text: t("lobby.create_submit") });
  /** "vom letzten Tisch" beside a control whose value the remembered last table set (issue 40, defect 8). */
  const carried = (field, shown) => (keep.remembered && shown ? h("span", { class: "carried-mark", testid: `carried-${field}`, text: t("lobby.carried_over") }) : null);
  return h(
    "form",
    {
      class: "card-panel create-form",
      "aria-labelledby": "create-title",
      onsubmit: async (event) => {
        event.preventDefault();
        error.textContent = "";
        const count = Number(deals.value);
        if (kindSelect.value === "free" && (!Number.isInteger(count) || count < 1 || count > 200)) {
          error.textContent = t("lobby.deals_invalid");
          deals.focus();
          return;
        }
        const body = limits.apply(requestBody());
        if (botFill.value) body.bots = botFill.value;
        if (learning.checked) body.learning = true; // the server asks for a seat and bots (422 "learning" otherwise)
        submit.disabled = true;
        try {
          const table = await api("/api/tables", { method: "POST", body });
          rememberTable({ game: body.game, preset: body.preset, kind: body.kind, deals: body.kind === "free" ? deals.value : null, private: body.private, rated: Boolean(body.rated), sit: sit.checked, bots: botFill.value, options: body.options });
          if (!me()) await refreshIdentity();
          location.hash = `#/table/${table.id}`;
        } catch (err) {
          error.textContent = errorMessage(err);
          options.markError(err.field);
        } finally {
          submit.disabled = false;
        }
      },
    },
    h("h2", { id: "create-title", text: t("lobby.create_title") }),
    keep.remembered
      ? h("p", { class: "muted small", testid: "lobby-remembered" }, t("lobby.remembered"), " ", h("button", { type: "button", class: "ghost small", testid: "lobby-forget", text: t("lobby.forget"), onclick: () => { forgetTable(); onForget(); } }))
      : null,
    h("div", { class: "form-grid" },
      h("label", { for: "create-game", text: t("lobby.game") }), h("div", {}, gameSelect, gameRules),
      h("label", { for: "create-preset", text: t("lobby.preset") }), presetSelect,
      h("label", { for: "create-kind", text: t("lobby.kind") }), h("div", { class: "with-mark" }, kindSelect, carried("kind", keep.kind === "list")),
      h("label", { for: "create-deals", text: t("lobby.deals") }), h("div", {}, h("div", { class: "with-mark" }, deals, carried("deals", Boolean(keep.deals))), dealsHint),
      h("label", { for: "create-bots", text: t("lobby.bots_fill") }), botFill,
      limits.rows,
    ),
    h("label", { class: "check" }, sit, " ", t("lobby.sit_down")),
    h("label", { class: "check" }, isPrivate, " ", t("lobby.private_hint"), carried("private", Boolean(keep.private))),
    h("label", { class: "check" }, isRated, " ", t("lobby.rated_hint"), " ", h("span", { class: "muted small", text: t("lobby.rated_accounts") })),
    h("label", { class: "check" }, learning, " ", t("learning.mode")),
    optionsBox,
    error,
    submit,
  );
}

/** The lobby page. */
export function mount(root) {
  let timer = null;
  let alive = true;
  let gamesData = null;
  let bots = [];
  const list = h("ul", { class: "table-list", testid: "table-list", "aria-live": "polite" });
  const status = h("p", { class: "muted small list-status" });
  let filter = "all";
  /** The last table's settings, remembered in this browser, start the create form. */
  function remembered() {
    const last = rememberedTable();
    if (!last) return {};
    return { game: last.game, preset: last.preset, kind: last.kind, deals: last.deals, private: last.private, rated: last.rated, sit: last.sit, bots: last.bots, options: last.options, optionsGame: last.game, remembered: true };
  }
  let keep = remembered();
  let people = null;
  const forget = () => {
    keep = {};
    render();
  };

  async function refresh() {
    if (!alive) return;
    try {
      const data = await api(`/api/tables?status=${filter}`);
      if (!alive) return;
      const tables = data.tables || [];
      tables.sort((a, b) => (a.status === b.status ? 0 : a.status === "open" ? -1 : 1));
      replace(list, tables.length ? tables.map((tbl) => tableRow(tbl, gamesData?.games || [])) : h("li", { class: "empty", text: t("lobby.no_tables") }));
      people?.refresh(tables);
      status.textContent = t("lobby.updated", { time: new Date().toLocaleTimeString() });
    } catch (error) {
      status.textContent = errorMessage(error);
    }
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (!document.hidden) await refresh();
      schedule();
    }, REFRESH_MS);
  }

  function render() {
    const filterSelect = h(
      "select",
      { "aria-label": t("lobby.filter"), onchange: (e) => { filter = e.target.value; refresh(); } },
      ["all", "open", "playing"].map((v) => h("option", { value: v, selected: v === filter, text: t(`lobby.filter_${v}`) })),
    );
    const identity = me();
    people = gamesData ? createPeoplePanel({ games: gamesData.games || [] }) : null;
    replace(
      root,
      h(
        "div",
        { class: "page lobby" },
        identity ? null : h("section", { class: "welcome" }, h("h1", { text: t("lobby.welcome") }), h("p", { text: t("lobby.welcome_text") }), loginPanel({ onDone: () => render() })),
        people?.element,
        h(
          "div",
          { class: "lobby-grid" },
          h(
            "section",
            { class: "card-panel tables-panel", "aria-labelledby": "tables-title" },
            h("div", { class: "panel-head" }, h("h2", { id: "tables-title", text: t("lobby.tables") }), filterSelect, h("button", { type: "button", class: "ghost small", text: t("lobby.refresh"), onclick: refresh })),
            list,
            status,
          ),
          gamesData ? createForm(gamesData, bots, keep, forget) : h("section", { class: "card-panel", text: t("common.loading") }),
        ),
      ),
    );
    refresh();
  }

  Promise.all([loadGames(), loadBots()])
    .then(([data, botList]) => {
      gamesData = data;
      bots = botList;
      if (alive) render();
    })
    .catch((error) => showToast(errorMessage(error), "error"));
  render();
  schedule();
  const onVisible = () => {
    if (!document.hidden) refresh();
  };
  document.addEventListener("visibilitychange", onVisible);
  return {
    unmount() {
      alive = false;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisible);
    },
    relabel: render,
  };
}
