// Translations: every text the user reads comes from i18n/en.json or i18n/de.json.
// The language is switchable at any time and kept in localStorage.

const STORAGE_KEY = "stich.lang";
export const LANGUAGES = ["de", "en"];

const catalogs = {};
let current = "en";
const listeners = new Set();

/** The language to start with: the stored choice, else the browser's (German or English). */
function initialLanguage() {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (LANGUAGES.includes(stored)) return stored;
  const browser = (navigator.language || "en").slice(0, 2).toLowerCase();
  return LANGUAGES.includes(browser) ? browser : "en";
}

/** The texts of a language: the interface (`{lang}.json`), the games' rules options (`options.{lang}.json`) and rules pages (`rules.{lang}.json`). */
async function load(lang) {
  if (!catalogs[lang]) {
    const parts = await Promise.all(
      [`/static/i18n/${lang}.json`, `/static/i18n/options.${lang}.json`, `/static/i18n/rules.${lang}.json`].map(async (url) => {
        const response = await fetch(url, { cache: "no-cache" });
        if (!response.ok) throw new Error(`i18n ${url}: HTTP ${response.status}`);
        return response.json();
      }),
    );
    catalogs[lang] = Object.assign({}, ...parts);
  }
  return catalogs[lang];
}

/** Load the catalogs and set the starting language. */
export async function initI18n() {
  await load("en");
  await setLanguage(initialLanguage(), { silent: true });
}

/** The current language code. */
export function language() {
  return current;
}

/** Switch language, persist it, translate the static page and tell every listener. */
export async function setLanguage(lang, { silent = false } = {}) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  await load(lang);
  current = lang;
  localStorage.setItem(STORAGE_KEY, lang);
  document.documentElement.lang = lang;
  translateStatic(document);
  if (!silent) for (const fn of listeners) fn(lang);
}

/** Call `fn(lang)` after every language switch; returns a function that stops it. */
export function onLanguage(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Whether a key exists in the current (or English) catalog. */
export function has(key) {
  return key in (catalogs[current] || {}) || key in (catalogs.en || {});
}

/**
 * The text of `key` in the current language, with `{name}` placeholders filled from `params`.
 * Falls back to English, then to `fallback` (if given), then to the key itself.
 */
export function t(key, params = {}, fallback) {
  let text = catalogs[current]?.[key] ?? catalogs.en?.[key];
  if (text === undefined) text = fallback !== undefined ? fallback : key;
  return String(text).replace(/\{(\w+)\}/g, (match, name) => (name in params ? String(params[name]) : match));
}

/** Translate the elements of the static page marked with data-i18n / data-i18n-title / data-i18n-placeholder. */
export function translateStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}

/** A number in the current language's format. */
export function formatNumber(value) {
  return typeof value === "number" ? value.toLocaleString(current === "de" ? "de-DE" : "en-GB") : String(value ?? "");
}

/** A date-time in the current language's format. */
export function formatDate(text) {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return String(text ?? "");
  return date.toLocaleString(current === "de" ? "de-DE" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
}
