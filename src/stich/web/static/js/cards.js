// Cards: which pack a game is drawn with, card names for people (alt texts), and card elements.
// Images come from the server (GET /cards/{pack}/{card}.svg); without them a text face is drawn.

import { apiCached } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { setting } from "./store.js";

/** Packs by game when the server does not say (GET /api/cards/packs). */
const FALLBACK_PACKS = { doppelkopf: "french", dobbm: "german", tapp_tarock: "tarock", droggn: "tarock", dappen: "cego" };
const SUIT_SYMBOLS = { C: "♣", S: "♠", H: "♥", D: "♦" };
const GERMAN_SYMBOLS = { C: "E", S: "G", H: "H", D: "S" };
const ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "XXII"];

let packInfo = { defaults: {}, german: {}, version: "", available: false };

/** Read the card packs the server offers; without the endpoint, cards are drawn as text faces. */
export async function loadPacks() {
  let data = null;
  try {
    data = await apiCached("/api/cards/packs", { optional: true });
  } catch {
    data = null;
  }
  if (!data) {
    packInfo = { defaults: {}, german: {}, version: "", available: false };
    return packInfo;
  }
  const defaults = { ...(data.defaults || data.default_packs || data.games || {}) };
  const german = {};
  for (const [game, value] of Object.entries(data.games || {})) if (value && typeof value === "object" && value.german) german[game] = value.german;
  const packs = Array.isArray(data.packs) ? data.packs : Object.entries(data.packs || {}).map(([name, pack]) => ({ name, ...pack }));
  for (const pack of packs) {
    for (const game of pack.games || pack.default_for || []) if (!defaults[game]) defaults[game] = pack.name;
  }
  for (const [game, value] of Object.entries(defaults)) if (typeof value === "object" && value) defaults[game] = value.pack || value.default;
  packInfo = { defaults, german, version: data.version ? String(data.version) : "", available: true };
  return packInfo;
}

/** The pack a game's cards are drawn with: the game's default, or German suits for Doppelkopf when chosen. */
export function packFor(gameName) {
  if (gameName === "doppelkopf" && setting("germanSuits")) return packInfo.german[gameName] || "german";
  return packInfo.defaults[gameName] || FALLBACK_PACKS[gameName] || "french";
}

/** The game's name from a canonical game string (`doppelkopf(preset=ddv)` -> `doppelkopf`). */
export function gameNameOf(canonical) {
  return String(canonical || "").split("(")[0];
}

/** Split a card text into suit letter and rank token (`H10` -> `["H", "10"]`). */
export function parseCard(text) {
  return [text.charAt(0), text.slice(1)];
}

/** A card's name for people, in the current language (alt text, aria label, tooltips). */
export function cardName(text, gameName, pack) {
  const [suit, rank] = parseCard(text);
  if (suit === "T") {
    const special = t(`trump.${gameName}.${text}`, {}, "") || t(`trump.${text}`, {}, "");
    const number = ROMAN[Number(rank)] || rank;
    return special ? t("card.trump_named", { name: special, number }) : t("card.trump", { number });
  }
  const german = pack === "german";
  const suitName = t(`suit.${german ? "german" : "french"}.${suit}`, {}, suit);
  const rankName = (german && t(`rank.german.${rank}`, {}, "")) || t(`rank.${rank}`, {}, rank);
  return t("card.name", { suit: suitName, rank: rankName });
}

/** The short face text of a card for the drawn fallback (`10♥`, `XXI`). */
export function cardFace(text, pack) {
  const [suit, rank] = parseCard(text);
  if (suit === "T") return { index: ROMAN[Number(rank)] || rank, pip: "", red: false, trump: true };
  const german = pack === "german";
  const label = german ? t(`rank.german_short.${rank}`, {}, rank) : t(`rank.short.${rank}`, {}, rank);
  return { index: label, pip: german ? GERMAN_SYMBOLS[suit] : SUIT_SYMBOLS[suit], red: suit === "H" || suit === "D", trump: false };
}

/** `?v=<art version>`: the server lets versioned card URLs be cached for good. */
function versionQuery() {
  return packInfo.version ? `?v=${encodeURIComponent(packInfo.version)}` : "";
}

function cardImage(url, alt, fallback) {
  if (!packInfo.available) return null;
  const img = h("img", { src: url, alt, draggable: "false", decoding: "async" });
  img.addEventListener("error", () => fallback.classList.add("noimg"), { once: true });
  return img;
}

/*
 * A card element is the element itself (its box is what is clicked: in a fanned hand only the visible strip)
 * holding a .card-visual, the whole card drawn at full size (which may reach under the next card).
 */

/**
 * A card element. `tag`: "button" in a hand (clickable when legal), "div" elsewhere.
 * Carries data-testid="card", data-card and data-legal for the browser tests.
 */
export function cardElement(text, { gameName, pack, legal = false, tag = "div", testid = "card", onClick = null, extraClass = "" } = {}) {
  const name = cardName(text, gameName, pack);
  const face = cardFace(text, pack);
  const attrs = {
    class: ["card", extraClass, face.red && "red", face.trump && "trump", packInfo.available ? "" : "noimg"],
    testid,
    dataset: { card: text, legal: legal ? "true" : "false" },
    title: name,
  };
  if (tag === "button") {
    attrs.type = "button";
    attrs["aria-label"] = name;
  } else {
    attrs.role = "img";
    attrs["aria-label"] = name;
  }
  const el = h(tag, attrs);
  const visual = h("span", { class: "card-visual" });
  const drawn = h("span", { class: "face", "aria-hidden": "true" }, h("span", { class: "idx", text: face.index }), h("span", { class: "pip", text: face.pip }));
  const img = cardImage(`/cards/${pack}/${encodeURIComponent(text)}.svg${versionQuery()}`, name, el);
  if (img) visual.append(img);
  visual.append(drawn);
  el.append(visual);
  if (onClick) el.addEventListener("click", onClick);
  return el;
}

/** A face-down card (another player's hand, a talon nobody has seen). */
export function cardBack(pack, extraClass = "") {
  const el = h("div", { class: ["card", "back", extraClass, packInfo.available ? "" : "noimg"], "aria-hidden": "true" });
  const visual = h("span", { class: "card-visual" });
  const img = cardImage(`/cards/${pack}/back.svg${versionQuery()}`, "", el);
  if (img) visual.append(img);
  el.append(visual);
  return el;
}
