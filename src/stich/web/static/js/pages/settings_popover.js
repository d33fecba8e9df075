// The settings popover of the header (⚙): German suits, and the table settings a player keeps
// (sort order, card size, automatic play of a single card, bot speed, sounds, trick to its winner).
// Every change is stored at once (localStorage) and the table redraws; it closes on Escape and outside clicks.

import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { setSetting, setting } from "../store.js";
import { TABLE_SETTINGS, setTableSetting, tableSetting } from "../settings.js";
import { playTone } from "../sounds.js";

function choice(name, testid) {
  const id = `setting-${testid}`;
  return h(
    "label",
    { class: "setting-row", for: id },
    h("span", { text: t(`settings.${name}`) }),
    h(
      "select",
      { id, testid: `setting-${testid}`, onchange: (e) => setTableSetting(name, e.target.value) },
      TABLE_SETTINGS[name].choices.map((value) => h("option", { value, selected: tableSetting(name) === value, text: t(`settings.${name}.${value}`) })),
    ),
  );
}

function flag(name, testid, onOn = null) {
  const box = h("input", {
    type: "checkbox",
    id: `setting-${testid}`,
    testid: `setting-${testid}`,
    checked: tableSetting(name),
    onchange: (e) => {
      setTableSetting(name, e.target.checked);
      if (e.target.checked && onOn) onOn();
    },
  });
  return h("label", { class: "check" }, box, " ", h("span", { text: t(`settings.${name}`) }));
}

/** Draw the settings into the popover's panel (again after a change of language). */
export function renderSettings(panel) {
  const german = h("input", { type: "checkbox", id: "setting-german-suits", checked: Boolean(setting("germanSuits")), onchange: (e) => setSetting("germanSuits", e.target.checked) });
  replace(
    panel,
    h("h2", { class: "settings-title", text: t("settings.title") }),
    h("label", { class: "check" }, german, " ", h("span", { text: t("settings.german_suits") })),
    h("h3", { class: "settings-sub", text: t("settings.table") }),
    choice("sortOrder", "sort"),
    choice("cardSize", "card-size"),
    choice("botSpeed", "bot-speed"),
    flag("autoPlay", "auto-play"),
    flag("sound", "sound", () => playTone("turn")), // turning sounds on plays one, so that the player hears what it is
    flag("trickToWinner", "trick-to-winner"),
    h("p", { class: "muted small", text: t("settings.kept_here") }),
  );
}
