// A player's rating history as an SVG line plot, drawn in the browser (no chart library): one point per rated deal.

const SVG = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * The plot of `points` (`[{rating, outcome}]`, oldest first) from the starting rating `start`.
 * The y axis spans the lowest and highest rating (and the start); a won deal's point is filled, a lost one hollow.
 * `label` names the plot for screen readers.
 */
export function ratingPlot(points, start, label) {
  const width = 640;
  const height = 220;
  const pad = { left: 44, right: 12, top: 12, bottom: 24 };
  const values = [start, ...points.map((p) => p.rating)];
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 1) {
    high += 0.5;
    low -= 0.5;
  }
  const x = (i) => pad.left + ((width - pad.left - pad.right) * i) / Math.max(1, values.length - 1);
  const y = (v) => pad.top + ((height - pad.top - pad.bottom) * (high - v)) / (high - low);
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-plot", role: "img", "aria-label": label, "data-testid": "rating-plot" });
  for (const v of [low, (low + high) / 2, high]) {
    svg.append(el("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: "grid" }));
    svg.append(el("text", { x: pad.left - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, v.toFixed(1)));
  }
  svg.append(el("text", { x: width - pad.right, y: height - 6, "text-anchor": "end", class: "axis" }, String(points.length)));
  svg.append(el("text", { x: pad.left, y: height - 6, class: "axis" }, "0"));
  const path = values.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  svg.append(el("path", { d: path, class: "line", "data-testid": "rating-line" }));
  points.forEach((p, i) => {
    const dot = el("circle", { cx: x(i + 1), cy: y(p.rating), r: 3.5, class: ["dot", p.outcome].join(" "), "data-testid": "rating-point" });
    dot.append(el("title", {}, `${i + 1}: ${p.rating.toFixed(2)}`));
    svg.append(dot);
  });
  return svg;
}
