// Games and bots as the server offers them (GET /api/games, GET /api/bots), with names for people.

import { apiCached, apiOptional } from "./api.js";
import { t } from "./i18n.js";

/** `{games: [...], bots: [...]}` from GET /api/games (fetched once). */
export function loadGames() {
  return apiCached("/api/games");
}

/** The game's title in the current language. */
export function gameTitle(name, fallback) {
  return t(`game.${name}`, {}, fallback || name);
}

/** The preset of a canonical game string (`doppelkopf(preset=ddv,nines=false)` -> `ddv`), or null. */
export function presetOf(canonical) {
  const match = /preset=([^,)]+)/.exec(String(canonical || ""));
  return match ? match[1] : null;
}

/** Options other than the preset in a canonical game string, as `key=value` texts. */
export function optionsOf(canonical) {
  const inner = /\((.*)\)$/.exec(String(canonical || ""));
  if (!inner) return [];
  return inner[1].split(",").filter((part) => part && !part.startsWith("preset="));
}

/** A preset's name for people. */
export function presetTitle(game, preset) {
  return t(`preset.${game}.${preset}`, {}, String(preset).replaceAll("_", " "));
}

/**
 * Bot specs the lobby offers: GET /api/bots when the server has it, else the bot names of GET /api/games.
 * Each entry: `{spec, label, seconds, strongest}` (`strongest`: the games in which it is the ladder's strongest bot).
 */
export async function loadBots() {
  let data = null;
  try {
    data = await apiOptional("/api/bots");
  } catch {
    data = null;
  }
  const list = Array.isArray(data) ? data : data?.bots;
  if (Array.isArray(list) && list.length) {
    return list.map((entry) =>
      typeof entry === "string"
        ? { spec: entry, label: null, seconds: null, strongest: [] }
        : { spec: entry.spec || entry.name, label: entry.label || null, seconds: entry.seconds ?? entry.seconds_per_decision ?? null, strongest: entry.strongest || [] },
    );
  }
  const games = await loadGames();
  return (games.bots || ["heuristic", "random"]).map((spec) => ({ spec, label: null, seconds: null, strongest: [] }));
}

/** A bot spec's name for people (`pimc:level=2` -> "Search (PIMC), level 2"). */
export function botTitle(spec, serverLabel) {
  const [name, options = ""] = String(spec).split(":");
  const level = /level=(\d+)/.exec(options)?.[1];
  const key = level ? `bot.${name}.level` : `bot.${name}`;
  return t(key, { level: level ?? "" }, serverLabel || spec);
}

/** The bot spec in a record's player name (`heuristic bot` -> `heuristic`), or null for a person. */
export function botSpecOfName(name) {
  const match = /^(\S+) bot$/.exec(String(name || ""));
  return match ? match[1] : null;
}

/** The name the server gives the seats of a deleted account (stich.web.guards.names.DELETED_PLAYER; nobody may take it). */
const DELETED_PLAYER = "deleted player";

/** A seat's name for people: a person's own name, "gelöschter Spieler" for a deleted account, or "Bot 2" for a bot. */
export function playerName(name, index, bot = null) {
  if (bot) return t("table.bot_n", { n: index + 1 });
  const spec = botSpecOfName(name);
  if (spec) return t("table.bot_n", { n: index + 1 });
  if (name === DELETED_PLAYER) return t("player.deleted");
  return name || t("table.seat_n", { n: index + 1 });
}

/** " (~2 s per move)" for a bot that thinks noticeably, else nothing. */
export function botSeconds(seconds) {
  if (typeof seconds !== "number" || seconds < 0.05) return "";
  return ` (${t("bot.seconds", { s: seconds < 1 ? seconds.toFixed(1) : String(Math.round(seconds)) })})`;
}

/** " — strongest in this game" after a bot offer that is the ladder's strongest in `game`, else "". */
export function botStrongest(bot, game) {
  return game && (bot.strongest || []).includes(game) ? ` — ${t("bot.strongest")}` : "";
}

/** Sort bots so that the default (heuristic) comes first, then by the server's order. */
export function defaultBot(bots) {
  return bots.find((b) => b.spec === "heuristic")?.spec || bots[0]?.spec || "heuristic";
}
