// A short message at the bottom of the screen (errors, "link copied").

let timer = null;

/** Show `text` for a few seconds; `kind` is "info" or "error". */
export function showToast(text, kind = "info") {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.dataset.kind = kind;
  el.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(() => {
    el.hidden = true;
  }, kind === "error" ? 6000 : 2500);
}
