// The lobby remembers the last table a player created in this browser (localStorage): game, preset, kind of
// table, number of deals, options, private, rated, whether to sit down and which bots fill the seats. The next visit
// starts the create form from there.

const KEY = "stich.lastTable";
const FIELDS = ["game", "preset", "kind", "deals", "private", "sit", "bots", "options", "rated"];

/** The remembered settings (only the known fields), or null. */
export function rememberedTable() {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) || "null");
    if (!stored || typeof stored !== "object" || typeof stored.game !== "string") return null;
    return Object.fromEntries(FIELDS.filter((f) => stored[f] !== undefined && stored[f] !== null).map((f) => [f, stored[f]]));
  } catch {
    return null;
  }
}

/** Remember the settings of a table that was just created. */
export function rememberTable(settings) {
  const kept = Object.fromEntries(FIELDS.filter((f) => settings[f] !== undefined && settings[f] !== null).map((f) => [f, settings[f]]));
  localStorage.setItem(KEY, JSON.stringify(kept));
}

/** Forget them (the player resets the form). */
export function forgetTable() {
  localStorage.removeItem(KEY);
}
