// The single-page app: header, hash router, and the pages (lobby, login, table, replay, history, stats, ratings, profiles).

import { api } from "./api.js";
import { loadPacks } from "./cards.js";
import { initI18n, language, onLanguage, setLanguage, t } from "./i18n.js";
import { me, onIdentity, refreshIdentity, setIdentity } from "./store.js";
import { applyCardSize } from "./settings.js";
import { renderSettings } from "./pages/settings_popover.js";
import { installTouchHints } from "./touch_hints.js";
import { showToast } from "./toast.js";
import * as lobby from "./pages/lobby.js";
import * as login from "./pages/login.js";
import * as table from "./pages/table.js";
import * as replay from "./pages/replay.js";
import * as history from "./pages/history.js";
import * as stats from "./pages/stats.js";
import * as rules from "./pages/rules.js";
import * as account from "./pages/account.js";
import * as sheet from "./pages/sheet.js";
import * as leaderboard from "./pages/leaderboard.js";
import * as profile from "./pages/profile.js";
import * as tournaments from "./pages/tournaments.js";
import * as tournament from "./pages/tournament.js";

const ROUTES = [
  { name: "lobby", pattern: /^\/?$/, page: lobby },
  { name: "login", pattern: /^\/login$/, page: login },
  { name: "table", pattern: /^\/table\/([A-Za-z0-9_-]+)$/, page: table },
  { name: "replay", pattern: /^\/replay\/(\d+)$/, page: replay },
  { name: "history", pattern: /^\/history$/, page: history },
  { name: "stats", pattern: /^\/stats$/, page: stats },
  { name: "rules", pattern: /^\/rules\/([a-z_]+)$/, page: rules },
  { name: "account", pattern: /^\/account$/, page: account },
  { name: "sheet", pattern: /^\/sheet\/([A-Za-z0-9_-]+)$/, page: sheet },
  { name: "ratings", pattern: /^\/ratings(?:\/([a-z_]+))?$/, page: leaderboard },
  { name: "profile", pattern: /^\/players\/([^/?#]{1,200})$/, page: profile },
  { name: "tournaments", pattern: /^\/tournaments$/, page: tournaments },
  { name: "tournaments", pattern: /^\/tournament\/([A-Za-z0-9_-]+)$/, page: tournament },
];

let mounted = null;

/** Split the hash into path, captured parameters and query (`#/table/abc?invite=X`). */
export function parseHash(hash) {
  const raw = (hash || "").replace(/^#/, "");
  const [path, query = ""] = raw.split("?");
  return { path: path || "/", query: new URLSearchParams(query) };
}

let shownHash = null;

function route() {
  // A page may ask to stay (a running table warns that a bot will play for the one who leaves).
  if (shownHash !== null && location.hash !== shownHash && mounted?.confirmLeave && !mounted.confirmLeave()) {
    window.history.replaceState(null, "", shownHash || "#/");
    return;
  }
  shownHash = location.hash;
  const { path, query } = parseHash(location.hash);
  const root = document.getElementById("app");
  if (mounted?.unmount) mounted.unmount();
  mounted = null;
  root.replaceChildren();
  let found = ROUTES.find((r) => r.pattern.test(path));
  if (!found) found = ROUTES[0];
  const params = path.match(found.pattern)?.slice(1) ?? [];
  document.body.dataset.route = found.name;
  for (const link of document.querySelectorAll(".mainnav a")) {
    if (link.dataset.route === found.name) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  mounted = found.page.mount(root, { params, query }) || null;
  window.scrollTo(0, 0);
}

function renderHeader() {
  const identity = me();
  const name = document.querySelector('[data-testid="user-name"]');
  name.textContent = identity ? identity.name : "";
  name.title = identity ? (identity.guest ? t("user.guest_title") : t("user.account_title")) : "";
  name.classList.toggle("guest", Boolean(identity?.guest));
  document.querySelector('[data-testid="logout"]').hidden = !identity;
  document.querySelector('[data-testid="account-link"]').hidden = !identity || identity.guest;
  document.querySelector(".login-link").hidden = Boolean(identity);
  const lang = document.querySelector('[data-testid="lang-switch"]');
  lang.textContent = language() === "de" ? "EN" : "DE";
  lang.setAttribute("aria-label", t("lang.switch"));
}

async function logout() {
  try {
    await api("/api/auth/logout", { method: "POST" });
  } catch (error) {
    showToast(t("error.generic", { message: error.message }), "error");
  }
  setIdentity(null);
  location.hash = "#/login";
}

/** The settings popover closes with Escape, with a click or tap outside it, and when another page opens, as popovers do. */
function closeSettingsOnEscapeAndOutside() {
  const settings = document.querySelector("details.settings");
  if (!settings) return;
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && settings.open) {
      settings.open = false;
      settings.querySelector("summary")?.focus();
    }
  });
  document.addEventListener("pointerdown", (event) => {
    if (settings.open && !settings.contains(event.target)) settings.open = false;
  });
  window.addEventListener("hashchange", () => {
    settings.open = false; // another page: the popover does not stay over it
  });
}

const PING_MS = 30_000;

/** Tell the server every 30 s that a page of this person is open, so that the lobby shows them online (issue 44). */
function pingOnline() {
  const ping = () => {
    if (me()) api("/api/online", { method: "POST" }).catch(() => null);
  };
  ping();
  onIdentity((identity) => identity && ping());
  setInterval(ping, PING_MS);
}

async function boot() {
  await initI18n();
  const settingsPanel = document.querySelector(".settings-panel");
  renderSettings(settingsPanel);
  applyCardSize();
  installTouchHints();
  document.querySelector('[data-testid="lang-switch"]').addEventListener("click", () => setLanguage(language() === "de" ? "en" : "de"));
  document.querySelector('[data-testid="logout"]').addEventListener("click", logout);
  onIdentity(renderHeader);
  onLanguage(() => {
    renderHeader();
    renderSettings(settingsPanel);
    if (mounted?.relabel) mounted.relabel();
    else route();
  });
  await Promise.all([refreshIdentity({ onlyIfKnown: true }).catch(() => null), loadPacks()]);
  closeSettingsOnEscapeAndOutside();
  renderHeader();
  pingOnline();
  window.addEventListener("hashchange", route);
  route();
}

boot().catch((error) => {
  console.error(error);
  document.getElementById("app").textContent = `stich: ${error.message}`;
});
