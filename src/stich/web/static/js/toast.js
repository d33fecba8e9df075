// A short message at the bottom of the screen (errors, "link copied").

let timer = null;

/** How long each kind stays (ms): a warning or an error is read, not glimpsed. */
const SHOWN_MS = { info: 2500, warn: 8000, error: 6000 };

/** Show `text` for a few seconds; `kind` is "info", "warn" or "error". */
export function showToast(text, kind = "info") {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.dataset.kind = kind;
  el.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(() => {
    el.hidden = true;
  }, SHOWN_MS[kind] ?? SHOWN_MS.info);
}
