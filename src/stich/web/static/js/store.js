// Shared client state: who is logged in, and the player's settings (kept in localStorage).

import { api, ApiError } from "./api.js";

const listeners = new Set();
let identity = null;

/** The current identity `{name, guest}`, or null without a session. */
export function me() {
  return identity;
}

const HAD_SESSION = "stich.hadSession";

/** Remember whether this browser has a session, so that a first anonymous visit does not ask (and log a 401). */
function remember() {
  if (identity) localStorage.setItem(HAD_SESSION, "1");
  else localStorage.removeItem(HAD_SESSION);
}

/**
 * Ask the server who we are (GET /api/auth/me); null without a session.
 * With `onlyIfKnown`, a browser that never had a session is taken to have none without asking.
 */
export async function refreshIdentity({ onlyIfKnown = false } = {}) {
  if (onlyIfKnown && !localStorage.getItem(HAD_SESSION)) {
    identity = null;
    notify();
    return identity;
  }
  try {
    identity = await api("/api/auth/me");
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    identity = null;
  }
  remember();
  notify();
  return identity;
}

/** Set the identity after login, register, guest or logout. */
export function setIdentity(value) {
  identity = value;
  remember();
  notify();
}

/** Call `fn(identity)` whenever the identity changes. */
export function onIdentity(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function notify() {
  for (const fn of listeners) fn(identity);
}

// ------------------------------------------------------------------ settings
const SETTINGS_KEY = "stich.settings";
const DEFAULTS = { germanSuits: false, sound: false };
const settingListeners = new Set();

function readSettings() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

/** One setting's value (`germanSuits`: German-suited cards for Doppelkopf). */
export function setting(name) {
  return readSettings()[name];
}

/** Change and persist a setting, then tell every listener. */
export function setSetting(name, value) {
  const all = readSettings();
  all[name] = value;
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(all));
  for (const fn of settingListeners) fn(name, value);
}

/** Call `fn(name, value)` after every settings change. */
export function onSetting(fn) {
  settingListeners.add(fn);
  return () => settingListeners.delete(fn);
}

/** Every setting kept in this browser (the account page adds them to the data download). */
export function allSettings() {
  return readSettings();
}
