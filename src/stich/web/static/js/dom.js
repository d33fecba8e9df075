// Small DOM helpers: build elements declaratively, without a framework.

/**
 * Create an element. `attrs` keys: `class`, `text`, `html` is not supported on
 * purpose (no injection), `on<Event>` adds a listener, `dataset` sets data-*,
 * `testid` sets data-testid, anything else becomes an attribute (false/null: left out).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
    else if (key === "text") el.textContent = String(value);
    else if (key === "testid") el.setAttribute("data-testid", value);
    else if (key === "dataset") for (const [k, v] of Object.entries(value)) { if (v !== null && v !== undefined) el.dataset[k] = String(v); }
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2).toLowerCase(), value);
    else if (key === "value") el.value = value;
    else if (key === "checked" || key === "disabled" || key === "selected" || key === "readOnly") el[key] = Boolean(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/** Append children (nodes, strings, arrays, null/false are skipped). */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace all children of `el`. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** Escape-free text setter that also tolerates null. */
export function setText(el, text) {
  el.textContent = text === null || text === undefined ? "" : String(text);
}

/** A debounced function: `fn` runs once, `ms` after the last call. */
export function debounce(fn, ms) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}
