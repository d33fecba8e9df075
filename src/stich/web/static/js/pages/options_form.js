// The rules options of a game as a form, generated from GET /api/games (types, choices, limits, docs).
// An untouched option is left to the preset; only the options the player changes are sent.

import { h } from "../dom.js";
import { language, t } from "../i18n.js";

// Every option's name, its explanation and its choices come from i18n/options.{de,en}.json, keyed by game and
// option name (a test fails when one is missing); in English the explanation is the server's own text.

function optionLabel(game, info) {
  return t(`option.${game}.${info.name}`, {}, info.name.replaceAll("_", " "));
}

function optionDoc(game, info) {
  const server = String(info.doc || "").replace(/^\[VAR\]\s*/, "");
  return language() === "en" ? server : t(`optdoc.${game}.${info.name}`, {}, server);
}

function choiceLabel(game, info, choice) {
  return t(`choice.${game}.${info.name}.${choice}`, {}, String(choice).replaceAll("_", " "));
}

function control(game, info, id) {
  const preset = t("options.preset_value");
  if (info.type === "bool") {
    const select = h("select", { id }, h("option", { value: "", text: preset }), h("option", { value: "true", text: t("options.yes") }), h("option", { value: "false", text: t("options.no") }));
    return { element: select, value: () => (select.value === "" ? undefined : select.value === "true"), set: (v) => { select.value = v === true ? "true" : v === false ? "false" : ""; } };
  }
  if (info.type === "int") {
    const input = h("input", { id, type: "number", step: "1", inputmode: "numeric", placeholder: preset, min: info.min ?? null, max: info.max ?? null });
    return {
      element: input,
      value: () => {
        if (input.value === "") return undefined;
        const number = Number(input.value);
        return Number.isInteger(number) ? number : input.value;
      },
      set: (v) => { input.value = v === undefined || v === null ? "" : String(v); },
    };
  }
  if (info.type === "set" && Array.isArray(info.choices)) {
    const override = h("input", { type: "checkbox", id });
    const boxes = info.choices.map((choice) => {
      const box = h("input", { type: "checkbox", value: choice, checked: Array.isArray(info.default) && info.default.includes(choice) });
      return { box, label: h("label", { class: "check small" }, box, " ", choiceLabel(game, info, choice)) };
    });
    const list = h("div", { class: "set-choices", hidden: true }, boxes.map((b) => b.label));
    override.addEventListener("change", () => {
      list.hidden = !override.checked;
    });
    return {
      element: h("div", {}, h("label", { class: "check small" }, override, " ", t("options.override")), list),
      value: () => (override.checked ? boxes.filter((b) => b.box.checked).map((b) => b.box.value) : undefined),
      set: (v) => {
        override.checked = Array.isArray(v);
        list.hidden = !override.checked;
        if (Array.isArray(v)) for (const b of boxes) b.box.checked = v.includes(b.box.value);
      },
    };
  }
  if (Array.isArray(info.choices)) {
    const select = h("select", { id }, h("option", { value: "", text: preset }), info.choices.map((c) => h("option", { value: c, text: choiceLabel(game, info, c) })));
    return { element: select, value: () => (select.value === "" ? undefined : select.value), set: (v) => { select.value = info.choices.includes(v) ? v : ""; } };
  }
  const input = h("input", { id, placeholder: preset, maxlength: "200" });
  return { element: input, value: () => (input.value === "" ? undefined : input.value), set: (v) => { input.value = v === undefined || v === null ? "" : String(v); } };
}

/** The options form of `game` (an entry of GET /api/games): `{element, values(), setValues(values), markError(field)}`. */
/** The rule sections of an option ("1.3, 8.2"), without the project's own references ("decision 0027", "A-22"), which
 * mean nothing to a player (issue 40, defect 9). */
function dossierSections(section) {
  return (section || "").split(",").map((part) => part.trim()).filter((part) => /^\d/.test(part)).join(", ");
}

export function optionsForm(game) {
  const rows = [];
  const controls = {};
  for (const info of game.options || []) {
    const id = `opt-${game.name}-${info.name}`;
    const c = control(game.name, info, id);
    controls[info.name] = c;
    const variant = String(info.doc || "").startsWith("[VAR]");
    rows.push(
      h(
        "div",
        { class: ["option-row", variant && "variant"], dataset: { option: info.name } },
        h("label", { for: id, class: "option-name" }, optionLabel(game.name, info), dossierSections(info.section) ? h("span", { class: "muted small", text: ` §${dossierSections(info.section)}` }) : null),
        c.element,
        h("p", { class: "option-doc muted small", text: optionDoc(game.name, info) }),
      ),
    );
  }
  const element = h(
    "details",
    { class: "options-form" },
    h("summary", { text: t("options.title", { count: rows.length }) }),
    h("p", { class: "muted small", text: t("options.hint") }),
    h("div", { class: "option-rows" }, rows),
  );
  return {
    element,
    values() {
      const out = {};
      for (const [name, c] of Object.entries(controls)) {
        const value = c.value();
        if (value !== undefined) out[name] = value;
      }
      return out;
    },
    /** Set the options the player chose before (the lobby remembers the last table); unknown names are ignored. */
    setValues(values) {
      for (const [name, value] of Object.entries(values || {})) controls[name]?.set(value);
      if (Object.keys(values || {}).some((name) => controls[name])) element.open = true;
    },
    markError(field) {
      for (const row of element.querySelectorAll(".option-row")) row.classList.remove("error");
      const name = String(field || "").startsWith("options.") ? field.slice(8) : null;
      if (!name) return;
      const row = element.querySelector(`.option-row[data-option="${CSS.escape(name)}"]`);
      if (row) {
        element.open = true;
        row.classList.add("error");
        row.querySelector("select, input")?.focus();
      }
    },
  };
}
